"""The solver's suggestion for one turn, cached by (game, hand, step, seat)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analysis.game import HandState

from dashboard.state import data

try:
    from analysis import solver as _solver
except ImportError:  # the solver is optional for the replayer: the board still works
    _solver = None  # type: ignore[assignment]


def available() -> bool:
    return _solver is not None


@st.cache_resource(show_spinner=False, max_entries=4096)  # read-only dicts: no copy per rerun
def _solve(game: str, hand: int, step: int, seat: int, v: int, _state: HandState) -> dict[str, Any] | None:
    assert _solver is not None
    return _solver.solve(_state, seat)


def solve(game: str, hand: int, step: int, state: HandState, seat: int) -> dict[str, Any] | None:
    """``analysis.solver.solve(state, seat)`` for the state at ``step``; None without a solver."""
    if _solver is None:
        return None
    try:
        return _solve(game, hand, step, seat, data.version(), state)
    except ImportError:  # a solver module still missing: show the board without suggestions
        return None
