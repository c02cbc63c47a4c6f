"""Placing candidates from the exact solver's plans: open with points, with pairs, or wait;
once opened, the best turn (melds, pairs, lay-offs, okey swaps) or nothing."""

from __future__ import annotations

from typing import Any

from analysis.players import (
    View,
    event,
    finishing_below,
    group_text,
    layoff_events,
    opening_plans,
    playable,
    turn_events,
)
from analysis.solver import best_turn

from .candidate import Candidate, place_candidate


def _ok(v: View, events: list[dict[str, Any]]) -> bool:
    return bool(events) and playable(v, events)


def place_candidates(v: View) -> list[Candidate]:
    """Legal placings of this turn, best plans only: points opening, pairs opening and wait for an
    unopened seat; best turn and nothing for an opened one. A seat that took a discard while
    unopened must open with it (P2): no wait then."""
    st = v.state
    out: list[Candidate] = []
    if not v.opened:
        pts, prs = opening_plans(v, None)
        r = v.rules
        if pts.melds and (pts.reaches or finishing_below(v, pts)):
            evs = [event("open", v.seat, melds=[group_text(m) for m in pts.melds])]
            if r.layoff_opening_turn:
                evs += layoff_events(v.seat, pts.layoffs)
            if _ok(v, evs):
                out.append(place_candidate(evs, f"open {pts.value} points"))
        declared_ok = not r.declare_pairs or st.declared[v.seat]
        if declared_ok and prs.pairs and prs.reaches:
            evs = [event("open", v.seat, pairs=[group_text(p) for p in prs.pairs])]
            if _ok(v, evs):
                out.append(place_candidate(evs, f"open {prs.count} pairs"))
        if not (st.took is not None and st.took_unopened):
            out.append(place_candidate((), "wait"))
        return out
    evs = turn_events(v, best_turn(st, v.seat))
    if _ok(v, evs):
        out.append(place_candidate(evs, "best turn"))
    out.append(place_candidate((), "nothing"))
    return out


__all__ = ["place_candidates"]
