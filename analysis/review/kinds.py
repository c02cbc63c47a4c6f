"""The decisions the evaluator's own candidates leave out, graded by the deep review (issue 21,
item 3): showing the gösterge twin or not (O7), declaring çift or not (O10), which lay-offs of
the best turn to make and which to hold back, and the choice of per or çift when both open.

- **Show (O7)**: a seat holding the indicator's twin before its first draw, where the preset
  allows showing it, chooses to show or not; both are played out from that moment (kind
  ``show``). The compiled rollout model plays a shown twin as wild in pairs (T4, O7; a declined
  show marks the seat started, so the model cannot show later); the Python reference model does
  not, so there both score alike in every world and the decision is forced (``identical``).
- **Declare (O10)**: where the preset requires a declaration before a çift opening, an unopened
  seat that has not declared may declare now (and, if its çift then reach the threshold, open
  with them in the same turn), or not.
- **Held-back lay-offs**: besides the exact solver's best turn and placing nothing, the best turn
  with one of its lay-offs held back, and with all of them held back, each kept when it is legal
  and leaves a different rack. At most :data:`MAX_SUBSETS` such variants a decision (the first
  lay-offs of the line): the bound keeps a decision's pricing under a few times the default.

The categories of these kinds are in :mod:`.model` (``worse_show``, ``worse_declare``,
``worse_layoffs``) with their words in both languages (:mod:`.words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.evaluate import Candidate, place_candidate
from analysis.game import HandState, IllegalMove, apply
from analysis.players import View, playable

MAX_SUBSETS = 4  # held-back lay-off variants per placing decision

Event = dict[str, Any]


def _rack_after(state: HandState, seat: int, events: Sequence[Event]) -> tuple | None:
    st = state
    try:
        for e in events:
            st = apply(st, dict(e))
    except (IllegalMove, ValueError):
        return None
    return tuple(sorted(st.racks[seat]))


def held_back(view: View, cands: Sequence[Candidate]) -> list[Candidate]:
    """The best turn with one lay-off held back, and with every lay-off held back (bounded)."""
    best = next((c for c in cands if c.label == "best turn"), None)
    if best is None:
        return []
    lay = [i for i, e in enumerate(best.events) if e.get("type") == "layoff"]
    if not lay:
        return []
    state, seat = view.state, view.seat
    seen = {r for r in (_rack_after(state, seat, c.events) for c in cands) if r is not None}
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
        rack = _rack_after(state, seat, evs)
        if rack is None or rack in seen:
            continue
        seen.add(rack)
        out.append(place_candidate(evs, label))
    return out


def declare_candidates(view: View, plain: Sequence[Candidate]) -> list[Candidate]:
    """O10: declaring çift now (alone, and with a çift opening when the çift then reach)."""
    st, seat = view.state, view.seat
    r = st.rules
    if not r.declare_pairs or st.declared[seat] or st.opened[seat] is not None:
        return []
    dec = {"type": "declare", "seat": seat, "what": "pairs"}
    out = [place_candidate((dec,), "declare")]
    try:
        after = apply(st, dec)
    except (IllegalMove, ValueError):
        return []
    from analysis.evaluate import candidates

    for c in candidates(View.of(after, seat), "place"):
        if c.events and c.events[0].get("pairs"):
            out.append(place_candidate((dec, *c.events), f"declare, {c.label}"))
    return out


def show_candidates(state: HandState, seat: int) -> list[Candidate] | None:
    """O7: show the twin or not, when ``seat`` holds it before its first draw; else None."""
    r = state.rules
    if not r.gosterge or state.started[seat] or state.shown[seat] or state.phase != "draw":
        return None
    if state.indicator not in state.racks[seat]:
        return None
    ev = {"type": "show", "seat": seat, "tile": str(state.indicator)}
    try:
        apply(state, ev)
    except (IllegalMove, ValueError):
        return None
    return [Candidate("show", (), "no show"), Candidate("show", (ev,), "show")]


__all__ = ["MAX_SUBSETS", "declare_candidates", "held_back", "show_candidates"]
