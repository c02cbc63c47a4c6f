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
from typing import Any

from analysis.game import GameResult, HandResult, Step
from analysis.game import HandState
from analysis.game import COLOURS, Tile

from .model import (
    CATEGORIES,
    SOLVER_VERSION,
    Decision,
    GameReview,
    HandReview,
    Mistake,
    severity,
)
from .options import Option, exposure, openings, points_upper_bound, turn_plan

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
        plan = turn_plan(play0, seat)
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
