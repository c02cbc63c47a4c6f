"""The Play page's hints: the expert's best three for the decision in front of a person, judged by
the one verdict every surface shows (:func:`analysis.review.deep.judge_spot`).

The hand in progress is replayed with its steps kept, the decision in front of the seat is the
spot the review will find at this step once the hand is stored (the same kind, step, seat, seed
and knowledge of the other racks), and its candidates are priced on the review's worlds. So the
hint and the later review of the same decision price every candidate on the same worlds: the
hint's best, played, is a move the review does not charge. No Streamlit here.

The decision in front of the seat: at the draw, take or draw (P1-P4); after it, with nothing
placed this turn, the placing (open, lay off, wait; O10 and the okey kept among them); with the
placing done, or when it is to wait or there is nothing to place, the discard.
"""

from __future__ import annotations

from typing import Any

from analysis.evaluate import PRICE_WORLDS, candidates
from analysis.game import HandResult
from analysis.players import View
from analysis.review.deep import judge_spot
from analysis.review.spots import Spot, seed_game
from analysis.selfplay import PlayGame

Hint = dict[str, Any]


def _placed_this_turn(g: PlayGame, seat: int) -> bool:
    """Has the seat placed anything since its draw or take (the review's placing spot is behind)?"""
    for e in reversed(g.events):
        if e.get("type") == "penalty":
            continue
        return not (e.get("type") in ("draw", "take") and e.get("seat") == seat)
    return False


def _judge(g: PlayGame, hr: HandResult, seat: int, kind: str) -> tuple[list[Hint], bool]:
    """The judge's rows for ``kind`` at the present step, best first, and whether the best is to
    do nothing (a wait, a draw)."""
    step = len(hr.steps) - 1
    state = hr.steps[step].state
    if kind == "take":
        played: tuple[dict[str, Any], ...] = ({"type": "draw", "seat": seat},)
    else:  # a stand-in for the move not yet made (every candidate is priced all the same): the first
        # legal one (after a take an unopened seat cannot wait, P2)
        cands = candidates(View.of(state, seat), kind)
        if not cands:
            return [], False
        played = tuple(dict(e) for e in cands[0].events)
    game = seed_game(g.game())
    c = judge_spot(game, hr, Spot(kind, step, seat, played, 0), worlds=PRICE_WORLDS)
    if c is not None and c.cost > 0:
        # the stand-in was charged, so its verdict priced the contenders again on more worlds; the
        # verdict on the recommended move itself is the one the review gives when it is played
        # (None when that move ends the hand: the review has no such decision, the first verdict stays)
        c = judge_spot(game, hr, Spot(kind, step, seat, tuple(c.best_events), 0), worlds=PRICE_WORLDS) or c
    if c is None:
        return [], False
    rows = c.candidates  # the recommended first, then by expected score (the judge's own order)
    out = [{"label": r.get("move"), "kind": kind, "events": [dict(e) for e in r.get("events") or []],
            "mean": None if r.get("expected") is None or c.forced is not None else round(float(r["expected"]), 1),
            "se": None if c.forced is not None else r.get("se")} for r in rows]
    idle = not out or not out[0]["events"]
    return out, idle


def best_three(g: PlayGame, seat: int, n: int = 3) -> list[Hint]:
    """The judge's best ``n`` candidates for the decision in front of ``seat`` (its own view), each
    ``{"label", "kind", "events", "mean", "se"}``, best first (a lower expected score is better);
    ``mean`` is None where the decision is forced (one legal move)."""
    s = g.state()
    if s is None or s.over or s.turn != seat:
        return []
    hr = g.hand_result()
    if s.phase == "draw":
        return _judge(g, hr, seat, "take")[0][:n]
    if not _placed_this_turn(g, seat):
        rows, idle = _judge(g, hr, seat, "place")
        if rows and not idle:
            return rows[:n]
    return _judge(g, hr, seat, "discard")[0][:n]


__all__ = ["best_three"]
