"""Score sheets kept live: a sheet written to the store as it grows, read back to be
continued, listed with its results, and the Players page's trends by source (sheets, recorded).

A sheet is an ordinary game in the store (``games.sheet`` true): each save replays the whole
sheet (:mod:`analysis.game.sheet`) and replaces its rows in one transaction, so a reload or a
second device reading the store sees the sheet as it stands. Hands are renumbered on every
save (1, 2, …; a void hand is played again under its number, E3), so an edited or deleted row
never leaves the order broken.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import duckdb
import pandas as pd

from analysis.game import GameLog, GameResult, replay_game
from analysis.game.sheet import SheetError, past_the_end, result_problem

from . import queries
from .rows import game_checksum, game_rows, next_gid, take_games, to_tables, write_tables

Con = duckdb.DuckDBPyConnection
SOURCES = ("sheets", "recorded")  # where a game comes from: a kept score sheet, a recorded log
SHEET_FILE = "dashboard:sheet"  # games.file of a sheet kept on the dashboard


def numbered(results: Sequence[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    """The results with their hand numbers in order (a void hand's number is played again, E3)."""
    out, n = [], 1
    for r in results:
        ev = {**copy.deepcopy(r), "type": "result", "game": game, "hand": n}
        out.append(ev)
        if ev.get("kind") != "void":
            n += 1
    return out


def sheet_log(header: dict[str, Any], results: Sequence[dict[str, Any]]) -> GameLog:
    head = {**header, "type": "game", "sheet": True}
    evs = numbered(results, head["game"])
    return GameLog(head["game"], SHEET_FILE, 1, head, [(i, ev) for i, ev in enumerate(evs, 2)])


def save_sheet(con: Con, header: dict[str, Any], results: Sequence[dict[str, Any]]) -> GameResult:
    """Replay the sheet and write it, replacing what the store held under its id (one transaction).
    A result past the game's planned hands is refused (:class:`SheetError`, G1), and so is a result
    of the wrong shape (the field and its rule, as the log reader names them): nothing is written."""
    for i, r in enumerate(results):
        bad = result_problem(dict(r, type="result")) if isinstance(r, dict) else (
            "a result is an object of fields", "kind", "E6")
        if bad is not None:
            msg, fld, rule = bad
            raise SheetError(f"round {i + 1}: {msg} [{rule}]", rule, fld)
    g = sheet_log(header, results)
    res = replay_game(g, keep_steps=False)
    for _, ev in g.events:
        if (end := past_the_end(ev["hand"], res.planned_hands)) is not None:
            raise end
    rows = game_rows(g, res, game_checksum(g))
    tables, spans = to_tables([rows])
    write_tables(con, take_games(tables, spans, [next_gid(con)]), None, replace_ids=[g.id])
    return res


def load_sheet(con: Con, game: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A stored sheet's header and results (None when there is no such sheet)."""
    g = queries.load_gamelog(con, game)
    if g is None or g.header.get("sheet") is not True:
        return None
    return dict(g.header), [ev for _, ev in g.events]


def list_sheets(con: Con) -> pd.DataFrame:
    """Every stored sheet, newest first: game, variant, started, players, hands (counted),
    hands_planned, totals, winner, valid, agrees."""
    rows = con.execute("""
        SELECT game, variant, started, players, hands_counted, hands_planned, totals, winner, valid, agrees
        FROM games WHERE sheet ORDER BY started DESC NULLS LAST, game""").fetchall()
    cols = ["game", "variant", "started", "players", "hands", "hands_planned", "totals", "winner", "valid", "agrees"]
    return pd.DataFrame(rows, columns=cols)


# ---- trends by source ----------------------------------------------------------------------

def _games_of(con: Con, source: str) -> set[str]:
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
    return {r[0] for r in con.execute("SELECT game FROM games WHERE sheet = ?", [source == "sheets"]).fetchall()}


def finish_kinds(con: Con, variant: str | None, source: str) -> pd.DataFrame:
    """Like :func:`queries.finish_kinds`, for the games of one source only."""
    rows = con.execute("""
        SELECT hs.player, g.variant,
               CASE WHEN len(h.finish_kinds) = 0 THEN 'normal' ELSE array_to_string(h.finish_kinds, '+') END AS kind,
               count(*) AS finishes
        FROM hands h JOIN hand_seats hs ON hs.game = h.game AND hs.ord = h.ord AND hs.seat = h.finisher
             JOIN games g ON g.game = h.game
        WHERE h.result = 'finish' AND g.sheet = ? AND (?::VARCHAR IS NULL OR g.variant = ?)
        GROUP BY ALL ORDER BY hs.player, g.variant, finishes DESC, kind""",
                       [source == "sheets", variant, variant]).fetchall()
    return pd.DataFrame(rows, columns=["player", "variant", "kind", "finishes"])


def player_wins(con: Con, variant: str | None = None, source: str | None = None) -> pd.DataFrame:
    """Games won (the lowest total, G1) per player: player, wins."""
    rows = con.execute("""
        SELECT winner AS player, count(*) AS wins FROM games
        WHERE winner IS NOT NULL AND hands_counted > 0 AND (?::VARCHAR IS NULL OR variant = ?)
          AND (?::BOOLEAN IS NULL OR sheet = ?)
        GROUP BY winner ORDER BY winner""",
                       [variant, variant, None if source is None else source == "sheets",
                        None if source is None else source == "sheets"]).fetchall()
    return pd.DataFrame(rows, columns=["player", "wins"])


def player_stats(con: Con, variant: str | None, source: str) -> pd.DataFrame:
    """Per player over one source's games: games, hands, opened_pct, finishes, elden,
    okey_finishes, penalty_points, avg_hand_score (the columns of :func:`queries.player_stats`
    that a score sheet knows)."""
    rows = con.execute("""
        WITH hs AS (
            SELECT hs.player, hs.gid, hs.opened, hs.finished, hs.total, hs.penalties,
                   hs.finished AND list_contains(h.finish_kinds, 'elden') AS elden,
                   hs.finished AND list_contains(h.finish_kinds, 'okey') AS okey
            FROM hand_seats hs JOIN hands h ON h.gid = hs.gid AND h.ord = hs.ord JOIN games g ON g.gid = hs.gid
            WHERE h.result IN ('finish', 'exhausted') AND g.sheet = ? AND (?::VARCHAR IS NULL OR g.variant = ?))
        SELECT player, count(DISTINCT gid), count(*), 100.0 * avg(opened::INTEGER),
               count(*) FILTER (WHERE finished), count(*) FILTER (WHERE elden), count(*) FILTER (WHERE okey),
               sum(penalties), avg(total)
        FROM hs GROUP BY player ORDER BY player""", [source == "sheets", variant, variant]).fetchall()
    return pd.DataFrame(rows, columns=["player", "games", "hands", "opened_pct", "finishes", "elden", "okey_finishes",
                                       "penalty_points", "avg_hand_score"])


def trend_frames(con: Con, variant: str | None, source: str | None) -> dict[str, pd.DataFrame]:
    """The Players page's frames (``queries.player_hand_scores``, ``opening_values``,
    ``finish_kinds``, ``penalties``, ``player_stats``) for every game (``source`` None) or one
    source's; ``player_stats`` gains ``wins``."""
    frames = {name: getattr(queries, name)(con, variant=variant)
              for name in ("player_hand_scores", "opening_values", "penalties")}
    if source is None:
        frames["finish_kinds"] = queries.finish_kinds(con, variant=variant)
        stats = queries.player_stats(con, variant=variant)
    else:
        keep = _games_of(con, source)
        for name in ("player_hand_scores", "opening_values", "penalties"):
            df = frames[name]
            frames[name] = df[df["game"].isin(keep)].reset_index(drop=True)
        sc = frames["player_hand_scores"]
        if len(sc):  # the running total over this source's hands only
            sc["cumulative"] = sc.groupby(["player", "variant"], sort=False, dropna=False).total.cumsum().astype("int64")
        frames["finish_kinds"] = finish_kinds(con, variant, source)
        stats = player_stats(con, variant, source)
    wins = player_wins(con, variant, source)
    stats = stats.merge(wins, on="player", how="left")
    stats["wins"] = stats["wins"].fillna(0).astype("int64")
    frames["player_stats"] = stats
    return frames
