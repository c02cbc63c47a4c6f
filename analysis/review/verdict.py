"""One verdict per decision, whatever shows it: the deep review, Replay, Practice, the report
and ``istaka evaluate`` all judge a decision here, on the spots the deep review grades
(:mod:`.spots`), with the same candidates, worlds, seed and knowledge
(:func:`analysis.review.deep.judge_spot`). A surface with a stored deep review shows the stored
choice; without one it calls :func:`verdict`, which gives the same numbers (the worlds are fixed
by the seed, never by a clock)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.evaluate import PRICE_WORLDS
from analysis.game import GameResult, HandResult

from .deep import judge_spot
from .model import DEEP_BUDGET, Choice
from .spots import Spot, seed_game, spots_at


def kinds_at(hr: HandResult, step: int, seat: int | None = None) -> list[str]:
    """The kinds of the decisions taken in the position of ``step`` (``seat``: only that seat's),
    in play order: the kinds ``istaka evaluate --kind`` accepts there."""
    return [s.kind for s in spots_at(hr, step) if seat is None or s.seat == seat]


def spot_at(hr: HandResult, step: int, kind: str | None = None, seat: int | None = None) -> Spot | None:
    """The decision of ``kind`` (default: the first one) taken at ``step``, or None."""
    for s in spots_at(hr, step):
        if (kind is None or s.kind == kind) and (seat is None or s.seat == seat):
            return s
    return None


def verdict(res: GameResult, hr: HandResult, step: int, kind: str | None = None, *, seat: int | None = None,
            events: Sequence[dict[str, Any]] | None = None, worlds: int = PRICE_WORLDS,
            budget: float = DEEP_BUDGET, salt: str | None = None) -> Choice | None:
    """The verdict on the decision of ``kind`` (default the first) taken at ``step`` of ``hr`` (a
    hand of ``res`` replayed with its steps), exactly as the deep review stores it; ``events``: a
    try in place of what the log played; ``salt``: other worlds (see ``judge_spot``). None when no
    decision of that kind is taken there."""
    spot = spot_at(hr, step, kind, seat)
    if spot is None:
        return None
    return judge_spot(seed_game(res), hr, spot, budget=budget, worlds=worlds, events=events, salt=salt)


__all__ = ["kinds_at", "spot_at", "verdict"]
