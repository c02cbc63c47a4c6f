"""Exact openings, pairs, lay-offs and okey swaps (issue 3; RULES T4-T6, M1-M5, O1-O7, L1-L6, P2, P5, S1-S2).

Public API: :func:`best_points_opening`, :func:`best_pairs_opening`, :func:`best_turn`,
:func:`solve`. The search itself lives in :mod:`analysis.solver_core` (count vectors, run DP,
group branch-and-bound); this module turns physical tiles, table melds and rules into problems and
solutions back into placed tiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from . import solver_core as C
from .rules import Rules
from .tiles import COLOURS, FACES, FALSE_OKEY, Placed, Tile

if TYPE_CHECKING:
    from .engine import HandState, TableMeld

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


# ---- encoding -------------------------------------------------------------------------------------

def _face(t: Tile, okey: Tile) -> int:
    """Count-vector slot of a non-wild physical tile (T5: a false okey is the okey's face)."""
    return (okey if t.is_joker else t).index


_INDEX = {t: t.index for t in FACES}
_INDEX[FALSE_OKEY] = 52


def _encode(rack: Sequence[Tile], okey: Tile) -> tuple[list[int], int]:
    counts = [0] * 53
    for t in rack:
        counts[_INDEX[t]] += 1
    oi = _INDEX[okey]
    wilds = counts[oi]
    counts[oi] = counts.pop()  # the okey face is made of false okeys only (T5)
    return counts, wilds


def _physical(f: int, okey: Tile) -> Tile:
    t = FACES[f]
    return FALSE_OKEY if t == okey else t


def _slots(table: Sequence["TableMeld | None"], rules: Rules, end_counts: Any) -> tuple[tuple, tuple]:
    """Lay-off slots (L2, L3) of the table melds."""
    used = dict(end_counts or ())
    runs, groups = [], []
    for m in table:
        if m is None or m.kind == "pair":
            continue
        faces = [p.face for p in m.tiles]
        if m.kind == "group":
            have = {f.colour for f in faces}
            miss = tuple(COLOURS.index(c) for c in COLOURS if c not in have)
            if miss:
                groups.append(C.GroupSlot(m.index, faces[0].number - 1, miss))
            continue
        c = COLOURS.index(faces[0].colour)
        lo, hi = faces[0].number, faces[-1].number
        for end, room, step, start in (("low", lo - 1, -1, lo - 2), ("high", 13 - hi, 1, hi)):
            k = min(room, 2 - used.get((m.index, end), 0)) if rules.run_end_cap else room
            if k > 0:
                runs.append(C.RunSlot(m.index, c, tuple(start + step * i for i in range(k))))
    return tuple(runs), tuple(groups)


@dataclass
class _Decoded:
    melds: list[list[Placed]]
    pairs: list[list[Placed]]
    layoffs: list[tuple[int, list[Placed]]]
    used: list[Tile]


_PLACED: dict[tuple[int, Tile, bool], Placed] = {}


def _placed(f: int, okey: Tile, wild: bool) -> Placed:
    key = (f, okey, wild)
    p = _PLACED.get(key)
    if p is None:
        p = _PLACED[key] = Placed(okey, FACES[f], True) if wild else Placed(_physical(f, okey), FACES[f])
    return p


def _decode(sol: C.Solution, okey: Tile) -> _Decoded:
    ok = lambda f: _placed(f, okey, True)  # noqa: E731
    real = lambda f: _placed(f, okey, False)  # noqa: E731
    melds: list[list[Placed]] = []
    for c, a, b, wl in sorted(sol.runs):
        melds.append([ok(c * 13 + n) if n in wl else real(c * 13 + n) for n in range(a, b + 1)])
    for n, cols, k in sorted(sol.groups):
        miss = [c for c in range(4) if c not in cols][:k]
        melds.append(sorted([real(c * 13 + n) for c in cols] + [ok(c * 13 + n) for c in miss],
                            key=lambda p: COLOURS.index(p.face.colour)))
    pairs = []
    for f, w in sorted(sol.pairs):
        if f < 0:
            pairs.append([ok(okey.index), ok(okey.index)])
        else:
            pairs.append([real(f) if i >= w else ok(f) for i in range(2)][::-1])
    layoffs: dict[int, list[Placed]] = {}
    for rs, j, flags in sol.run_layoffs:
        layoffs.setdefault(rs.meld, []).extend(
            ok(rs.colour * 13 + x) if fl else real(rs.colour * 13 + x) for x, fl in zip(rs.numbers[:j], flags))
    for gs, lst in sol.group_layoffs:
        layoffs.setdefault(gs.meld, []).extend(ok(c * 13 + gs.number) if w else real(c * 13 + gs.number)
                                               for c, w in lst)
    lay = [(i, sorted(ts, key=lambda p: (p.face.number, p.face.colour))) for i, ts in sorted(layoffs.items())]
    used = [p.physical for m in melds + pairs for p in m] + [p.physical for _, ts in lay for p in ts]
    return _Decoded(melds, pairs, lay, used)


def _left(rack: Sequence[Tile], used: Sequence[Tile]) -> list[Tile]:
    rest = list(rack)
    for t in used:
        rest.remove(t)  # ValueError: the plan used a tile the rack does not hold (a bug)
    return sorted(rest, key=_INDEX.__getitem__)


def rack_penalty(left: Sequence[Tile], okey: Tile, rules: Rules, pairs: bool = False) -> int:
    """E5 for an opened player: tile values (doubled for a pairs opener) + the okey charge."""
    s = sum(okey.number if t.is_joker else t.number for t in left)
    return s * (2 if pairs else 1) + sum(rules.okey_in_rack for t in left if t == okey)


# ---- the search with P5 ---------------------------------------------------------------------------

def _search_keep_one(p: C.Problem, n_tiles: int) -> C.Solution | None:
    """Best placement leaving at least one tile to discard (P5): if everything fits, the best over
    leaving each distinct tile out, cheapest first, stopping once no tile can beat the best."""
    sol = C.search(p)
    if sol is None or sol.used < n_tiles:
        return sol
    ar, br, aw, bw = p.weights
    ww_max = max(aw * 13 + bw, aw + bw)
    real_total = sum(p.counts[f] * (ar * (f % 13 + 1) + br) for f in range(52))
    cands = [(ar * (f % 13 + 1) + br, f) for f in range(52) if p.counts[f]]
    if p.wilds:
        cands.append((ww_max, -1))
    cands.sort()
    best: C.Solution | None = None
    for w, f in cands:
        ub = real_total + p.wilds * ww_max - w
        if best is not None and ub <= best.score:
            break
        q = C.Problem(list(p.counts), p.wilds, p.weights, p.runs, p.pairs, p.required, p.run_slots,
                      p.group_slots)
        if f < 0:
            q.wilds -= 1
        else:
            q.counts[f] -= 1
        s = C.search(q)
        if s is not None and (best is None or s.score > best.score):
            best = s
    return best


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
    counts, wilds = _encode(rack, okey)
    req = None
    if need is not None:
        if need == okey:
            raise ValueError(f"a discarded okey ({need}) cannot be taken [P3]")
        req = _face(need, okey)
    runs, groups = _slots(table, rules, end_counts) if rules.layoff_opening_turn else ((), ())
    p = C.Problem(counts, wilds, _opening_weights(okey, rules), True, False, req, runs, groups)
    sol = _search_keep_one(p, len(rack))
    if sol is None:
        return PointsPlan(0, [], [], sorted(rack), threshold, False, rack_penalty(rack, okey, rules))
    d = _decode(sol, okey)
    value = sum(q.value for m in d.melds for q in m) + sum(q.value for _, ts in d.layoffs for q in ts)
    left = _left(rack, d.used)
    return PointsPlan(value, d.melds, d.layoffs, left, threshold, value >= threshold and value > 0,
                      rack_penalty(left, okey, rules))


def best_pairs_opening(rack: Sequence[Tile], okey: Tile, *, rules: Rules, threshold: int | None = None,
                       twin: Tile | None = None, take: Tile | None = None,
                       must_use: Tile | None = None) -> PairsPlan:
    """The most pairs (M4, O3), okeys completing pairs, and the shown indicator twin too (O7).

    Keeps a tile to discard (P5); a taken discard must lie in a pair as a real tile (P2). Ties:
    lower rack penalty as a pairs opener (E5), then fewer tiles left.
    """
    from .solver_pairs import pairs_plan

    rack = list(rack) + ([take] if take is not None else [])
    need = take if take is not None else must_use
    threshold = rules.open_pairs if threshold is None else threshold
    pairs = pairs_plan(rack, okey, rules, twin, need)
    if pairs is None:
        return PairsPlan(0, [], sorted(rack), threshold, False)
    used = [p.physical for pr in pairs for p in pr]
    return PairsPlan(len(pairs), pairs, _left(rack, used), threshold, len(pairs) >= threshold)


def best_turn(state: "HandState", seat: int) -> TurnPlan:
    from .solver_turn import best_turn as _bt

    return _bt(state, seat)


def solve(state: "HandState", seat: int, *, points_threshold: int | None = None,
          pairs_threshold: int | None = None) -> dict[str, Any]:
    from .solver_turn import solve as _solve

    return _solve(state, seat, points_threshold=points_threshold, pairs_threshold=pairs_threshold)


__all__ = ["PointsPlan", "PairsPlan", "TurnPlan", "best_points_opening", "best_pairs_opening",
           "best_turn", "solve", "rack_penalty"]
