"""The compiled rollout model: the way in from Python, and its trace as log events.

:mod:`.crollout` (``rollout.c``, built by setup.py) plays the rest of a hand by the rules of
docs/rules.md and a simple policy; this module packs an engine :class:`HandState` for it, calls it
and turns its trace into v1 log events (LOG_FORMAT.md), so that every rollout can be replayed by
the engine (``tests/test_rollout_replay.py``).

What the model plays: draws and takes (P1-P4), returning a taken tile it cannot open with (P2),
openings by points with their same-turn lay-offs where L6 allows them, capped by L3 and counted
by O1, or by pairs (O3) with okeys and a shown indicator twin wild in pairs (T4, O7), with
escalation (O2, O3) and partners' once-passed escalation (O11); siler (O8) and X5 written at the
discard that ends the opening turn; O9; declaring before pairs where the preset requires it
(O10); showing the indicator twin before the first draw (O7); new melds and lay-offs of real
tiles and okeys after the opening (L1-L3), pairs after a pairs opening (O4, O5, L5); okey swaps
from runs, pairs and groups (S1-S3) with X6 charged to the seat that placed the okey; X3 and X4
at the discard; finishes, exhausted decks and voids (E1-E4) and hand-end scoring (E5-E8).

What it leaves out, and why: takebacks (O6), so X2 and X7 never arise (the policy only places
what it has checked is legal, as a careful player does); the indicator twin in a melds opener's
later pairs, and swaps in the opening turn (rare, and the policy's choice only: never illegal);
the discard pile below the top tile (nobody can take it, P1). Each seat's policy reads only its
own rack, the table, every discard pile and the public counts: hidden racks and the deck order
decide only what is drawn. A careful seat (the default, :data:`CAREFUL`) does not throw the tiles
likely to feed the unopened next seat's opening (X5), judged from that view; :data:`CARELESS` is
the policy before it.
"""

from __future__ import annotations

import os
from array import array
from dataclasses import replace
from collections.abc import Sequence
from typing import Any

from analysis.game import FACES, FALSE_OKEY, HandState, Rules, Tile, apply

try:  # built by setup.py; absent with ISTAKA_PURE=1 or without a C compiler
    import analysis.evaluate.crollout as _c  # type: ignore[import-not-found]

    COMPILED: Any = _c if not os.environ.get("ISTAKA_PURE") else None
except ImportError:  # pragma: no cover - the pure install
    COMPILED = None


def search_stats() -> dict[str, Any] | None:
    """The compiled model's counters since the last call (and reset them): searches, turns,
    plays, memo hits, and the kernel searches by kind with their seconds: ``opening`` (an
    unopened seat's best placing), ``question`` (would an unopened seat open with the discard:
    the take decision), ``opened`` (an opened seat's placing). None without the compiled model."""
    return COMPILED.stats() if COMPILED is not None else None


WILD = 52
MODE_PLAY, MODE_DRAW, MODE_TAKE, MODE_DISCARD_POLICY, MODE_DISCARD = 0, 1, 2, 3, 4
EV_SHOW, EV_DECLARE, EV_DRAW, EV_TAKE, EV_RETURN, EV_OPEN, EV_MELD, EV_LAYOFF, EV_SWAP, EV_DISCARD, \
    EV_PENALTY, EV_END = range(1, 13)
RULE_NAMES = {2: "X2", 3: "X3", 4: "X4", 5: "X5", 6: "X6", 7: "X7", 8: "O8"}
RESULTS = {0: "unfinished", 1: "finish", 2: "exhausted", 3: "void"}
PART_RULES = ("X2", "X3", "X4", "X5", "X6", "X7", "O8")
assert tuple(RULE_NAMES.values()) == PART_RULES  # the model's penalty counts come in this order
_PART_AT = {r: i for i, r in enumerate(PART_RULES)}
# the parts of a candidate's value for its seat (its team's with partners), adding up to it: the
# hand-end score (E4-E8), the penalties already charged before the decision, and each penalty by
# rule charged from the decision on (the candidate's own events included)
PARTS = ("hand", "paid") + PART_RULES
# beside the parts, never added to them: the seat finishes, the next seat opens (from unopened),
# the next seat finishes
RATES = ("finish", "next_opens", "next_finishes")
_VOID = (0,) * (len(PARTS) + len(RATES) + 1)  # a void placing's parts, rates and own score
# after the rates, the seat's own value (its hand-end score and penalties alone): in partner games
# the parts are the team's, and the seat's own expected score is shown apart from it
_KIND = {"run": 0, "group": 1, "pair": 2}


def code(t: Tile, okey: Tile) -> int:
    """The model's code of a physical tile: its face 0-51, the okey 52, a false okey the okey's face."""
    if t == okey:
        return WILD
    if t.is_joker:
        return okey.index
    return t.index


def rules_ints(r: Rules) -> list[int]:
    o9 = {"no": 0, "elden": 1, "yes": 2}[r.open_below_finishing]
    return [int(r.katlamali), r.open_points, r.open_pairs, int(r.pairs_escalating), int(r.gosterge),
            int(r.layoff_opening_turn), int(r.run_end_cap), int(r.declare_pairs), o9, int(r.siler), r.siler_points,
            r.siler_pairs, int(r.cezali), r.penalty_unit, int(r.x5), r.x5_factor, int(r.x6), int(r.x7),
            int(r.pairs_discard_takeable), r.unopened_penalty, r.okey_in_rack, r.finisher_bonus,
            int(r.multipliers == "E7"), int(r.void_all_pairs), int(r.esli)]


# the seats (a bit each) whose discards avoid feeding the next seat's opening (X5): every seat (the
# proof's hands), none (the policy before it: the ``expert-careless`` bot's); a decision's rollouts
# make the deciding seat careful (:func:`own_seats`)
CAREFUL = 0b1111
CARELESS = 0


def own_seats(seat: int, rules: Rules) -> int:
    """The careful seats of a decision's rollouts: the seat's own future play (and its partner's,
    whose X5 is the team's); the other seats play the policy they always played."""
    return 1 << seat | (1 << (seat + 2) % 4 if rules.esli else 0)


def pack(st: HandState, careful: int = CAREFUL) -> bytes:
    """Everything public of ``st`` the model needs (rules, table, openings, the turn, every discard
    pile), no rack; ``careful``: the seats (a bit each) whose discards weigh X5 (see rollout.c)."""
    okey = st.okey
    out = rules_ints(st.rules)
    tk = st.takeable if st.takeable is not None and st.discards[st.takeable] else -1
    phase = 2 if st.over else (0 if st.phase == "draw" else 1)
    took = code(st.took, okey) if st.took is not None else -1
    out += [okey.index, st.indicator.index, st.turn, phase, took, int(st.took_unopened), int(st.opened_this_turn),
            int(st.turn_base is not None), int(st.returned),
            int(st.took is not None and any(p is st.took for p in st.placed_this_turn)), tk]
    out += [code(d[-1], okey) if d else -1 for d in st.discards]
    out += [0 if o is None else (1 if o.kind == "points" else 2) for o in st.opened]
    out += [0 if o is None else o.value for o in st.opened]
    out += [int(x) for x in st.declared] + [int(x) for x in st.shown] + [int(x) for x in st.started]
    pen = [0, 0, 0, 0]
    for p in st.penalties:
        pen[p.seat] += p.points
    out += pen
    ends = dict(st.end_counts)
    out.append(len(st.table))
    for m in st.table:
        if m is None:
            out += [-1, -1, 0, 0, 0]
            continue
        out += [_KIND[m.kind], m.owner, len(m.tiles), ends.get((m.index, "low"), 0), ends.get((m.index, "high"), 0)]
        for p, who in zip(m.tiles, m.placers):
            out += [code(p.physical, okey), p.face.index, who]
    r = st.rules
    out += [careful, 105 - 3 * r.deal - r.dealt_starter]
    for d in st.discards:
        pile = [0] * 53
        for t in d:
            pile[code(t, okey)] += 1
        out += pile
    return array("i", out).tobytes()


_CODES: dict[Tile, dict[Tile, int]] = {}


def codes(okey: Tile) -> dict[Tile, int]:
    """:func:`code` of every physical tile for one okey (tiles are interned: a dict by identity),
    built once per okey: sampling a world codes about a hundred tiles (the deep review's hot path)."""
    got = _CODES.get(okey)
    if got is None:
        got = {t: code(t, okey) for t in (*FACES, FALSE_OKEY)}
        _CODES[okey] = got
    return got


def rack_bytes(racks: Sequence[Sequence[Tile]], okey: Tile) -> bytes:
    c = bytearray(4 * 53)
    k = codes(okey)
    for s, r in enumerate(racks):
        base = s * 53
        for t in r:
            c[base + k[t]] += 1
    return bytes(c)


def counts_bytes(counts: Sequence[Sequence[int]]) -> bytes:
    """Four racks already as 53 counts each."""
    return b"".join(bytes(c) for c in counts)


def deck_bytes(deck: Sequence[Tile], okey: Tile) -> bytes:
    k = codes(okey)
    return bytes([k[t] for t in deck])


def play(base: bytes, racks: bytes, deck: bytes, mode: int = MODE_PLAY, tile: int = -1,
         trace: bool = False, parts: bool = False) -> tuple[Any, ...]:
    """One rollout: (value per seat: hand score + in-game penalties, result code, trace), and with
    ``parts`` the play's parts in the same call (scores, result, finisher, opened, penalties by
    rule: the model's state is shared by the server's threads, so never read it in a second call)."""
    assert COMPILED is not None, "the compiled rollout is not built (setup.py build_ext)"
    if parts:
        return COMPILED.play(base, racks, deck, mode, tile, trace, True)  # type: ignore[no-any-return]
    return COMPILED.play(base, racks, deck, mode, tile, trace)  # type: ignore[no-any-return]


def seat_value(vals: Sequence[int], seat: int, rules: Rules) -> int:
    """The seat's hand score, its team's in partner games (G4)."""
    v = vals[seat]
    if rules.esli:
        v += vals[(seat + 2) % 4]
    return v


class Position:
    """One decision's position for the compiled model: the view's public state packed once, and
    each placing candidate's state after its events (applied once: they touch only the seat's
    rack and the table, the same in every world)."""

    __slots__ = ("_after", "_codes", "_starts", "base", "careful", "okey", "rules", "seat", "state")

    def __init__(self, state: HandState, seat: int, careful: int | None = None) -> None:
        self.state = state
        self.seat = seat
        self.okey = state.okey
        self.rules = state.rules
        self.careful = own_seats(seat, state.rules) if careful is None else careful
        self.base = pack(state, self.careful)
        self._after: dict[int, tuple[bytes, bytes, bool, Any]] = {}
        self._starts: dict[int, tuple[HandState, Any]] = {}
        self._codes: dict[Tile, int] = {}  # a discarded tile's code for the model

    def world(self, racks: Sequence[Sequence[Tile]], deck: Sequence[Tile]) -> tuple[bytes, bytes]:
        """A sampled world as the model reads it: (racks, deck)."""
        return rack_bytes(racks, self.okey), deck_bytes(deck, self.okey)

    def value(self, world: tuple[bytes, bytes], kind: str, events: Sequence[dict[str, Any]] = (),
              tile: Tile | None = None) -> int:
        """The seat's hand score (its team's with partners) after the candidate in this world: a
        draw, a take, a discard of ``tile``, a placing whose ``events`` the engine applies, or an
        O7 decision (``show``: its event, or none for not showing)."""
        return self.play(world, kind, events, tile)[0]

    def value_parts(self, world: tuple[bytes, bytes], kind: str, events: Sequence[dict[str, Any]] = (),
                    tile: Tile | None = None) -> tuple[int, tuple[int, ...]]:
        """:meth:`value` and its parts in this world (:data:`PARTS` then :data:`RATES`): the parts
        add up to the value exactly; the rates are 0 or 1. The compiled model builds them in the
        play's own call (:meth:`parts` is the same in Python, from ``play(..., parts=True)``)."""
        return self.run(world, self.prepared(kind, events, tile))

    def prepared(self, kind: str, events: Sequence[dict[str, Any]] = (), tile: Tile | None = None
                 ) -> tuple[bytes, bytes | None, int, int, tuple[int, ...] | None]:
        """A candidate made ready for :meth:`run` in any world: (the base state, the seat's rack
        after its placing or None, the mode, the tile's code, the parts' spec; None for a void
        placing)."""
        base, mine, mode, t, start = self.job(kind, events, tile)
        return base, mine, mode, t, (None if start is None else self._spec(start))

    def run(self, world: tuple[bytes, bytes], prep: tuple[bytes, bytes | None, int, int, tuple[int, ...] | None]
            ) -> tuple[int, tuple[int, ...]]:
        """:meth:`value_parts` of a :meth:`prepared` candidate in this world."""
        base, mine, mode, t, spec = prep
        if spec is None:  # a void placing: nobody scored, nothing charged
            return 0, _VOID
        got: tuple[int, tuple[int, ...]] = COMPILED.value_parts(  # type: ignore[union-attr]
            base, self._racks(world[0], mine), world[1], mode, t, spec)
        return got

    def _racks(self, racks: bytes, mine: bytes | None) -> bytes:
        """The world's racks, the seat's own as its placing left it where it placed (``mine``)."""
        if mine is None:
            return racks
        s = self.seat
        return racks[:s * 53] + mine + racks[(s + 1) * 53:]

    def job(self, kind: str, events: Sequence[dict[str, Any]], tile: Tile | None
            ) -> tuple[bytes, bytes | None, int, int, HandState | None]:
        """What the model plays for a candidate, prepared once: (the base state, the seat's rack
        after its placing or None, the mode, the discarded tile's code or -1, the engine state the
        model starts from, None for a void placing, E3)."""
        s = self.seat
        if kind == "place":
            got = self._after.get(id(events))
            if got is None:
                st = self.state
                for ev in events:
                    st = apply(st, ev)
                mine = bytearray(53)
                for t in st.racks[s]:
                    mine[code(t, self.okey)] += 1
                got = (pack(st, self.careful), bytes(mine), st.result == "void", events, st)  # events: keeps the id ours
                self._after[id(events)] = got
            base, mine_b, void, _, start = got
            return base, mine_b, MODE_DISCARD_POLICY, -1, (None if void else start)
        if kind == "show":  # O7, before the seat's first draw: show the twin, or never show it
            got = self._after.get(id(events))
            if got is None:
                st = self.state
                if events:
                    for ev in events:
                        st = apply(st, ev)
                else:  # the model shows a held twin at its turn's start; a seat that declined cannot
                    st = replace(st, started=tuple(v or k == s for k, v in enumerate(st.started)))
                got = (pack(st, self.careful), b"", False, events, st)
                self._after[id(events)] = got
            return got[0], None, MODE_PLAY, -1, got[4]
        if kind == "draw":
            return self.base, None, MODE_DRAW, -1, self.state
        if kind == "take":
            return self.base, None, MODE_TAKE, -1, self.state
        assert tile is not None
        c = self._codes.get(tile)
        if c is None:
            c = self._codes[tile] = code(tile, self.okey)
        return self.base, None, MODE_DISCARD, c, self.state

    def play(self, world: tuple[bytes, bytes], kind: str, events: Sequence[dict[str, Any]],
             tile: Tile | None, parts: bool = False) -> tuple[int, HandState | None, Any]:
        """The value, the engine state the model started from (None: a void placing, E3), and
        with ``parts`` the model's parts of that play (else None)."""
        base, mine, mode, t, start = self.job(kind, events, tile)
        if start is None:
            return 0, None, None  # E3: nobody is scored
        out = play(base, self._racks(world[0], mine), world[1], mode, t, parts=parts)
        return seat_value(out, self.seat, self.rules), start, (out[6] if parts else None)

    def _spec(self, start: HandState) -> tuple[int, ...]:
        """The compiled parts' spec for plays from ``start`` (see rollout.c ``value_parts``)."""
        team, before, extra, own0 = self._from_start(start)
        return (self.seat, int(len(team) > 1), before, own0, int(self.state.opened[(self.seat + 1) % 4] is None), *extra)

    def _from_start(self, start: HandState) -> tuple[tuple[int, ...], int, tuple[int, ...], int]:
        """What a play's parts take from the state the model started from, once per state: the
        seat's team, the penalties paid before the decision, those its own events charged (by
        rule, as :data:`PART_RULES`), and the seat's own penalties at the start."""
        got = self._starts.get(id(start))
        if got is not None and got[0] is start:
            return got[1]
        s = self.seat
        team = (s, (s + 2) % 4) if self.rules.esli else (s,)
        before = sum(p.points for p in self.state.penalties if p.seat in team)
        extra = [0] * len(PART_RULES)
        for p in start.penalties[len(self.state.penalties):]:  # charged by the candidate's own events
            if p.seat in team and p.rule in _PART_AT:
                extra[_PART_AT[p.rule]] += p.points
        own = sum(p.points for p in start.penalties if p.seat == s)
        out = (team, before, tuple(extra), own)
        self._starts[id(start)] = (start, out)
        return out

    def parts(self, value: int, start: HandState | None, last: Any) -> tuple[int, ...]:
        """The parts of a play's ``value`` (see :meth:`value_parts`) from the model's ``last``."""
        s = self.seat
        nxt = (s + 1) % 4
        if start is None:  # a void placing: nobody scored, nothing charged
            return (0,) * len(PARTS) + (0, 0, 0, 0)
        scores, result, finisher, opened, pen = last
        rates = (int(finisher == s), int(self.state.opened[nxt] is None and opened[nxt] != 0), int(finisher == nxt))
        if result == 3:  # E3 during the play: nobody is scored, penalties struck too
            return (0,) * len(PARTS) + rates + (0,)
        team, before, extra, own0 = self._from_start(start)
        n = len(PART_RULES)  # the model counts each seat's penalties by rule, in RULE_NAMES' order
        mine = pen[s * n:(s + 1) * n]
        if len(team) == 1:
            by_rule = tuple(e + x for e, x in zip(extra, mine))
            hand = scores[s]
        else:
            b2 = team[1] * n
            by_rule = tuple(e + x + y for e, x, y in zip(extra, mine, pen[b2:b2 + n]))
            hand = scores[team[0]] + scores[team[1]]
        out = (hand, before, *by_rule)
        if sum(out) != value:  # the model's value is its scores plus every penalty: never apart
            raise AssertionError(f"rollout parts {out} do not add up to {value}")
        return (*out, *rates, scores[s] + own0 + sum(mine))


# ---- the trace as log events -----------------------------------------------------------------


class _Names:
    def __init__(self, okey: Tile, indicator: Tile) -> None:
        self.okey = okey
        self.oi = okey.index
        self.ind = indicator.index
        self.ostr = str(okey)
        self.istr = str(indicator)

    def tile(self, c: int) -> str:
        if c == WILD:
            return self.ostr
        if c == self.oi:
            return "J"
        return str(FACES[c])

    def placed(self, phys: int, face: int) -> str:
        fs = str(FACES[face])
        if phys == WILD:
            return f"{self.ostr}>{fs}"
        if phys != face:
            return f"{self.istr}>{fs}"  # a shown indicator twin (O7)
        return "J" if phys == self.oi else fs


def trace_events(tr: bytes, okey: Tile, indicator: Tile) -> list[dict[str, Any]]:
    """The model's trace as v1 log events (without game and hand): moves, ``penalty`` events with
    their rule as ``reason``, and a closing ``end`` with ``reason`` and ``scores``. A hand that
    ends void carries no ``penalty`` event: nobody is scored in it (E3), so the engine keeps none."""
    a = array("i")
    a.frombytes(tr)
    nm = _Names(okey, indicator)
    out: list[dict[str, Any]] = []
    i = 0
    n = len(a)
    simple = {EV_SHOW: "show", EV_DRAW: "draw", EV_TAKE: "take", EV_RETURN: "return", EV_DISCARD: "discard"}
    while i < n:
        k, seat = a[i], a[i + 1]
        i += 2
        if k in simple:
            out.append({"type": simple[k], "seat": seat, "tile": nm.tile(a[i])})
            i += 1
        elif k == EV_DECLARE:
            out.append({"type": "declare", "seat": seat, "what": "pairs"})
            i += 1
        elif k in (EV_OPEN, EV_MELD):
            pairs, count = a[i], a[i + 1]
            i += 2
            groups = []
            for _ in range(count):
                nt = a[i]
                i += 1
                groups.append([nm.placed(a[i + 2 * q], a[i + 2 * q + 1]) for q in range(nt)])
                i += 2 * nt
            out.append({"type": "open" if k == EV_OPEN else "meld", "seat": seat,
                        ("pairs" if pairs else "melds"): groups})
        elif k == EV_LAYOFF:
            meld, nt = a[i], a[i + 1]
            i += 2
            out.append({"type": "layoff", "seat": seat, "meld": meld,
                        "tiles": [nm.placed(a[i + 2 * q], a[i + 2 * q + 1]) for q in range(nt)]})
            i += 2 * nt
        elif k == EV_SWAP:
            meld, nt = a[i], a[i + 1]
            i += 2
            out.append({"type": "swap", "seat": seat, "meld": meld, "tiles": [nm.tile(a[i + q]) for q in range(nt)]})
            i += nt
        elif k == EV_PENALTY:
            out.append({"type": "penalty", "seat": seat, "points": a[i], "reason": RULE_NAMES.get(a[i + 1], "?")})
            i += 2
        elif k == EV_END:
            res = a[i]
            out.append({"type": "end", "reason": RESULTS[res], "scores": list(a[i + 1:i + 5])})
            i += 5
        else:
            raise ValueError(f"rollout trace: unknown event code {k} at {i - 2}")
    if out and out[-1]["type"] == "end" and out[-1]["reason"] == "void":
        out = [e for e in out if e["type"] != "penalty"]
    return out


__all__ = ["CARELESS", "CAREFUL", "COMPILED", "own_seats", "PARTS", "PART_RULES", "Position", "RATES", "MODE_DISCARD", "MODE_DISCARD_POLICY", "MODE_DRAW", "MODE_PLAY", "MODE_TAKE", "code",
           "counts_bytes", "deck_bytes", "pack", "play", "rack_bytes", "seat_value", "trace_events"]
