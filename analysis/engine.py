"""The rules engine: a hand's state and a pure ``apply(state, event) -> state`` (RULES.md).

States are immutable; ``apply`` returns a new state sharing what did not change, so a replay is
a fold and stepping back is indexing. An illegal move raises :class:`IllegalMove` naming the
rule it breaks; the state it was applied to is untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from . import melds as M
from .rules import Rules
from .scoring import FinishInfo, score_hand
from .tiles import (_PARSED, FALSE_OKEY, NotationError, Placed, Tile, full_set, okey_of, over_copies,
                    parse_placed)

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
    placed_this_turn: tuple[Tile, ...] = ()  # physical tiles melded or laid off this turn (P2)
    takeable: int | None = None  # seat whose last discard the next player may take
    penalties: tuple[Penalty, ...] = ()
    result: str | None = None  # finish, exhausted, void
    finisher: int | None = None
    finish_kinds: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = None
    last_event: Mapping[str, Any] | None = None

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


_FULL = full_set()  # read-only: the 106-tile set's counts (T1)


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


def apply(state: HandState, event: Mapping[str, Any]) -> HandState:
    """The state after ``event``; raises IllegalMove (state unchanged) for a forbidden move."""
    kind = event.get("type")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise IllegalMove(f"event type {kind!r} cannot occur inside a hand", "P1")
    if state.phase == "over" and kind != "penalty" and kind != "end":
        raise IllegalMove(f"the hand is over ({state.result}); no {kind} after it", "E1")
    new = handler(state, event)
    if new is state:
        return _evolve(state, last_event=event)
    new.__dict__["last_event"] = event  # new is ours alone until returned
    return new


def _seat(state: HandState, event: Mapping[str, Any], *, own_turn: bool = True) -> int:
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise IllegalMove(f"seat must be 0-3, got {seat!r}", "D2")
    if own_turn and seat != state.turn:
        raise IllegalMove(f"seat {seat} moved out of turn: it is seat {state.turn}'s turn", "D2")
    return seat


def _tile(event: Mapping[str, Any], field: str = "tile") -> Tile:
    known = _PARSED.get(event.get(field))  # type: ignore[arg-type]
    if known is not None:
        return known
    try:
        return Tile.parse(event.get(field))  # type: ignore[arg-type]
    except NotationError as e:
        raise IllegalMove(str(e).rsplit(" [", 1)[0], "T1") from None


def _remove(rack: tuple[Tile, ...], ts: Sequence[Tile], seat: int) -> tuple[Tile, ...]:
    """The rack without ``ts`` (a multiset); tiles are interned, so they are found by identity,
    which keeps the search in C (Tile's Python-level ordering slows ``list.remove``)."""
    ids = list(map(id, rack))
    if len(ts) == 1:  # one tile, the common case (a discard)
        try:
            i = ids.index(id(ts[0]))
        except ValueError:
            raise IllegalMove(f"seat {seat} does not hold {ts[0]}", "P1") from None
        return rack[:i] + rack[i + 1:]
    out = list(rack)
    for t in ts:
        try:
            i = ids.index(id(t))
        except ValueError:
            raise IllegalMove(f"seat {seat} does not hold {t}", "P1") from None
        del out[i], ids[i]
    return tuple(out)


_setattr = object.__setattr__


def _evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of ``state`` with ``changes``: dataclasses.replace, minus its per-field cost."""
    d = state.__dict__.copy()
    d.update(changes)
    if "table" in changes:
        d.pop("_table_fit", None)  # a cache of fits_table, valid for one table only
    new = object.__new__(HandState)
    _setattr(new, "__dict__", d)
    return new


def _set(seq: tuple, i: int, v: Any) -> tuple:
    return seq[:i] + (v,) + seq[i + 1:]


def _start_placing(state: HandState) -> HandState:
    """Remember the state before this turn's first placing, for a takeback (O6)."""
    return state if state.turn_base is not None else _evolve(state, turn_base=state)


def _draw(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    t = _tile(ev)
    if state.phase != "draw":
        raise IllegalMove(f"seat {seat} cannot draw now: " + (
            "the starter opens the hand by discarding without drawing" if not state.started[seat]
            else "one draw or take per turn"), "P1" if state.started[seat] else "D1")
    if state.deck_count <= 0:
        raise IllegalMove("the deck is empty", "E1")
    deck = state.deck
    if deck is not None:
        if deck[0] != t:
            raise IllegalMove(f"seat {seat} drew {t} but the deck's next tile is {deck[0]}", "P1")
        deck = deck[1:]
    else:
        if state.tiles_in_play()[t] >= _FULL[t]:
            raise IllegalMove(f"seat {seat} drew {t}, but every copy of {t} is already in play", "T1")
    return _evolve(state, racks=_set(state.racks, seat, state.racks[seat] + (t,)), deck=deck,
                   deck_count=state.deck_count - 1, phase="play", takeable=None,
                   started=_set(state.started, seat, True))


def _take(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    t = _tile(ev)
    prev = (seat - 1) % 4
    if state.phase != "draw":
        raise IllegalMove(f"seat {seat} cannot take now: one draw or take per turn", "P1")
    if state.returned:
        raise IllegalMove(f"seat {seat} returned the discard and must draw", "P2")
    if state.takeable != prev or not state.discards[prev]:
        raise IllegalMove(f"there is no discard of seat {prev} to take", "P1")
    top = state.discards[prev][-1]
    if top != t:
        raise IllegalMove(f"seat {seat} took {t} but seat {prev}'s last discard is {top}", "P1")
    if t == state.okey:
        raise IllegalMove(f"a discarded okey ({t}) cannot be taken", "P3")
    op = state.opened[prev]
    if op is not None and op.kind == "pairs" and not state.rules.pairs_discard_takeable:
        raise IllegalMove(f"seat {prev} opened with pairs: his discards cannot be taken", "P4")
    return _evolve(state, racks=_set(state.racks, seat, state.racks[seat] + (t,)),
                   discards=_set(state.discards, prev, state.discards[prev][:-1]), phase="play",
                   took=t, took_unopened=state.opened[seat] is None, takeable=None,
                   started=_set(state.started, seat, True))


def _return(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    t = _tile(ev)
    if state.took is None or state.phase != "play":
        raise IllegalMove(f"seat {seat} has taken no discard this turn to return", "P2")
    if t != state.took:
        raise IllegalMove(f"seat {seat} returned {t} but took {state.took}", "P2")
    base = state.turn_base
    if base is not None and (base.table != state.table or base.racks[seat] != state.racks[seat]):
        raise IllegalMove(f"seat {seat} must take back what he placed before returning {t}", "P2")
    prev = (seat - 1) % 4
    rack = _remove(state.racks[seat], [t], seat)
    return _evolve(state, racks=_set(state.racks, seat, rack),
                   discards=_set(state.discards, prev, state.discards[prev] + (t,)),
                   phase="draw", took=None, took_unopened=False, returned=True, takeable=prev,
                   turn_base=None)


def _show(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev, own_turn=False)
    t = _tile(ev)
    if not state.rules.gosterge:
        raise IllegalMove(f"{state.rules.variant} is played without showing the indicator twin", "O7")
    if t != state.indicator:
        raise IllegalMove(f"seat {seat} showed {t}, which is not the indicator {state.indicator}", "O7")
    if state.started[seat]:
        raise IllegalMove(f"seat {seat} may show the indicator twin only before his first draw", "O7")
    if state.shown[seat]:
        raise IllegalMove(f"seat {seat} has already shown the indicator twin", "O7")
    if t not in state.racks[seat]:
        raise IllegalMove(f"seat {seat} does not hold {t}", "O7")
    return _evolve(state, shown=_set(state.shown, seat, True))


def _declare(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev, own_turn=False)
    if ev.get("what") != "pairs":
        raise IllegalMove(f"only pairs can be declared, got {ev.get('what')!r}", "O10")
    if state.opened[seat] is not None:
        raise IllegalMove(f"seat {seat} has already opened", "O10")
    return _evolve(state, declared=_set(state.declared, seat, True))


def _parse_group(state: HandState, seat: int, raw: Any, pairs: bool) -> list[Placed]:
    twin = state.indicator if (pairs and state.shown[seat]) else None
    if not isinstance(raw, list):
        raise IllegalMove(f"a {'pair' if pairs else 'meld'} is a list of tiles, got {raw!r}", "M1")
    out = []
    for x in raw:
        try:
            out.append(parse_placed(x, state.okey, twin))
        except NotationError as e:
            msg = str(e)
            rule = msg[msg.rfind("[") + 1:-1] if msg.endswith("]") else "T4"
            if not pairs and isinstance(x, str) and ">" in x and x.split(">")[0].strip().upper() == str(state.indicator):
                rule, msg = "O7", f"{x!r}: the indicator twin counts as an okey only in pairs"
            raise IllegalMove(msg.rsplit(" [", 1)[0], rule) from None
    return out


def _place(state: HandState, ev: Mapping[str, Any], opening: bool) -> HandState:
    """open / meld: new melds or pairs on the table."""
    seat = _seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before placing tiles", "P1")
    has_melds, has_pairs = "melds" in ev, "pairs" in ev
    if has_melds == has_pairs:
        raise IllegalMove("an opening or placing has either melds or pairs, never both", "O3")
    pairs = has_pairs
    groups = ev["pairs"] if pairs else ev["melds"]
    if not isinstance(groups, list) or not groups:
        raise IllegalMove("nothing to place", "M1")
    cur = state.opened[seat]
    kind = "pairs" if pairs else "points"
    if opening and cur is not None and state.opened_this_turn:
        opening = False  # a second 'open' in the opening turn adds to the same opening (O1)
    if opening:
        if cur is not None:
            raise IllegalMove(f"seat {seat} has already opened; later melds are 'meld' events", "O1")
        if pairs and state.rules.declare_pairs and not state.declared[seat]:
            raise IllegalMove(f"seat {seat} must declare pairs before opening with pairs", "O10")
    else:
        if cur is None:
            raise IllegalMove(f"seat {seat} has not opened: his first placing is the opening", "O1")
        if state.opened_this_turn:
            if cur.kind != kind:
                raise IllegalMove("pairs and melds never mix in one opening", "O3")
        elif cur.kind == "pairs" and not pairs:
            raise IllegalMove(f"seat {seat} opened with pairs and can never place a run or group", "O4")
        elif pairs and not state.anyone_opened_pairs():
            raise IllegalMove("nobody has opened with pairs: there is no pairs area yet", "L5")
    placed: list[TableMeld] = []
    used: list[Tile] = []
    total = 0
    n = len(state.table)
    for raw in groups:
        ts = _parse_group(state, seat, raw, pairs)
        try:
            if pairs:
                ordered, mk = M.check_pair(ts), M.PAIR
            else:
                mk, ordered = M.classify(ts)
        except M.MeldError as e:
            raise IllegalMove(str(e), e.rule) from None
        placed.append(TableMeld(n + len(placed), seat, mk, tuple(ordered), (seat,) * len(ordered)))
        used.extend(p.physical for p in ordered)
        total += 1 if pairs else M.value(ordered)
    rack = _remove(state.racks[seat], used, seat)
    if not rack:
        raise IllegalMove(f"seat {seat} must keep a tile to discard", "P5")
    s = _start_placing(state)
    new_open: Opening | None = cur
    if opening or state.opened_this_turn:
        new_open = Opening(kind, (cur.value if cur and state.opened_this_turn else 0) + total)
    s = _evolve(s, racks=_set(s.racks, seat, rack), table=s.table + tuple(placed),
                placed_this_turn=s.placed_this_turn + tuple(used),
                opened=_set(s.opened, seat, new_open),
                opened_this_turn=s.opened_this_turn or opening)
    if pairs and (opening or s.opened_this_turn):
        s = _maybe_void(s, seat)
    return s


def _maybe_void(s: HandState, seat: int) -> HandState:
    """E3: the fourth pairs opener voids the hand at once."""
    op = s.opened[seat]
    if not s.rules.void_all_pairs or op is None or op.value < s.pairs_threshold(seat):
        return s
    if all(o is not None and o.kind == "pairs" for o in s.opened):
        return _evolve(s, phase="over", result="void", scores=(0, 0, 0, 0))
    return s


def _open(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return _place(state, ev, opening=True)


def _meld(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return _place(state, ev, opening=False)


def _target(state: HandState, ev: Mapping[str, Any]) -> TableMeld:
    i = ev.get("meld")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(state.table) or state.table[i] is None:
        raise IllegalMove(f"there is no table meld {i!r}", "L1")
    return state.table[i]  # type: ignore[return-value]


def _layoff(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before laying off", "P1")
    if state.opened[seat] is None:
        raise IllegalMove(f"seat {seat} has not opened and cannot lay off", "L1")
    if state.opened_this_turn and not state.rules.layoff_opening_turn:
        raise IllegalMove(f"seat {seat} opened this turn and may lay off only from his next turn", "L6")
    m = _target(state, ev)
    raw = ev.get("tiles")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("a layoff names the tiles it adds", "L1")
    ts = _parse_group(state, seat, raw, pairs=False)
    if m.kind == M.PAIR:
        raise IllegalMove(f"meld {m.index} is a pair: pairs take no lay-offs", "L2")
    counts = dict(state.end_counts)
    if m.kind == M.GROUP:
        number = m.tiles[0].face.number
        colours = {p.face.colour for p in m.tiles}
        for p in ts:
            if p.face.number != number or p.face.colour in colours:
                raise IllegalMove(f"{p} does not fit group {m.index} ({m}): a group takes only its missing colours", "L2")
            colours.add(p.face.colour)
        if len(colours) > 4:
            raise IllegalMove(f"group {m.index} ({m}) cannot hold more than four colours", "L2")
        new_tiles = m.tiles + tuple(ts)
        order = "RYBK"
        new_tiles = tuple(sorted(new_tiles, key=lambda p: order.index(p.face.colour)))
        placers = _placers_after(m, new_tiles, seat)
    else:
        colour = m.tiles[0].face.colour
        lo, hi = m.tiles[0].face.number, m.tiles[-1].face.number
        nums = sorted(p.face.number for p in ts)
        for p in ts:
            if p.face.colour != colour:
                raise IllegalMove(f"{p} does not fit run {m.index} ({m}): wrong colour", "L2")
        low = [x for x in nums if x < lo]
        high = [x for x in nums if x > hi]
        if len(low) + len(high) != len(nums) or (low and low != list(range(lo - len(low), lo))) \
                or (high and high != list(range(hi + 1, hi + 1 + len(high)))):
            raise IllegalMove(f"{' '.join(map(str, ts))} does not extend run {m.index} ({m}) at its ends", "L2")
        if (low and low[0] < 1) or (high and high[-1] > 13):
            raise IllegalMove(f"run {m.index} cannot go below 1 or past 13", "L2")
        if state.rules.run_end_cap:
            for end, k in (("low", len(low)), ("high", len(high))):
                if k and counts.get((m.index, end), 0) + k > 2:
                    raise IllegalMove(f"at most two tiles per run end per turn: run {m.index} ({m}) {end} end", "L3")
        for end, k in (("low", len(low)), ("high", len(high))):
            if k:
                counts[(m.index, end)] = counts.get((m.index, end), 0) + k
        new_tiles = tuple(sorted(m.tiles + tuple(ts), key=lambda p: p.face.number))
        placers = _placers_after(m, new_tiles, seat)
    rack = _remove(state.racks[seat], [p.physical for p in ts], seat)
    if not rack:
        raise IllegalMove(f"seat {seat} must keep a tile to discard", "P5")
    s = _start_placing(state)
    op = s.opened[seat]
    if s.opened_this_turn and op is not None:
        op = Opening(op.kind, op.value + M.value(ts))  # O1: same-turn lay-offs count
    return _evolve(s, racks=_set(s.racks, seat, rack),
                   table=_set(s.table, m.index, TableMeld(m.index, m.owner, m.kind, new_tiles, placers)),
                   opened=_set(s.opened, seat, op), end_counts=tuple(counts.items()),
                   layoffs_this_turn=s.layoffs_this_turn + len(ts),
                   placed_this_turn=s.placed_this_turn + tuple(p.physical for p in ts))


def _placers_after(m: TableMeld, new_tiles: tuple[Placed, ...], seat: int) -> tuple[int, ...]:
    """Who placed each tile of a meld after ``seat`` added some (S3 needs the okey's placer)."""
    old = list(zip(m.tiles, m.placers))
    out = []
    for p in new_tiles:
        for i, (q, who) in enumerate(old):
            if q == p:
                out.append(who)
                del old[i]
                break
        else:
            out.append(seat)
    return tuple(out)


def _swap(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before swapping", "P1")
    if state.opened[seat] is None:
        raise IllegalMove(f"seat {seat} must open before taking an okey from the table", "S1")
    m = _target(state, ev)
    raw = ev.get("tiles")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("a swap names the tiles it puts in", "S1")
    given = [_tile({"tile": x}) for x in raw]
    okey = state.okey
    wild = [i for i, p in enumerate(m.tiles) if p.wild and p.physical == okey]
    if not wild:
        raise IllegalMove(f"meld {m.index} ({m}) holds no okey to take", "S1"
                          if not any(p.wild for p in m.tiles) else "O7")
    tiles = list(m.tiles)
    placers = list(m.placers)
    freed: list[tuple[Tile, int]] = []
    if m.kind == M.GROUP:
        # S2: each tile either replaces the okey standing for its colour or adds a missing
        # colour, and the group must then hold all four colours
        number = m.tiles[0].face.number
        entries = list(zip(m.tiles, m.placers))
        for g in given:
            f = okey if g.is_joker else g  # T5: a false okey is the okey's face
            if f.number != number:
                raise IllegalMove(f"{g} does not belong in group {m.index} ({m})", "S2")
            hit = next((k for k, (p, _) in enumerate(entries)
                        if p.wild and p.physical == okey and p.face.colour == f.colour), None)
            if hit is not None:
                freed.append((entries[hit][0].physical, entries[hit][1]))
                entries[hit] = (Placed(g, f), seat)
            elif f.colour in {p.face.colour for p, _ in entries}:
                raise IllegalMove(f"group {m.index} ({m}) already has {f.colour}{number}", "S2")
            else:
                entries.append((Placed(g, f), seat))
        if not freed or len(entries) != 4:
            raise IllegalMove(f"from group {m.index} ({m}) the okey is taken only by completing four colours", "S2")
        order = "RYBK"
        entries.sort(key=lambda x: order.index(x[0].face.colour))
        tiles, placers = [p for p, _ in entries], [w for _, w in entries]
    else:
        for g in given:
            face = okey if g.is_joker else g
            for i in wild:
                if tiles[i].wild and tiles[i].face == face:
                    freed.append((tiles[i].physical, placers[i]))
                    tiles[i] = Placed(g, face)
                    placers[i] = seat
                    break
            else:
                raise IllegalMove(f"{g} is not what an okey in meld {m.index} ({m}) stands for", "S1")
    rack = _remove(state.racks[seat], given, seat)
    rack = rack + tuple(t for t, _ in freed)
    s = _start_placing(state)
    pens = s.penalties
    if s.rules.cezali and s.rules.x6:
        for _, who in freed:
            if who != seat:
                pens += (Penalty(who, s.rules.penalty_unit, "X6"),)
    return _evolve(s, racks=_set(s.racks, seat, rack),
                   table=_set(s.table, m.index, TableMeld(m.index, m.owner, m.kind, tuple(tiles), tuple(placers))),
                   penalties=pens)


def _takeback(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    base = state.turn_base
    if state.phase != "play" or base is None:
        raise IllegalMove(f"seat {seat} placed nothing this turn to take back", "O6")
    pens = state.penalties
    r = state.rules
    if r.cezali:
        if state.opened_this_turn:
            pens += (Penalty(seat, r.penalty_unit, "X2"),)
        elif r.x7 and state.layoffs_this_turn >= 2:
            pens += (Penalty(seat, r.penalty_unit, "X7"),)
    table = base.table + (None,) * (len(state.table) - len(base.table))
    return _evolve(base, table=table, penalties=pens, turn_base=None, last_event=None)


# what a discard resets for the next turn
_TURN_RESET: dict[str, Any] = dict(took=None, took_unopened=False, returned=False, turn_base=None,
                                   opened_this_turn=False, end_counts=(), layoffs_this_turn=0,
                                   placed_this_turn=(),
                                   phase="draw")


def _discard(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = _seat(state, ev)
    t = _tile(ev)
    r = state.rules
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before discarding", "P1")
    rack = _remove(state.racks[seat], (t,), seat)
    finishing = not rack
    opened = state.opened
    op = opened[seat]
    pens = state.penalties
    if state.took is not None and state.took_unopened:
        took = state.took
        used = op is not None and any(p is took for p in state.placed_this_turn)
        if not used:
            raise IllegalMove(f"seat {seat} took {state.took} without opening with it; he must return it and draw", "P2")
    others_open = (opened[0] is not None) + (opened[1] is not None) + (opened[2] is not None) \
        + (opened[3] is not None) - (op is not None) > 0
    if state.opened_this_turn and op is not None:
        need = state.points_threshold(seat) if op.kind == "points" else state.pairs_threshold(seat)
        if op.value < need:
            o9 = r.open_below_finishing
            if not (finishing and (o9 == "yes" or (o9 == "elden" and not others_open))):
                what = f"{op.value} points" if op.kind == "points" else f"{op.value} pairs"
                raise IllegalMove(f"seat {seat} opened with {what} but needs {need}; it must be taken back",
                                  "O1" if op.kind == "points" else "O3")
        if r.siler and ((op.kind == "points" and op.value >= r.siler_points)
                        or (op.kind == "pairs" and op.value >= r.siler_pairs)):
            pens += (Penalty(seat, -r.penalty_unit, "O8"),)
        if state.took is not None and state.took_unopened and r.cezali and r.x5:
            prev = (seat - 1) % 4
            val = state.okey.number if state.took.is_joker else state.took.number
            pens += (Penalty(prev, r.x5_factor * val, "X5"),)
    if not finishing and r.cezali:
        if t == state.okey:
            pens += (Penalty(seat, r.penalty_unit, "X3"),)
        elif state.fits_table(t) is not None:
            pens += (Penalty(seat, r.penalty_unit, "X4"),)
    s = _evolve(state, **_TURN_RESET, racks=_set(state.racks, seat, rack),
                discards=_set(state.discards, seat, state.discards[seat] + (t,)), penalties=pens,
                started=_set(state.started, seat, True), takeable=seat, turn=(seat + 1) % 4)
    if finishing:
        kinds = []
        if t == state.okey:
            kinds.append("okey")
        if state.opened_this_turn and not others_open:
            kinds.append("elden")  # E2
        if op is not None and op.kind == "pairs":
            kinds.append("pairs")
        info = FinishInfo(result="finish", finisher=seat, kinds=tuple(kinds), others_open=others_open)
        return _evolve(s, phase="over", result="finish", finisher=seat, finish_kinds=tuple(kinds),
                       scores=score_hand(r, info, s.racks, s.opened, state.okey), takeable=None)
    if state.deck_count == 0:
        info = FinishInfo(result="exhausted", finisher=None, kinds=(), others_open=True)
        return _evolve(s, phase="over", result="exhausted",
                       scores=score_hand(r, info, s.racks, s.opened, state.okey), takeable=None)
    return s


def _penalty(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return state  # recorded penalties are compared by the replay, not applied


def _end(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return state


_HANDLERS = {
    "draw": _draw, "take": _take, "return": _return, "show": _show, "declare": _declare,
    "open": _open, "meld": _meld, "layoff": _layoff, "swap": _swap, "takeback": _takeback,
    "discard": _discard, "penalty": _penalty, "end": _end,
}


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


__all__ = [
    "FALSE_OKEY",
    "HandState",
    "IllegalMove",
    "Opening",
    "Penalty",
    "TableMeld",
    "apply",
    "check_conservation",
    "new_hand",
]
