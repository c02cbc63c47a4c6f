"""Move review: every turn of every seat graded against the solver, from that seat's own view.

A *decision point* is one turn of one seat: the draw-or-take choice, what was placed, and the
discard. The solver sees only what the seat sees (its rack, the table, the discard piles, who
opened with what); nothing here reads another rack or the deck.

Costs are in points, measured as the seat's **exposure**: what it would be written if the hand
ended right after its placing (E5): the unopened penalty (202) for an unopened seat, else its
rack's E5 value (doubled for a pairs opener, +101 per okey), less the siler (O8) an opening
earns. A mistake's cost is the exposure it played minus the best exposure the solver finds for
the same choice, or the penalty points a rule charged (X2-X7). Categories are in
:data:`CATEGORIES` (the README's "Review" section documents each with its cost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from . import solver as S
from .engine import HandState, TableMeld
from .replay import GameResult, HandResult, Step
from .rules import Rules
from .tiles import COLOURS, Tile

# The grading's own number, bumped by hand when the rules of grading change, and a digest of the
# solver's and the review's sources, so that any change to them re-annotates (`istaka analyze`
# redoes every game annotated by another version).
REVIEW_RULES = 1


def _sources_digest() -> str:
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("solver.py", "solver_core.py", "_kernel.c", "solver_pairs.py", "solver_turn.py", "review.py"):
        try:
            h.update((here / name).read_bytes())
        except OSError:
            h.update(name.encode())
    return h.hexdigest()[:10]


SOLVER_VERSION = f"review-{REVIEW_RULES}/{_sources_digest()}"

CATEGORIES: dict[str, str] = {
    "missed_opening": "could reach the opening threshold this turn (melds or pairs) and did not open",
    "weaker_opening": "opened with a lower value, or left a higher rack, than the best opening of the same kind",
    "missed_take": "did not take the previous discard though it would have opened, and did not open",
    "missed_layoff": "an opened seat left tiles in its rack that lay-offs or new melds/pairs could place",
    "missed_swap": "an opened seat did not take an okey from the table when the best turn does (S1, S2)",
    "missed_finish": "the best turn finishes the hand and the seat did not finish",
    "okey_discard": "discarded an okey though another tile was free of penalty (X3)",
    "layoff_discard": "discarded a tile a table meld would take though another tile was free of penalty (X4)",
    "fed_opening": "the next player took this discard and opened with it (X5; seen only in hindsight)",
    "okey_kept": "the hand ended with an okey in an opened seat's rack that its last turn could place (E5)",
    "pairs_over_melds": "opened with pairs where a melds opening left a lower exposure",
    "melds_over_pairs": "opened with melds where a pairs opening left a lower exposure",
    "failed_opening": "took back an opening or several lay-offs and was charged for it (X2, X7)",
}

SEVERITY = ((100, "blunder"), (30, "mistake"), (1, "inaccuracy"), (0, "note"))


def severity(cost: int) -> str:
    """blunder (>= 100 points), mistake (>= 30), inaccuracy (> 0), note (0: flagged, no cost)."""
    for floor, name in SEVERITY:
        if cost >= floor:
            return name
    return "note"


@dataclass(frozen=True, slots=True)
class Mistake:
    category: str
    seat: int
    cost: int
    step: int  # the step to look at in the replay (the position before the decision)
    line: int
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return severity(self.cost)


@dataclass
class Decision:
    """One turn of one seat: what was played, what was best, and the mistakes found."""

    ord: int
    hand: int
    seat: int
    turn: int  # 0, 1, ... within the hand
    start: int  # step where the seat holds its tiles to play (after the draw or take)
    end: int  # step of its discard (or the hand's last step)
    line: int
    choice: str  # start (the starter's first turn), draw, take, returned (took, gave back, drew)
    take_opens: bool | None  # would the previous discard have opened (None: no discard to take)
    opened_before: bool
    played: dict[str, Any]
    best: dict[str, Any]
    exposure_played: int
    exposure_best: int
    mistakes: list[Mistake] = field(default_factory=list)

    @property
    def cost(self) -> int:
        return sum(m.cost for m in self.mistakes)

    @property
    def agrees(self) -> bool:
        return not self.mistakes


@dataclass
class HandReview:
    ord: int
    hand: int
    result: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def mistakes(self) -> list[Mistake]:
        return [m for d in self.decisions for m in d.mistakes]


@dataclass
class GameReview:
    game: str
    variant: str
    players: list[str]
    hands: list[HandReview] = field(default_factory=list)
    version: str = SOLVER_VERSION

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: decisions, agreement with the best (%), cost, cost per hand, mistakes by category."""
        out = []
        n_hands = max(1, sum(1 for h in self.hands if h.decisions))
        for s in range(4):
            ds = [d for d in self.decisions if d.seat == s]
            cats: dict[str, int] = {}
            for d in ds:
                for m in d.mistakes:
                    cats[m.category] = cats.get(m.category, 0) + 1
            cost = sum(d.cost for d in ds)
            out.append({"seat": s, "player": self.players[s] if s < len(self.players) else f"#{s}",
                        "decisions": len(ds), "agreement": 100.0 * sum(d.agrees for d in ds) / len(ds) if ds else None,
                        "cost": cost, "cost_per_hand": cost / n_hands, "mistakes": sum(cats.values()),
                        "by_category": cats})
        return out


# ---- the solver, cached per position and skipped when the verdict cannot change ---------------

def _table_key(table: Sequence[TableMeld | None]) -> tuple:
    return tuple(table)


@lru_cache(maxsize=20_000)
def _points(rack: tuple[Tile, ...], okey: Tile, rules: Rules, threshold: int, table: tuple,
            must: Tile | None, take: Tile | None, end_counts: tuple) -> S.PointsPlan:
    return S.best_points_opening(rack, okey, rules=rules, threshold=threshold, take=take,
                                 table=table if rules.layoff_opening_turn else (), must_use=must,
                                 end_counts=end_counts)


@lru_cache(maxsize=20_000)
def _pairs(rack: tuple[Tile, ...], okey: Tile, rules: Rules, threshold: int, twin: Tile | None,
           must: Tile | None, take: Tile | None) -> S.PairsPlan:
    return S.best_pairs_opening(rack, okey, rules=rules, threshold=threshold, twin=twin, take=take, must_use=must)


_TURN_CACHE: dict[tuple, S.TurnPlan] = {}


def _turn(state: HandState, seat: int) -> S.TurnPlan:
    key = (tuple(sorted(state.racks[seat])), state.okey, state.rules, tuple(state.table), state.opened,
           state.opened_this_turn, state.end_counts)
    plan = _TURN_CACHE.get(key)
    if plan is None:
        if len(_TURN_CACHE) > 20_000:
            _TURN_CACHE.clear()
        plan = _TURN_CACHE[key] = S.best_turn(state, seat)
    return plan


def points_upper_bound(rack: Sequence[Tile], okey: Tile, rules: Rules, table: Sequence[TableMeld | None] = (),
                       end_counts: Any = ()) -> tuple[int, int]:
    """(an upper bound on any points opening's value, tiles no meld or lay-off can take).

    A tile counts when some group (M2) or three-tile run window (M3) around it can be completed
    with the okeys held, or when a table meld's lay-off slot takes it (L2, L3); okeys count 13.
    Cheap, and never below the exact value: where it falls short of the threshold the exact
    search cannot reach it either, so it is skipped.
    """
    c = [0] * 52
    wild = 0
    for t in rack:
        if t == okey:
            wild += 1
        else:
            c[(okey if t.is_joker else t).index] += 1
    slots: set[int] = set()
    if rules.layoff_opening_turn and table:
        runs, groups = S._slots(table, rules, end_counts)
        for rs in runs:
            slots.update(rs.colour * 13 + n for n in rs.numbers)
        for gs in groups:
            slots.update(col * 13 + gs.number for col in gs.colours)
    total = 13 * wild
    loose = 0
    for f in range(52):
        k = c[f]
        if not k:
            continue
        col, n = divmod(f, 13)
        ok = f in slots or sum(1 for oc in range(4) if oc != col and c[oc * 13 + n]) + wild >= 2
        if not ok:
            for a in range(max(0, n - 2), min(n, 10) + 1):
                if sum(1 for m in range(a, a + 3) if m != n and not c[col * 13 + m]) <= wild:
                    ok = True
                    break
        if ok:
            total += k * (n + 1)
        else:
            loose += k
    return total, loose


@dataclass(frozen=True, slots=True)
class Option:
    """An opening the seat could make: kind, value (points or pairs), exposure, and the plan."""

    kind: str
    reaches: bool
    value: int
    exposure: int
    plan: dict[str, Any]


def _siler(rules: Rules, kind: str, value: int) -> int:
    if not rules.siler:
        return 0
    hit = value >= rules.siler_points if kind == "points" else value >= rules.siler_pairs
    return rules.penalty_unit if hit else 0


def openings(state: HandState, seat: int, *, take: Tile | None = None) -> tuple[Option, Option]:
    """The best points and pairs openings for ``seat`` in ``state`` (``take``: with the previous
    discard, P2); a discard already taken this turn must be used."""
    rules, okey = state.rules, state.okey
    rack = tuple(sorted(state.racks[seat]))
    must = state.took if (take is None and state.took is not None and state.took_unopened) else None
    pt, qt = state.points_threshold(seat), state.pairs_threshold(seat)
    table = _table_key(state.table)
    full = rack + ((take,) if take is not None else ())
    bound, loose = points_upper_bound(full, okey, rules, state.table if rules.layoff_opening_turn else (),
                                      state.end_counts)
    o9 = rules.open_below_finishing
    below_ok = o9 == "yes" or (o9 == "elden" and not any(o for s, o in enumerate(state.opened) if s != seat))
    unopened = rules.unopened_penalty
    if bound < pt and not (below_ok and loose <= 1):
        pts = Option("points", False, 0, unopened, {})
    else:
        p = _points(rack, okey, rules, pt, table, must, take, tuple(state.end_counts))
        finishing_below = below_ok and len(p.left) == 1 and bool(p.melds)
        reach = p.reaches or finishing_below
        exp = S.rack_penalty(p.left, okey, rules) - _siler(rules, "points", p.value) if reach else unopened
        pts = Option("points", reach, p.value, exp, p.to_dict())
    twin = state.indicator if state.shown[seat] else None
    if _pairs_upper_bound(full, okey, twin) < qt:
        prs = Option("pairs", False, 0, unopened, {})
    else:
        q = _pairs(rack, okey, rules, qt, twin, must, take)
        exp = S.rack_penalty(q.left, okey, rules, pairs=True) - _siler(rules, "pairs", q.count) if q.reaches else unopened
        prs = Option("pairs", q.reaches, q.count, exp, q.to_dict())
    return pts, prs


def _pairs_upper_bound(rack: Sequence[Tile], okey: Tile, twin: Tile | None) -> int:
    """At most this many pairs (M4, O7): natural pairs, then each wild tile completes one."""
    faces: dict[Tile, int] = {}
    wild = 0
    for t in rack:
        if t == okey or (twin is not None and t == twin):
            wild += 1
        else:
            f = okey if t.is_joker else t
            faces[f] = faces.get(f, 0) + 1
    return sum(k // 2 for k in faces.values()) + wild


def exposure(state: HandState, seat: int, *, opening_value: int | None = None) -> int:
    """The seat's E5 if the hand ended now; ``opening_value``: an opening made this turn (O8)."""
    op = state.opened[seat]
    r = state.rules
    if op is None:
        return r.unopened_penalty
    e = S.rack_penalty(list(state.racks[seat]), state.okey, r, pairs=op.kind == "pairs")
    if opening_value is not None:
        e -= _siler(r, op.kind, opening_value)
    return e


# ---- turns ---------------------------------------------------------------------------------

ACTIONS = ("open", "meld", "layoff", "swap", "takeback", "discard")


@dataclass
class _Turn:
    seat: int
    pre: int | None  # step before the draw or take (None: the starter's first turn)
    first: int = -1  # step of the first draw/take
    play0: int = -1  # step before the first placing or the discard
    end: int = -1
    acquired: list[str] = field(default_factory=list)


def split_turns(steps: Sequence[Step]) -> list[_Turn]:
    """A hand's turns: from a seat's draw or take (or the deal, for the starter) to its discard."""
    out: list[_Turn] = []
    if not steps:
        return out
    cur: _Turn | None = _Turn(steps[0].state.turn, None, 0)
    for i in range(1, len(steps)):
        ev = steps[i].event
        kind = ev.get("type")
        if kind in ("show", "declare"):
            continue
        if cur is None:
            if kind not in ("draw", "take"):
                continue
            cur = _Turn(ev["seat"], i - 1, i)
        if kind in ("draw", "take", "return"):
            cur.acquired.append(kind)
            continue
        if kind in ACTIONS and cur.play0 < 0:
            cur.play0 = i - 1
        if kind == "discard":
            cur.end = i
            out.append(cur)
            cur = None
    if cur is not None and cur.play0 >= 0:
        cur.end = len(steps) - 1  # a void hand ends with the fourth pairs opening (E3)
        out.append(cur)
    return out


def _choice(acq: list[str], pre: int | None) -> str:
    if pre is None:
        return "start"
    if "return" in acq:
        return "returned"
    return "take" if acq and acq[-1] == "take" else "draw"


def _take_options(pre: HandState, seat: int) -> tuple[Option, Option] | None:
    """The openings with the previous discard, when the seat may take it (P1-P4)."""
    prev = (seat - 1) % 4
    if pre.takeable != prev or not pre.discards[prev] or pre.opened[seat] is not None or pre.returned:
        return None
    top = pre.discards[prev][-1]
    if top == pre.okey:  # P3
        return None
    op = pre.opened[prev]
    if op is not None and op.kind == "pairs" and not pre.rules.pairs_discard_takeable:  # P4
        return None
    if not _joins(pre.racks[seat], top, pre):  # P2: it must lie in the opening; nothing takes it
        return Option("points", False, 0, pre.rules.unopened_penalty, {}), \
            Option("pairs", False, 0, pre.rules.unopened_penalty, {})
    return openings(pre, seat, take=top)


def _joins(rack: Sequence[Tile], t: Tile, state: HandState) -> bool:
    """Could a meld, pair or opening-turn lay-off hold ``t`` with these tiles? (False: no
    opening can use it, so taking it cannot open.)"""
    okey = state.okey
    if any(x == okey for x in rack) or (state.shown and any(state.shown) and state.indicator in rack):
        return True
    face = okey if t.is_joker else t
    faces = {(okey if x.is_joker else x) for x in rack}
    if face in faces:
        return True  # a pair
    col, n = face.colour, face.number
    if sum(1 for c in COLOURS if c != col and Tile(c, n) in faces) >= 2:
        return True
    near = [m for m in (n - 2, n - 1, n + 1, n + 2) if 1 <= m <= 13 and Tile(col, m) in faces]
    if any(abs(a - b) <= 2 and a != b and min(a, b, n) + 2 == max(a, b, n) for a in near for b in near):
        return True
    r = state.rules
    return bool(r.layoff_opening_turn and state.fits_table(t) is not None)


def _events(steps: Sequence[Step], a: int, b: int) -> list[dict[str, Any]]:
    return [{k: v for k, v in steps[i].event.items() if k not in ("game", "hand", "t")} for i in range(a, b + 1)]


def review_hand(hr: HandResult, ord: int) -> HandReview:
    """Every turn of every seat in one replayed hand (with its steps), graded."""
    out = HandReview(ord, hr.hand, hr.result)
    steps = hr.steps
    if not steps:
        return out
    turns = split_turns(steps)
    per_seat_turn: dict[int, list[Decision]] = {s: [] for s in range(4)}
    for n, tn in enumerate(turns):
        d = _review_turn(steps, tn, ord, hr.hand, n)
        out.decisions.append(d)
        per_seat_turn[d.seat].append(d)
    _hindsight(hr, steps, out, per_seat_turn)
    return out


def _review_turn(steps: Sequence[Step], tn: _Turn, ord: int, hand: int, n: int) -> Decision:
    seat = tn.seat
    play0 = steps[tn.play0].state
    last = steps[tn.end].state
    discard = steps[tn.end].event if steps[tn.end].event.get("type") == "discard" else None
    before_discard = steps[tn.end - 1].state if discard is not None else last
    r = play0.rules
    unopened = r.unopened_penalty
    opened_before = play0.opened[seat] is not None
    choice = _choice(tn.acquired, tn.pre)
    line = steps[tn.play0 + 1].line if tn.play0 + 1 < len(steps) else steps[tn.end].line
    mistakes: list[Mistake] = []
    played: dict[str, Any] = {"events": _events(steps, tn.first if tn.first > 0 else tn.play0 + 1, tn.end)}
    best: dict[str, Any] = {}
    op_after = before_discard.opened[seat]
    opened_now = not opened_before and op_after is not None
    exp_played = exposure(before_discard, seat, opening_value=op_after.value if opened_now and op_after else None)
    take_opens: bool | None = None

    if not opened_before:
        pts, prs = openings(play0, seat)
        best["points"], best["pairs"] = pts.plan, prs.plan
        reachable = [o for o in (pts, prs) if o.reaches]
        draw_best = min((o.exposure for o in reachable), default=unopened)
        exp_best = draw_best
        take_exp = unopened
        if tn.pre is not None and choice != "take" and not opened_now:  # a take or an opening is graded above
            tk = _take_options(steps[tn.pre].state, seat)
            if tk is not None:
                reach_t = [o for o in tk if o.reaches]
                take_opens = bool(reach_t)
                if reach_t:
                    tbest = min(reach_t, key=lambda o: o.exposure)
                    take_exp = tbest.exposure
                    best["take"] = {"tile": str(steps[tn.pre].state.discards[(seat - 1) % 4][-1]),
                                    "kind": tbest.kind, "value": tbest.value, "plan": tbest.plan}
                    if draw_best > tbest.exposure:
                        # against the better of the rack before the draw (what the seat knew)
                        # and after it (where missed_opening takes over); no cost otherwise
                        pre_best = min((o.exposure for o in openings(steps[tn.pre].state, seat) if o.reaches),
                                       default=unopened)
                        cost = max(0, min(pre_best, draw_best) - tbest.exposure)
                        if cost > 0:
                            mistakes.append(Mistake("missed_take", seat, cost, tn.pre, steps[tn.first].line,
                                                    {"tile": best["take"]["tile"], "kind": tbest.kind,
                                                     "value": tbest.value}))
        if opened_now and op_after is not None:
            mine, other = (pts, prs) if op_after.kind == "points" else (prs, pts)
            played["opening"] = {"kind": op_after.kind, "value": op_after.value}
            exp_best = min(mine.exposure if mine.reaches else exp_played, exp_played)
            if mine.reaches and (op_after.value < mine.value or exp_played > mine.exposure):
                mistakes.append(Mistake("weaker_opening", seat, max(0, exp_played - mine.exposure), tn.play0, line,
                                        {"kind": op_after.kind, "value": op_after.value, "best_value": mine.value,
                                         "exposure": exp_played, "best_exposure": mine.exposure}))
            base = mine.exposure if mine.reaches else exp_played
            if other.reaches and other.exposure < base:
                cat = "pairs_over_melds" if op_after.kind == "pairs" else "melds_over_pairs"
                mistakes.append(Mistake(cat, seat, base - other.exposure, tn.play0, line,
                                        {"kind": other.kind, "value": other.value, "exposure": other.exposure,
                                         "played_exposure": base}))
                exp_best = other.exposure
        elif reachable:
            o = min(reachable, key=lambda x: x.exposure)
            mistakes.append(Mistake("missed_opening", seat, max(0, unopened - o.exposure), tn.play0, line,
                                    {"kind": o.kind, "value": o.value, "exposure": o.exposure,
                                     "threshold": play0.points_threshold(seat) if o.kind == "points"
                                     else play0.pairs_threshold(seat)}))
        exp_best = min(exp_best, take_exp)
    else:
        plan = _turn(play0, seat)
        best["turn"] = plan.to_dict()
        exp_best = plan.penalty
        finished = last.over and last.finisher == seat
        swapped = any(e.get("type") == "swap" for e in played["events"])
        diff = exp_played - exp_best
        if plan.finishes and not finished:
            mistakes.append(Mistake("missed_finish", seat, max(0, diff) + r.finisher_bonus, tn.play0, line,
                                    {"finishes": plan.finishes, "exposure": exp_played, "best_exposure": exp_best}))
        elif diff > 0 and not finished:
            cat = "missed_swap" if plan.swaps and not swapped else "missed_layoff"
            mistakes.append(Mistake(cat, seat, diff, tn.play0, line,
                                    {"exposure": exp_played, "best_exposure": exp_best,
                                     "best_left": [str(t) for t in plan.left]}))
        if finished:
            exp_best = min(exp_best, exp_played)
    if discard is not None:
        played["discard"] = discard.get("tile")
        _discard_penalties(steps, tn, before_discard, seat, mistakes)
    for i in range(tn.play0 + 1, tn.end + 1):  # X2 / X7 at a takeback
        ev = steps[i].event
        if ev.get("type") == "takeback":
            for p in steps[i].state.penalties[len(steps[i - 1].state.penalties):]:
                if p.seat == seat and p.rule in ("X2", "X7"):
                    mistakes.append(Mistake("failed_opening", seat, p.points, i - 1, steps[i].line, {"rule": p.rule}))
    return Decision(ord, hand, seat, n, tn.play0, tn.end, line, choice, take_opens, opened_before, played, best,
                    exp_played, min(exp_best, exp_played), mistakes)


def _discard_penalties(steps: Sequence[Step], tn: _Turn, before: HandState, seat: int,
                       mistakes: list[Mistake]) -> None:
    """X3 / X4 charged for the discard, when another tile in the rack was free of both."""
    after = steps[tn.end].state
    new = after.penalties[len(before.penalties):]
    charged = [p for p in new if p.seat == seat and p.rule in ("X3", "X4")]
    if not charged:
        return
    rack = before.racks[seat]
    free = [t for t in rack if t != before.okey and before.fits_table(t) is None]
    if not free:
        return  # every tile was charged: the penalty was forced
    tile = steps[tn.end].event.get("tile")
    for p in charged:
        cat = "okey_discard" if p.rule == "X3" else "layoff_discard"
        mistakes.append(Mistake(cat, seat, p.points, tn.end - 1, steps[tn.end].line,
                                {"tile": tile, "rule": p.rule, "free": sorted({str(t) for t in free})}))


def _hindsight(hr: HandResult, steps: Sequence[Step], out: HandReview, per_seat: dict[int, list[Decision]]) -> None:
    """X5 (the next player opened with this seat's discard) and E5 okeys kept to the hand's end."""
    for i in range(1, len(steps)):
        prev_pens = steps[i - 1].state.penalties
        for p in steps[i].state.penalties[len(prev_pens):]:
            if p.rule != "X5":
                continue
            ds = [d for d in per_seat[p.seat] if d.end < i]
            if ds:
                d = ds[-1]
                d.mistakes.append(Mistake("fed_opening", p.seat, p.points, d.end, steps[d.end].line,
                                          {"tile": d.played.get("discard"), "rule": "X5"}))
    final = steps[-1].state
    if final.result not in ("finish", "exhausted"):
        return
    okey = final.okey
    for s in range(4):
        op = final.opened[s]
        held = sum(1 for t in final.racks[s] if t == okey)
        if op is None or not held or not per_seat[s]:
            continue
        d = per_seat[s][-1]
        if not d.opened_before:
            continue
        plan_left = d.best.get("turn", {}).get("left", [])
        best_held = sum(1 for t in plan_left if t == str(okey))
        before = steps[d.end - 1].state if d.end > 0 else final
        kept = sum(1 for t in before.racks[s] if t == okey)
        n = min(held, kept - best_held)
        if n <= 0:
            continue
        cost = n * final.rules.okey_in_rack
        kept_ms = []
        for m in d.mistakes:  # that okey is part of the lay-off difference: counted once, here
            if m.category in ("missed_layoff", "missed_swap", "missed_finish"):
                m = replace(m, cost=m.cost - cost)
                if m.cost <= 0:
                    continue
            kept_ms.append(m)
        d.mistakes[:] = kept_ms
        d.mistakes.append(Mistake("okey_kept", s, cost, d.start, d.line, {"okeys": n, "rule": "E5"}))


def review_game(res: GameResult) -> GameReview:
    """Every hand of a replayed game (``replay_game(..., keep_steps=True)``), graded."""
    gr = GameReview(res.game, res.variant, list(res.players) + [f"#{i}" for i in range(len(res.players), 4)])
    for i, hr in enumerate(res.hands, 1):
        if hr.steps:
            gr.hands.append(review_hand(hr, i))
    return gr


__all__ = ["CATEGORIES", "SOLVER_VERSION", "Decision", "GameReview", "HandReview", "Mistake", "Option",
           "exposure", "openings", "points_upper_bound", "review_game", "review_hand", "severity", "split_turns"]
