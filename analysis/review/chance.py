"""Chance to open: how likely an unopened seat reaches its threshold within its next draws.

Seen from the seat alone: the tiles it cannot see (the other racks and the deck, i.e. the 106
less its rack, the table, every discard pile and the indicator) are equally likely to be any of
its next draws, so the next k draws are a uniform sample of k of them without replacement. A
sample counts as "opens within k" when the current rack plus the first k drawn tiles holds an
opening that reaches the seat's current threshold (points O1/O2 with opening-turn lay-offs
where the preset allows them, or pairs O3). Discards in between are not modelled: it is the
chance that the tiles needed arrive, an upper estimate of the chance to open.

Opening within k draws implies opening within any larger k (the rack only grows), so each sample
checks its largest k first and stops at the first miss. When every k-subset of the unseen tiles
can be enumerated within the sample budget the answer is exact (standard error 0).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from analysis.game import HandState
from analysis.game import Tile, full_set
from analysis.solver import quick as BM

from .options import openings


@dataclass(frozen=True, slots=True)
class Chance:
    seat: int
    draws: tuple[int, ...]
    p: tuple[float, ...]  # per k in draws
    se: tuple[float, ...]  # standard error of each estimate (0 when exact)
    samples: int  # samples drawn (or subsets enumerated when exact)
    unseen: int  # tiles the seat cannot see
    exact: bool

    def rows(self) -> list[dict[str, float | int | bool]]:
        return [{"draws": k, "p": p, "se": e, "samples": self.samples, "exact": self.exact}
                for k, p, e in zip(self.draws, self.p, self.se)]


def unseen_tiles(state: HandState, seat: int) -> list[Tile]:
    """The tiles ``seat`` cannot see: the 106 less its rack, the table, the discards, the indicator."""
    seen = state.face_up()
    seen.update(state.racks[seat])
    left = full_set() - seen
    return sorted(left.elements(), key=lambda t: (t.colour, t.number))


def opens_with(state: HandState, seat: int, extra: Sequence[Tile]) -> bool:
    """Does the seat's rack plus ``extra`` hold an opening reaching its current threshold?

    The quick meld finder's value (a lower bound) and the review's upper bound settle most
    racks; only the rest go to the exact solver."""


    rack = tuple(state.racks[seat]) + tuple(extra)
    okey = state.okey
    c, w = BM.counts_of(rack, okey)
    if BM.keep_one(BM.partition(c, w)).value >= state.points_threshold(seat):
        return True
    tw = 1 if state.shown[seat] and state.indicator in rack else 0
    if tw:
        c[state.indicator.index] -= 1
    if min(len(BM.pairs(c, w, tw)), (len(rack) - 1) // 2) >= state.pairs_threshold(seat):
        return True
    racks = tuple(rack if s == seat else r for s, r in enumerate(state.racks))
    pts, prs = openings(_with_racks(state, racks), seat)
    return pts.reaches or prs.reaches


def _with_racks(state: HandState, racks: tuple[tuple[Tile, ...], ...]) -> HandState:
    from dataclasses import replace

    return replace(state, racks=racks, took=None, took_unopened=False)


def chance_to_open(state: HandState, seat: int, draws: Sequence[int] = (1, 3, 5), samples: int = 200,
                   seed: int = 0) -> Chance | None:
    """The chance to reach the threshold within each number of draws (None once opened)."""
    if state.opened[seat] is not None:
        return None
    pool = unseen_tiles(state, seat)
    ks = tuple(sorted({k for k in draws if k >= 0}))
    if not ks:
        raise ValueError("draws must hold at least one count >= 0")
    if opens_with(state, seat, ()):  # it can open now: every later rack can too
        return Chance(seat, ks, tuple(1.0 for _ in ks), tuple(0.0 for _ in ks), 1, len(pool), True)
    kmax = min(ks[-1], len(pool))
    if math.comb(len(pool), kmax) <= samples:
        return _exact(state, seat, ks, pool)
    rng = random.Random(seed)
    hits = dict.fromkeys(ks, 0)
    for _ in range(samples):
        drawn = rng.sample(pool, kmax)
        for k in reversed(ks):
            if not opens_with(state, seat, drawn[:k]):
                break
            hits[k] += 1
    ps = tuple(hits[k] / samples for k in ks)
    ses = tuple(math.sqrt(p * (1 - p) / samples) for p in ps)
    return Chance(seat, ks, ps, ses, samples, len(pool), False)


def _exact(state: HandState, seat: int, ks: tuple[int, ...], pool: list[Tile]) -> Chance:
    """Every k-subset of the unseen tiles (each physical tile distinct), counted."""
    ps = []
    total = 0
    for k in ks:
        kk = min(k, len(pool))
        n = hit = 0
        memo: dict[tuple[Tile, ...], bool] = {}
        for idx in combinations(range(len(pool)), kk):
            key = tuple(sorted((pool[i] for i in idx), key=lambda t: (t.colour, t.number)))
            if key not in memo:
                memo[key] = opens_with(state, seat, key)
            hit += memo[key]
            n += 1
        total = max(total, n)
        ps.append(hit / n if n else 0.0)
    return Chance(seat, ks, tuple(ps), tuple(0.0 for _ in ks), total, len(pool), True)


__all__ = ["Chance", "chance_to_open", "opens_with", "unseen_tiles"]
