"""Placing candidates from the exact solver's plans: open with points, with pairs, or wait;
once opened, the best turn (melds, pairs, lay-offs, okey swaps) or nothing, and the best turn with
some of its lay-offs held back (:func:`held_back`, graded by the deep review and weighed by the
``expert`` bot)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analysis.game import HandState, IllegalMove, apply
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

from .candidate import Candidate, Event, place_candidate

MAX_SUBSETS = 4  # held-back lay-off variants per placing decision


def _ok(v: View, events: list[dict[str, Any]]) -> bool:
    return bool(events) and playable(v, events)


def place_candidates(v: View, plans: tuple[Any, Any] | None = None) -> list[Candidate]:
    """Legal placings of this turn, best plans only: points opening, pairs opening and wait for an
    unopened seat; best turn and nothing for an opened one. A seat that took a discard while
    unopened must open with it (P2): no wait then. ``plans``: the unopened seat's
    ``opening_plans(v, None, exact=True)`` when the caller has them already."""
    st = v.state
    out: list[Candidate] = []
    if not v.opened:
        pts, prs = plans if plans is not None else opening_plans(v, None, exact=True)
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


def state_after(state: HandState, events: Sequence[Event]) -> HandState | None:
    """The hand after ``events``, one after another; None when the engine refuses one."""
    st = state
    try:
        for e in events:
            st = apply(st, dict(e))
    except (IllegalMove, ValueError):
        return None
    return st


def rack_after(state: HandState, seat: int, events: Sequence[Event]) -> tuple | None:
    """The seat's rack, sorted, after ``events``; None when the engine refuses one."""
    st = state_after(state, events)
    return None if st is None else tuple(sorted(st.racks[seat]))


def held_back(view: View, cands: Sequence[Candidate]) -> list[Candidate]:
    """The best turn with one lay-off held back, and with every lay-off held back: each variant
    kept when it is legal and leaves a rack no other candidate leaves, at most
    :data:`MAX_SUBSETS` (the first lay-offs of the line), which keeps a decision's pricing under
    a few times the default."""
    best = next((c for c in cands if c.label == "best turn"), None)
    if best is None:
        return []
    lay = [i for i, e in enumerate(best.events) if e.get("type") == "layoff"]
    if not lay:
        return []
    state, seat = view.state, view.seat
    seen = {r for r in (rack_after(state, seat, c.events) for c in cands) if r is not None}
    out: list[Candidate] = []
    variants: list[tuple[list[Event], str]] = []
    for i in lay[:MAX_SUBSETS]:
        kept = [dict(e) for j, e in enumerate(best.events) if j != i]
        tiles = " ".join(str(x) for x in best.events[i].get("tiles", []))
        variants.append((kept, f"best turn holding back {tiles}"))
    if len(lay) > 1:
        variants.append(([dict(e) for e in best.events if e.get("type") != "layoff"], "best turn without lay-offs"))
    for evs, label in variants:
        if len(out) >= MAX_SUBSETS:
            break
        if not evs or not playable(view, evs):
            continue
        rack = rack_after(state, seat, evs)
        if rack is None or rack in seen:
            continue
        seen.add(rack)
        out.append(place_candidate(evs, label))
    return out


def okey_kept(view: View, cands: Sequence[Candidate]) -> list[Candidate]:
    """The best turn of an opened seat that keeps its okeys off the table, where the best turn
    places one: an okey on the table can be taken by a swap, and the seat that placed it pays X6
    (S3). The exact solver's best turn on the rack without its okeys, when the engine takes it
    and it leaves a rack no other candidate leaves."""
    best = next((c for c in cands if c.label == "best turn"), None)
    state, seat = view.state, view.seat
    okey = state.okey
    held = sum(1 for t in view.rack if t == okey)
    if best is None or not held:
        return []
    after = state_after(state, best.events)
    if after is None or sum(1 for t in after.racks[seat] if t == okey) == held:
        return []  # the best turn keeps its okeys already
    bare = tuple(t for t in state.racks[seat] if t != okey)
    plain = replace(state, racks=tuple(bare if k == seat else r for k, r in enumerate(state.racks)))
    evs = turn_events(View.of(plain, seat), best_turn(plain, seat))
    if not evs or not playable(view, evs):
        return []
    seen = {r for r in (rack_after(state, seat, c.events) for c in cands) if r is not None}
    rack = rack_after(state, seat, evs)
    if rack is None or rack in seen:
        return []
    return [place_candidate(evs, "best turn keeping the okey")]


__all__ = ["MAX_SUBSETS", "held_back", "okey_kept", "place_candidates", "rack_after", "state_after"]
