"""What one seat sees (:class:`View`): its rack, the table, the discard piles, rack sizes and who
opened with what — never another rack, never the deck order — and the moves it can make from it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from analysis.game import melds as M
from analysis.game import apply
from analysis.game import Rules
from analysis.game import HandState, IllegalMove, TableMeld
from analysis.game import FACES, Tile
from analysis.solver import quick as BM

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


def event(kind: str, seat: int, **fields: Any) -> Event:
    """A log event of ``kind`` by ``seat`` (LOG_FORMAT v1)."""
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
            ev = event("layoff", v.seat, meld=m.index, tiles=[str(t)])
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
                    ev = event("layoff", v.seat, meld=m.index, tiles=[f"{okey}>{col}{n}"])
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
            ev = event("swap", v.seat, meld=m.index, tiles=give)
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



def face_tile(idx: int) -> Tile:
    return FACES[idx]
