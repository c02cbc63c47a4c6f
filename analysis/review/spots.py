"""Where a hand's decisions are, and what each seat knew there: one account for every surface.

A *spot* is one decision of one seat: its kind (``show``, ``take``, ``place``, ``discard``), the
replay step of the position the seat decided in, the events the log played for it, and the log
line. The deep review grades exactly these spots; Replay, Practice, the report and
``istaka evaluate`` find the same spots at a step (:func:`spots_at`), so a decision is judged with
the same candidates, the same worlds (:func:`spot_seed`) and the same knowledge (:func:`seat_knows`)
wherever it is shown.

- ``show`` (O7): at the seat's show, or before its first draw when it did not show;
- ``take``: before the draw or take (a turn that returned a take, P2, has none);
- ``place``: before the first placing (a declaration, O10, belongs to it), or before the
  discard when nothing was placed (waiting is a placing decision too);
- ``discard``: before the discard, after whatever was placed.

A turn that placed nothing has two spots at the same step: ``place`` (wait) and ``discard``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analysis.game import HIDDEN, GameResult, HandResult, Step, Tile

from .grade import split_turns
from .kinds import show_candidates

KIND_ORDER = {"show": 0, "take": 1, "place": 2, "discard": 3}  # a turn's decisions in play order
PLACING = ("open", "meld", "layoff", "swap", "takeback", "declare", "show")


@dataclass(frozen=True, slots=True)
class Spot:
    kind: str
    step: int  # the replay step of the position the seat decided in
    seat: int
    played: tuple[dict[str, Any], ...]  # the log's events for this decision (none: wait, no show)
    line: int


def clean(ev: dict[str, Any]) -> dict[str, Any]:
    """An event as a candidate writes it (no game, hand, time or line)."""
    return {k: v for k, v in ev.items() if k not in ("game", "hand", "t", "line")}


def taken_held(steps: Sequence[Step]) -> list[dict[int, tuple[Tile, ...]]]:
    """After each step, per seat, the tiles it took and still holds (every seat saw the take, and
    sees when a tile leaves that rack by a placing or a discard). One pass over the hand."""
    held: dict[int, list[Tile]] = {s: [] for s in range(4)}
    out: list[dict[int, tuple[Tile, ...]]] = [{}]
    for i in range(1, len(steps)):
        ev = steps[i].event
        s = ev.get("seat")
        kind = ev.get("type")
        if isinstance(s, int) and 0 <= s <= 3:
            if kind == "take":
                held[s].append(Tile.parse(ev["tile"]))
            elif kind == "return" and held[s]:
                held[s].pop()
            elif held[s] and kind in ("open", "meld", "layoff", "swap", "discard"):
                gone = list(steps[i - 1].state.racks[s])
                for t in steps[i].state.racks[s]:
                    if t in gone:
                        gone.remove(t)
                for t in gone:
                    if t in held[s]:
                        held[s].remove(t)
        out.append({k: tuple(v) for k, v in held.items() if v})
    return out


def known(held: Sequence[dict[int, tuple[Tile, ...]]], upto: int, seat: int) -> dict[int, list[Tile]]:
    """What ``seat`` knows sits in the other racks after step ``upto``: the discards it saw taken."""
    return {s: list(ts) for s, ts in held[upto].items() if s != seat}


def seat_knows(steps: Sequence[Step], upto: int, seat: int) -> dict[int, list[Tile]]:
    """What ``seat`` knows sits in the other racks after step ``upto`` (the discards it saw taken
    and not yet placed): the deep review's view of that position, for one step."""
    return known(taken_held(steps[: upto + 1]), upto, seat)


def seed_game(res: GameResult) -> str:
    """The name a game's worlds are seeded by: its id, or for a seat view cut from a full log
    (``istaka view``) the full game's, so that its seat gets the same grades."""
    of = res.header.get("of") if res.view is not None else None
    return of if isinstance(of, str) and of else res.game


def spot_seed(game: str, hand: int, spot: Spot) -> str:
    """The seed of a spot's worlds: the game, the hand's number, the step and the kind (and the
    seat for O7, decided by each seat at the same step)."""
    tail = f":{spot.seat}" if spot.kind == "show" else ""
    return f"{game}:{hand}:{spot.step}:{spot.kind}{tail}"


def turn_spots(steps: Sequence[Step], tn: Any) -> list[Spot]:
    """The take, place and discard spots of one turn (``grade.split_turns``), in play order."""
    out: list[Spot] = []
    seat = tn.seat
    if tn.pre is not None and tn.first > 0 and "return" not in tn.acquired:
        out.append(Spot("take", tn.pre, seat, (clean(steps[tn.first].event),), steps[tn.first].line))
    if tn.play0 >= 0:
        end = tn.end
        last = end - 1 if steps[end].event.get("type") == "discard" else end
        play0 = tn.play0
        while play0 > 0 and steps[play0].event.get("type") == "declare" and steps[play0].event.get("seat") == seat:
            play0 -= 1  # a declaration (O10) in the turn is part of its placing decision
        events = tuple(clean(steps[i].event) for i in range(play0 + 1, last + 1))
        if all(e.get("type") in PLACING for e in events):  # else it also returned a take (P2)
            line = steps[play0 + 1].line if play0 + 1 < len(steps) else steps[end].line
            out.append(Spot("place", play0, seat, events, line))
    ev = steps[tn.end].event
    if ev.get("type") == "discard":
        out.append(Spot("discard", tn.end - 1, seat, (clean(ev),), steps[tn.end].line))
    return out


def show_spot(steps: Sequence[Step], tn: Any, seat: int) -> Spot | None:
    """The seat's O7 spot: at its show, or (no show) before its first draw; None when neither."""
    shown = next((i for i in range(1, len(steps)) if steps[i].event.get("type") == "show"
                  and steps[i].event.get("seat") == seat), None)
    at = shown - 1 if shown is not None else tn.pre
    if at is None or (shown is None and show_candidates(steps[at].state, seat) is None):
        return None  # nothing to decide: no twin held, or a preset without O7
    played = (clean(steps[shown].event),) if shown is not None else ()
    line = steps[shown].line if shown is not None else steps[tn.first].line
    return Spot("show", at, seat, played, line)


def hand_spots(hr: HandResult, seats: frozenset[int] | None = None) -> list[list[Spot]]:
    """Every turn's spots (``seats``: only theirs; never a seat whose rack a seat-view log hides),
    the seat's O7 spot first in its first turn."""
    steps = hr.steps
    turns = [tn for tn in split_turns(steps) if (seats is None or tn.seat in seats)
             and HIDDEN not in steps[0].state.racks[tn.seat]]  # a seat-view log: only the viewer decides
    out: list[list[Spot]] = []
    first: set[int] = set()
    for tn in turns:
        mine: list[Spot] = []
        if tn.seat not in first:
            first.add(tn.seat)
            sh = show_spot(steps, tn, tn.seat)
            if sh is not None:
                mine.append(sh)
        mine += turn_spots(steps, tn)
        out.append(mine)
    return out


def spots_at(hr: HandResult, step: int, seats: frozenset[int] | None = None) -> list[Spot]:
    """The spots decided in the position of ``step``, in play order."""
    found = [s for turn in hand_spots(hr, seats) for s in turn if s.step == step]
    return sorted(found, key=lambda s: KIND_ORDER[s.kind])


def spot_at(hr: HandResult, step: int, kind: str | None = None, seat: int | None = None) -> Spot | None:
    """The decision of ``kind`` (default: the first one) taken at ``step``, or None."""
    return next((s for s in spots_at(hr, step) if (kind is None or s.kind == kind)
                 and (seat is None or s.seat == seat)), None)


__all__ = ["KIND_ORDER", "Spot", "clean", "hand_spots", "known", "seat_knows", "seed_game", "show_spot",
           "spot_at", "spot_seed", "spots_at", "taken_held", "turn_spots"]
