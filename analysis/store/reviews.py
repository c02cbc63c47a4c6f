"""Review annotations in the store: rows of a :class:`~analysis.review.GameReview`, and the
``istaka analyze`` run that annotates every game not yet annotated by the current solver version.

Annotations are keyed by ``(game, checksum, version)``: a game replaced with other content, or
a new :data:`analysis.review.SOLVER_VERSION`, is annotated again; everything else is skipped.
A game's annotation rows are written in one transaction with its ``review_games`` row, so a
killed run leaves whole games or none.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import duckdb

from analysis.game import GameLog, bounded_map, process_pool
from analysis.game import replay_game
from analysis.review import (DEEP_BUDGET, DEEP_VERSION, SOLVER_VERSION, Choice, Decision, GameReview, HandReview, Mistake,
                             review_game)

from .queries import load_gamelog

if TYPE_CHECKING:
    from .cluster import Cluster

REVIEW_TABLES = ("review_choices", "review_mistakes", "review_decisions", "review_games")
DEPTHS = ("quick", "deep")


@dataclass
class Annotated:
    """One game's annotation rows (made in a worker process)."""

    game: str
    checksum: str
    seconds: float
    decisions: list[tuple[Any, ...]]
    mistakes: list[tuple[Any, ...]]
    error: str | None = None
    choices: list[tuple[Any, ...]] = field(default_factory=list)
    depth: str = "quick"
    version: str = SOLVER_VERSION

    @property
    def cost(self) -> int:
        return sum(int(m[9]) for m in self.mistakes)

    @property
    def cost_points(self) -> float:
        """Expected points lost (deep), else the quick pass's cost."""
        if self.depth == "deep":
            return float(sum(c[14] for c in self.choices))
        return float(self.cost)

    @property
    def graded(self) -> int:
        """Decisions graded: a deep pass's forced ones are recorded, not graded."""
        return sum(1 for c in self.choices if c[20] is None) if self.depth == "deep" else len(self.decisions)


def rows(gr: GameReview) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(review_decisions rows, review_mistakes rows) in the migration's column order."""
    dec, mis = [], []
    for d in gr.decisions:
        name = gr.players[d.seat]
        dec.append((gr.game, d.ord, d.hand, d.seat, name, d.turn, d.start, d.end, d.line, d.choice, d.take_opens,
                    d.opened_before, d.exposure_played, d.exposure_best, round(d.cost), d.agrees, len(d.mistakes),
                    json.dumps(d.played, ensure_ascii=False, default=str),
                    json.dumps(d.best, ensure_ascii=False, default=str), float(d.cost)))
        for m in d.mistakes:
            mis.append((gr.game, d.ord, d.hand, m.seat, gr.players[m.seat], d.turn, m.step, m.line, m.category, m.cost,
                        m.severity, json.dumps(m.detail, ensure_ascii=False, default=str)))
    return dec, mis


def choice_rows(gr: GameReview) -> list[tuple[Any, ...]]:
    """review_choices rows (the deep review's decisions) in the migration's column order."""
    out = []
    for d in gr.decisions:
        for c in d.choices:
            out.append((gr.game, d.ord, d.hand, d.seat, gr.players[d.seat], d.turn, c.kind, c.step, c.line, c.played,
                        c.best, float(c.expected_played), float(c.expected_best), float(c.se), float(c.cost),
                        c.category, json.dumps(c.candidates, ensure_ascii=False, default=str),
                        json.dumps(c.played_events, ensure_ascii=False, default=str),
                        None if c.ci is None else float(c.ci), int(c.worlds), c.forced,
                        None if c.reason is None else json.dumps(c.reason, ensure_ascii=False, default=str)))
    return out


def annotate(g: GameLog, checksum: str, depth: str = "quick", budget: float = DEEP_BUDGET,
             worlds: int | None = None) -> Annotated:
    """Replay and review one game (pure: runs in worker processes). ``depth``: ``quick`` (the exact
    checks) or ``deep`` (every decision in expected points; ``budget`` seconds per decision for the
    ranking pass, ``worlds`` fixed pricing worlds, default the evaluator's PRICE_WORLDS)."""
    t0 = time.perf_counter()
    version = DEEP_VERSION if depth == "deep" else SOLVER_VERSION
    try:
        res = replay_game(g, keep_steps=True)
        if depth == "deep":
            from analysis.review.deep import deep_review_game  # the evaluator loads only for a deep pass

            gr = deep_review_game(res, budget=budget) if worlds is None else \
                deep_review_game(res, budget=budget, worlds=worlds)
        else:
            gr = review_game(res)
    except Exception as e:  # noqa: BLE001  (a solver bug must not stop a whole run: the game is reported)
        return Annotated(g.id, checksum, time.perf_counter() - t0, [], [], f"{type(e).__name__}: {e}", depth=depth,
                         version=version)
    dec, mis = rows(gr)
    return Annotated(g.id, checksum, time.perf_counter() - t0, dec, mis, choices=choice_rows(gr), depth=depth,
                     version=version)


def _annotate_remote(args: tuple[Any, ...]) -> Annotated:
    return annotate(*args)


def pending(con: duckdb.DuckDBPyConnection, version: str = SOLVER_VERSION, force: bool = False,
            depth: str = "quick") -> list[tuple[str, str]]:
    """(game, checksum) of every game not yet annotated by ``version`` (all of them with ``force``).

    A quick pass leaves a game with a deep annotation of its current content alone; a deep pass
    redoes every game whose annotation is quick or of another deep version."""
    if depth == "deep":
        version = DEEP_VERSION if version == SOLVER_VERSION else version
        cond = "r.depth IS DISTINCT FROM 'deep' OR r.version <> ?"
    else:
        cond = "(r.depth IS DISTINCT FROM 'deep' AND r.version <> ?)"
    return [(r[0], r[1]) for r in con.execute(f"""
        SELECT g.game, g.checksum FROM games g LEFT JOIN review_games r USING (game)
        WHERE ? OR r.game IS NULL OR r.checksum <> g.checksum OR {cond}
        ORDER BY g.started NULLS LAST, g.game""", [force, version]).fetchall()]  # cond: a constant


DECISION_COLUMNS = ("game", "ord", "hand", "seat", "player", "turn", "step", "end_step", "line", "choice",
                    "take_opens", "opened_before", "exposure_played", "exposure_best", "cost", "agrees", "mistakes",
                    "played", "best", "cost_points")
CHOICE_COLUMNS = ("game", "ord", "hand", "seat", "player", "turn", "kind", "step", "line", "played", "best",
                  "expected_played", "expected_best", "se", "cost", "category", "candidates", "played_events",
                  "ci", "worlds", "forced", "reason")
MISTAKE_COLUMNS = ("game", "ord", "hand", "seat", "player", "turn", "step", "line", "category", "cost", "severity",
                   "detail")


def _insert(con: duckdb.DuckDBPyConnection, table: str, cols: Sequence[str], rs: list[tuple[Any, ...]]) -> None:
    """Many rows at once through Arrow (executemany is row by row)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    data = {c: pa.array(list(v)) for c, v in zip(cols, zip(*rs))}
    con.register("_istaka_review", pa.table(data))
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _istaka_review")  # constant name
    finally:
        con.unregister("_istaka_review")


def write(con: duckdb.DuckDBPyConnection, batch: Sequence[Annotated], version: str = SOLVER_VERSION) -> None:
    """Replace the annotations of these games, all in one transaction."""
    ok = [a for a in batch if a.error is None]
    if not ok:
        return
    ids = [a.game for a in ok]
    con.execute("BEGIN TRANSACTION")
    try:
        for table in REVIEW_TABLES:  # constant names
            con.execute(f"DELETE FROM {table} WHERE game IN (SELECT unnest(?::VARCHAR[]))", [ids])
        for table, cols, rs in (("review_decisions", DECISION_COLUMNS, [r for a in ok for r in a.decisions]),
                                ("review_mistakes", MISTAKE_COLUMNS, [r for a in ok for r in a.mistakes]),
                                ("review_choices", CHOICE_COLUMNS, [r for a in ok for r in a.choices])):
            if rs:
                _insert(con, table, cols, rs)
        now = datetime.now()
        con.executemany("INSERT INTO review_games (game, checksum, version, analyzed_at, seconds, decisions, mistakes,"
                        " cost, depth, graded, cost_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [(a.game, a.checksum, a.version if a.version else version, now, a.seconds, len(a.decisions),
                          len(a.mistakes), a.cost, a.depth, a.graded, a.cost_points) for a in ok])
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # a failed COMMIT has already ended the transaction
            con.execute("ROLLBACK")
        raise


WRITE_ERRORS = (duckdb.Error, OverflowError, ValueError, TypeError)  # pyarrow's ArrowInvalid is a ValueError


def write_each(con: duckdb.DuckDBPyConnection, batch: Sequence[Annotated]) -> dict[str, str]:
    """:func:`write` the batch; when that fails, each game in a transaction of its own, so one game
    whose numbers the review tables cannot hold is reported and never stops the others.
    Returns {game: why} for the games not written."""
    try:
        write(con, batch)
        return {}
    except WRITE_ERRORS:
        pass
    failed: dict[str, str] = {}
    for a in batch:
        if a.error is not None:
            continue
        try:
            write(con, [a])
        except WRITE_ERRORS as e:
            failed[a.game] = f"could not be stored: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return failed


@dataclass
class AnalyzeSummary:
    games: int = 0
    annotated: int = 0
    skipped: int = 0
    failed: int = 0
    decisions: int = 0
    mistakes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # summed per-game time in the workers
    errors: list[str] | None = None

    def line(self) -> str:
        per = self.cpu_seconds / self.annotated if self.annotated else 0.0
        return (f"{self.games} games: {self.annotated} annotated ({self.decisions} decisions, {self.mistakes} "
                f"mistakes), {self.skipped} already annotated by {SOLVER_VERSION}, {self.failed} failed; "
                f"{self.seconds:.1f}s ({per:.2f}s per game per core)")


def _results(todo: Iterable[tuple[Any, ...]], total: int, jobs: int, cluster: Cluster | None = None,
             progress: bool = False,
             task: Callable[[tuple[Any, ...]], Annotated] = _annotate_remote) -> Iterator[Annotated]:
    """``task`` over every (game, checksum): here, in ``jobs`` processes, or one game per cluster
    task. ``todo`` is read as the work goes (a few games per worker out at once), never whole."""
    if cluster is not None:  # the game travels with its task; results come back as they finish
        yield from cluster.map(task, todo, ordered=False, progress=progress, desc="analyze", total=total)
        return
    if jobs <= 1 or total < 2:
        for item in todo:
            yield task(item)
        return
    with process_pool(jobs) as ex:
        yield from bounded_map(ex, task, todo, window=4 * jobs)


def analyze(con: duckdb.DuckDBPyConnection, *, jobs: int = 1, force: bool = False, progress: bool = False,
            batch: int = 20, games: Sequence[str] | None = None, cluster: Cluster | None = None,
            deep: bool = False, budget: float = DEEP_BUDGET, worlds: int | None = None,
            each: Callable[[Annotated, int, int], None] | None = None) -> AnalyzeSummary:
    """Annotate every game not yet annotated by the current solver version (``games``: only these,
    and the summary counts only them, a game not stored counted as failed; ``cluster``: on its
    workers, this process writing as results arrive; ``jobs`` is then unused). ``each(a, done,
    todo)`` is called as each game's review comes back (a log line where no bar can be drawn)."""
    t0 = time.perf_counter()
    depth = "deep" if deep else "quick"
    todo_ids = pending(con, force=force, depth=depth)
    missing: list[str] = []
    if games is None:
        total = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    else:
        want = dict.fromkeys(games)  # asked once each, in order
        stored = {r[0] for r in con.execute("SELECT game FROM games WHERE list_contains(?::VARCHAR[], game)",
                                            [list(want)]).fetchall()} if want else set()
        missing = [g for g in want if g not in stored]
        todo_ids = [x for x in todo_ids if x[0] in want]
        total = len(stored)
    summary = AnalyzeSummary(games=total + len(missing), skipped=total - len(todo_ids), failed=len(missing),
                             errors=[f"{g}: no such game in the database" for g in missing])

    def todo() -> Iterator[tuple[Any, ...]]:  # each game loaded when its turn comes, not all at once
        for gid, cs in todo_ids:
            g = load_gamelog(con, gid)
            if g is not None:
                yield (g, cs, depth, budget, worlds) if deep else (g, cs)

    bar = None
    if progress and cluster is None:  # the cluster's own bar counts tasks and workers alive
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=len(todo_ids), unit="game", desc="analyze", leave=False)
    buf: list[Annotated] = []
    try:
        for done, a in enumerate(_results(todo(), len(todo_ids), jobs, cluster, progress), 1):
            summary.cpu_seconds += a.seconds
            if a.error is not None:
                summary.failed += 1
                assert summary.errors is not None
                summary.errors.append(f"{a.game}: {a.error}")
            else:
                summary.annotated += 1
                summary.decisions += len(a.decisions)
                summary.mistakes += len(a.mistakes)
                buf.append(a)
            if len(buf) >= batch:
                _flush(con, buf, summary)
            if bar is not None:
                bar.update(1)
            if each is not None:
                each(a, done, len(todo_ids))
        _flush(con, buf, summary)
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - t0
    return summary



def _flush(con: duckdb.DuckDBPyConnection, buf: list[Annotated], summary: AnalyzeSummary) -> None:
    for gid, why in write_each(con, buf).items():
        a = next(x for x in buf if x.game == gid)
        summary.annotated -= 1
        summary.decisions -= len(a.decisions)
        summary.mistakes -= len(a.mistakes)
        summary.failed += 1
        assert summary.errors is not None
        summary.errors.append(f"{gid}: {why}")
    buf.clear()


def load_review(con: duckdb.DuckDBPyConnection, game: str) -> GameReview | None:
    """The stored annotation of ``game`` (for its current content) as a GameReview, or None."""
    head = con.execute("""
        SELECT r.version, r.depth, g.variant, g.players FROM review_games r JOIN games g
        ON g.game = r.game AND g.checksum = r.checksum WHERE r.game = ?""", [game]).fetchall()
    if not head:
        return None
    version, depth, variant, players = head[0]
    names = list(players or []) + [f"#{i}" for i in range(len(players or []), 4)]
    gr = GameReview(game, variant, names, version=version, depth=depth or "quick")
    mistakes: dict[tuple[int, int, int], list[Mistake]] = {}
    for o, seat, turn, step, line, cat, cost, detail in con.execute("""
            SELECT ord, seat, turn, step, line, category, cost, detail FROM review_mistakes WHERE game = ?
            ORDER BY ord, turn, step""", [game]).fetchall():
        mistakes.setdefault((o, seat, turn), []).append(
            Mistake(cat, seat, int(cost), step, line, json.loads(detail) if detail else {}))
    choices: dict[tuple[int, int, int], list[Choice]] = {}
    for row in con.execute("""
            SELECT ord, seat, turn, kind, step, line, played, best, expected_played, expected_best, se, cost, category,
                   candidates, played_events, ci, worlds, forced, reason FROM review_choices WHERE game = ?
            ORDER BY ord, turn, step""", [game]).fetchall():
        o, seat, turn = row[0], row[1], row[2]
        choices.setdefault((o, seat, turn), []).append(
            Choice(row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11],
                   json.loads(row[13]) if row[13] else [], json.loads(row[14]) if row[14] else [], row[12],
                   row[15], int(row[16] or 0), row[17], json.loads(row[18]) if row[18] else None))
    hands: dict[int, HandReview] = {}
    results = dict(con.execute("SELECT ord, result FROM hands WHERE game = ?", [game]).fetchall())
    for r in con.execute("""
            SELECT ord, hand, seat, turn, step, end_step, line, choice, take_opens, opened_before, exposure_played,
                   exposure_best, played, best FROM review_decisions WHERE game = ? ORDER BY ord, turn""",
                         [game]).fetchall():
        o, hand, seat, turn = r[0], r[1], r[2], r[3]
        h = hands.get(o)
        if h is None:
            h = hands[o] = HandReview(o, hand, results.get(o, ""))
        key = (o, seat, turn)
        h.decisions.append(Decision(o, hand, seat, turn, r[4], r[5], r[6], r[7], r[8], r[9],
                                    json.loads(r[12]) if r[12] else {}, json.loads(r[13]) if r[13] else {},
                                    r[10], r[11], mistakes.get(key, []), choices.get(key, [])))
    gr.hands = [hands[o] for o in sorted(hands)]
    return gr


__all__ = ["DEPTHS", "REVIEW_TABLES", "AnalyzeSummary", "Annotated", "analyze", "annotate", "choice_rows", "load_review",
           "pending", "rows", "write"]
