"""The skill line from the splits already made: ``istaka profile`` caches each game's splits
beside the database (:mod:`.profile`); a page reads them and never splits a hand (a split costs
about as much as a deep review)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import duckdb

from . import profile as prof
from . import style

Con = duckdb.DuckDBPyConnection
SKILL_VALUES = "rollout"  # the splits the page reads: the evaluator's (``istaka profile``'s default), not --quick


def cached_skill(con: Con, player: str, *, variant: str | None = None, sources: Sequence[str] | None = None,
                 date_from: Any = None, date_to: Any = None) -> dict[str, Any] | None:
    """The player's skill line (:func:`analysis.review.luck.skill_summary`) over the splits already
    cached for the games the filters keep, with ``missing``: the games still to split (``istaka
    profile`` makes them). None when the luck split is not installed or the store has no cache."""
    try:
        from analysis.review.luck import HandSplit, skill_summary
    except ImportError:
        return None
    where = prof.cache_dir(con)
    if where is None:
        return None
    gsql, params = style.games_filter(variant, sources, date_from, date_to)
    keep = {r[0] for r in con.execute(f"SELECT game FROM ({gsql})", params).fetchall()}
    setting = f"{SKILL_VALUES}:{prof.PROFILE_WORLDS}:{prof.DRAW_WORLDS}"
    splits: list[Any] = []
    missing = 0
    for game, seat, checksum in prof.player_seats(con, player, variant):
        if game not in keep:
            continue
        f = where / prof.cache_name(game, seat, checksum, setting)
        try:
            splits += [HandSplit.from_dict(d) for d in json.loads(f.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            missing += 1
    out = skill_summary(splits)
    out["missing"] = missing
    return out


__all__ = ["SKILL_VALUES", "cached_skill"]
