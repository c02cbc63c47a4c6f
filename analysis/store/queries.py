"""The dashboard's reads from the store: pandas DataFrames, every value a bound parameter.

Each function takes a DuckDB connection (or a cursor of one) first. Hold a connection only
for one burst of reads: ``with reading() as con: ...`` (DuckDB's one-writer rule: while any
process has the file open, ``istaka import`` cannot write it; see analysis/store.py).

Filters left at None do not filter. ``variant`` is a preset name, ``player`` a name as written
in the logs, ``date_from``/``date_to`` dates or ISO strings (inclusive days).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import duckdb
import pandas as pd

from analysis.game import GameLog
from analysis.game import GameResult, HandResult, replay_game

from .connection import connect, reading  # noqa: F401  (re-exported for the dashboard)

Con = duckdb.DuckDBPyConnection


def _df(con: Con, sql: str, params: list[Any] | None = None, ints: tuple[str, ...] = ()) -> pd.DataFrame:
    """A small result as a DataFrame (lists stay lists). Built from fetched rows: DuckDB's .df()
    costs some 6 ms per call whatever the size. ``ints``: columns with NULLs, kept as Int64."""
    cur = con.execute(sql, params or [])
    cols = [d[0] for d in cur.description]
    df = pd.DataFrame.from_records(cur.fetchall(), columns=cols)
    for c in ints:
        df[c] = df[c].astype("Int64")
    return df


def _big_df(con: Con, sql: str, params: list[Any]) -> pd.DataFrame:
    """Many rows without NULLs in number columns: Arrow's conversion is some 2x faster than .df()."""
    return con.sql(sql, params=params).to_arrow_table().to_pandas()


def _day(x: Any, end: bool = False) -> datetime | None:
    """A bound of a date range; a bare day (date or "YYYY-MM-DD") as ``end`` means its end."""
    if x is None or x == "":
        return None
    if isinstance(x, str):
        x = date.fromisoformat(x) if len(x) <= 10 else datetime.fromisoformat(x)
    if isinstance(x, datetime):
        return x.replace(tzinfo=None) if x.tzinfo is None else x.astimezone(UTC).replace(tzinfo=None)
    if isinstance(x, date):
        d = datetime(x.year, x.month, x.day)
        return d + timedelta(days=1) if end else d
    raise TypeError(f"not a date: {x!r}")


# ---- games --------------------------------------------------------------------------------

GAME_RESULTS = ("valid", "invalid", "disagrees", "complete", "incomplete", "won", "lost")


def list_games(con: Con, player: str | None = None, variant: str | None = None, date_from: Any = None,
               date_to: Any = None, site: str | None = None, result: str | None = None) -> pd.DataFrame:
    """Games, newest first: game, variant, site, started, players, hands, valid, totals, winner,
    rule_overrides (the log's ``rules`` object as JSON text, or None).

    ``result``: valid, invalid, disagrees (replayed fine but the log wrote other scores),
    complete / incomplete (all planned hands played or not), won / lost (by ``player``).
    """
    if result is not None and result not in GAME_RESULTS:
        raise ValueError(f"result must be one of {', '.join(GAME_RESULTS)}, got {result!r}")
    start = _day(date_from)
    end = _day(date_to, end=True)
    sql = """
        SELECT g.game, g.variant, g.site, g.started,
               g.players, g.hands_counted AS hands,
               g.valid, g.agrees, g.totals, g.winner, g.hands_planned, g.file, g.rule_overrides, g.sheet
        FROM games g
        WHERE (?::VARCHAR IS NULL OR g.variant = ?)
          AND (?::VARCHAR IS NULL OR g.site = ?)
          AND (?::TIMESTAMP IS NULL OR g.started >= ?)
          AND (?::TIMESTAMP IS NULL OR g.started < ?)
          AND (?::VARCHAR IS NULL OR list_contains(g.players, ?))
        ORDER BY g.started DESC NULLS LAST, g.game"""
    df = _df(con, sql, [variant, variant, site, site, start, start, end, end, player, player])
    if result == "valid":
        df = df[df.valid]
    elif result == "invalid":
        df = df[~df.valid]
    elif result == "disagrees":
        df = df[df.valid & ~df.agrees]
    elif result in ("complete", "incomplete"):
        done = df.hands >= df.hands_planned.fillna(0)
        df = df[done if result == "complete" else ~done]
    elif result in ("won", "lost"):
        if player is None:
            raise ValueError("result 'won' or 'lost' needs a player")
        won = df.winner == player
        df = df[won if result == "won" else ~won]
    return df.drop(columns=["agrees", "hands_planned", "file"]).reset_index(drop=True)


def game_info(con: Con, game: str) -> dict[str, Any] | None:
    """One game's header and status as a dict (None when unknown)."""
    rows = con.execute("""
        SELECT g.game, g.variant, g.rules, g.rule_overrides, g.site, g.started, g.started_text,
               g.hands_planned, g.hands_played, g.valid, g.agrees, g.totals, g.match_points, g.winner,
               g.error_line, g.error_rule, g.error_message, g.file, g.line, g.players, g.view_seat
        FROM games g WHERE g.game = ?""", [game]).fetchall()
    if not rows:
        return None
    r = rows[0]
    return {"game": r[0], "variant": r[1], "rules": json.loads(r[2]) if r[2] else None,
            "rule_overrides": json.loads(r[3]) if r[3] else None, "site": r[4], "started": r[5],
            "started_text": r[6], "hands": r[7], "hands_played": r[8], "valid": r[9], "agrees": r[10],
            "totals": r[11], "match_points": r[12], "winner": r[13],
            "error": {"line": r[14], "rule": r[15], "message": r[16]} if r[16] else None,
            "file": r[17], "line": r[18], "players": r[19],
            "view": None if r[20] is None else int(r[20])}  # a seat-view log's seat


def _gid(con: Con, game: str) -> int | None:
    """The game's number: per-game reads filter on it (see store.GID_TABLES)."""
    rows = con.execute("SELECT gid FROM games WHERE game = ?", [game]).fetchall()
    return rows[0][0] if rows else None


def game_hands(con: Con, game: str) -> pd.DataFrame:
    """A game's hands in play order: ord, hand, result, finisher, finish_kinds, scores, penalties
    (per seat), totals, error_line, error_rule, error_message, starter, indicator, line."""
    return _df(con, """
        SELECT ord, hand, result, finisher, finish_kinds, scores, penalty_totals AS penalties, totals,
               error_line, error_rule, error_message, starter, indicator, line
        FROM hands WHERE gid = ? ORDER BY ord""", [_gid(con, game)], ints=("finisher", "error_line", "starter"))


_EVENT_FIELDS = ("seat", "tile", "tiles", "melds", "pairs", "meld", "what", "points", "reason", "starter",
                 "indicator", "racks", "deck", "scores")


def _event_dict(row: dict[str, Any]) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": row["type"], "game": row["game"]}
    if row["hand"] is not None:
        ev["hand"] = int(row["hand"])
    for f in _EVENT_FIELDS:
        v = row[f]
        if v is not None:
            ev[f] = v
    if row["extra"]:
        ev.update(json.loads(row["extra"]))
    t = row["t"]
    if t is not None:
        ev["t"] = int(t) if float(t).is_integer() else t
    return ev


def game_events(con: Con, game: str, hand: int | None = None, ord: int | None = None) -> list[dict[str, Any]]:
    """A game's events in log order as v1 event dicts, each with ``line`` and ``valid`` (false
    from its hand's first illegal move on) added. ``hand``: only the hand(s) with that number;
    ``ord``: only the ord-th hand played (a replayed void hand keeps its number, E3). Without
    either, the game event (header) comes first."""
    cols = ("game", "seq", "line", "hand", "type", *_EVENT_FIELDS, "t", "extra", "valid")
    rows = con.execute(f"SELECT {', '.join(cols)} FROM events WHERE gid = ? "  # cols: constants
                       "AND (?::INTEGER IS NULL OR hand = ?) AND (?::INTEGER IS NULL OR ord = ?) ORDER BY seq",
                       [_gid(con, game), hand, hand, ord, ord]).fetchall()
    out = []
    if hand is None and ord is None:
        head = _header(con, game)
        if head is not None:
            out.append({**head[0], "line": head[1], "valid": True})
    for r in rows:
        row = dict(zip(cols, r))
        out.append({**_event_dict(row), "line": row["line"], "valid": row["valid"]})
    return out


def _header(con: Con, game: str) -> tuple[dict[str, Any], int] | None:
    rows = con.execute("""
        SELECT g.variant, g.rule_overrides, g.hands_planned, g.started_text, g.site, g.header_extra, g.line,
               g.players
        FROM games g WHERE g.game = ?""", [game]).fetchall()
    if not rows:
        return None
    variant, overrides, hands, started, site, extra, line, players = rows[0]
    h: dict[str, Any] = {"type": "game", "game": game, "variant": variant}
    if overrides is not None:
        h["rules"] = json.loads(overrides)
    h["players"] = players
    if hands is not None:
        h["hands"] = hands
    if started is not None:
        h["started"] = started
    if site is not None:
        h["site"] = site
    if extra:
        h.update(json.loads(extra))
    return h, line


def load_gamelog(con: Con, game: str) -> GameLog | None:
    """The stored game rebuilt as the reader's GameLog (replay it with analysis.replay)."""
    head = _header(con, game)
    if head is None:
        return None
    file = con.execute("SELECT file FROM games WHERE game = ?", [game]).fetchall()[0][0]
    events = []
    for ev in game_events(con, game)[1:]:
        line = ev.pop("line")
        ev.pop("valid")
        events.append((line, ev))
    return GameLog(game, file, head[1], head[0], events)


def replay_stored(con: Con, game: str) -> GameResult | None:
    """The stored game replayed by the engine, with every state (``HandResult.steps``)."""
    g = load_gamelog(con, game)
    return replay_game(g) if g is not None else None


def hand_states(con: Con, game: str, ord: int) -> HandResult | None:
    """One hand (by its ``ord``, 1-based in play order) replayed: its steps hold every state."""
    res = replay_stored(con, game)
    if res is None or not 1 <= ord <= len(res.hands):
        return None
    return res.hands[ord - 1]


# ---- players ------------------------------------------------------------------------------

def player_hand_scores(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """One row per player and hand: player, game, variant, started, ord, hand, seat, score (hand end),
    penalties, total (score + penalties), cumulative (running total per player and variant, by
    game start then hand)."""
    df = _big_df(con, """
        SELECT hs.player, hs.game, g.variant, g.started, hs.ord, hs.hand, hs.seat, hs.score, hs.penalties,
               hs.total
        FROM hand_seats hs JOIN games g USING (game)
        WHERE (?::VARCHAR IS NULL OR hs.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        ORDER BY hs.player, g.variant, g.started NULLS FIRST, hs.gid, hs.ord""",
                 [player, player, variant, variant])
    # the running sum in pandas: cheaper than a window over an ordered set in SQL
    df["cumulative"] = df.groupby(["player", "variant"], sort=False, dropna=False).total.cumsum().astype("int64")
    return df


def opening_values(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """Every opening: player, game, variant, ord, hand, seat, kind (points/pairs), value, threshold, line."""
    return _big_df(con, """
        SELECT o.player, o.game, g.variant, o.ord, o.hand, o.seat, o.kind, o.value, o.threshold, o.line
        FROM openings o JOIN games g USING (game)
        WHERE (?::VARCHAR IS NULL OR o.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        ORDER BY g.started NULLS FIRST, o.game, o.ord, o.line""", [player, player, variant, variant])


def finish_kinds(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """Counts of finishes by kind per finisher: player, variant, kind (normal, okey, elden, pairs,
    or combinations joined by '+'), finishes."""
    return _df(con, """
        SELECT hs.player, g.variant,
               CASE WHEN len(h.finish_kinds) = 0 THEN 'normal' ELSE array_to_string(h.finish_kinds, '+') END AS kind,
               count(*) AS finishes
        FROM hands h JOIN hand_seats hs ON hs.game = h.game AND hs.ord = h.ord AND hs.seat = h.finisher
             JOIN games g ON g.game = h.game
        WHERE h.result = 'finish'
          AND (?::VARCHAR IS NULL OR hs.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        GROUP BY ALL ORDER BY hs.player, g.variant, finishes DESC, kind""", [player, player, variant, variant])


def penalties(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """Every in-game penalty (the engine's): player, game, variant, ord, hand, seat, rule, points, line."""
    return _big_df(con, """
        SELECT p.player, p.game, g.variant, p.ord, p.hand, p.seat, p.rule, p.points, p.line
        FROM penalties p JOIN games g USING (game)
        WHERE (?::VARCHAR IS NULL OR p.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        ORDER BY g.started NULLS FIRST, p.game, p.ord, p.line""", [player, player, variant, variant])


def player_stats(con: Con, variant: str | None = None) -> pd.DataFrame:
    """Per player: games, hands, opened_pct, avg_opening (points), avg_pairs_opening, finishes,
    elden, okey_finishes, penalties_per_hand (count), penalty_points, avg_hand_score (score +
    penalties per hand). Hands that count: finished or exhausted (not void, invalid, unfinished)."""
    # filters are semi-joins on games: much cheaper than joining games to every row
    return _df(con, """
        WITH hs AS (
            SELECT hs.player, hs.gid, hs.opened, hs.finished, hs.total,
                   hs.finished AND list_contains(h.finish_kinds, 'elden') AS elden,
                   hs.finished AND list_contains(h.finish_kinds, 'okey') AS okey
            FROM hand_seats hs JOIN hands h ON h.gid = hs.gid AND h.ord = hs.ord
            WHERE h.result IN ('finish', 'exhausted')
              AND (?::VARCHAR IS NULL OR hs.gid IN (SELECT gid FROM games WHERE variant = ?))),
        op AS (
            SELECT o.player, avg(o.value) FILTER (WHERE o.kind = 'points') AS avg_opening,
                   avg(o.value) FILTER (WHERE o.kind = 'pairs') AS avg_pairs
            FROM openings o
            WHERE (?::VARCHAR IS NULL OR o.game IN (SELECT game FROM games WHERE variant = ?)) GROUP BY o.player),
        pe AS (
            SELECT p.player, count(*) AS n, sum(p.points) AS points
            FROM penalties p
            WHERE (?::VARCHAR IS NULL OR p.game IN (SELECT game FROM games WHERE variant = ?)) GROUP BY p.player)
        SELECT hs.player, count(DISTINCT hs.gid) AS games, count(*) AS hands,
               100.0 * avg(hs.opened::INTEGER) AS opened_pct, any_value(op.avg_opening) AS avg_opening,
               any_value(op.avg_pairs) AS avg_pairs_opening,
               count(*) FILTER (WHERE hs.finished) AS finishes,
               count(*) FILTER (WHERE hs.elden) AS elden, count(*) FILTER (WHERE hs.okey) AS okey_finishes,
               coalesce(any_value(pe.n), 0) / count(*) AS penalties_per_hand,
               coalesce(any_value(pe.points), 0) AS penalty_points,
               avg(hs.total) AS avg_hand_score
        FROM hs LEFT JOIN op USING (player) LEFT JOIN pe USING (player)
        GROUP BY hs.player ORDER BY hs.player""", [variant] * 6)


# ---- lists and errors ---------------------------------------------------------------------

def import_errors(con: Con) -> pd.DataFrame:
    """What went wrong, newest import first: file, line, game, kind, rule, field, message.

    Kinds: unreadable (not stored), conflict (not merged), store (not stored), and invalid
    (stored with its valid prefix: the first illegal move of a game's hand)."""
    return _df(con, """
        SELECT e.file, e.line, e.game, e.kind, e.rule, e.field, e.message, e.import_id
        FROM import_errors e
        UNION ALL
        SELECT g.file, h.error_line, h.game, 'invalid', h.error_rule, NULL,
               format('hand {}: {}', h.hand, h.error_message), g.import_id
        FROM hands h JOIN games g USING (game) WHERE h.error_line IS NOT NULL
        UNION ALL
        SELECT g.file, g.error_line, g.game, 'invalid', g.error_rule, NULL, g.error_message, g.import_id
        FROM games g WHERE g.error_line IS NOT NULL AND g.hands_played = 0
        ORDER BY import_id DESC, file, line NULLS FIRST""", ints=("line", "import_id"))


def mismatches(con: Con, game: str | None = None) -> pd.DataFrame:
    """Where the log's recorded scores or penalties differ from the engine's."""
    return _df(con, """
        SELECT game, ord, hand, kind, seat, line, recorded, computed FROM mismatches
        WHERE (?::VARCHAR IS NULL OR game = ?) ORDER BY game, ord, line""", [game, game], ints=("seat", "line"))


def players(con: Con) -> list[str]:
    return [r[0] for r in con.execute("SELECT name FROM players ORDER BY name").fetchall()]


def variants(con: Con) -> list[str]:
    return [r[0] for r in con.execute("SELECT DISTINCT variant FROM games WHERE variant IS NOT NULL "
                                      "ORDER BY variant").fetchall()]


def sites(con: Con) -> list[str]:
    return [r[0] for r in con.execute("SELECT DISTINCT site FROM games WHERE site IS NOT NULL "
                                      "ORDER BY site").fetchall()]


def imports(con: Con) -> pd.DataFrame:
    return _df(con, "SELECT * FROM imports ORDER BY import_id DESC")


# ---- move review (istaka analyze; analysis/review.py) ----------------------------------------
# Annotations count only while they belong to the stored content (review_games.checksum); a game
# replaced with other content shows no review until it is analysed again.

_REVIEWED = "review_games r JOIN games g ON g.game = r.game AND g.checksum = r.checksum"


def review_status(con: Con) -> dict[str, Any]:
    """How many games are stored and how many carry a current annotation, by solver version."""
    total = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    rows = con.execute(f"SELECT r.version, count(*) FROM {_REVIEWED} GROUP BY 1 ORDER BY 1").fetchall()
    return {"games": total, "by_version": {v: n for v, n in rows}}


def game_review(con: Con, game: str) -> pd.DataFrame:
    """Per seat of one annotated game: seat, player, decisions, agreement (% of decisions without a
    mistake), cost (points), hands, cost_per_hand, mistakes."""
    return _df(con, f"""
        SELECT d.seat, d.player, count(*) AS decisions, 100.0 * avg(d.agrees::INTEGER) AS agreement,
               sum(d.cost)::BIGINT AS cost, count(DISTINCT d.ord) AS hands,
               sum(d.cost) / count(DISTINCT d.ord) AS cost_per_hand, sum(d.mistakes)::BIGINT AS mistakes
        FROM review_decisions d JOIN {_REVIEWED} ON r.game = d.game
        WHERE d.game = ? GROUP BY d.seat, d.player ORDER BY d.seat""", [game])


def review_depth(con: Con, game: str) -> str | None:
    """How a game's stored review was made: ``deep`` (every decision priced, the verdict), ``quick``
    (the exact checks: a screen), or None (not reviewed)."""
    rows = con.execute("SELECT depth FROM review_games WHERE game = ?", [game]).fetchall()
    return str(rows[0][0] or "quick") if rows else None


def game_mistakes(con: Con, game: str, ord: int | None = None) -> pd.DataFrame:
    """A game's mistakes, worst first: ord, hand, seat, player, turn, step (the replay step to
    look at), line, category, cost, severity, detail (JSON text)."""
    return _df(con, f"""
        SELECT m.ord, m.hand, m.seat, m.player, m.turn, m.step, m.line, m.category, m.cost, m.severity,
               m.detail
        FROM review_mistakes m JOIN {_REVIEWED} ON r.game = m.game
        WHERE m.game = ? AND (?::INTEGER IS NULL OR m.ord = ?)
        ORDER BY m.cost DESC, m.ord, m.step""", [game, ord, ord])


def game_decisions(con: Con, game: str, ord: int | None = None) -> pd.DataFrame:
    """A game's decision points in play order: ord, hand, seat, player, turn, step, end_step, line,
    choice, take_opens, opened_before, exposure_played, exposure_best, cost, agrees, mistakes,
    played, best (JSON text)."""
    return _df(con, f"""
        SELECT d.ord, d.hand, d.seat, d.player, d.turn, d.step, d.end_step, d.line, d.choice, d.take_opens,
               d.opened_before, d.exposure_played, d.exposure_best, d.cost, d.agrees, d.mistakes, d.played, d.best
        FROM review_decisions d JOIN {_REVIEWED} ON r.game = d.game
        WHERE d.game = ? AND (?::INTEGER IS NULL OR d.ord = ?) ORDER BY d.ord, d.turn""", [game, ord, ord])


def player_review(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """Per player and annotated game, oldest first (trends over dates and variants): player, game,
    variant, started, decisions, agreement (%), cost, hands, cost_per_hand, mistakes."""
    return _df(con, f"""
        SELECT d.player, d.game, g.variant, g.started, count(*) AS decisions,
               100.0 * avg(d.agrees::INTEGER) AS agreement, sum(d.cost)::BIGINT AS cost,
               count(DISTINCT d.ord) AS hands, sum(d.cost) / count(DISTINCT d.ord) AS cost_per_hand,
               sum(d.mistakes)::BIGINT AS mistakes
        FROM review_decisions d JOIN {_REVIEWED} ON r.game = d.game
        WHERE (?::VARCHAR IS NULL OR d.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        GROUP BY d.player, d.game, g.variant, g.started
        ORDER BY d.player, g.started NULLS FIRST, d.game""", [player, player, variant, variant])


def player_mistakes(con: Con, player: str | None = None, variant: str | None = None) -> pd.DataFrame:
    """Mistakes by player, variant and category: player, variant, category, mistakes, cost,
    avg_cost, games (annotated games of the player in that variant)."""
    return _df(con, f"""
        WITH played AS (
            SELECT d.player, g.variant, count(DISTINCT d.game) AS games
            FROM review_decisions d JOIN {_REVIEWED} ON r.game = d.game GROUP BY 1, 2)
        SELECT m.player, g.variant, m.category, count(*) AS mistakes, sum(m.cost)::BIGINT AS cost,
               avg(m.cost) AS avg_cost, any_value(p.games) AS games
        FROM review_mistakes m JOIN {_REVIEWED} ON r.game = m.game
             JOIN played p ON p.player = m.player AND p.variant = g.variant
        WHERE (?::VARCHAR IS NULL OR m.player = ?) AND (?::VARCHAR IS NULL OR g.variant = ?)
        GROUP BY m.player, g.variant, m.category ORDER BY m.player, g.variant, cost DESC""",
               [player, player, variant, variant])


def practice_positions(con: Con, player: str, categories: list[str] | None = None,
                       min_cost: int = 1) -> pd.DataFrame:
    """A player's own mistakes to practise on, costliest first: game, ord, hand, seat, step, line,
    category, cost, detail."""
    return _df(con, f"""
        SELECT m.game, m.ord, m.hand, m.seat, m.step, m.line, m.category, m.cost, m.detail
        FROM review_mistakes m JOIN {_REVIEWED} ON r.game = m.game
        WHERE m.player = ? AND m.cost >= ? AND (?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], m.category))
        ORDER BY m.cost DESC, g.started DESC NULLS LAST, m.game, m.ord, m.step""",
               [player, min_cost, categories, categories])
