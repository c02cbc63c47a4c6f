"""The luck and skill split of one seat's hand in the dashboard (:mod:`analysis.review.luck`):
computed on demand (a button, never at page load), cached per database version, game, hand and
seat, as plain dicts Streamlit can keep. No drawing here (:mod:`dashboard.board.luck_view`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analysis.game import HIDDEN
from analysis.review.luck import HandSplit, split_hand
from analysis.store.profile import PROFILE_WORLDS

from dashboard.state import data

WORLDS = PROFILE_WORLDS  # the worlds each value is priced on: the profile's, so both agree


@st.cache_data(show_spinner=False, max_entries=256)
def _split(v: int, path: str, game: str, index: int, seat: int, worlds: int) -> dict[str, Any] | str:
    rp = data.replay(game)
    if rp is None or not 0 <= index < len(rp.result.hands):
        return "missing"
    try:
        return split_hand(rp.result, index, seat, worlds=worlds).to_dict()
    except ValueError as e:
        return "hidden" if "hidden" in str(e) else "not_ended"


def split(game: str, index: int, seat: int, worlds: int | None = None) -> HandSplit | str:
    """The split of hand ``index`` (0-based in the replay) for ``seat``, or why there is none:
    ``missing``, ``hidden`` (a seat-view log's other seat), ``not_ended``. ``worlds``: default
    :data:`WORLDS`."""
    got = _split(data.version(), data.db_file(), game, index, seat, WORLDS if worlds is None else worlds)
    return got if isinstance(got, str) else HandSplit.from_dict(got)


def done(game: str, index: int, seat: int) -> bool:
    """Was this split asked for in this session (so it is drawn at once, from the cache)?"""
    return bool(st.session_state.get(_flag(game, index, seat)))


def ask(game: str, index: int, seat: int) -> None:
    st.session_state[_flag(game, index, seat)] = True


def _flag(game: str, index: int, seat: int) -> str:
    return f"luck_asked:{game}:{index}:{seat}"


def why_not(game: str, index: int, seat: int) -> str | None:
    """Why the hand cannot be split for the seat, known without splitting it (None: it can be)."""
    rp = data.replay(game)
    if rp is None or not 0 <= index < len(rp.result.hands):
        return "missing"
    hr = rp.result.hands[index]
    if not hr.steps or HIDDEN in hr.steps[0].state.racks[seat]:
        return "hidden"
    if not hr.valid or hr.result not in ("finish", "exhausted", "void") or not hr.steps[-1].state.over:
        return "not_ended"
    return None


__all__ = ["WORLDS", "ask", "done", "split", "why_not"]
