"""Reading an event's fields, and the moves around placing: draw, take, return, show, declare (P1-P4, O7, O10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .state import FULL_SET, HandState, IllegalMove, evolve
from .tiles import PARSED, NotationError, Tile


def event_seat(state: HandState, event: Mapping[str, Any], *, own_turn: bool = True) -> int:
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise IllegalMove(f"seat must be 0-3, got {seat!r}", "D2")
    if own_turn and seat != state.turn:
        raise IllegalMove(f"seat {seat} moved out of turn: it is seat {state.turn}'s turn", "D2")
    return seat


def event_tile(event: Mapping[str, Any], field: str = "tile") -> Tile:
    known = PARSED.get(event.get(field))  # type: ignore[arg-type]
    if known is not None:
        return known
    try:
        return Tile.parse(event.get(field))  # type: ignore[arg-type]
    except NotationError as e:
        raise IllegalMove(str(e).rsplit(" [", 1)[0], "T1") from None


def remove_tiles(rack: tuple[Tile, ...], ts: Sequence[Tile], seat: int) -> tuple[Tile, ...]:
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



def replace_at(seq: tuple, i: int, v: Any) -> tuple:
    return seq[:i] + (v,) + seq[i + 1:]


def start_placing(state: HandState) -> HandState:
    """Remember the state before this turn's first placing, for a takeback (O6)."""
    return state if state.turn_base is not None else evolve(state, turn_base=state)




def on_draw(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    t = event_tile(ev)
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
        if state.copies(t) >= FULL_SET[t]:
            raise IllegalMove(f"seat {seat} drew {t}, but every copy of {t} is already in play", "T1")
    return evolve(state, racks=replace_at(state.racks, seat, state.racks[seat] + (t,)), deck=deck,
                   deck_count=state.deck_count - 1, phase="play", takeable=None,
                   started=replace_at(state.started, seat, True))


def on_take(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    t = event_tile(ev)
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
    return evolve(state, racks=replace_at(state.racks, seat, state.racks[seat] + (t,)),
                   discards=replace_at(state.discards, prev, state.discards[prev][:-1]), phase="play",
                   took=t, took_unopened=state.opened[seat] is None, takeable=None,
                   started=replace_at(state.started, seat, True))


def on_return(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    t = event_tile(ev)
    if state.took is None or state.phase != "play":
        raise IllegalMove(f"seat {seat} has taken no discard this turn to return", "P2")
    if t != state.took:
        raise IllegalMove(f"seat {seat} returned {t} but took {state.took}", "P2")
    base = state.turn_base
    if base is not None and (base.table != state.table or base.racks[seat] != state.racks[seat]):
        raise IllegalMove(f"seat {seat} must take back what he placed before returning {t}", "P2")
    prev = (seat - 1) % 4
    rack = remove_tiles(state.racks[seat], [t], seat)
    return evolve(state, racks=replace_at(state.racks, seat, rack),
                   discards=replace_at(state.discards, prev, state.discards[prev] + (t,)),
                   phase="draw", took=None, took_unopened=False, returned=True, takeable=prev,
                   turn_base=None)


def on_show(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev, own_turn=False)
    t = event_tile(ev)
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
    return evolve(state, shown=replace_at(state.shown, seat, True))


def on_declare(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev, own_turn=False)
    if ev.get("what") != "pairs":
        raise IllegalMove(f"only pairs can be declared, got {ev.get('what')!r}", "O10")
    if state.opened[seat] is not None:
        raise IllegalMove(f"seat {seat} has already opened", "O10")
    return evolve(state, declared=replace_at(state.declared, seat, True))

