"""Exact openings, pairs, lay-offs and okey swaps (RULES T4-T6, M1-M5, O1-O7, L1-L6, P2, P5, S1-S2).

Public API: :func:`best_points_opening`, :func:`best_pairs_opening`, :func:`best_turn`,
:func:`solve`. The search itself lives in :mod:`analysis.solver_core` (count vectors, run DP,
group branch-and-bound); this module turns physical tiles, table melds and rules into problems and
solutions back into placed tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from analysis.game import Rules
from analysis.game import Placed, Tile

from . import search as C
from .encoding import decode, encode, face_slot, left_after, search_keep_one, table_slots
from .pairs import pairs_plan

if TYPE_CHECKING:
    from analysis.game import TableMeld

K1, K2 = 1 << 16, 1 << 6  # opening weight: value first, then rack penalty, then tile count


# ---- plans ---------------------------------------------------------------------------------------

def _meld_strs(melds: Sequence[Sequence[Placed]]) -> list[list[str]]:
    return [[str(p) for p in m] for m in melds]


@dataclass(frozen=True)
class PointsPlan:
    value: int
    melds: list[list[Placed]]
    layoffs: list[tuple[int, list[Placed]]]
    left: list[Tile]
    threshold: int
    reaches: bool
    penalty: int  # E5 rack penalty of ``left`` for an opened player

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "melds": _meld_strs(self.melds),
                "layoffs": [{"meld": i, "tiles": [str(p) for p in ts]} for i, ts in self.layoffs],
                "left": [str(t) for t in self.left], "threshold": self.threshold,
                "reaches": self.reaches, "penalty": self.penalty}


@dataclass(frozen=True)
class PairsPlan:
    count: int
    pairs: list[list[Placed]]
    left: list[Tile]
    threshold: int
    reaches: bool

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "pairs": _meld_strs(self.pairs), "left": [str(t) for t in self.left],
                "threshold": self.threshold, "reaches": self.reaches}


@dataclass(frozen=True)
class TurnPlan:
    melds: list[list[Placed]]
    pairs: list[list[Placed]]
    layoffs: list[tuple[int, list[Placed]]]
    swaps: list[tuple[int, list[Tile]]]  # (table meld, tiles put in for its okeys) S1, S2
    left: list[Tile]
    penalty: int  # E5 of ``left`` (doubled for a pairs opener, + okey charge per okey)
    finishes: list[str] = field(default_factory=list)  # "normal", "okey" (+ "elden", "pairs")

    def to_dict(self) -> dict[str, Any]:
        return {"melds": _meld_strs(self.melds), "pairs": _meld_strs(self.pairs),
                "layoffs": [{"meld": i, "tiles": [str(p) for p in ts]} for i, ts in self.layoffs],
                "swaps": [{"meld": i, "tiles": [str(t) for t in ts]} for i, ts in self.swaps],
                "left": [str(t) for t in self.left], "penalty": self.penalty, "finishes": self.finishes}


def rack_penalty(left: Sequence[Tile], okey: Tile, rules: Rules, pairs: bool = False) -> int:
    """E5 for an opened player: tile values (doubled for a pairs opener) + the okey charge."""
    s = sum(okey.number if t.is_joker else t.number for t in left)
    return s * (2 if pairs else 1) + sum(rules.okey_in_rack for t in left if t == okey)


def _opening_weights(okey: Tile, rules: Rules) -> C.Weights:
    okv = okey.number + rules.okey_in_rack
    return (K1 + K2, 1, K1, okv * K2 + 1)


# ---- public API -----------------------------------------------------------------------------------

def best_points_opening(rack: Sequence[Tile], okey: Tile, *, rules: Rules, threshold: int | None = None,
                        take: Tile | None = None, table: Sequence["TableMeld | None"] = (),
                        must_use: Tile | None = None, end_counts: Any = ()) -> PointsPlan:
    """The points opening of greatest value (O1) leaving a tile to discard (P5).

    ``take``: the previous discard, added to the rack and required in the opening (P2);
    ``must_use``: a tile already taken into ``rack`` that the opening must use (P2). Lay-offs onto
    ``table`` count where the preset allows them in the opening turn (L6, L3 with ``end_counts``).
    Ties: lower rack penalty (E5), then fewer tiles left.
    """
    rack = list(rack) + ([take] if take is not None else [])
    need = take if take is not None else must_use
    threshold = rules.open_points if threshold is None else threshold
    counts, wilds = encode(rack, okey)
    req = None
    if need is not None:
        if need == okey:
            raise ValueError(f"a discarded okey ({need}) cannot be taken [P3]")
        req = face_slot(need, okey)
    runs, groups = table_slots(table, rules, end_counts) if rules.layoff_opening_turn else ((), ())
    p = C.Problem(counts, wilds, _opening_weights(okey, rules), True, False, req, runs, groups)
    sol = search_keep_one(p, len(rack))
    if sol is None:
        return PointsPlan(0, [], [], sorted(rack), threshold, False, rack_penalty(rack, okey, rules))
    d = decode(sol, okey)
    value = sum(q.value for m in d.melds for q in m) + sum(q.value for _, ts in d.layoffs for q in ts)
    left = left_after(rack, d.used)
    return PointsPlan(value, d.melds, d.layoffs, left, threshold, value >= threshold and value > 0,
                      rack_penalty(left, okey, rules))


def best_pairs_opening(rack: Sequence[Tile], okey: Tile, *, rules: Rules, threshold: int | None = None,
                       twin: Tile | None = None, take: Tile | None = None,
                       must_use: Tile | None = None) -> PairsPlan:
    """The most pairs (M4, O3), okeys completing pairs, and the shown indicator twin too (O7).

    Keeps a tile to discard (P5); a taken discard must lie in a pair as a real tile (P2). Ties:
    lower rack penalty as a pairs opener (E5), then fewer tiles left.
    """
    if take is not None:
        rack = [*rack, take]
    need = take if take is not None else must_use
    threshold = rules.open_pairs if threshold is None else threshold
    found = pairs_plan(rack, okey, rules, twin, need)
    if found is None:
        return PairsPlan(0, [], sorted(rack), threshold, False)
    pairs, left = found
    return PairsPlan(len(pairs), pairs, left, threshold, len(pairs) >= threshold)


__all__ = ["K1", "K2", "PairsPlan", "PointsPlan", "TurnPlan", "best_pairs_opening", "best_points_opening",
           "rack_penalty"]
