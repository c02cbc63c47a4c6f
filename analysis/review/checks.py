"""The quick pass's checks of discards and of what only the hand's end shows: X3/X4 discards,
an unopened discard that broke the seat's best opening, the last discard before the deck runs
out, and the hindsight notes (X5, a discard the next player finished with, okeys kept, E5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analysis import solver as S
from analysis.game import HandState, Step, Tile

from .model import Decision, Mistake
from .options import exposure, pairs_plan, points_plan, points_upper_bound

NEAR = 20  # points: a best opening this close under the threshold counts as one to keep


def discard_penalties(steps: Sequence[Step], tn: Any, before: HandState, seat: int, mistakes: list[Mistake]) -> None:
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


def _without(rack: Sequence[Tile], t: Tile) -> tuple[Tile, ...]:
    out = list(rack)
    out.remove(t)
    return tuple(sorted(out))


def broke_opening(steps: Sequence[Step], tn: Any, before: HandState, seat: int, best: dict[str, Any],
                  mistakes: list[Mistake]) -> None:
    """An unopened seat discarded a tile of its best opening (within :data:`NEAR` points of the
    points threshold, or one pair short of the pairs threshold) while a tile outside it was free
    to go, and the opening lost more than the tile itself, or fell under the threshold.

    A note (cost 0): while unopened the seat's exposure is the unopened penalty whichever tile it
    throws, so the quick pass cannot price it; the deep pass prices the discard."""
    tile = Tile.parse(steps[tn.end].event["tile"])
    rack = tuple(sorted(before.racks[seat]))
    okey, rules = before.okey, before.rules
    if tile == okey:
        return
    th = before.points_threshold(seat)
    table = before.table if rules.layoff_opening_turn else ()
    bound, _ = points_upper_bound(rack, okey, rules, table, before.end_counts)
    found: dict[str, Any] | None = None
    if bound >= th - NEAR:
        p = points_plan(before, seat, rack)
        if p.value >= th - NEAR and _broken(p.left, tile, okey):
            after = points_plan(before, seat, _without(rack, tile)).value
            if after < p.value - tile.number or (after < th <= p.value):
                found = {"kind": "points", "value": p.value, "after": after, "threshold": th}
    if found is None:
        qth = before.pairs_threshold(seat)
        q = pairs_plan(before, seat, rack)
        if q.count >= qth - 1 and _broken(q.left, tile, okey):
            after = pairs_plan(before, seat, _without(rack, tile)).count
            if after < q.count:
                found = {"kind": "pairs", "value": q.count, "after": after, "threshold": qth}
    if found is None:
        return
    best["kept_opening"] = found
    mistakes.append(Mistake("broke_opening", seat, 0, tn.end - 1, steps[tn.end].line, {"tile": str(tile), **found}))


def _broken(left: Sequence[Tile], tile: Tile, okey: Tile) -> bool:
    """The discarded tile lies in the opening (not among the tiles it leaves), and a tile outside
    the opening, not an okey, could have gone instead."""
    return tile not in Counter(left) and any(t != okey for t in left)


def last_discards(steps: Sequence[Step], turns: Sequence[Any], per_seat: dict[int, list[Decision]]) -> None:
    """The deck ran out (E1, E4): each opened seat's last discard, made with fewer than four
    tiles in the deck (it could count that its turn would not come again), should throw its
    highest tile that no table meld takes (a dead tile), since the rest is written (E5)."""
    final = steps[-1].state
    if final.result != "exhausted":
        return
    for s, ds in per_seat.items():
        d = next((d for d in reversed(ds) if steps[d.end].event.get("type") == "discard"), None)
        if d is None:
            continue
        before = steps[d.end - 1].state
        op = before.opened[s]
        if op is None or before.deck_count >= 4:
            continue
        free = {t for t in before.racks[s] if t != before.okey and before.fits_table(t) is None}
        if not free:
            continue

        tile = Tile.parse(steps[d.end].event["tile"])
        top = min(free, key=lambda t: (_left(before, s, t), str(t)))
        cost = _left(before, s, tile) - _left(before, s, top)
        if cost > 0:
            d.mistakes.append(Mistake("last_discard", s, cost, d.end - 1, steps[d.end].line,
                                      {"tile": str(tile), "best_tile": str(top), "deck": before.deck_count}))


def _left(state: HandState, seat: int, t: Tile) -> int:
    """E5 of the seat's rack less ``t`` (doubled for a pairs opener)."""
    op = state.opened[seat]
    return S.rack_penalty(_without(state.racks[seat], t), state.okey, state.rules,
                          pairs=op is not None and op.kind == "pairs")


def hindsight(steps: Sequence[Step], per_seat: dict[int, list[Decision]]) -> None:
    """X5 (the next player opened with this seat's discard), a discard the next player took and
    finished with at once, and E5 okeys kept to the hand's end. The first two are seen only in
    hindsight (no seat sees the next rack): marked so, the deep pass turns them into notes."""
    for i in range(1, len(steps)):
        prev_pens = steps[i - 1].state.penalties
        for p in steps[i].state.penalties[len(prev_pens):]:
            if p.rule != "X5":
                continue
            ds = [d for d in per_seat[p.seat] if d.end < i]
            if ds:
                d = ds[-1]
                d.mistakes.append(Mistake("fed_opening", p.seat, p.points, d.end, steps[d.end].line,
                                          {"tile": d.played.get("discard"), "rule": "X5", "hindsight": True}))
    final = steps[-1].state
    if final.result == "finish" and final.finisher is not None:
        _fed_finish(steps, per_seat, final)
    if final.result not in ("finish", "exhausted"):
        return
    _okey_kept(steps, per_seat, final)


def _fed_finish(steps: Sequence[Step], per_seat: dict[int, list[Decision]], final: HandState) -> None:
    """The finisher took the previous discard and finished in that turn: the discarder is told
    what happened, charged what the finish wrote it beyond its rack (E6 multipliers)."""
    fin = final.finisher
    assert fin is not None
    s = (fin - 1) % 4
    d = next((d for d in reversed(per_seat[s]) if steps[d.end].event.get("type") == "discard"), None)
    if d is None:
        return
    nxt = next((steps[i].event for i in range(d.end + 1, len(steps))
                if steps[i].event.get("type") in ("draw", "take")), None)
    if nxt is None or nxt.get("type") != "take" or nxt.get("seat") != fin:
        return
    if any(steps[i].event.get("type") == "discard" for i in range(d.end + 1, len(steps) - 1)):
        return  # the finisher's discard is the hand's last step
    written = final.scores[s] if final.scores is not None else exposure(final, s)
    extra = max(0, written - exposure(final, s))
    d.mistakes.append(Mistake("fed_finish", s, extra, d.end, steps[d.end].line,
                              {"tile": d.played.get("discard"), "finisher": fin, "written": written,
                               "kinds": list(final.finish_kinds), "hindsight": True}))


def _okey_kept(steps: Sequence[Step], per_seat: dict[int, list[Decision]], final: HandState) -> None:
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
        detail: dict[str, Any] = {"okeys": n, "rule": "E5"}
        before_charged = min(cost, int(d.played.get("carried", 0)))
        if before_charged:  # the okey was in a gap charged at an earlier turn: not twice
            detail["charged_before"] = before_charged
        d.mistakes.append(Mistake("okey_kept", s, cost - before_charged, d.start, d.line, detail))


__all__ = ["NEAR", "broke_opening", "discard_penalties", "hindsight", "last_discards"]
