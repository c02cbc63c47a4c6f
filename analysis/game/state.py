"""A hand's state: tiles on the table, racks, openings, thresholds (O1-O3, O11) and penalties.

States are immutable; :func:`evolve` makes the changed copy that every move returns. The moves
themselves live in :mod:`analysis.game.moves`, :mod:`analysis.game.placing` and
:mod:`analysis.game.engine` (``apply``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from . import melds as M
from .rules import Rules
from .tiles import HIDDEN, Placed, Tile, full_set, okey_of, over_copies

SEATS = range(4)


class IllegalMove(ValueError):
    """A move the rules forbid; ``rule`` is the rule ID it breaks."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.message = message
        self.rule = rule


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld or pair on the table (melds and pairs share one numbering)."""

    index: int
    owner: int
    kind: str  # run, group or pair
    tiles: tuple[Placed, ...]
    placers: tuple[int, ...]  # who placed each tile (S3 / X6)
    _fit: frozenset[Tile] | None = field(default=None, compare=False, repr=False)

    @property
    def fit(self) -> frozenset[Tile]:
        """The faces this meld takes (L2), computed once per meld version."""
        f = self._fit
        if f is None:
            f = M.fitting_faces(self.kind, self.tiles)
            object.__setattr__(self, "_fit", f)
        return f

    @property
    def value(self) -> int:
        return M.value(self.tiles)

    def __str__(self) -> str:
        return " ".join(str(t) for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Opening:
    kind: str  # "points" or "pairs"
    value: int  # points, or number of pairs


@dataclass(frozen=True, slots=True)
class Penalty:
    seat: int
    points: int
    rule: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "points": self.points, "rule": self.rule}


@dataclass(frozen=True)
class HandState:
    rules: Rules
    hand: int
    starter: int
    indicator: Tile
    okey: Tile
    racks: tuple[tuple[Tile, ...], ...]
    deck: tuple[Tile, ...] | None  # the undealt tiles when the log gave them
    deck_count: int
    discards: tuple[tuple[Tile, ...], ...]
    table: tuple[TableMeld | None, ...]  # None: taken back, its number not reused
    opened: tuple[Opening | None, ...]
    shown: tuple[bool, ...] = (False,) * 4
    declared: tuple[bool, ...] = (False,) * 4
    started: tuple[bool, ...] = (False,) * 4  # has drawn, taken or discarded (O7)
    turn: int = 0
    phase: str = "play"  # "draw": must draw or take; "play": place and discard; "over"
    took: Tile | None = None
    took_unopened: bool = False
    returned: bool = False
    turn_base: HandState | None = None  # the state before the first placing this turn
    opened_this_turn: bool = False
    end_counts: tuple[tuple[tuple[int, str], int], ...] = ()
    layoffs_this_turn: int = 0
    took_back: bool = False  # a takeback this turn: one per turn (O6; see placing.on_takeback)
    placed_this_turn: tuple[Tile, ...] = ()  # physical tiles melded or laid off this turn (P2)
    takeable: int | None = None  # seat whose last discard the next player may take
    penalties: tuple[Penalty, ...] = ()
    result: str | None = None  # finish, exhausted, void
    finisher: int | None = None
    finish_kinds: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = None
    last_event: Mapping[str, Any] | None = None
    view: int | None = None  # a seat-view log's seat; the other racks hold HIDDEN tiles (seatview)

    # ---- derived views -------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def points_threshold(self, seat: int) -> int:
        """O1, O2, O11: what a points opening by ``seat`` must reach now."""
        return self._threshold(seat, "points", self.rules.open_points, self.rules.katlamali)

    def pairs_threshold(self, seat: int) -> int:
        """O3, O11: how many pairs a pairs opening by ``seat`` needs now."""
        r = self.rules
        return self._threshold(seat, "pairs", r.open_pairs, r.katlamali and r.pairs_escalating)

    def _threshold(self, seat: int, kind: str, base: int, escalating: bool) -> int:
        if not escalating:
            return base
        others = [s for s in SEATS if s != seat]
        if self.rules.esli:
            if self.opened[self.partner(seat)] is not None:
                return base  # O11: the team's escalation is passed once
            others = [s for s in others if s != self.partner(seat)]
        best = max((o.value for s in others if (o := self.opened[s]) and o.kind == kind), default=0)
        return max(base, best + 1)

    def anyone_opened_pairs(self) -> bool:
        return any(o is not None and o.kind == "pairs" for o in self.opened)

    def face_up(self) -> Counter[Tile]:
        """The tiles every seat sees: table melds, discard piles and the indicator."""
        c: Counter[Tile] = Counter(chain(*self.discards, (self.indicator,)))
        for m in self.table:
            if m is not None:
                c.update(p.physical for p in m.tiles)
        return c

    def tiles_in_play(self) -> Counter[Tile]:
        """Every physical tile accounted for outside the unseen deck (T1 conservation)."""
        c = self.face_up()
        c.update(chain(*self.racks))
        return c

    def copies(self, t: Tile) -> int:
        """``tiles_in_play()[t]`` without counting every tile: the copies of ``t`` known to lie in
        the racks, discards, on the table or as the indicator (tiles are interned: identity)."""
        n = 1 if t is self.indicator else 0
        for r in self.racks:
            # a seat-view log's hidden rack is mostly HIDDEN: counting those hits identity at once,
            # while comparing other tiles costs an equality call per element
            if r.count(HIDDEN) != len(r):
                n += r.count(t)
        for d in self.discards:
            n += d.count(t)
        counts = self.__dict__.get("_table_counts")
        if counts is None:  # the table's physical tiles, once per table (see evolve)
            counts = Counter(p.physical for m in self.table if m is not None for p in m.tiles)
            self.__dict__["_table_counts"] = counts
        return n + counts[t]

    def fits_table(self, t: Tile) -> TableMeld | None:
        """A table meld the physical tile could be laid off onto (X4), if any."""
        face = self.okey if t.is_joker else t
        fit = self.__dict__.get("_table_fit")
        if fit is None:  # the union of what every meld takes, once per table (see _evolve)
            fit = frozenset().union(*(m.fit for m in self.table if m is not None))
            self.__dict__["_table_fit"] = fit
        if face not in fit:
            return None
        for m in self.table:
            if m is not None and face in m.fit:
                return m
        return None



FULL_SET = full_set()  # read-only: the 106-tile set's counts (T1)


# ---- construction ---------------------------------------------------------------------------


def new_hand(rules: Rules, hand: int, starter: int, indicator: Tile, racks: Sequence[Sequence[Tile]],
             deck: Sequence[Tile] | None = None) -> HandState:
    """A dealt hand (D1, T2): checks rack sizes and that no tile appears more often than it exists."""
    if indicator.is_joker:
        raise IllegalMove("a false okey cannot be the indicator; it is put back and another drawn", "T2")
    if starter not in SEATS:
        raise IllegalMove(f"starter must be a seat 0-3, got {starter}", "D2")
    if len(racks) != 4:
        raise IllegalMove(f"a hand has 4 racks, got {len(racks)}", "D1")
    for s, r in enumerate(racks):
        want = rules.dealt_starter if s == starter else rules.deal
        if len(r) != want:
            who = "the starter" if s == starter else f"seat {s}"
            raise IllegalMove(f"{who} must be dealt {want} tiles, got {len(r)}", "D1")
    seen: Counter[Tile] = Counter(chain((indicator,), *racks, deck or ()))
    over = [f"{t} x{n}" for t, n in over_copies(seen)]
    if over:
        raise IllegalMove(f"more copies than the set holds: {', '.join(sorted(over))}", "T1")
    dealt = sum(len(r) for r in racks)
    if deck is not None and len(deck) + dealt + 1 != 106:
        missing = full_set() - seen
        raise IllegalMove(f"racks, deck and indicator hold {len(deck) + dealt + 1} tiles, not 106"
                          f" (missing {' '.join(str(t) for t in sorted(missing.elements()))})", "T1")
    return HandState(
        rules=rules, hand=hand, starter=starter, indicator=indicator, okey=okey_of(indicator),
        racks=tuple(tuple(r) for r in racks), deck=tuple(deck) if deck is not None else None,
        deck_count=len(deck) if deck is not None else 105 - dealt,
        discards=((), (), (), ()), table=(), opened=(None,) * 4, turn=starter, phase="play",
    )


# ---- apply ------------------------------------------------------------------------------------

_setattr = object.__setattr__


def evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of ``state`` with ``changes``: dataclasses.replace, minus its per-field cost."""
    d = state.__dict__.copy()
    d.update(changes)
    if "table" in changes:
        d.pop("_table_fit", None)  # caches of fits_table and copies, valid for one table only
        d.pop("_table_counts", None)
    new = object.__new__(HandState)
    _setattr(new, "__dict__", d)
    return new


def check_conservation(state: HandState) -> None:
    """T1: 106 tiles accounted for: racks + table + discards + deck + indicator."""
    seen = state.tiles_in_play()
    total = sum(seen.values()) + state.deck_count
    if total != 106:
        raise AssertionError(f"tile conservation broken: {total} tiles")
    if state.deck is not None:
        seen.update(state.deck)
        if seen != full_set():
            raise AssertionError("tile conservation broken: the multiset is not the 106-tile set")
    else:
        full = full_set()
        for t, n in seen.items():
            if n > full[t]:
                raise AssertionError(f"tile conservation broken: {t} x{n}")



__all__ = ["SEATS", "FULL_SET", "HandState", "IllegalMove", "Opening", "Penalty", "TableMeld", "check_conservation",
           "evolve", "new_hand"]
