"""A candidate decision: what the seat would play (a draw, a take, a placing, a discard) as
log events, with a short label."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analysis.game import Tile

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One decision: ``kind`` is draw, take, place or discard; ``events`` what the seat plays
    (a draw's tile is unknown to the seat, so its event carries none)."""

    kind: str
    events: tuple[Event, ...]
    label: str

    @property
    def tile(self) -> Tile | None:
        if self.kind in ("take", "discard"):
            return Tile.parse(self.events[0]["tile"])
        return None


def draw_candidate(seat: int) -> Candidate:
    return Candidate("draw", ({"type": "draw", "seat": seat},), "draw")


def take_candidate(seat: int, t: Tile) -> Candidate:
    return Candidate("take", ({"type": "take", "seat": seat, "tile": str(t)},), f"take {t}")


def discard_candidate(seat: int, t: Tile) -> Candidate:
    return Candidate("discard", ({"type": "discard", "seat": seat, "tile": str(t)},), f"discard {t}")


def place_candidate(events: Sequence[Event], label: str) -> Candidate:
    return Candidate("place", tuple(events), label)


# ---- what the seat has not seen --------------------------------------------------------------


__all__ = ["Candidate", "Event", "discard_candidate", "draw_candidate", "place_candidate", "take_candidate"]
