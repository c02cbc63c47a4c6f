"""The rules engine (docs/rules.md): ``apply(state, event) -> state``, and a turn's discard.

A replay is a fold of :func:`apply` over a hand's events, and stepping back is indexing. An
illegal move raises :class:`~analysis.game.state.IllegalMove` naming the rule it breaks; the
state it was applied to is untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .moves import (
    event_seat,
    event_tile,
    on_declare,
    on_draw,
    on_return,
    on_show,
    on_take,
    remove_tiles,
    replace_at,
)
from .placing import on_layoff, on_meld, on_open, on_swap, on_takeback
from .scoring import FinishInfo, score_hand
from .state import HandState, IllegalMove, Penalty, evolve


def apply(state: HandState, event: Mapping[str, Any]) -> HandState:
    """The state after ``event``; raises IllegalMove (state unchanged) for a forbidden move."""
    kind = event.get("type")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise IllegalMove(f"event type {kind!r} cannot occur inside a hand", "P1")
    if state.phase == "over" and kind != "penalty" and kind != "end":
        raise IllegalMove(f"the hand is over ({state.result}); no {kind} after it", "E1")
    new = handler(state, event)
    if new is state:
        return evolve(state, last_event=event)
    new.__dict__["last_event"] = event  # new is ours alone until returned
    return new



# what a discard resets for the next turn
_TURN_RESET: dict[str, Any] = dict(took=None, took_unopened=False, returned=False, turn_base=None,
                                   opened_this_turn=False, end_counts=(), layoffs_this_turn=0,
                                   placed_this_turn=(), took_back=False,
                                   phase="draw")


def on_discard(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    t = event_tile(ev)
    r = state.rules
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before discarding", "P1")
    rack = remove_tiles(state.racks[seat], (t,), seat)
    finishing = not rack
    opened = state.opened
    op = opened[seat]
    pens = state.penalties
    if state.took is not None and state.took_unopened:
        took = state.took
        used = op is not None and any(p is took for p in state.placed_this_turn)
        if not used:
            raise IllegalMove(f"seat {seat} took {state.took} without opening with it; he must return it and draw", "P2")
    others_open = (opened[0] is not None) + (opened[1] is not None) + (opened[2] is not None) \
        + (opened[3] is not None) - (op is not None) > 0
    if state.opened_this_turn and op is not None:
        need = state.points_threshold(seat) if op.kind == "points" else state.pairs_threshold(seat)
        if op.value < need:
            o9 = r.open_below_finishing
            if not (finishing and (o9 == "yes" or (o9 == "elden" and not others_open))):
                what = f"{op.value} points" if op.kind == "points" else f"{op.value} pairs"
                raise IllegalMove(f"seat {seat} opened with {what} but needs {need}; it must be taken back",
                                  "O1" if op.kind == "points" else "O3")
        if r.siler and ((op.kind == "points" and op.value >= r.siler_points)
                        or (op.kind == "pairs" and op.value >= r.siler_pairs)):
            pens += (Penalty(seat, -r.penalty_unit, "O8"),)
        if state.took is not None and state.took_unopened and r.cezali and r.x5:
            prev = (seat - 1) % 4
            val = state.okey.number if state.took.is_joker else state.took.number
            pens += (Penalty(prev, r.x5_factor * val, "X5"),)
    if not finishing and r.cezali:
        if t == state.okey:
            pens += (Penalty(seat, r.penalty_unit, "X3"),)
        elif state.fits_table(t) is not None:
            pens += (Penalty(seat, r.penalty_unit, "X4"),)
    s = evolve(state, **_TURN_RESET, racks=replace_at(state.racks, seat, rack),
                discards=replace_at(state.discards, seat, state.discards[seat] + (t,)), penalties=pens,
                started=replace_at(state.started, seat, True), takeable=seat, turn=(seat + 1) % 4)
    if finishing:
        kinds = []
        if t == state.okey:
            kinds.append("okey")
        if state.opened_this_turn and not others_open:
            kinds.append("elden")  # E2
        if op is not None and op.kind == "pairs":
            kinds.append("pairs")
        info = FinishInfo(result="finish", finisher=seat, kinds=tuple(kinds), others_open=others_open)
        return evolve(s, phase="over", result="finish", finisher=seat, finish_kinds=tuple(kinds),
                       scores=score_hand(r, info, s.racks, s.opened, state.okey), takeable=None)
    if state.deck_count == 0:
        info = FinishInfo(result="exhausted", finisher=None, kinds=(), others_open=True)
        return evolve(s, phase="over", result="exhausted",
                       scores=score_hand(r, info, s.racks, s.opened, state.okey), takeable=None)
    return s


def on_penalty(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return state  # recorded penalties are compared by the replay, not applied


def on_end(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return state


_HANDLERS = {
    "draw": on_draw, "take": on_take, "return": on_return, "show": on_show, "declare": on_declare,
    "open": on_open, "meld": on_meld, "layoff": on_layoff, "swap": on_swap, "takeback": on_takeback,
    "discard": on_discard, "penalty": on_penalty, "end": on_end,
}


__all__ = ["apply"]
