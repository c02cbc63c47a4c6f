"""What they hold, read for the dashboard: :func:`analysis.evaluate.panel.read_table` on one seat's
view, cached.

A logged position (Replay, a study) is read from the view of ``seat`` at ``step`` of the hand, with
the seed ``istaka evaluate --table`` uses (``<game>:<hand>:<step>``, the game as the deep review
names it), so the page and the command line print the same numbers. A Play game's position is
read with the seed of its hints (``<seed>:<hand>:<events>``). Only the seat's view goes in: the
hidden racks of a log never reach the reading. A seat-view log is read for its own seat only
(the others' racks are not known, not even to the engine).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import streamlit as st

from analysis.game import HandState
from analysis.players import View
from analysis.review.spots import seed_game
from dashboard.state import data, play_games

WORLDS = 64  # the worlds each reading shows (the library's default)


def replay_seed(game_seed: str, hand: int, step: int) -> str:
    """The seed of a logged position's reading: ``istaka evaluate --table``'s."""
    return f"{game_seed}:{hand}:{step}"


def read(state: HandState, seat: int, seed: str) -> dict[str, Any]:
    """The reading of ``state`` from ``seat``'s view alone (:meth:`TableRead.to_dict`)."""
    from analysis.evaluate.panel import read_table

    return read_table(View.of(state, seat), seed=seed, worlds=WORLDS).to_dict()


@st.cache_data(show_spinner=False, max_entries=256)
def _logged(v: int, path: str, game: str, hand: int, step: int, seat: int) -> dict[str, Any] | None:
    rp = data.replay(game)
    if rp is None or rp.result.error is not None:
        return None
    view = rp.result.view
    if view is not None and view != seat:  # a seat-view log: the other racks are not known
        return None
    hr = rp.hand(hand)
    if hr is None or not 0 <= step < len(hr.steps):
        return None
    state = hr.steps[step].state
    if state.over or not 0 <= seat < 4:
        return None
    return read(state, seat, replay_seed(seed_game(rp.result), hand, step))


def logged(game: str, hand: int, step: int, seat: int) -> dict[str, Any] | None:
    """The reading of a stored game's position from ``seat``'s view, cached per (game, hand, step,
    seat); None where there is nothing to read (the hand over, another seat of a seat-view log)."""
    return _logged(data.version(), data.db_file(), game, int(hand), int(step), int(seat))


def play_seed(seed: str, hand: int, events: int) -> str:
    """The seed of a Play game's reading: its hints' (the game's seed, the hand, the events so far)."""
    return f"{seed}:{hand}:{events}"


@st.cache_data(show_spinner=False, max_entries=64)
def _played(gid: str, hand: int, events: int, last: int, seat: int, seed: str,
            _state: HandState) -> dict[str, Any]:
    return read(_state, seat, play_seed(seed, hand, events))


def _mark(g: Any) -> None:
    g.hinted = True


def played(db: str, g: Any, seat: int) -> dict[str, Any] | None:
    """The reading of a Play game (:class:`analysis.selfplay.PlayGame`) as it stands, from the
    person's ``seat``; cached per (game, hand, events so far and the last of them, seat). Like a
    hint, it is help: the game is marked hinted (its log says so)."""
    s = g.state()
    if s is None or s.over:
        return None
    last = zlib.crc32(json.dumps(g.events[-1], sort_keys=True, default=str).encode()) if g.events else 0
    out = _played(str(g.id), int(g.hand), len(g.events), last, int(seat), str(g.seed), s)
    if not g.hinted:
        play_games.change(db, str(g.id), _mark)
    return out


__all__ = ["WORLDS", "logged", "play_seed", "played", "read", "replay_seed"]
