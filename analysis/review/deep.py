"""The deep review: every decision of every seat graded in expected points.

A turn holds up to three decisions, each taken from the seat's own view (:class:`View`: its rack,
the table, the discards, rack sizes — never another rack, never the deck):

- ``take``: draw, or take the previous discard (only where the take is legal, P1-P4);
- ``place``: open now (melds or pairs) or wait, declare çift where O10 asks for it; once opened,
  the exact solver's best turn (melds, lay-offs, okey swaps), that turn with lay-offs held back
  (:mod:`.kinds`), or nothing — and always what was actually played;
- ``discard``: every distinct tile the rules let the seat discard;
- ``show``: at a seat's first turn, showing the gösterge twin or not (O7).

Every legal candidate is priced on ``worlds`` fixed worlds (:func:`analysis.evaluate.price`,
default PRICE_WORLDS = 64), every candidate in every world, never stopped early, each price split
into its parts (the hand-end score, each penalty by rule). A decision's **cost** is the paired
difference between what was played and the lowest-priced candidate on those worlds, charged only
when its interval (``Z`` standard errors) excludes zero, else 0. A cost that passes is priced
again on :data:`CONFIRM` times the worlds (the first ones among them) for the played move and the
contenders for best, and charged only if it passes on the worlds after the first ones, at their
price: a threshold keeps the costs whose noise went their way, so the worlds that selected a cost
take no part in its size. The lesson's reason is
the cost's largest part (:func:`analysis.review.reasons.parts_reason`). The interval's
half-width and the worlds are kept with it. So a move equal to the best costs 0 and a loss is
charged once, at the decision where it happened. A decision whose candidates cannot differ is recorded as forced (``Choice.forced``:
one legal move, a take that cannot be kept, the same score in every world) and not graded.

The quick pass's exact findings (missed opening, X3/X4 discards, missed finish, missed take …)
stay as the labels of the decision they belong to when the recommended line does what they name
(:func:`analysis.review.lesson.label_fits`), priced by that decision's expected cost; a finding
whose decision costs nothing, such as an X5 that only hindsight reveals, stays as a note of what
happened, cost 0.
"""

from __future__ import annotations

import math

from collections.abc import Callable, Sequence
from typing import Any

from analysis.evaluate import PRICE_WORLDS, Candidate, Evaluation, candidates, place_candidate, price
from analysis.game import GameResult, HandResult, HandState, Tile, apply
from analysis.players import View

from .grade import graded_seats, review_hand
from .kinds import declare_candidates, held_back, okey_kept, show_candidates
from .lesson import label_fits
from .options import openings
from .reasons import parts_reason
from .spots import Spot, hand_spots, known, seat_knows, seed_game, spot_seed, taken_held
from .model import (
    CATEGORY_KIND,
    CONFIRM,
    DEEP_BUDGET,
    DEEP_VERSION,
    GENERIC,
    Choice,
    Decision,
    GameReview,
    HandReview,
    Mistake,
)

Z = 2.0  # a cost counts when the played-minus-best difference is over Z standard errors
TOP = 3  # candidates priced again on CONFIRM times the worlds (and shown first), the played one added


Progress = Callable[[int, int], None]


def _signature(state: HandState, seat: int) -> tuple:
    """What a placing leaves: the seat's rack, its opening, the table (to match plans to play)."""
    table = tuple(sorted(tuple(str(p) for p in m.tiles) for m in state.table if m is not None))
    return tuple(sorted(state.racks[seat])), state.opened[seat], table, state.penalties


# ---- one decision ------------------------------------------------------------------------------


def _grade(view: View, cands: list[Candidate], played: int, *, seed: str, budget: float, worlds: int,
           known: dict[int, list[Tile]], kind: str, step: int, line: int,
           played_events: list[dict[str, Any]]) -> Choice:
    """Price every candidate on the same ``worlds`` fixed worlds (:func:`analysis.evaluate.price`:
    each one in every world, never stopped early), each value with its parts (the hand-end score
    and each penalty by rule) and rates. The recommended move is the lowest; the cost is the
    played-minus-recommended paired difference, charged only when its interval (``Z`` standard
    errors) excludes zero, and then only when it does so again on the (:data:`CONFIRM` - 1) times
    as many worlds after those, where the played move and the candidates that could still be best
    (within the interval of the lowest, at most :data:`TOP`) are priced again and shown: the first
    worlds selected the cost, so they take no part in its size. A candidate left on the first worlds whose
    price is below the new best's is priced again too, so the best shown is the lowest shown. ``budget`` is kept for the callers' sake:
    worlds, not a clock, fix the answer."""
    del budget
    p = played
    priced = price(view, cands, seed=seed, worlds=worlds, known=known, parts=True)
    if _identical(priced):
        return _forced(kind, step, line, cands, played, played_events, "identical", priced[p].mean, worlds)
    r, diff, se, cost = _charge(priced, p, worlds)
    if cost > 0 and CONFIRM > 1:
        again = _contenders(priced, r)
        if p not in again:
            again.append(p)
        full = list(priced)  # each candidate on every world it was played in
        todo = list(again)
        while todo:  # a candidate left on the first worlds that now looks better than the best is priced too
            more = price(view, [cands[i] for i in todo], seed=seed, worlds=worlds * CONFIRM, known=known,
                         start=[full[i] for i in todo], parts=True)
            for i, e in zip(todo, more):
                # charged on the confirming worlds alone: the screen's worlds selected the cost, and
                # kept in its estimate they lean it up (a winner's curse: costs up to 30 re-priced at
                # 10x came out 17% lower with them, 6% without)
                full[i], priced[i] = e, _after(e, worlds)
            r, diff, se, cost = _charge(priced, p, worlds * (CONFIRM - 1), among=again)
            todo = [j for j in range(len(priced)) if j not in again and priced[j].mean < priced[r].mean]
            again += todo
        worlds *= CONFIRM - 1
    else:
        full = priced
    half = Z * se
    rows = []
    for j in sorted(range(len(priced)), key=lambda j: (j != r, priced[j].mean)):
        e = priced[j]
        # a candidate left on the screen is paired with the best on the screen's worlds
        d, dse, _ = (e.diff(priced[r]) if e.n == priced[r].n else e.diff(full[r])) if j != r else (0.0, 0.0, worlds)
        rows.append({"move": e.candidate.label, "expected": round(e.mean, 2), "se": round(e.se, 2), "n": e.n,
                     "played": j == p, "events": [dict(x) for x in e.candidate.events],
                     "diff": round(d, 2), "ci": round(Z * dse, 2), "tie": j != r and abs(d) <= Z * dse,
                     "parts": {k: round(v, 2) for k, v in e.part_means().items()},
                     "rates": {k: round(v, 3) for k, v in e.rate_means().items()}})
        if view.state.rules.esli:  # partners (G4): the value is the team's, the seat's own beside it
            own = e.own_mean()
            rows[-1].update({"team": True, "own": None if own is None else round(own, 2)})
    rec = priced[r].candidate
    why = None
    if r != p:
        code, fields = parts_reason(view.state, view.seat, kind, priced[p], priced[r], rec.events,
                                    played_events if kind != "take" else [dict(x) for x in cands[played].events])
        why = {"code": code, **fields} if code else None
    return Choice(kind, step, line, cands[played].label, rec.label, priced[p].mean, priced[r].mean, se,
                  cost, rows, played_events, ci=half, worlds=worlds, reason=why)


def _after(e: Evaluation, first: int) -> Evaluation:
    """``e`` on its worlds after the ``first`` ones: their values, parts, mean and standard error."""
    v = e.values[first:]
    n = len(v)
    if n == 0:  # (nothing after them: the worlds it has)
        return e
    m = sum(v) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return Evaluation(e.candidate, m, sd / math.sqrt(n), n, v, e.parts[first:] if e.parts else ())


def _contenders(priced: Sequence[Evaluation], r: int) -> list[int]:
    """The recommended candidate and those within ``Z`` standard errors of it, best first, at most
    :data:`TOP` in all."""
    out = [r]
    for j in sorted(range(len(priced)), key=lambda j: priced[j].mean):
        if j == r or len(out) >= TOP:
            continue
        d, se, _ = priced[j].diff(priced[r])
        if d - Z * se <= 0:
            out.append(j)
    return out


def _charge(priced: Sequence[Evaluation], p: int, worlds: int,
            among: Sequence[int] | None = None) -> tuple[int, float, float, float]:
    """The recommended candidate (the lowest, ``among`` those given), the played-minus-recommended
    paired difference and its standard error, and the cost: the difference when its interval
    (``Z`` standard errors) excludes zero, else 0."""
    pool = list(among) if among is not None else list(range(len(priced)))
    r = min(pool, key=lambda j: priced[j].mean)
    diff, se, _ = priced[p].diff(priced[r]) if p != r else (0.0, 0.0, worlds)
    return r, diff, se, (diff if diff > 0 and diff - Z * se > 0 else 0.0)


def _identical(evs: Sequence[Evaluation]) -> bool:
    """Every candidate scored the same as the first one in every world of its pass."""
    by_n: dict[int, tuple[int, ...]] = {}
    for e in evs:
        first = by_n.setdefault(e.n, e.values)
        if e.values != first:
            return False
    return True


def _forced(kind: str, step: int, line: int, cands: Sequence[Candidate], played: int,
            played_events: list[dict[str, Any]], why: str, value: float | None = None, worlds: int = 0) -> Choice:
    """A decision whose candidates cannot differ (:data:`FORCED`): recorded, never graded."""
    label = cands[played].label if 0 <= played < len(cands) else "played"
    x = float(value) if value is not None else 0.0
    rows = [{"move": c.label, "expected": None if value is None else round(x, 2), "se": 0.0, "n": worlds,
             "played": i == played, "events": [dict(e) for e in c.events]} for i, c in enumerate(cands)]
    rows.sort(key=lambda r: not r["played"])
    return Choice(kind, step, line, label, label, x, x, 0.0, 0.0, rows, played_events, ci=0.0, worlds=worlds,
                  forced=why)


def _take_kept(state: HandState, seat: int, tile: Tile) -> bool:
    """Can the seat keep the previous discard (P2)? An opened seat always can; an unopened one
    only by opening with it this turn."""
    if state.opened[seat] is not None:
        return True
    return any(o.reaches for o in openings(state, seat, take=tile))


def grade_decision(state: HandState, seat: int, kind: str, played_events: Sequence[dict[str, Any]], *,
                   seed: str = "0", budget: float = DEEP_BUDGET, worlds: int = PRICE_WORLDS,
                   known: dict[int, list[Tile]] | None = None, step: int = 0, line: int = 0) -> Choice | None:
    """One decision of ``seat`` in ``state`` (its own view only), graded in expected points.

    ``kind``: ``take`` (``state`` before the draw or take; ``played_events`` the draw or take),
    ``place`` (``state`` before the placing; the placing events, none for waiting) or ``discard``
    (``state`` before the discard; the discard event). ``worlds``: the fixed pricing worlds. A
    decision whose candidates cannot differ is returned forced (``Choice.forced``, not graded);
    None when the position holds no such decision of the seat."""
    view = View.of(state, seat)
    played_events = [dict(e) for e in played_events]
    forced: str | None = None
    if kind == "take":
        if state.phase != "draw" or state.turn != seat:
            return None
        cands = candidates(view, "draw")
        kinds = [c.kind for c in cands]
        took = bool(played_events) and played_events[0].get("type") == "take"
        played = kinds.index("take") if took and "take" in kinds else kinds.index("draw")
        t = cands[kinds.index("take")].tile if "take" in kinds else None
        if t is not None and not _take_kept(state, seat, t):
            forced = "take_returned"
    elif kind == "place":
        if state.phase != "play" or state.turn != seat:
            return None
        cands = candidates(view, "place")
        # kinds the evaluator leaves out: held-back lay-offs, the okey kept off the table (X6), O10
        cands += held_back(view, cands) + okey_kept(view, cands) + declare_candidates(view, cands)
        after = state
        for e in played_events:
            after = apply(after, e)
        if after.over:  # the placing ended the hand without a discard (a void hand, E3)
            return None
        played = match_placing(state, seat, cands, played_events)
        if played < 0:
            cands.append(place_candidate(tuple(played_events), "played"))
            played = len(cands) - 1
    elif kind == "discard":
        cands = candidates(view, "discard")
        tile = Tile.parse(played_events[0]["tile"])
        played = next((i for i, c in enumerate(cands) if c.tile == tile), -1)
        if played < 0:
            return None
    elif kind == "show":
        shows = show_candidates(state, seat)
        if shows is None:
            return None
        cands = shows
        played = 1 if any(e.get("type") == "show" for e in played_events) else 0
    else:
        raise ValueError(f"decision kind must be take, place, discard or show, got {kind!r}")
    if len(cands) < 2:
        forced = "single"
    if forced is not None:
        return _forced(kind, step, line, cands, played, played_events, forced)
    return _grade(view, cands, played, seed=seed, budget=budget, worlds=worlds, known=known or {}, kind=kind,
                  step=step, line=line, played_events=played_events)


def match_placing(state: HandState, seat: int, cands: Sequence[Candidate],
                  played_events: Sequence[dict[str, Any]]) -> int:
    """The candidate that leaves what the played placing leaves (rack, opening, table), or -1."""
    after = state
    for e in played_events:
        after = apply(after, dict(e))
    want = _signature(after, seat)
    for i, c in enumerate(cands):
        st = state
        try:
            for e in c.events:
                st = apply(st, e)
        except ValueError:
            continue
        if _signature(st, seat) == want:
            return i
    return -1


def judge_spot(game: str, hr: HandResult, spot: Spot, *, budget: float = DEEP_BUDGET, worlds: int = PRICE_WORLDS,
               held: Sequence[dict[int, tuple[Tile, ...]]] | None = None,
               events: Sequence[dict[str, Any]] | None = None, salt: str | None = None) -> Choice | None:
    """The verdict on one spot of a replayed hand (its steps kept): what the deep review stores,
    and what every surface shows for the same decision. ``game``: the seed's game
    (:func:`analysis.review.spots.seed_game`); ``held``: :func:`~analysis.review.spots.taken_held`
    of the hand, when several spots of it are judged; ``events``: a try in place of what the log
    played (Practice), judged on the same candidates and worlds; ``salt``: other worlds than the
    review's (the seed gets it appended), to see how much the verdict moves."""
    steps = hr.steps
    kn = known(held, spot.step, spot.seat) if held is not None else seat_knows(steps, spot.step, spot.seat)
    played = list(spot.played) if events is None else [dict(e) for e in events]
    seed = spot_seed(game, hr.hand, spot) + (f":{salt}" if salt else "")
    return grade_decision(steps[spot.step].state, spot.seat, spot.kind, played, seed=seed,
                          budget=budget, worlds=worlds, known=kn, step=spot.step, line=spot.line)


# ---- labels and costs --------------------------------------------------------------------------


def _generic(c: Choice) -> str:
    """The general label of a costed decision no exact finding names: by its kind, and for a
    placing by what the two lines differ in (a declaration, O10; lay-offs held back or made)."""
    if c.kind == "place":
        lines = list(c.best_events) + list(c.played_events)
        if any(e.get("type") == "declare" for e in lines):
            return "worse_declare"
        if c.best.startswith("best turn ") or c.played.startswith("best turn "):
            return "worse_layoffs"
    return GENERIC.get(c.kind, "worse_placing")


def _relabel(d: Decision) -> None:
    """The quick findings become the labels of the decisions they belong to, priced by them."""
    quick = list(d.mistakes)
    out: list[Mistake] = []
    for c in d.choices:
        mine = [m for m in quick if CATEGORY_KIND.get(m.category) == c.kind]
        if c.cost > 0:
            # a quick label names what the recommended line does, or it stays a note
            lab = next((m for m in mine if label_fits(m.category, c)), None)
            cat = lab.category if lab is not None else _generic(c)
            c.category = cat
            detail = dict(lab.detail) if lab is not None else {}
            detail.update({"decision": c.kind, "played": c.played, "best": c.best,
                           "expected_played": round(c.expected_played, 1), "expected_best": round(c.expected_best, 1)})
            if c.ci is not None:
                detail["ci"] = round(c.ci, 1)
            out.append(Mistake(cat, d.seat, max(1, round(c.cost)), c.step, c.line, detail))
            mine = [m for m in mine if m is not lab]
        elif mine:
            c.category = mine[0].category
        for m in mine:  # what happened, not a mistake by this decision's expected cost
            out.append(Mistake(m.category, m.seat, 0, m.step, m.line, {**m.detail, "decision": c.kind, "note": True}))
        quick = [m for m in quick if CATEGORY_KIND.get(m.category) != c.kind]
    for m in quick:  # findings of a decision with one legal move: shown, never charged
        out.append(Mistake(m.category, m.seat, 0, m.step, m.line, {**m.detail, "note": True}))
    d.mistakes[:] = out


def deep_review_hand(game: str, hr: HandResult, ord: int, *, budget: float = DEEP_BUDGET, worlds: int = PRICE_WORLDS,
                     progress: Callable[[], None] | None = None, seats: frozenset[int] | None = None) -> HandReview:
    """One replayed hand (with its steps): the quick pass, then every decision in expected points.
    ``game`` seeds the sampled worlds; ``seats``: only these seats' turns (grade.graded_seats)."""
    out = review_hand(hr, ord, seats)
    steps = hr.steps
    if not steps:
        return out
    held = taken_held(steps)
    for d, turn in zip(out.decisions, hand_spots(hr, seats)):
        for spot in turn:
            c = judge_spot(game, hr, spot, budget=budget, worlds=worlds, held=held)
            if c is not None:
                d.choices.append(c)
        _relabel(d)
        if progress is not None:
            progress()
    return out


def deep_review_game(res: GameResult, *, budget: float = DEEP_BUDGET, progress: Progress | None = None,
                     worlds: int = PRICE_WORLDS) -> GameReview:
    """Every decision of a replayed game (``replay_game(..., keep_steps=True)``) in expected points.

    ``progress(done, total)`` is called after each turn."""
    gr = GameReview(res.game, res.variant, list(res.players) + [f"#{i}" for i in range(len(res.players), 4)],
                    version=DEEP_VERSION, depth="deep")
    seats = graded_seats(res)
    total = sum(len(hand_spots(hr, seats)) for hr in res.hands if hr.steps)
    seed = seed_game(res)  # a seat view cut from a full log samples the full game's worlds
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    for i, hr in enumerate(res.hands, 1):
        if hr.steps:
            gr.hands.append(deep_review_hand(seed, hr, i, budget=budget, worlds=worlds, progress=tick, seats=seats))
    return gr


__all__ = ["CONFIRM", "DEEP_BUDGET", "DEEP_VERSION", "TOP", "Z", "deep_review_game", "deep_review_hand", "grade_decision",
           "judge_spot", "match_placing", "seat_knows"]
