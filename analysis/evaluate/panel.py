"""What they hold: the belief's reading of the table, for one seat's view.

From the worlds the evaluator samples and weighs (:mod:`.belief`), for each other seat:

- the chance it opens on its next turn (unopened seats): the share of worlds in which its rack,
  with the tile it would draw next, holds an opening that reaches its threshold (the exact
  solver's best points opening, pairs counted as O3 counts them);
- the tiles it most likely holds, with their chance beside the chance a uniform deal gives;
- the tiles it most likely needs: the faces that would complete a meld with two tiles of its rack,
  those the table makes likelier than a uniform deal does first;
- for each tile the viewer could discard: its danger — the next seat opens with it (X5, where the
  preset charges it), the next seat finishes with it, or it fits a table meld (X4, a lay-off).

How sure it is: the effective sample size of the weighted worlds and the standard error of each
chance (a binomial over the effective sample size).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from analysis.game import FACES, Tile
from analysis.players import View
from analysis.solver import quick as BM
from analysis.solver import best_points_opening

from . import belief as B
from . import fast
from .core import CodeWorlds, unseen_tiles

WORLDS = 64  # worlds the panel reads (resampled from the weighted proposals)
TOP = 5  # tiles shown per seat, held and needed


@dataclass(frozen=True, slots=True)
class SeatRead:
    seat: int
    opened: bool
    opens_next: float | None  # None once it has opened
    held: tuple[tuple[str, float, float], ...]  # (tile, belief chance, uniform chance), likeliest first
    needs: tuple[tuple[str, float], ...]  # (tile, chance it completes a meld in its rack)


@dataclass(frozen=True, slots=True)
class Danger:
    tile: str
    opening: float  # the next seat opens with it (X5 where charged)
    finish: float  # the next seat finishes with it
    layoff: bool  # it fits a table meld (X4 to discard it)
    x5: bool  # the preset charges X5


@dataclass(frozen=True, slots=True)
class TableRead:
    seat: int
    seats: tuple[SeatRead, ...]
    dangers: tuple[Danger, ...]
    ess: float  # effective sample size of the weighted proposals
    proposals: int
    worlds: int
    se: float  # the largest standard error of a chance shown

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "ess": round(self.ess, 1), "proposals": self.proposals, "worlds": self.worlds,
                "se": round(self.se, 3),
                "seats": [{"seat": s.seat, "opened": s.opened, "opens_next": s.opens_next,
                           "held": [list(h) for h in s.held], "needs": [list(n) for n in s.needs]}
                          for s in self.seats],
                "dangers": [{"tile": d.tile, "opening": d.opening, "finish": d.finish, "layoff": d.layoff}
                            for d in self.dangers]}


def _counts(world: tuple[bytes, bytes], seat: int) -> tuple[list[int], int]:
    racks = world[0]
    row = racks[seat * 53:(seat + 1) * 53]
    return list(row[:52]), row[52]


def _can_open(c: list[int], wild: int, points: int, pairs: int, view: View | None = None) -> bool:
    """The rack (52 face counts and okeys) holds a pairs opening (O3: pairs and okeys) or, by the
    exact solver when ``view`` is given (else the quick meld finder), a points opening that reaches
    ``points`` (O1, with the opening turn's lay-offs where L6 allows them)."""
    if sum(n // 2 for n in c) + wild >= pairs:
        return True
    if view is None:
        return BM.partition(c, wild).value >= points
    st = view.state
    rack = [FACES[f] for f in range(52) for _ in range(c[f])] + [st.okey] * wild
    plan = best_points_opening(rack, st.okey, rules=st.rules, threshold=points, table=st.table,
                               end_counts=st.end_counts)
    return plan.reaches


def _next_draw(view: View, seat: int, deck: bytes) -> int | None:
    """The deck code ``seat`` would draw on its next turn (nobody taking a discard before)."""
    st = view.state
    k = (seat - view.seat) % 4  # seats to play before it, the viewer first
    if st.phase != "draw":
        k -= 1  # the viewer has drawn already
    return deck[k] if 0 <= k < len(deck) else None


def calibrated(view: View, p: float) -> float:
    """The raw chance to open mapped to the frequency it had in self-play (an increasing map fitted
    by ``python bench/belief.py --fit``, per preset): a seat that can open does not always open,
    and one that draws well may take instead."""
    pts = B.opens_next_map(B.model_key(view.rules))
    if not pts:
        return p
    return float(np.interp(p, [x for x, _ in pts], [y for _, y in pts]))


def opens_next(view: View, seat: int, worlds: list[tuple[bytes, bytes]], *, raw: bool = False) -> float:
    """The chance that ``seat`` opens on its next turn: the share of ``worlds`` in which it can
    (its rack with its next draw), calibrated on self-play unless ``raw``."""
    st = view.state
    points, pairs = st.points_threshold(seat), st.pairs_threshold(seat)
    hit = 0
    for w in worlds:
        c, wild = _counts(w, seat)
        d = _next_draw(view, seat, w[1])
        if d is not None:
            if d == B.WILD:
                wild += 1
            else:
                c[d] += 1
        hit += _can_open(c, wild, points, pairs, view)
    p = hit / len(worlds) if worlds else 0.0
    return p if raw else calibrated(view, p)


def read_table(view: View, *, seed: int | str = 0, worlds: int = WORLDS, proposals: int | None = None) -> TableRead:
    """The panel for ``view``: reads the view alone (the same view and seed, the same answer)."""
    st = view.state
    rng = random.Random(f"panel:{seed}")
    unseen, pinned = unseen_tiles(view)
    codes = CodeWorlds(view, unseen, pinned)
    m = proposals or worlds * (B.PROPOSALS // B.BLOCK)
    got = codes.draws(rng, m)
    racks = B.racks_of(got)
    weights, _, e = B.weigh(racks, B.signals(view), B.model_for(B.model_key(view.rules)))
    if weights is None:  # too sure of itself: uniform, as the evaluator keeps such a block
        weights, e = np.full(m, 1.0 / m), float(m)
    w = weights
    kept = [got[i] for i in B.systematic(w, worlds, rng)]
    n_eff = max(1.0, min(e, float(worlds)))
    seats = []
    okey = st.okey
    for s in range(4):
        if s == view.seat or view.rack_sizes[s] == 0:
            continue
        held = racks[:, s, :52] > 0
        pu = held.mean(axis=0)
        pb = (held * w[:, None]).sum(axis=0)
        order = np.argsort(-pb, kind="stable")[:TOP]
        c = racks[:, s, :]
        comp = [B.completes(c, f) for f in range(52)]
        need = np.array([(x * w).sum() for x in comp])
        lift = need - np.array([x.mean() for x in comp])  # what the table says beyond a uniform deal
        need_order = np.argsort(-lift, kind="stable")[:TOP]
        opened = st.opened[s] is not None
        seats.append(SeatRead(
            seat=s, opened=opened,
            opens_next=None if opened else round(opens_next(view, s, kept), 3),
            held=tuple((str(FACES[int(f)]), round(float(pb[f]), 3), round(float(pu[f]), 3)) for f in order),
            needs=tuple((str(FACES[int(f)]), round(float(need[f]), 3)) for f in need_order if lift[f] > 0),
        ))
    nxt = (view.seat + 1) % 4
    dangers = []
    seen: set[Tile] = set()
    x5 = bool(st.rules.cezali and st.rules.x5)
    nxt_open = st.opened[nxt] is not None
    points, pairs = st.points_threshold(nxt), st.pairs_threshold(nxt)
    for t in view.rack:
        if t in seen:
            continue
        seen.add(t)
        code = fast.code(t, okey)
        opening = finish = 0
        for wd in kept:
            c, wild = _counts(wd, nxt)
            if code == B.WILD:
                wild += 1
            else:
                c[code] += 1
            if not nxt_open:
                opening += _can_open(c, wild, points, pairs)
            else:
                p = BM.partition(c, wild)
                finish += p.tiles_left <= 1
        dangers.append(Danger(str(t), round(opening / len(kept), 3), round(finish / len(kept), 3),
                              st.fits_table(t) is not None, x5))
    dangers.sort(key=lambda d: -(d.opening + d.finish + d.layoff))
    se = 0.5 / math.sqrt(n_eff)
    return TableRead(view.seat, tuple(seats), tuple(dangers), e, m, worlds, se)


__all__ = ["Danger", "SeatRead", "TableRead", "opens_next", "read_table"]
