"""The Play page's hints: the expert's best three for the decision in front of a person, judged by
the one verdict every surface shows (:func:`analysis.review.deep.judge_spot`).

The hand in progress is replayed with its steps kept, the decision in front of the seat is the
spot the review will find at this step once the hand is stored (the same kind, step, seat, seed
and knowledge of the other racks), and its candidates are priced on the review's worlds. So the
hint and the later review of the same decision price every candidate on the same worlds: the
hint's best, played, is a move the review does not charge. No Streamlit here.

The decision in front of the seat: at the draw, take or draw (P1-P4); after it, with nothing
placed this turn, the placing (open, lay off, wait; O10 and the okey kept among them); with the
placing done, or when it is to wait or there is nothing to place, the discard.

The mistake guard (:func:`large_mistakes`): a person's move, before it is applied, judged by the
same verdict on the decisions the review will find for it (a draw or take: the take; a placing: the
turn's placing so far with it; a discard: the wait, when nothing was placed, and the discard); a
cost of :data:`LARGE_MISTAKE` points or more is a large mistake. Verdicts are kept per position and
move (:func:`verdict`), so a hint already asked for a decision is not judged again.
"""

from __future__ import annotations

import json
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any

from analysis.evaluate import PRICE_WORLDS, candidates
from analysis.game import HandResult, Step
from analysis.players import View
from analysis.review.deep import judge_spot
from analysis.review.grade import split_turns
from analysis.review.model import Choice
from analysis.review.spots import Spot, seed_game, turn_spots
from analysis.selfplay import PlayGame

Hint = dict[str, Any]
LARGE_MISTAKE = 20.0  # expected points: a move the judge charges this much or more is warned about
GUARDED = ("draw", "take", "open", "meld", "layoff", "swap", "discard")  # the moves the guard judges
_PLACED = ("open", "meld", "layoff", "swap")
_KEEP = 512  # verdicts kept (positions and moves), the oldest dropped first
_VERDICTS: OrderedDict[tuple[Any, ...], Choice | None] = OrderedDict()
_LOCK = threading.Lock()


def _key(g: PlayGame, hr: HandResult, spot: Spot, played: tuple[dict[str, Any], ...]) -> tuple[Any, ...]:
    """What fixes a verdict: the game (its id and seed), the hand (its deal and every event up to
    the spot's step), the spot and the move judged."""
    upto = json.dumps([hr.steps[i].event for i in range(1, spot.step + 1)], sort_keys=True, default=str)
    return (g.id, g.seed, hr.hand, g.voids, repr(hr.steps[0].state.racks), hash(upto), upto[-200:], spot.kind,
            spot.step, spot.seat, json.dumps(list(played), sort_keys=True, default=str))


def verdict(g: PlayGame, hr: HandResult, spot: Spot) -> Choice | None:
    """The judge's verdict on ``spot`` with ``spot.played`` as the move
    (:func:`analysis.review.deep.judge_spot` on the review's worlds), kept for the next ask."""
    key = _key(g, hr, spot, spot.played)
    with _LOCK:
        if key in _VERDICTS:
            _VERDICTS.move_to_end(key)
            return _VERDICTS[key]
    c = judge_spot(seed_game(g.game()), hr, spot, worlds=PRICE_WORLDS)
    with _LOCK:
        _VERDICTS[key] = c
        while len(_VERDICTS) > _KEEP:
            _VERDICTS.popitem(last=False)
    return c


def _placed_this_turn(g: PlayGame, seat: int) -> bool:
    """Has the seat placed anything since its draw or take (the review's placing spot is behind)?"""
    for e in reversed(g.events):
        if e.get("type") == "penalty":
            continue
        return not (e.get("type") in ("draw", "take") and e.get("seat") == seat)
    return False


def _judge(g: PlayGame, hr: HandResult, seat: int, kind: str) -> tuple[list[Hint], bool]:
    """The judge's rows for ``kind`` at the present step, best first, and whether the best is to
    do nothing (a wait, a draw)."""
    step = len(hr.steps) - 1
    state = hr.steps[step].state
    if kind == "take":
        played: tuple[dict[str, Any], ...] = ({"type": "draw", "seat": seat},)
    else:  # a stand-in for the move not yet made (every candidate is priced all the same): the first
        # legal one (after a take an unopened seat cannot wait, P2)
        cands = candidates(View.of(state, seat), kind)
        if not cands:
            return [], False
        played = tuple(dict(e) for e in cands[0].events)
    c = verdict(g, hr, Spot(kind, step, seat, played, 0))
    if c is not None and c.cost > 0:
        # the stand-in was charged, so its verdict priced the contenders again on more worlds; the
        # verdict on the recommended move itself is the one the review gives when it is played
        # (None when that move ends the hand: the review has no such decision, the first verdict stays)
        c = verdict(g, hr, Spot(kind, step, seat, tuple(dict(e) for e in c.best_events), 0)) or c
    if c is None:
        return [], False
    rows = c.candidates  # the recommended first, then by expected score (the judge's own order)
    out = [{"label": r.get("move"), "kind": kind, "events": [dict(e) for e in r.get("events") or []],
            "mean": None if r.get("expected") is None or c.forced is not None else round(float(r["expected"]), 1),
            "se": None if c.forced is not None else r.get("se")} for r in rows]
    idle = not out or not out[0]["events"]
    return out, idle


def best_three(g: PlayGame, seat: int, n: int = 3) -> list[Hint]:
    """The judge's best ``n`` candidates for the decision in front of ``seat`` (its own view), each
    ``{"label", "kind", "events", "mean", "se"}``, best first (a lower expected score is better);
    ``mean`` is None where the decision is forced (one legal move)."""
    s = g.state()
    if s is None or s.over or s.turn != seat:
        return []
    hr = g.hand_result()
    if s.phase == "draw":
        return _judge(g, hr, seat, "take")[0][:n]
    if not _placed_this_turn(g, seat):
        rows, idle = _judge(g, hr, seat, "place")
        if rows and not idle:
            return rows[:n]
    return _judge(g, hr, seat, "discard")[0][:n]


# ---- the mistake guard -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision the move makes that the judge charges :data:`LARGE_MISTAKE` points or more:
    its kind (``take``, ``place``, ``discard``), what was played (the events; none: a wait), the
    cost in expected points and the judge's best (its events; none: a wait)."""

    kind: str
    played: tuple[dict[str, Any], ...]
    cost: float
    best: tuple[dict[str, Any], ...]


def _placed_tiles(events: Any) -> Counter[str]:
    """The rack tiles a placing puts on the table (an okey's face after ``>`` left out)."""
    out: Counter[str] = Counter()
    for e in events:
        if e.get("type") in ("open", "meld"):
            out.update(str(x).split(">")[0] for grp in (e.get("melds") or []) + (e.get("pairs") or []) for x in grp)
        elif e.get("type") in ("layoff", "swap"):
            out.update(str(x).split(">")[0] for x in e.get("tiles") or [])
    return out


def _goes_on(c: Choice, played: tuple[dict[str, Any], ...], limit: float) -> bool:
    """Could the placing played so far be the start of a line the judge charges less than
    ``limit``: a candidate that places every tile placed so far (and more), opening the same way?"""
    if any(e.get("type") == "takeback" for e in played):
        return False
    mine = _placed_tiles(played)
    kind = next(("pairs" if "pairs" in e else "melds" for e in played if e.get("type") == "open"), None)
    for r in c.candidates:
        evs = r.get("events") or []
        theirs = _placed_tiles(evs)
        opens = next(("pairs" if "pairs" in e else "melds" for e in evs if e.get("type") == "open"), None)
        if not (mine - theirs) and (kind is None or opens == kind) \
                and float(r.get("diff") or 0.0) < limit:
            return True
    return False


def move_spots(g: PlayGame, seat: int, event: dict[str, Any]) -> list[tuple[Spot, bool]]:
    """The decisions the review will find for ``event`` once played, each with whether it is
    complete (a placing goes on until the discard): a draw or take, the take; a placing, the
    turn's placing so far with it; a discard, the turn's placing (a wait when nothing was placed)
    and the discard. Empty when the move is none of these or not ``seat``'s to make now."""
    s = g.state()
    kind = event.get("type")
    if s is None or s.over or s.turn != seat or kind not in GUARDED:
        return []
    hr = g.hand_result()
    now = len(hr.steps) - 1
    if kind in ("draw", "take"):
        return [(Spot("take", now, seat, (dict(event),), 0), True)] if s.phase == "draw" else []
    if s.phase != "play":
        return []
    # the hand as it would stand with the move played: only its events are read to find the spots
    steps = [*hr.steps, Step(hr.steps[-1].line + 1, dict(event), hr.steps[-1].state)]
    turns = split_turns(steps)
    if not turns or turns[-1].seat != seat or turns[-1].end != len(steps) - 1:
        return []
    found = turn_spots(steps, turns[-1])
    if kind == "discard":
        return [(sp, True) for sp in found if sp.kind in ("place", "discard")]
    return [(sp, False) for sp in found if sp.kind == "place"]


def large_mistakes(g: PlayGame, seat: int, event: dict[str, Any], limit: float = LARGE_MISTAKE) -> list[Mistake]:
    """The decisions ``event`` makes that the judge charges ``limit`` points or more (the review's
    own verdict, so the review will charge them the same), in play order; empty for a good move.
    A placing not yet complete is warned about only when no line going on from it is charged less."""
    spots = move_spots(g, seat, event)
    if not spots:
        return []
    hr = g.hand_result()
    out: list[Mistake] = []
    for spot, whole in spots:
        c = verdict(g, hr, spot)
        if c is None or c.forced is not None or c.cost < limit:
            continue
        if not whole and _goes_on(c, spot.played, limit):
            continue
        out.append(Mistake(spot.kind, tuple(spot.played), round(c.cost, 1), tuple(dict(e) for e in c.best_events)))
    return out


__all__ = ["GUARDED", "LARGE_MISTAKE", "Mistake", "best_three", "large_mistakes", "move_spots", "verdict"]
