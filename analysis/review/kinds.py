"""The decisions the evaluator's own candidates leave out, graded by the deep review:
showing the gösterge twin or not (O7), declaring çift or not (O10), which lay-offs of
the best turn to make and which to hold back, and the choice of per or çift when both open.

- **Show (O7)**: a seat holding the indicator's twin before its first draw, where the preset
  allows showing it, chooses to show or not; both are played out from that moment (kind
  ``show``). The compiled rollout model plays a shown twin as wild in pairs (T4, O7; a declined
  show marks the seat started, so the model cannot show later); the Python reference model does
  not, so there both score alike in every world and the decision is forced (``identical``).
- **Declare (O10)**: where the preset requires a declaration before a çift opening, an unopened
  seat that has not declared may declare now (and, if its çift then reach the threshold, open
  with them in the same turn), or not.
- **The okey kept** (X6, S3): where the best turn places an okey, the best turn of the rack
  without its okeys, so that the placing that leaves an okey to be taken is priced against one
  that keeps it (the rollout charges the X6 to the seat that placed it).
- **Held-back lay-offs**: besides the exact solver's best turn and placing nothing, the best turn
  with one of its lay-offs held back, and with all of them held back, each kept when it is legal
  and leaves a different rack. At most :data:`MAX_SUBSETS` such variants a decision (the first
  lay-offs of the line): the bound keeps a decision's pricing under a few times the default.
  They are built in :mod:`analysis.evaluate.plans`, where the ``expert`` bot weighs them too.

The categories of these kinds are in :mod:`.model` (``worse_show``, ``worse_declare``,
``worse_layoffs``) with their words in both languages (:mod:`.words`).
"""

from __future__ import annotations

from collections.abc import Sequence

from analysis.evaluate import Candidate, place_candidate
from analysis.evaluate.plans import MAX_SUBSETS, held_back, okey_kept, state_after
from analysis.game import HandState
from analysis.players import View


def declare_candidates(view: View, plain: Sequence[Candidate]) -> list[Candidate]:
    """O10: declaring çift now (alone, and with a çift opening when the çift then reach)."""
    st, seat = view.state, view.seat
    r = st.rules
    if not r.declare_pairs or st.declared[seat] or st.opened[seat] is not None:
        return []
    dec = {"type": "declare", "seat": seat, "what": "pairs"}
    out = [place_candidate((dec,), "declare")]
    after = state_after(st, (dec,))
    if after is None:
        return []
    from analysis.evaluate import candidates

    for c in candidates(View.of(after, seat), "place"):
        if c.events and c.events[0].get("pairs"):
            out.append(place_candidate((dec, *c.events), f"declare, {c.label}"))
    return out


def show_candidates(state: HandState, seat: int) -> list[Candidate] | None:
    """O7: show the twin or not, when ``seat`` holds it before its first draw (the deal included:
    the starter's first turn is a placing and a discard, and the others may show before theirs);
    else None."""
    r = state.rules
    if not r.gosterge or state.started[seat] or state.shown[seat]:
        return None
    if state.indicator not in state.racks[seat]:
        return None
    ev = {"type": "show", "seat": seat, "tile": str(state.indicator)}
    if state_after(state, (ev,)) is None:
        return None
    return [Candidate("show", (), "no show"), Candidate("show", (ev,), "show")]


__all__ = ["MAX_SUBSETS", "declare_candidates", "held_back", "okey_kept", "show_candidates"]
