"""The ``expert`` bot: draws or takes, openings and discards chosen by the evaluator.

It plays like ``solver`` where the choice is clear (a discard that joins nothing in its rack is not
taken; a best turn that empties the rack is played) and asks :func:`.core.evaluate` for the rest:
take or draw, open now (melds or pairs) or wait; once opened, the exact solver's best turn, placing
nothing, or the best turn with some of its lay-offs held back (:func:`.plans.held_back`); and which
tile to discard among every tile the rules allow (the clear losers dropped after a few worlds).
The solver's own choice is the default; the expert leaves it only when another candidate is better
by at least ``Z`` standard errors of their paired difference (the evaluator is noisy; a coin-flip
change of mind costs more than it wins: ``Z`` = 0.5 and 2 both played worse than 1 in
``101-classic``, see docs/figures.md, Expert strength). It declares O10 as the rollout model does. Its seeds come from
the bot's own random generator, so a game is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from analysis.game import Tile
from analysis.players import (
    SolverBot,
    View,
    choose_opening,
    discard_order,
    event,
    opening_plans,
    usefulness,
)
from analysis.solver import quick as BM

from .core import (
    Candidate,
    Evaluation,
    best,
    discard_candidate,
    draw_candidate,
    evaluate,
    take_candidate,
)
from .plans import held_back, place_candidates, rack_after

DISCARD_WIDTH = 16  # discard candidates, in the heuristic's order: every distinct tile the rules allow
Z = 1.0  # leave the solver's choice only when another is better by Z standard errors of the difference
WORLDS = 96  # sampled worlds per decision (fixed, not timed: a match is reproducible on any machine);
# 48 with the Python rollout model, doubled with the compiled one

Sink = Callable[[View, str, Evaluation], None]


class ExpertBot(SolverBot):
    """Decisions by expected hand score (see :mod:`analysis.evaluate`)."""

    kind = "expert"
    belief: str | None = None  # how its worlds are sampled: None = the evaluator's default (core.BELIEF)
    model: str | None = None  # the rollout model (core.evaluate's ``model``): None = the default
    sink: Sink | None = None  # a measurement hook (calibration): every evaluation the bot acts on

    def __init__(self, rng: random.Random, worlds: int | None = None) -> None:
        super().__init__(rng)
        self.worlds = WORLDS if worlds is None else worlds

    def _choose(self, v: View, cands: list[Candidate], what: str, default: int = 0) -> Candidate:
        evs = evaluate(v, cands, seed=self.rng.getrandbits(32), worlds=self.worlds, belief=self.belief,
                       model=self.model)
        b = best(evs)
        d = evs[default]
        if b is not d:
            m, se, _ = b.diff(d)
            if not m < -Z * se:
                b = d
        if ExpertBot.sink is not None:
            ExpertBot.sink(v, what, b)
        return b.candidate

    def take(self, v: View) -> bool:
        t = v.takeable()
        if t is None:
            return False
        face = v.okey if t.is_joker else t
        c, wild = BM.counts_of(v.rack, v.okey)
        fits = v.state.fits_table(t) is not None
        if not fits and not c[face.index] and usefulness(t, v.rack, v.okey, c) == 0 and not wild:
            return False  # it joins nothing
        if not v.opened:
            pts, prs = opening_plans(v, t, exact=True)
            if choose_opening(v.after(event("take", v.seat, tile=str(t))), pts, prs) is None:
                return False  # P2: no opening would use it
        default = 1 if super().take(v) else 0
        return self._choose(v, [draw_candidate(v.seat), take_candidate(v.seat, t)], "take", default).kind == "take"

    def declare(self, v: View) -> bool:
        """O10: as the rollout model declares (declaring costs nothing under the rules; the
        pairs opening it allows is then weighed at the placing like any other)."""
        c, wild = BM.counts_of(v.rack, v.okey)
        return not v.opened and sum(n // 2 for n in c) + wild >= v.rules.open_pairs - 1

    def place(self, v: View) -> list[dict[str, Any]]:
        if v.opened:
            return self._turn(v)
        key = (v.state.hand, v.ply, "open")
        if self.memo.get("decided") == key:
            return []
        self.memo["decided"] = key
        pts, prs = opening_plans(v, None, exact=True)
        cands = place_candidates(v, (pts, prs))
        self.memo["plans"] = (v.rack, pts, prs)
        if len(cands) == 1:
            return list(cands[0].events)
        ev = choose_opening(v, pts, prs)
        want = "wait" if ev is None else ("points" if "melds" in ev else "pairs")
        default = next((i for i, c in enumerate(cands) if c.label.endswith(want)), len(cands) - 1)
        return list(self._choose(v, cands, "place", default).events)

    def _turn(self, v: View) -> list[dict[str, Any]]:
        """An opened seat's placing: the best turn, nothing, or the best turn holding lay-offs
        back. The turn an opening is made, its lay-offs were weighed with it (L6): the solver's
        rest of the turn is played as it is."""
        if v.state.opened_this_turn:
            return super().place(v)
        key = (v.state.hand, v.ply, "turn")
        if self.memo.get("decided") == key:
            return []
        self.memo["decided"] = key
        cands = place_candidates(v)
        if cands[0].label != "best turn":
            return super().place(v)  # the plan reads a rule differently: the solver's way
        left = rack_after(v.state, v.seat, cands[0].events)
        if left is None or len(left) <= 1:
            return list(cands[0].events)  # it finishes (or the engine decides): nothing to weigh
        cands += held_back(v, cands)
        return list(self._choose(v, cands, "place").events)

    def discard(self, v: View) -> Tile:
        if len(v.rack) == 1:
            return v.rack[0]
        order = discard_order(v, danger=True, loose=self._loose(v))
        picks: list[Tile] = []
        for t in order:
            if t not in picks and v.legal(event("discard", v.seat, tile=str(t))) is not None:
                picks.append(t)
                if len(picks) >= DISCARD_WIDTH:
                    break
        if len(picks) <= 1:
            return picks[0] if picks else order[0]
        t = self._choose(v, [discard_candidate(v.seat, x) for x in picks], "discard").tile
        assert t is not None
        return t

    def _loose(self, v: View) -> list[Tile] | None:
        """The tiles outside the opening being built (the solver's discard reads the same)."""
        plans = self.memo.get("plans")
        if v.opened or plans is None or plans[0] != v.rack:
            return None
        _, pts, prs = plans
        if not pts.melds and not prs.pairs:
            return None  # nothing exact to protect: the quick finder's leftovers
        return list(pts.left if pts.value >= prs.count * 10 else prs.left)


class UniformExpertBot(ExpertBot):
    """The expert sampling the hidden tiles uniformly, whatever the other seats did (the evaluator
    before it read the table): kept so the two can be matched and a review repeated either way."""

    kind = "expert-uniform"
    belief = "uniform"


class DealtExpertBot(ExpertBot):
    """The expert whose worlds are dealt from the direct reading of the table (:mod:`.reading`), an
    opt-in belief: kept so it can be matched against ``expert`` and ``expert-uniform``."""

    kind = "expert-dealt"
    belief = "dealt"


class CarelessExpertBot(ExpertBot):
    """The expert whose rollouts play the policy before its discards weighed X5 (every seat of the
    model throws what it least needs, whatever the next seat could open with): kept so the two can
    be matched."""

    kind = "expert-careless"
    model = "careless"


__all__ = ["CarelessExpertBot", "DISCARD_WIDTH", "DealtExpertBot", "ExpertBot", "UniformExpertBot", "Z"]
