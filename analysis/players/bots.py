"""Self-play bots: what one seat sees (:class:`View`) and three strengths of player.

A bot never sees another rack or the deck: the game loop hands it a :class:`View`, whose state
is the hand with every other rack emptied and the deck removed (only its size stays). Each bot
has one method per decision: ``show`` (O7), ``declare`` (O10), ``take`` (P1-P4), ``place``
(the next placing events of this turn, called until it returns nothing) and ``discard``.

- ``random``: any legal move, chosen at random.
- ``greedy``: opens as soon as its quick meld finder reaches the threshold, lays off what it
  can, discards its least useful tile and avoids the penalties it can see (X3, X4).
- ``solver``: the exact solver (:mod:`analysis.solver`) for openings and turns; weighs pairs
  against melds, escalation, and the danger of a discard (X4, X5).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from analysis.game import melds as M
from analysis.game import Tile
from analysis.solver import quick as BM

from .view import (
    Event,
    View,
    event,
    layoff_moves,
    leftover_tiles,
    partition_of,
    swap_moves,
    usefulness,
)

# ---- bots ------------------------------------------------------------------------------------


class Bot:
    """The decisions of one seat. Subclasses override what they decide differently."""

    kind = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def new_deal(self) -> None:
        """A deal begins, a void hand's (E3) replay under the same number among them: whatever the
        bot noted of the last deal no longer holds."""

    def show(self, v: View) -> bool:  # O7
        return True

    def declare(self, v: View) -> bool:  # O10
        return False

    def take(self, v: View) -> bool:
        return False

    def place(self, v: View) -> list[Event]:
        return []

    def discard(self, v: View) -> Tile:
        return self.rng.choice(v.rack)


class RandomBot(Bot):
    """Any legal move: opens when it happens to see an opening, plays and discards at random."""

    kind = "random"

    def declare(self, v: View) -> bool:
        return self.rng.random() < 0.1

    def take(self, v: View) -> bool:
        return v.opened and self.rng.random() < 0.3

    def place(self, v: View) -> list[Event]:
        if self.rng.random() < 0.3:
            return []
        if not v.opened:
            ev = greedy_opening(v)
            return [ev] if ev is not None else []
        moves = swap_moves(v) + layoff_moves(v, wilds=True)
        p = partition_of(v.rack, v.okey)
        if p.melds and not v.opened_pairs:
            ev = event("meld", v.seat, melds=[BM.meld_text(p.melds[0], v.okey)])
            if v.legal(ev) is not None:
                moves.append(ev)
        return [self.rng.choice(moves)] if moves else []


class GreedyBot(Bot):
    """Opens as soon as it can, lays off what it can, discards its least useful tile."""

    kind = "greedy"

    def declare(self, v: View) -> bool:
        c, w = BM.counts_of(v.rack, v.okey)
        return len(BM.pairs(c, w)) >= v.rules.open_pairs - 1

    def take(self, v: View) -> bool:
        t = v.takeable()
        if t is None:
            return False
        if not v.opened:
            after = v.after(event("take", v.seat, tile=str(t)))
            ev = greedy_opening(after, must_use=t)
            return ev is not None
        if v.opened_pairs:
            return v.rack.count(t) == 1
        face = v.okey if t.is_joker else t
        if any(m is not None and m.kind != M.PAIR and M.fits(m.kind, m.tiles, face) for m in v.table):
            return True
        before = partition_of(v.rack, v.okey)
        after_p = partition_of(v.rack + (t,), v.okey)
        return after_p.value > before.value + face.number

    def place(self, v: View) -> list[Event]:
        if not v.opened:
            ev = greedy_opening(v)
            return [ev] if ev is not None else []
        return opened_moves(v)

    def discard(self, v: View) -> Tile:
        return _least_useful(v, danger=False)


# ---- greedy play -----------------------------------------------------------------------------


def greedy_opening(v: View, must_use: Tile | None = None) -> Event | None:
    """The quick finder's opening when it reaches the threshold (or finishes, O9), else None."""
    rules = v.rules
    rack = v.rack
    okey = v.okey
    p = BM.keep_one(partition_of(rack, okey))
    ev: Event | None = None
    if p.melds:
        finishing = p.tiles_left == 1
        o9 = rules.open_below_finishing
        others = any(o is not None for s, o in enumerate(v.state.opened) if s != v.seat)
        below_ok = finishing and (o9 == "yes" or (o9 == "elden" and not others))
        if p.value >= v.points_threshold() or below_ok:
            ev = event("open", v.seat, melds=[BM.meld_text(m, okey) for m in p.melds])
    if ev is None:
        c, w = BM.counts_of(rack, okey)
        tw = 1 if v.twin_shown and v.indicator in rack else 0
        if tw:
            c[v.indicator.index] -= 1
        ps = BM.pairs(c, w, tw)
        if len(ps) >= len(rack) // 2:
            ps = ps[: (len(rack) - 1) // 2]
        declared_ok = not rules.declare_pairs or v.state.declared[v.seat]
        if declared_ok and len(ps) >= v.pairs_threshold():
            ev = event("open", v.seat, pairs=[BM.pair_text(x, okey, v.indicator) for x in ps])
    if ev is None:
        return None
    if must_use is not None:
        groups = ev.get("melds") or ev.get("pairs") or []
        if not any(str(must_use) in g for g in groups):
            return None
    return ev if v.legal(ev) is not None else None


def opened_moves(v: View) -> list[Event]:
    """One batch of an opened player's placing: swaps, new melds or pairs, then lay-offs."""
    moves = swap_moves(v)
    if moves:
        return moves[:1]
    okey = v.okey
    if not v.opened_pairs:
        p = partition_of(v.rack, okey)
        if p.melds:
            melds = list(p.melds)
            if p.tiles_left == 0:
                p = BM.keep_one(p)
                melds = list(p.melds)
            if melds:
                ev = event("meld", v.seat, melds=[BM.meld_text(m, okey) for m in melds])
                if v.legal(ev) is not None:
                    return [ev]
    if v.state.anyone_opened_pairs():
        c, _ = BM.counts_of(v.rack, okey)
        ps = [x for x in BM.pairs(c, 0) if x[1] == ""]
        if ps and len(ps) * 2 >= len(v.rack):
            ps = ps[:-1]
        if ps:
            ev = event("meld", v.seat, pairs=[BM.pair_text(x, okey, v.indicator) for x in ps])
            if v.legal(ev) is not None:
                return [ev]
    if len(v.rack) > 1:
        lay = layoff_moves(v, wilds=len(v.rack) <= 3)
        if lay:
            return lay[:1]
    return []


def _least_useful(v: View, *, danger: bool) -> Tile:
    """The tile a careful player throws: no okey (X3), no lay-off-able tile (X4), little use."""
    return discard_order(v, danger=danger)[0]


def discard_order(v: View, *, danger: bool, loose: Iterable[Tile] | None = None) -> list[Tile]:
    """The rack's tiles, the best discard first (see :func:`_least_useful`). ``loose``: the
    tiles outside the melds being built (default: the quick finder's leftovers)."""
    rack = v.rack
    okey = v.okey
    if len(rack) == 1:
        return list(rack)
    st = v.state
    cezali = v.rules.cezali
    if v.opened:
        free = set(rack)
    elif loose is not None:
        free = set(loose)
    else:
        free = set(leftover_tiles(rack, okey, partition_of(rack, okey)))
    counts = BM.counts_of(rack, okey)[0]
    nxt = (v.seat + 1) % 4
    risk_of = _danger_table(v, nxt) if danger else None
    costs = {}
    for t in set(rack):
        face = okey if t.is_joker else t
        x3 = 1 if t == okey else 0
        x4 = 1 if cezali and st.fits_table(t) is not None else 0
        use = usefulness(t, rack, okey, counts)
        risk = risk_of(face) if risk_of is not None else 0.0  # a tie-break among equally useless tiles
        keep_high = face.number if not v.opened else -face.number
        costs[t] = (x3, x4, 0 if t in free else 1, use, risk, keep_high)
    return sorted(rack, key=costs.__getitem__)


def _danger_table(v: View, nxt: int) -> Callable[[Tile], float]:
    """X5 and plain feeding: how much the next seat may want a face (seen from here)."""
    okey = v.okey
    st = v.state
    his = {(okey if d.is_joker else d) for d in st.discards[nxt]}
    x5 = st.opened[nxt] is None and v.rules.cezali and v.rules.x5
    seen = [0] * 52
    for pile in st.discards:
        for d in pile:
            seen[(okey if d.is_joker else d).index] += 1
    for m in st.table:
        if m is not None:
            for p in m.tiles:
                seen[p.face.index] += 1

    def risk(face: Tile) -> float:
        if face in his:
            return -1.0  # he threw one himself
        base = face.number / 13.0 * 2.0 if x5 else 0.0
        col, n = divmod(face.index, 13)
        dead = sum(1 for d in (-1, 1) if 0 <= n + d < 13 and seen[col * 13 + n + d] >= 2)
        return base - 0.5 * dead

    return risk

