"""Practice from one's own mistakes: grade the tiles a player picks to place in a position.

The position is the state where the seat had to decide (after its draw). An unopened seat picks
the tiles of its opening (melds, with opening-turn lay-offs where the preset allows them, or
pairs); an opened seat picks the tiles it lays off or places as new melds or pairs. The pick is
valid when every picked tile can be placed at once; its exposure (docs/review-design.md) is compared
with the best the solver finds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from analysis import solver as S
from analysis.game import HandState
from analysis.game import Tile
from analysis.solver.encoding import encode, table_slots
from analysis.solver.search import Problem, search

from .options import exposure, openings, siler_cost, turn_plan

PRACTICE_CATEGORIES = ("missed_opening", "weaker_opening", "pairs_over_melds", "melds_over_pairs",
                       "missed_layoff", "missed_finish", "okey_kept")

_BIG = 1 << 10  # tiles placed first, then their value


@dataclass(frozen=True, slots=True)
class Grade:
    valid: bool  # every picked tile placed at once (and a tile kept to discard, P5)
    kind: str | None  # points, pairs, or turn (an opened seat)
    value: int  # opening value (points or pairs), 0 for a turn
    reaches: bool  # the opening reaches the threshold (always true for a turn)
    exposure: int
    best_exposure: int
    best: dict[str, Any]
    reason: str = ""

    @property
    def cost(self) -> int:
        return max(0, self.exposure - self.best_exposure)

    @property
    def right(self) -> bool:
        return self.valid and self.reaches and self.cost == 0


def _all_placed(picked: Sequence[Tile], state: HandState, *, runs: bool, pairs: bool, slots: bool) -> int | None:
    """The greatest value placing every picked tile at once, or None when some tile cannot go."""
    counts, wilds = encode(picked, state.okey)
    rs, gs = table_slots(state.table, state.rules, state.end_counts) if slots else ((), ())
    p = Problem(counts, wilds, (1, _BIG, 1, _BIG), runs, pairs, None, rs, gs)
    sol = search(p)
    if sol is None or sol.used != len(picked):
        return None
    return sol.score - _BIG * sol.used


def grade(state: HandState, seat: int, picked: Sequence[Tile]) -> Grade:
    """How good placing ``picked`` (tiles of the seat's rack) is in ``state``."""
    rack = Counter(state.racks[seat])
    want = Counter(picked)
    rules = state.rules
    if any(want[t] > rack[t] for t in want):
        raise ValueError(f"seat {seat} does not hold {' '.join(str(t) for t in picked)} [P1]")
    rest = list((rack - want).elements())
    op = state.opened[seat]
    if op is None:
        pts, prs = openings(state, seat)
        reach = [o for o in (pts, prs) if o.reaches]
        best_exp = min((o.exposure for o in reach), default=rules.unopened_penalty)
        best = min(reach, key=lambda o: o.exposure).plan if reach else {}
        if not picked:
            return Grade(True, None, 0, False, rules.unopened_penalty, best_exp, best, "nothing placed")
        if not rest:
            return Grade(False, None, 0, False, rules.unopened_penalty, best_exp, best, "keep a tile to discard (P5)")
        opts = []
        v = _all_placed(picked, state, runs=True, pairs=False, slots=rules.layoff_opening_turn)
        if v is not None:
            ok = v >= state.points_threshold(seat)
            e = S.rack_penalty(rest, state.okey, rules) - siler_cost(rules, "points", v) if ok else rules.unopened_penalty
            opts.append(Grade(True, "points", v, ok, e, best_exp, best, "" if ok else "under the threshold (O1)"))
        if len(picked) % 2 == 0 and _all_placed(picked, state, runs=False, pairs=True, slots=False) is not None:
            n = len(picked) // 2
            ok = n >= state.pairs_threshold(seat)
            e = S.rack_penalty(rest, state.okey, rules, pairs=True) - siler_cost(rules, "pairs", n) if ok \
                else rules.unopened_penalty
            opts.append(Grade(True, "pairs", n, ok, e, best_exp, best, "" if ok else "too few pairs (O3)"))
        if not opts:
            return Grade(False, None, 0, False, rules.unopened_penalty, best_exp, best,
                         "these tiles do not all form melds or pairs (M1-M4)")
        return min(opts, key=lambda g: (not g.reaches, g.exposure))
    plan = turn_plan(state, seat)
    best_exp = plan.penalty
    if not picked:
        return Grade(True, "turn", 0, True, exposure(state, seat), best_exp, plan.to_dict())
    if not rest:
        return Grade(False, "turn", 0, True, exposure(state, seat), best_exp, plan.to_dict(),
                     "keep a tile to discard (P5)")
    hypo = replace(state, racks=tuple(tuple(picked) if s == seat else r for s, r in enumerate(state.racks)))
    pairs_ok = op.kind == "pairs" or state.anyone_opened_pairs()
    v = _all_placed(picked, hypo, runs=op.kind == "points", pairs=pairs_ok,
                    slots=not (state.opened_this_turn and not rules.layoff_opening_turn))
    if v is None:
        return Grade(False, "turn", 0, True, exposure(state, seat), best_exp, plan.to_dict(),
                     "these tiles cannot all be placed (L1-L3, O4, O5)")
    e = S.rack_penalty(rest, state.okey, rules, pairs=op.kind == "pairs")
    return Grade(True, "turn", 0, True, e, best_exp, plan.to_dict())


def best_tiles(g: Grade) -> list[str]:
    """The physical tiles the best answer places (for showing the answer)."""
    out: list[str] = []
    b = g.best
    for key in ("melds", "pairs"):
        for grp in b.get(key, []) or []:
            out += [str(x).split(">")[0] for x in grp]
    for lay in b.get("layoffs", []) or []:
        out += [str(x).split(">")[0] for x in lay.get("tiles", [])]
    return out


__all__ = ["PRACTICE_CATEGORIES", "Grade", "best_tiles", "grade"]
