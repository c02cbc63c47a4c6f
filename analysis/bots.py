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
from dataclasses import dataclass, replace
from typing import Any

from . import botmelds as BM
from . import melds as M
from .engine import HandState, IllegalMove, TableMeld, apply
from .rules import Rules
from .tiles import FACES, Tile

Event = dict[str, Any]


def redact(state: HandState, seat: int) -> HandState:
    """The hand as ``seat`` may see it: other racks emptied, no deck (only its count)."""
    base = state.turn_base
    return replace(
        state,
        racks=tuple(r if s == seat else () for s, r in enumerate(state.racks)),
        deck=None,
        turn_base=redact(base, seat) if base is not None else None,
    )


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows: its rack, the table, the discards, counts, who opened with what."""

    seat: int
    state: HandState  # redacted: see :func:`redact`
    rack_sizes: tuple[int, ...]
    ply: int = 0  # turns played so far in this hand (public: everyone saw them)

    @classmethod
    def of(cls, state: HandState, seat: int, ply: int = 0) -> View:
        return cls(seat, redact(state, seat), tuple(len(r) for r in state.racks), ply)

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def rack(self) -> tuple[Tile, ...]:
        return self.state.racks[self.seat]

    @property
    def okey(self) -> Tile:
        return self.state.okey

    @property
    def indicator(self) -> Tile:
        return self.state.indicator

    @property
    def table(self) -> tuple[TableMeld | None, ...]:
        return self.state.table

    @property
    def opened(self) -> bool:
        return self.state.opened[self.seat] is not None

    @property
    def opened_pairs(self) -> bool:
        o = self.state.opened[self.seat]
        return o is not None and o.kind == "pairs"

    @property
    def twin_shown(self) -> bool:
        return self.state.shown[self.seat]

    def points_threshold(self) -> int:
        return self.state.points_threshold(self.seat)

    def pairs_threshold(self) -> int:
        return self.state.pairs_threshold(self.seat)

    def takeable(self) -> Tile | None:
        """The previous player's discard, when this seat may take it now (P1, P3, P4)."""
        s = self.state
        prev = (self.seat - 1) % 4
        if s.phase != "draw" or s.turn != self.seat or s.takeable != prev or not s.discards[prev] or s.returned:
            return None
        t = s.discards[prev][-1]
        return t if self.legal({"type": "take", "seat": self.seat, "tile": str(t)}) is not None else None

    def legal(self, event: Event) -> HandState | None:
        """The seat's own state after ``event``, or None when the rules refuse it."""
        try:
            return apply(self.state, event)
        except IllegalMove:
            return None

    def after(self, event: Event) -> View:
        """This view once ``event`` is applied (the caller checked it is legal)."""
        return View(self.seat, apply(self.state, event), self.rack_sizes, self.ply)


# ---- shared helpers --------------------------------------------------------------------------


def _ev(kind: str, seat: int, **fields: Any) -> Event:
    return {"type": kind, "seat": seat, **fields}


def layoff_moves(v: View, *, wilds: bool = False) -> list[Event]:
    """Single-tile lay-offs the engine accepts now (L1-L3, L6), natural tiles first."""
    if not v.opened or v.state.phase != "play":
        return []
    out = []
    okey = v.okey
    seen: set[Tile] = set()
    for t in v.rack:
        if t in seen or t == okey:
            continue
        seen.add(t)
        face = okey if t.is_joker else t
        for m in v.table:
            if m is None or m.kind == M.PAIR or not M.fits(m.kind, m.tiles, face):
                continue
            ev = _ev("layoff", v.seat, meld=m.index, tiles=[str(t)])
            if v.legal(ev) is not None:
                out.append(ev)
                break
    if wilds and okey in v.rack:
        for m in v.table:
            if m is None or m.kind != M.RUN:
                continue
            lo, hi = m.tiles[0].face.number, m.tiles[-1].face.number
            col = m.tiles[0].face.colour
            for n in (hi + 1, lo - 1):
                if 1 <= n <= 13:
                    ev = _ev("layoff", v.seat, meld=m.index, tiles=[f"{okey}>{col}{n}"])
                    if v.legal(ev) is not None:
                        out.append(ev)
                        return out
    return out


def swap_moves(v: View) -> list[Event]:
    """Okey swaps the engine accepts now (S1, S2)."""
    if not v.opened or v.state.phase != "play":
        return []
    okey = v.okey
    out = []
    rack = list(v.rack)
    for m in v.table:
        if m is None or m.kind == M.PAIR or not any(p.wild and p.physical == okey for p in m.tiles):
            continue
        if m.kind == M.RUN:
            give = []
            for p in m.tiles:
                if p.wild and p.physical == okey:
                    phys = "J" if p.face == okey else str(p.face)
                    if Tile.parse(phys) in rack:
                        give = [phys]
                        break
        else:
            num = next(p.face.number for p in m.tiles if not p.wild) if any(not p.wild for p in m.tiles) else 0
            have = {p.face.colour for p in m.tiles if not p.wild}
            give = [f"{c}{num}" for c in "RYBK" if c not in have] if num else []
            give = ["J" if Tile.parse(g) == okey else g for g in give]  # T5
            if any(rack.count(Tile.parse(g)) < give.count(g) for g in give):
                give = []
        if give:
            ev = _ev("swap", v.seat, meld=m.index, tiles=give)
            if v.legal(ev) is not None:
                out.append(ev)
    return out


def usefulness(t: Tile, rack: tuple[Tile, ...], okey: Tile, counts: list[int] | None = None) -> int:
    """How much a tile helps its rack: neighbours in colour, same number, its twin."""
    face = okey if t.is_joker else t
    c = counts if counts is not None else BM.counts_of(rack, okey)[0]
    i = face.index
    col, n = divmod(i, 13)
    score = 0
    for d, w in ((1, 3), (2, 1)):
        if n - d >= 0 and c[i - d]:
            score += w
        if n + d < 13 and c[i + d]:
            score += w
    for oc in range(4):
        if oc != col and c[oc * 13 + n]:
            score += 2
    if c[i] >= 2:
        score += 1
    return score


def partition_of(rack: tuple[Tile, ...], okey: Tile) -> BM.Partition:
    c, w = BM.counts_of(rack, okey)
    return BM.partition(c, w)


def leftover_tiles(rack: tuple[Tile, ...], okey: Tile, p: BM.Partition) -> list[Tile]:
    used: dict[Tile, int] = {}
    for m in p.melds:
        for s in m:
            t = BM.slot_physical(s, okey)
            used[t] = used.get(t, 0) + 1
    out = []
    for t in rack:
        if used.get(t, 0):
            used[t] -= 1
        else:
            out.append(t)
    return out


# ---- bots ------------------------------------------------------------------------------------


class Bot:
    """The decisions of one seat. Subclasses override what they decide differently."""

    kind = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

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
            ev = _greedy_opening(v)
            return [ev] if ev is not None else []
        moves = swap_moves(v) + layoff_moves(v, wilds=True)
        p = partition_of(v.rack, v.okey)
        if p.melds and not v.opened_pairs:
            ev = _ev("meld", v.seat, melds=[BM.meld_text(p.melds[0], v.okey)])
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
            after = v.after(_ev("take", v.seat, tile=str(t)))
            ev = _greedy_opening(after, must_use=t)
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
            ev = _greedy_opening(v)
            return [ev] if ev is not None else []
        return _opened_moves(v)

    def discard(self, v: View) -> Tile:
        return _least_useful(v, danger=False)


class SolverBot(GreedyBot):
    """The exact solver for openings and turns; weighs pairs against melds and discard danger."""

    kind = "solver"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.memo: dict[str, Any] = {}  # this seat's own notes (plans it computed)

    def place(self, v: View) -> list[Event]:
        from . import solver_bot

        return solver_bot.place(v, self.memo)

    def take(self, v: View) -> bool:
        from . import solver_bot

        return solver_bot.take(v)

    def declare(self, v: View) -> bool:
        from . import solver_bot

        return solver_bot.declare(v)

    def discard(self, v: View) -> Tile:
        from . import solver_bot

        return solver_bot.discard(v, self.memo)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "solver": SolverBot}


def make_bot(kind: str, rng: random.Random) -> Bot:
    try:
        return BOTS[kind](rng)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; bots are {', '.join(BOTS)}") from None


# ---- greedy play -----------------------------------------------------------------------------


def _greedy_opening(v: View, must_use: Tile | None = None) -> Event | None:
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
            ev = _ev("open", v.seat, melds=[BM.meld_text(m, okey) for m in p.melds])
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
            ev = _ev("open", v.seat, pairs=[BM.pair_text(x, okey, v.indicator) for x in ps])
    if ev is None:
        return None
    if must_use is not None:
        groups = ev.get("melds") or ev.get("pairs") or []
        if not any(str(must_use) in g for g in groups):
            return None
    return ev if v.legal(ev) is not None else None


def _opened_moves(v: View) -> list[Event]:
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
                ev = _ev("meld", v.seat, melds=[BM.meld_text(m, okey) for m in melds])
                if v.legal(ev) is not None:
                    return [ev]
    if v.state.anyone_opened_pairs():
        c, _ = BM.counts_of(v.rack, okey)
        ps = [x for x in BM.pairs(c, 0) if x[1] == ""]
        if ps and len(ps) * 2 >= len(v.rack):
            ps = ps[:-1]
        if ps:
            ev = _ev("meld", v.seat, pairs=[BM.pair_text(x, okey, v.indicator) for x in ps])
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


def face_tile(idx: int) -> Tile:
    return FACES[idx]
