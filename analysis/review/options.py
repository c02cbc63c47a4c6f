"""What a seat could do at a decision, priced by the exact solver from its own view: the best
points and pairs openings, the opened turn, the points upper bound, exposure and siler (O8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from analysis import solver as S
from analysis.game import HandState, IllegalMove, Rules, TableMeld, Tile, apply
from analysis.players import View, turn_events
from analysis.solver.encoding import table_slots


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


def turn_plan(state: HandState, seat: int) -> S.TurnPlan:
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
        runs, groups = table_slots(table, rules, end_counts)
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


def siler_cost(rules: Rules, kind: str, value: int) -> int:
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
        exp = S.rack_penalty(p.left, okey, rules) - siler_cost(rules, "points", p.value) if reach else unopened
        pts = Option("points", reach, p.value, exp, p.to_dict())
    twin = state.indicator if state.shown[seat] else None
    if _pairs_upper_bound(full, okey, twin) < qt:
        prs = Option("pairs", False, 0, unopened, {})
    else:
        q = _pairs(rack, okey, rules, qt, twin, must, take)
        exp = S.rack_penalty(q.left, okey, rules, pairs=True) - siler_cost(rules, "pairs", q.count) if q.reaches else unopened
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
        e -= siler_cost(r, op.kind, opening_value)
    return e


def points_plan(state: HandState, seat: int, rack: tuple[Tile, ...]) -> S.PointsPlan:
    """The best points opening of ``rack`` (sorted) in ``state``'s position for ``seat``, cached."""
    return _points(rack, state.okey, state.rules, state.points_threshold(seat), _table_key(state.table), None, None,
                   tuple(state.end_counts))


def pairs_plan(state: HandState, seat: int, rack: tuple[Tile, ...]) -> S.PairsPlan:
    """The best pairs opening of ``rack`` (sorted) for ``seat``, the shown twin counted (O7), cached."""
    twin = state.indicator if state.shown[seat] else None
    return _pairs(rack, state.okey, state.rules, state.pairs_threshold(seat), twin, None, None)


def opening_events(seat: int, opt: Option, rules: Rules) -> list[dict[str, Any]]:
    """An opening option's plan as log events: the opening, and its lay-offs where L6 allows."""
    plan = opt.plan
    if opt.kind == "pairs":
        return [{"type": "open", "seat": seat, "pairs": [list(g) for g in plan.get("pairs", [])]}]
    evs: list[dict[str, Any]] = [{"type": "open", "seat": seat, "melds": [list(g) for g in plan.get("melds", [])]}]
    if rules.layoff_opening_turn:
        evs += [{"type": "layoff", "seat": seat, "meld": x["meld"], "tiles": list(x["tiles"])}
                for x in plan.get("layoffs", [])]
    return evs


def full_line(state: HandState, seat: int, opt: Option, *, take: Tile | None = None) -> Option:
    """The opening ``opt`` followed by the best rest of the same turn (lay-offs where L6 allows
    them, a pairs opener's included; okey swaps S1, S2; more pairs), priced as its exposure.

    The opening search ranks by value and knows neither swaps nor a pairs opener's lay-offs; the
    line played after it does. ``take``: the previous discard, taken first (P2), ``state`` being
    the position before the draw. The plan gains ``events`` (the whole line), ``then`` (the
    rest of the turn, a turn plan) and ``left`` (the rack the line leaves); the exposure is the
    better of the opening alone and the whole line. An option that does not reach is returned
    as it is."""
    if not opt.reaches or not opt.plan:
        return opt
    rules = state.rules
    evs: list[dict[str, Any]] = []
    if take is not None:
        evs.append({"type": "take", "seat": seat, "tile": str(take)})
    evs += opening_events(seat, opt, rules)
    st = state
    try:
        for e in evs:
            st = apply(st, e)
        plan = turn_plan(st, seat)
        rest = turn_events(View.of(st, seat), plan) if plan.penalty < _rack_exposure(st, seat) else []
        after = st
        for e in rest:
            after = apply(after, e)
    except (IllegalMove, ValueError):
        return opt
    op = after.opened[seat]
    exp = exposure(after, seat, opening_value=op.value if op is not None else None)
    if exp > opt.exposure:
        return replace(opt, plan={**opt.plan, "events": evs})
    return replace(opt, exposure=exp, plan={**opt.plan, "events": evs + rest,
                                            "then": plan.to_dict() if rest else None,
                                            "left": [str(t) for t in after.racks[seat]]})


def _rack_exposure(state: HandState, seat: int) -> int:
    op = state.opened[seat]
    return S.rack_penalty(list(state.racks[seat]), state.okey, state.rules, pairs=op is not None and op.kind == "pairs")


def finishing(plan: S.TurnPlan) -> bool:
    """Does the plan itself finish? ``plan.finishes`` says that some line finishes; the plan shown
    finishes only when it leaves the one tile to discard."""
    return bool(plan.finishes) and len(plan.left) == 1


# ---- turns ---------------------------------------------------------------------------------


def clear_caches() -> None:
    """Forget every memoised position (benchmarks time each game from cold caches)."""
    _points.cache_clear()
    _pairs.cache_clear()
    _TURN_CACHE.clear()
