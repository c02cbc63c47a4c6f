"""One player's view of a replayed hand: the other racks and the deck as tile backs
with their counts, the other seats' draws unnamed, as that player saw the hand. The table itself
is :func:`dashboard.board.tiles_view.table_html` with ``viewer=``; this module adds what the player knew
of the other racks and the move list's words. Any page (Replay, a study) can draw it with
:func:`board_html`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from analysis.game import HandState, Step, Tile
from analysis.review.deep import seat_knows

from dashboard.words.seatview_words import t as sv
from dashboard.board.tiles_view import table_html


def known_tiles(steps: Sequence[Step], step: int, viewer: int) -> dict[int, list[Tile]]:
    """The tiles ``viewer`` knows sit in the other racks at ``step``: the discards it saw taken and
    not yet placed (as the evaluator's view of that position has them)."""
    return seat_knows(steps, step, viewer)


def board_html(steps: Sequence[Step], step: int, players: Sequence[str], lang: str, viewer: int,
               totals: Sequence[int] | None = None) -> str:
    """The table at ``step`` as ``viewer`` saw it."""
    state: HandState = steps[step].state
    return table_html(state, players, lang, totals=totals, viewer=viewer, known=known_tiles(steps, step, viewer))


def describe_as(viewer: int, describe: Callable[..., str]) -> Callable[..., str]:
    """A move-list ``describe`` that does not name the tile another seat drew (nobody saw it)."""

    def words(ev: Mapping[str, Any], players: Sequence[str], lang: str) -> str:
        if ev.get("type") == "draw" and ev.get("seat") != viewer:
            return sv("ev_hidden_draw", lang)
        return describe(ev, players, lang)

    return words


def moves(frame: pd.DataFrame, steps: Sequence[Step], players: Sequence[str], lang: str, viewer: int,
          describe: Callable[..., str]) -> pd.DataFrame:
    """The Replay's move list (``#``, seat name, words) with the other seats' draws unnamed."""
    words = describe_as(viewer, describe)
    out = frame.copy()
    out[" "] = [words(steps[int(i)].event, players, lang) for i in out["#"]]
    return out


__all__ = ["board_html", "describe_as", "known_tiles", "moves"]
