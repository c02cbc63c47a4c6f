"""Review annotations in the store: rows of a :class:`~analysis.review.GameReview`, and the
``istaka analyze`` run that annotates every game not yet annotated by the current solver version.

Annotations are keyed by ``(game, checksum, version)``: a game replaced with other content, or
a new :data:`analysis.review.SOLVER_VERSION`, is annotated again; everything else is skipped.
A game's annotation rows are written in one transaction with its ``review_games`` row, so a
killed run leaves whole games or none.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb

from analysis.game import GameLog
from analysis.game import replay_game
from analysis.review import SOLVER_VERSION, GameReview, review_game

from .queries import load_gamelog

REVIEW_TABLES = ("review_mistakes", "review_decisions", "review_games")


@dataclass
class Annotated:
    """One game's annotation rows (made in a worker process)."""

    game: str
    checksum: str
    seconds: float
    decisions: list[tuple[Any, ...]]
    mistakes: list[tuple[Any, ...]]
    error: str | None = None

    @property
    def cost(self) -> int:
        return sum(int(m[9]) for m in self.mistakes)


def rows(gr: GameReview) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(review_decisions rows, review_mistakes rows) in the migration's column order."""
    dec, mis = [], []
    for d in gr.decisions:
        name = gr.players[d.seat]
        dec.append((gr.game, d.ord, d.hand, d.seat, name, d.turn, d.start, d.end, d.line, d.choice, d.take_opens,
                    d.opened_before, d.exposure_played, d.exposure_best, d.cost, d.agrees, len(d.mistakes),
                    json.dumps(d.played, ensure_ascii=False, default=str),
                    json.dumps(d.best, ensure_ascii=False, default=str)))
        for m in d.mistakes:
            mis.append((gr.game, d.ord, d.hand, m.seat, gr.players[m.seat], d.turn, m.step, m.line, m.category, m.cost,
                        m.severity, json.dumps(m.detail, ensure_ascii=False, default=str)))
    return dec, mis


def annotate(g: GameLog, checksum: str) -> Annotated:
    """Replay and review one game (pure: runs in worker processes)."""
    t0 = time.perf_counter()
    try:
        gr = review_game(replay_game(g, keep_steps=True))
    except Exception as e:  # noqa: BLE001  (a solver bug must not stop a whole run: the game is reported)
        return Annotated(g.id, checksum, time.perf_counter() - t0, [], [], f"{type(e).__name__}: {e}")
    dec, mis = rows(gr)
    return Annotated(g.id, checksum, time.perf_counter() - t0, dec, mis)


def _annotate_remote(args: tuple[GameLog, str]) -> Annotated:
    return annotate(*args)


def pending(con: duckdb.DuckDBPyConnection, version: str = SOLVER_VERSION, force: bool = False) -> list[tuple[str, str]]:
    """(game, checksum) of every game not yet annotated by ``version`` (all of them with ``force``)."""
    return [(r[0], r[1]) for r in con.execute("""
        SELECT g.game, g.checksum FROM games g LEFT JOIN review_games r USING (game)
        WHERE ? OR r.game IS NULL OR r.version <> ? OR r.checksum <> g.checksum
        ORDER BY g.started NULLS LAST, g.game""", [force, version]).fetchall()]


DECISION_COLUMNS = ("game", "ord", "hand", "seat", "player", "turn", "step", "end_step", "line", "choice",
                    "take_opens", "opened_before", "exposure_played", "exposure_best", "cost", "agrees", "mistakes",
                    "played", "best")
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
                                ("review_mistakes", MISTAKE_COLUMNS, [r for a in ok for r in a.mistakes])):
            if rs:
                _insert(con, table, cols, rs)
        now = datetime.now()
        con.executemany("INSERT INTO review_games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(a.game, a.checksum, version, now, a.seconds, len(a.decisions), len(a.mistakes), a.cost)
                         for a in ok])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


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


def _results(todo: list[tuple[GameLog, str]], jobs: int) -> Iterator[Annotated]:
    if jobs <= 1 or len(todo) < 2:
        for g, cs in todo:
            yield annotate(g, cs)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")  # never fork a process with DuckDB's threads running
    with ProcessPoolExecutor(jobs, mp_context=ctx) as ex:
        yield from ex.map(_annotate_remote, todo, chunksize=1)


def analyze(con: duckdb.DuckDBPyConnection, *, jobs: int = 1, force: bool = False, progress: bool = False,
            batch: int = 20, games: Sequence[str] | None = None) -> AnalyzeSummary:
    """Annotate every game not yet annotated by the current solver version (``games``: only these)."""
    t0 = time.perf_counter()
    total = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    todo_ids = pending(con, force=force)
    if games is not None:
        want = set(games)
        todo_ids = [x for x in todo_ids if x[0] in want]
    summary = AnalyzeSummary(games=total, skipped=total - len(todo_ids), errors=[])
    todo: list[tuple[GameLog, str]] = []
    for gid, cs in todo_ids:
        g = load_gamelog(con, gid)
        if g is not None:
            todo.append((g, cs))
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=len(todo), unit="game", desc="analyze", leave=False)
    buf: list[Annotated] = []
    try:
        for a in _results(todo, jobs):
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
                write(con, buf)
                buf.clear()
            if bar is not None:
                bar.update(1)
        write(con, buf)
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - t0
    return summary


__all__ = ["REVIEW_TABLES", "AnalyzeSummary", "Annotated", "analyze", "annotate", "pending", "rows", "write"]
