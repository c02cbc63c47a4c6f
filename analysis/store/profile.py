"""A player's profile from the stored games: the skill line (luck-adjusted points per hand with a
95% interval, beside the raw points per hand), built by :func:`profile` as one dict that other
sections can be added to.

Each hand the player sat in is split from the player's own seat (:mod:`analysis.review.luck`):
the deal, the luck of each chance event, the cost of each decision and the estimation noise. A
split costs about as much as a deep review of the seat's turns, so splits are kept in a cache
beside the database (``<db folder>/luck-cache``, one JSON file per game, seat and setting, keyed
by the game's checksum and :data:`~analysis.review.luck.LUCK_VERSION`); a cache that cannot be
written is skipped, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb

from analysis.game import HIDDEN, GameResult
from analysis.review.luck import (DRAW_WORLDS, LUCK_VERSION, HandSplit, QuickValues, RolloutValues, skill_summary,
                                  split_hand)

from .queries import replay_stored

PROFILE_WORLDS = 16  # the worlds each value is priced on for a profile (the deep review's 64 is slower)
Progress = Callable[[int, int, str], None]


def player_seats(con: duckdb.DuckDBPyConnection, player: str, variant: str | None = None) -> list[tuple[str, int, str]]:
    """(game, seat, checksum) of every valid game ``player`` sat in (``variant``: only that preset),
    oldest first."""
    rows = con.execute("""
        SELECT g.game, s.seat, g.checksum
        FROM seats s JOIN games g ON g.game = s.game
        WHERE s.player = ? AND (?::VARCHAR IS NULL OR g.variant = ?) AND g.valid
        ORDER BY g.started NULLS FIRST, g.game, s.seat""", [player, variant, variant]).fetchall()
    return [(str(g), int(s), str(c)) for g, s, c in rows]


def cache_dir(con: duckdb.DuckDBPyConnection) -> Path | None:
    """Where the splits of this database are cached (None: an in-memory database)."""
    rows = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchall()
    path = rows[0][0] if rows else None
    if not path:
        return None
    return Path(path).resolve().parent / "luck-cache"


def _key(game: str, seat: int, checksum: str, setting: str) -> str:
    h = hashlib.sha256(f"{game}\0{seat}\0{checksum}\0{setting}\0{LUCK_VERSION}".encode()).hexdigest()[:24]
    return f"{h}.json"


def cache_name(game: str, seat: int, checksum: str, setting: str) -> str:
    """The cache file's name of one game's splits for one seat and setting (``values:worlds:draw_worlds``)."""
    return _key(game, seat, checksum, setting)


def seat_splits(res: GameResult, seat: int, *, worlds: int = PROFILE_WORLDS, draw_worlds: int = DRAW_WORLDS,
                values: str = "rollout") -> list[HandSplit]:
    """Every ended hand of a replayed game split for ``seat`` (none when the log hides its rack)."""
    vals = QuickValues() if values == "quick" else RolloutValues(worlds, draw_worlds)
    out = []
    for i, hr in enumerate(res.hands):
        if not hr.steps or not hr.valid or hr.result not in ("finish", "exhausted", "void"):
            continue
        if HIDDEN in hr.steps[0].state.racks[seat]:
            continue
        out.append(split_hand(res, i, seat, values=vals, worlds=worlds, draw_worlds=draw_worlds))
    return out


def cached_splits(con: duckdb.DuckDBPyConnection, game: str, seat: int, checksum: str, *,
                  worlds: int = PROFILE_WORLDS, draw_worlds: int = DRAW_WORLDS, values: str = "rollout",
                  cache: Path | None = None) -> list[HandSplit]:
    """A stored game's splits for one seat, from the cache when it holds them, else made now and
    kept there."""
    setting = f"{values}:{worlds}:{draw_worlds}"
    where = cache / _key(game, seat, checksum, setting) if cache is not None else None
    if where is not None and where.is_file():
        try:
            return [HandSplit.from_dict(d) for d in json.loads(where.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged cache file: made again
    res = replay_stored(con, game)
    if res is None or not res.valid:
        return []
    got = seat_splits(res, seat, worlds=worlds, draw_worlds=draw_worlds, values=values)
    if where is not None:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            tmp = where.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps([s.to_dict() for s in got]), encoding="utf-8")
            os.replace(tmp, where)
        except OSError:
            pass
    return got


def profile(con: duckdb.DuckDBPyConnection, player: str, *, variant: str | None = None,
            worlds: int = PROFILE_WORLDS, draw_worlds: int = DRAW_WORLDS, values: str = "rollout",
            games: int | None = None, cache: bool = True, progress: Progress | None = None) -> dict[str, Any]:
    """The player's profile as one dict: ``player``, ``variant``, ``skill`` (the skill line:
    :func:`analysis.review.luck.skill_summary` of every hand the player sat in: luck-adjusted and
    raw points per hand with their 95% intervals, the hands counted, the line per game) and
    ``setting`` (how the splits were made). ``games``: only the latest so many games."""
    seats = player_seats(con, player, variant)
    if games is not None:
        keep = list(dict.fromkeys(g for g, _, _ in seats))[-games:] if games > 0 else []
        seats = [x for x in seats if x[0] in set(keep)]
    where = cache_dir(con) if cache else None
    splits: list[HandSplit] = []
    for n, (game, seat, checksum) in enumerate(seats, 1):
        splits += cached_splits(con, game, seat, checksum, worlds=worlds, draw_worlds=draw_worlds, values=values,
                                cache=where)
        if progress is not None:
            progress(n, len(seats), game)
    from .coach import sections  # the mistakes by kind and the style beside the expert

    return {"player": player, "variant": variant, "skill": skill_summary(splits),
            "setting": {"values": values, "worlds": worlds, "draw_worlds": draw_worlds, "version": LUCK_VERSION},
            "splits": [s.to_dict() for s in splits], **sections(con, player, variant=variant)}


def known_player(con: duckdb.DuckDBPyConnection, player: str) -> bool:
    return bool(con.execute("SELECT 1 FROM players WHERE name = ?", [player]).fetchall())


def hand_rows(prof: dict[str, Any]) -> Sequence[dict[str, Any]]:
    """The profile's hands as table rows: game, hand, seat, actual, luck, cost, noise, adjusted."""
    return [{"game": s["game"], "hand": s["hand"], "seat": s["seat"], "actual": s["actual"],
             "luck": s["luck_total"], "cost": -s["skill"], "noise": s["noise"], "adjusted": s["adjusted"]}
            for s in prof.get("splits", ())]


__all__ = ["PROFILE_WORLDS", "cache_dir", "cache_name", "cached_splits", "hand_rows", "known_player", "player_seats", "profile",
           "seat_splits"]
