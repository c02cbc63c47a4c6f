"""Move review: every turn of every seat graded against the solver, from that seat's own view.

A *decision point* is one turn of one seat: the draw-or-take choice, what was placed, and the
discard. The solver sees only what the seat sees (its rack, the table, the discard piles, who
opened with what); nothing here reads another rack or the deck.

Costs are in points, measured as the seat's **exposure**: what it would be written if the hand
ended right after its placing (E5): the unopened penalty (202) for an unopened seat, else its
rack's E5 value (doubled for a pairs opener, +101 per okey), less the siler (O8) an opening
earns. A mistake's cost is the exposure it played minus the best exposure the solver finds for
the same choice, or the penalty points a rule charged (X2-X7). Categories are in
:data:`CATEGORIES` (docs/review-design.md documents each with its cost).

A missed opportunity is charged once, at the decision where it was first missed: an opening (or
take) only by how much it beats what was already charged as missed; an opened seat's gap to its
best turn less the part already there, and charged, at its last turn; the finisher's bonus of a
missed finish once a hand. The best opening is the whole line of its turn (lay-offs where L6
allows, a pairs opener's too, okey swaps), and an okey taken from the table and kept is not
charged (the exposure cannot price a wild tile kept; the deep pass does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from analysis import solver as S
from analysis.game import COLOURS, GameResult, HandResult, HandState, IllegalMove, Step, Tile, apply

from .checks import broke_opening, discard_penalties, hindsight, last_discards
from .model import (
    CATEGORIES,
    SOLVER_VERSION,
    Decision,
    GameReview,
    HandReview,
    Mistake,
    severity,
)
from .options import Option, exposure, finishing, full_line, openings, points_upper_bound, turn_plan

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


@dataclass
class _Missed:
    """What a seat has already been charged for in this hand, so that a missed opportunity is
    charged once, at the decision where it was first missed: ``opening`` is the lowest exposure
    of an opening (or take) already charged as missed (the unopened penalty at first); ``finish``
    the turn whose missed finish was charged (the finisher's bonus is charged once)."""

    opening: int
    finish: int | None = None
    gap: int = 0  # an opened seat's exposure left above its best turn at the end of its last turn


def graded_seats(res: GameResult) -> frozenset[int] | None:
    """The seats whose decisions a review grades: a seat-view log's viewing seat only (the others'
    racks are hidden; they are shown, never graded), else all (None)."""
    return None if res.view is None else frozenset((res.view,))


def review_hand(hr: HandResult, ord: int, seats: frozenset[int] | None = None) -> HandReview:
    """Every turn of every seat in one replayed hand (with its steps), graded; ``seats``: only
    these seats' turns (see :func:`graded_seats`)."""
    out = HandReview(ord, hr.hand, hr.result)
    steps = hr.steps
    if not steps:
        return out
    turns = split_turns(steps)
    per_seat_turn: dict[int, list[Decision]] = {s: [] for s in range(4)}
    missed = {s: _Missed(steps[0].state.rules.unopened_penalty) for s in range(4)}
    for n, tn in enumerate(turns):
        if seats is not None and tn.seat not in seats:
            continue
        d = _review_turn(steps, tn, ord, hr.hand, n, missed[tn.seat])
        out.decisions.append(d)
        per_seat_turn[d.seat].append(d)
    hindsight(steps, per_seat_turn)
    last_discards(steps, turns, per_seat_turn)
    return out


def _swapped_okeys(events: Sequence[dict[str, Any]], before: HandState, seat: int) -> int:
    """Okeys taken from the table this turn (S1, S2) and still in the rack: keeping a wild tile is
    usually good, and the exposure cannot price it (the deep pass does), so it is not charged."""
    freed = 0
    for e in events:
        if e.get("type") == "swap" and e.get("seat") == seat:
            m = before.table[e["meld"]] if 0 <= e.get("meld", -1) < len(before.table) else None
            freed += sum(1 for p in m.tiles if p.wild and p.physical == before.okey) if m is not None else 1
    return freed


def _review_turn(steps: Sequence[Step], tn: _Turn, ord: int, hand: int, n: int, missed: _Missed) -> Decision:
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
    kept = min(_swapped_okeys(played["events"], play0, seat), sum(1 for t in before_discard.racks[seat] if t == play0.okey))
    if kept and op_after is not None:
        # an okey taken from the table and kept (usually good): the exposure cannot price it, so
        # the line is graded as if the seat went on with its best placing from where it stopped
        played["okeys_kept"] = kept
        played["exposure"] = exp_played
        rest = turn_plan(before_discard, seat).penalty - (exposure(before_discard, seat) - exp_played)
        exp_played = min(rest, exp_played - kept * (play0.okey.number * (2 if op_after.kind == "pairs" else 1)
                                                    + r.okey_in_rack))
    take_opens: bool | None = None
    finished = last.over and last.finisher == seat

    if not opened_before:
        pts, prs = (full_line(play0, seat, o) for o in openings(play0, seat))
        best["points"], best["pairs"] = pts.plan, prs.plan
        reachable = [o for o in (pts, prs) if o.reaches and o.exposure < unopened]
        draw_best = min((o.exposure for o in reachable), default=unopened)
        exp_best = draw_best
        take_exp = unopened
        if tn.pre is not None and choice != "take" and not opened_now:  # a take or an opening is graded above
            take_exp, take_opens = _missed_take(steps, tn, seat, draw_best, missed, best, mistakes, finished)
        if opened_now and op_after is not None:
            mine, other = (pts, prs) if op_after.kind == "points" else (prs, pts)
            played["opening"] = {"kind": op_after.kind, "value": op_after.value}
            if kept:
                played["opening"]["okeys_kept"] = kept
            exp_best = min(mine.exposure if mine.reaches else exp_played, exp_played)
            if mine.reaches and exp_played > mine.exposure:  # a lower value alone is no loss
                cat = "weaker_opening"
                if op_after.value >= mine.value:  # as strong an opening: the rest of the turn lost it
                    swaps = (mine.plan.get("then") or {}).get("swaps")
                    cat = "missed_swap" if swaps and "swap" not in {e.get("type") for e in played["events"]} \
                        else "missed_layoff"
                mistakes.append(Mistake(cat, seat, exp_played - mine.exposure, tn.play0, line,
                                        {"kind": op_after.kind, "value": op_after.value, "best_value": mine.value,
                                         "exposure": exp_played, "best_exposure": mine.exposure}))
            base = min(mine.exposure, exp_played) if mine.reaches else exp_played
            if other.reaches and other.exposure < base:
                cat = "pairs_over_melds" if op_after.kind == "pairs" else "melds_over_pairs"
                mistakes.append(Mistake(cat, seat, base - other.exposure, tn.play0, line,
                                        {"kind": other.kind, "value": other.value, "exposure": other.exposure,
                                         "played_exposure": base}))
                exp_best = other.exposure
            missed.opening = min(missed.opening, exp_best)
            missed.gap = max(0, exp_played - mine.exposure) if mine.reaches else 0
        elif reachable:
            o = min(reachable, key=lambda x: x.exposure)
            if o.exposure < missed.opening:  # a missed opening is charged once, where first missed
                mistakes.append(Mistake("missed_opening", seat, missed.opening - o.exposure, tn.play0, line,
                                        {"kind": o.kind, "value": o.value, "exposure": o.exposure,
                                         "threshold": play0.points_threshold(seat) if o.kind == "points"
                                         else play0.pairs_threshold(seat),
                                         **({"charged_before": missed.opening} if missed.opening < unopened else {})}))
                missed.opening = o.exposure
        exp_best = min(exp_best, take_exp)
    else:
        plan = turn_plan(play0, seat)
        fin = finishing(plan)
        best["turn"] = {**plan.to_dict(), "finishes": plan.finishes if fin else []}
        if plan.finishes and not fin:
            best["turn"]["other_line_finishes"] = plan.finishes
        exp_best = plan.penalty
        if tn.pre is not None and choice == "draw" and not finished and not fin:
            _missed_take_finish(steps, tn, seat, plan.penalty, missed, n, best, mistakes)
        swapped = any(e.get("type") == "swap" for e in played["events"])
        diff = exp_played - exp_best
        carried = _carried(steps, tn, seat, missed.gap) if diff > 0 and not finished else 0
        detail: dict[str, Any] = {"exposure": exp_played, "best_exposure": exp_best}
        if carried:
            detail["carried"] = played["carried"] = carried  # charged at an earlier turn, still there
        if fin and not finished and missed.finish is None:
            mistakes.append(Mistake("missed_finish", seat, max(0, diff - carried) + r.finisher_bonus, tn.play0, line,
                                    {"finishes": plan.finishes, **detail, "bonus": r.finisher_bonus}))
            missed.finish = n
        elif diff - carried > 0 and not finished:
            cat = "missed_swap" if plan.swaps and not swapped else "missed_layoff"
            detail["best_left"] = [str(t) for t in plan.left]
            if fin:
                detail["finish_charged_at_turn"] = missed.finish
            mistakes.append(Mistake(cat, seat, diff - carried, tn.play0, line, detail))
        missed.gap = 0 if finished else max(0, diff)
        if finished:
            exp_best = min(exp_best, exp_played)
    if discard is not None:
        played["discard"] = discard.get("tile")
        discard_penalties(steps, tn, before_discard, seat, mistakes)
        if not opened_before and not opened_now:
            broke_opening(steps, tn, before_discard, seat, best, mistakes)
    for i in range(tn.play0 + 1, tn.end + 1):  # X2 / X7 at a takeback
        ev = steps[i].event
        if ev.get("type") == "takeback":
            for p in steps[i].state.penalties[len(steps[i - 1].state.penalties):]:
                if p.seat == seat and p.rule in ("X2", "X7"):
                    mistakes.append(Mistake("failed_opening", seat, p.points, i - 1, steps[i].line, {"rule": p.rule}))
    return Decision(ord, hand, seat, n, tn.play0, tn.end, line, choice, take_opens, opened_before, played, best,
                    exp_played, min(exp_best, exp_played), mistakes)


def _carried(steps: Sequence[Step], tn: _Turn, seat: int, gap: int) -> int:
    """How much of this turn's gap to the best turn was already there at the end of the seat's
    last turn (and charged then, up to ``gap``): the best turn of the rack it kept, on today's
    table, against that rack's penalty. A missed lay-off is charged once, where first missed."""
    if gap <= 0 or tn.first <= 0:
        return 0
    play0 = steps[tn.play0].state
    rack = list(play0.racks[seat])
    for i in range(tn.first, tn.play0 + 1):
        ev = steps[i].event
        if ev.get("type") in ("draw", "take") and ev.get("seat") == seat and "tile" in ev:
            t = Tile.parse(ev["tile"])
            if t in rack:
                rack.remove(t)
    if len(rack) < 2:
        return 0
    op = play0.opened[seat]
    hypo = replace(play0, racks=tuple(tuple(rack) if k == seat else r for k, r in enumerate(play0.racks)))
    kept = S.rack_penalty(rack, play0.okey, play0.rules, pairs=op is not None and op.kind == "pairs")
    return min(gap, max(0, kept - turn_plan(hypo, seat).penalty))


def _missed_take(steps: Sequence[Step], tn: _Turn, seat: int, draw_best: int, missed: _Missed,
                 best: dict[str, Any], mistakes: list[Mistake], finished: bool) -> tuple[int, bool | None]:
    """An unopened seat drew (or gave the take back) where taking the previous discard opened:
    ``missed_take``, or ``missed_take_finish`` when that opening also finished the hand."""
    assert tn.pre is not None
    pre = steps[tn.pre].state
    unopened = pre.rules.unopened_penalty
    tk = _take_options(pre, seat)
    if tk is None:
        return unopened, None
    tile = pre.discards[(seat - 1) % 4][-1]
    reach_t = [o for o in (full_line(pre, seat, o, take=tile) for o in tk) if o.reaches]
    if not reach_t:
        return unopened, False
    tbest = min(reach_t, key=lambda o: o.exposure)
    best["take"] = {"tile": str(tile), "kind": tbest.kind, "value": tbest.value, "plan": tbest.plan}
    finishes = len(tbest.plan.get("left", ())) == 1 and not finished
    bonus = pre.rules.finisher_bonus if finishes and missed.finish is None else 0
    if draw_best > tbest.exposure or bonus:
        # against the better of the rack before the draw (what the seat knew) and after it
        # (where missed_opening takes over), and what was already charged as missed
        pre_best = min((o.exposure for o in openings(pre, seat) if o.reaches), default=unopened)
        cost = max(0, min(pre_best, draw_best, missed.opening) - tbest.exposure) + bonus
        if cost > 0:
            cat = "missed_take_finish" if bonus else "missed_take"
            detail: dict[str, Any] = {"tile": str(tile), "kind": tbest.kind, "value": tbest.value}
            if bonus:
                detail["bonus"] = bonus
            mistakes.append(Mistake(cat, seat, cost, tn.pre, steps[tn.first].line, detail))
            missed.opening = min(missed.opening, tbest.exposure)
            if bonus:
                missed.finish = -1
    return tbest.exposure, True


def _missed_take_finish(steps: Sequence[Step], tn: _Turn, seat: int, draw_best: int, missed: _Missed, n: int,
                        best: dict[str, Any], mistakes: list[Mistake]) -> None:
    """An opened seat drew where taking the previous discard finished the hand, and the draw
    did not leave a finish: charged at the take, the finisher's bonus once a hand."""
    assert tn.pre is not None
    if missed.finish is not None:
        return
    pre = steps[tn.pre].state
    prev = (seat - 1) % 4
    if pre.takeable != prev or not pre.discards[prev] or pre.returned:
        return
    tile = pre.discards[prev][-1]
    op = pre.opened[prev]
    if tile == pre.okey or (op is not None and op.kind == "pairs" and not pre.rules.pairs_discard_takeable):
        return  # P3, P4
    try:
        st = apply(pre, {"type": "take", "seat": seat, "tile": str(tile)})
    except (IllegalMove, ValueError):
        return
    plan = turn_plan(st, seat)
    if not finishing(plan):
        return
    r = pre.rules
    cost = max(0, draw_best - plan.penalty) + r.finisher_bonus
    best["take"] = {"tile": str(tile), "finishes": plan.finishes, "turn": plan.to_dict()}
    mistakes.append(Mistake("missed_take_finish", seat, cost, tn.pre, steps[tn.first].line,
                            {"tile": str(tile), "finishes": plan.finishes, "exposure": draw_best,
                             "best_exposure": plan.penalty, "bonus": r.finisher_bonus}))
    missed.finish = n


def review_game(res: GameResult) -> GameReview:
    """Every hand of a replayed game (``replay_game(..., keep_steps=True)``), graded."""
    gr = GameReview(res.game, res.variant, list(res.players) + [f"#{i}" for i in range(len(res.players), 4)])
    seats = graded_seats(res)
    for i, hr in enumerate(res.hands, 1):
        if hr.steps:
            gr.hands.append(review_hand(hr, i, seats))
    return gr


__all__ = ["CATEGORIES", "SOLVER_VERSION", "Decision", "GameReview", "HandReview", "Mistake", "Option",
           "exposure", "openings", "points_upper_bound", "review_game", "review_hand", "severity", "split_turns"]
