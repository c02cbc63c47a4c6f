"""The Player page's reads, cached per database version: mistakes by kind and their trend
(:mod:`analysis.store.mistake_kinds`), the style beside the expert (:mod:`analysis.store.style`),
a kind's positions for Practice, and the skill line when the luck split is installed."""

from __future__ import annotations

import importlib.util
from typing import Any

import pandas as pd
import streamlit as st

from analysis.store import mistake_kinds, skill_cache, style

from dashboard.state import data

def _read(fn: Any, *args: Any, **kw: Any) -> Any:
    with data.reading_db() as con:
        return fn(con, *args, **kw)


Filters = tuple[tuple[str, ...], str, tuple[str, ...], str | None, str | None]


def _f(players: Any, variant: str, sources: Any, date_from: Any, date_to: Any) -> Filters:
    return (tuple(players), str(variant), tuple(sources), None if not date_from else str(date_from),
            None if not date_to else str(date_to))


def _kw(f: Filters) -> dict[str, Any]:
    return {"variant": f[1], "sources": list(f[2]), "date_from": f[3], "date_to": f[4]}


@st.cache_data(show_spinner=False, max_entries=32)
def _games(v: int, path: str, f: Filters) -> pd.DataFrame:
    """The players' graded games with their costs by kind: one read for the summary and the trend."""
    return _read(mistake_kinds.kinds_by_game, list(f[0]), **_kw(f))


@st.cache_data(show_spinner=False, max_entries=32)
def _style(v: int, path: str, f: Filters) -> pd.DataFrame:
    return _read(style.beside_expert, list(f[0]), **_kw(f))


def kinds(players: Any, variant: str, sources: Any, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    return mistake_kinds.summary_of(_games(data.version(), data.db_file(),
                                           _f(players, variant, sources, date_from, date_to)))


def trend(players: Any, variant: str, sources: Any, date_from: Any = None, date_to: Any = None,
          by: str = "week") -> pd.DataFrame:
    return mistake_kinds.trend_of(_games(data.version(), data.db_file(),
                                         _f(players, variant, sources, date_from, date_to)), by)


def style_table(players: Any, variant: str, sources: Any, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    return _style(data.version(), data.db_file(), _f(players, variant, sources, date_from, date_to))


@st.cache_data(show_spinner=False, max_entries=32)
def _positions(v: int, path: str, player: str, kind: str) -> pd.DataFrame:
    return _read(mistake_kinds.kind_positions, player, kind)


def kind_positions(player: str, kind: str) -> pd.DataFrame:
    """The player's positions of one kind of mistake (Practice's kind filter)."""
    return _positions(data.version(), data.db_file(), player, kind)


def reference_meta() -> dict[str, Any]:
    return style.reference_meta()


def _cache_stamp() -> int:
    """Changes when ``istaka profile`` adds splits to the cache beside the database."""
    import os
    from pathlib import Path

    try:
        return os.stat(Path(data.db_file()).resolve().parent / "luck-cache").st_mtime_ns
    except OSError:
        return 0


@st.cache_data(show_spinner=False, max_entries=32)
def _skill(v: int, stamp: int, path: str, player: str, f: Filters) -> dict[str, Any] | None:
    return _read(skill_cache.cached_skill, player, **_kw(f))


def skill(player: str, variant: str, sources: Any, date_from: Any = None, date_to: Any = None) -> dict[str, Any] | None:
    """The player's skill line over the splits already made (None: no luck split installed)."""
    return _skill(data.version(), _cache_stamp(), data.db_file(), player,
                  _f([player], variant, sources, date_from, date_to))


def has_skill_line() -> bool:
    """Is the luck split installed (analysis/review/luck.py)? The skill line shows only then."""
    try:
        return all(importlib.util.find_spec(m) is not None
                   for m in ("analysis.review.luck", "dashboard.board.skill_view"))
    except (ImportError, ValueError):
        return False


__all__ = ["has_skill_line", "kind_positions", "kinds", "reference_meta", "skill", "style_table", "trend"]
