"""Seat-view logs: a game as one seat saw it (docs/log-format.md, "Seat-view logs").

The ``game`` event names the viewing seat (``view``); the other racks are ``null`` in the ``hand``
event and their draws carry no tile. The engine replays such a hand on a state whose hidden racks
hold :data:`~analysis.game.tiles.HIDDEN` tiles, as many as the seat holds (D1, P1): a tile a hidden
seat places, discards or shows replaces one of them at the moment it is seen, after the check that
it could still be hidden (never a third copy, never a tile the viewer holds or that lies face up,
T1/T2) and that the rack is not empty. Every other rule is the engine's as usual: thresholds and
escalation (O1-O3, O11), lay-off fits (L1-L3), X3-X6, which depend only on face-up tiles.

Scores: the viewer's is computed; so is every score that needs no hidden tile (the finisher, his
partner, an unopened seat, E4-E8); an opened hidden seat's from the tiles ``end.racks`` shows,
else from ``end.scores``. Differences are reported as for full logs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .engine import apply
from .moves import event_seat, replace_at
from .rules import Rules
from .scoring import explain_state
from .state import FULL_SET, HandState, IllegalMove, evolve
from .tiles import HIDDEN, PARSED, NotationError, Tile, brief, okey_of, over_copies, parse_placed

# the event types whose tiles leave (or are shown from) the mover's rack
_PLACING = frozenset(("open", "meld"))


class ViewFormatError(ValueError):
    """A seat-view log line the format forbids (the reader makes it a LogFormatError)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def _tile_or_null_lists(x: Any) -> bool:
    return isinstance(x, list) and len(x) == 4 and all(
        r is None or (isinstance(r, list) and all(isinstance(t, str) for t in r)) for r in x)


def check_header(ev: Mapping[str, Any]) -> None:
    """The ``game`` event's ``view``: a seat 0-3."""
    v = ev.get("view")
    if type(v) is not int or not 0 <= v <= 3:
        raise ViewFormatError(f"field 'view' of a game event must be a seat 0-3, got {brief(v)}", "view")


def check_event(header: Mapping[str, Any], ev: Mapping[str, Any]) -> None:
    """What a line must be in its game: full logs list every rack and draw; seat-view logs hide
    the other seats' racks and draws (LOG_FORMAT "Seat-view logs"). Raises ViewFormatError."""
    kind = ev["type"]
    view = header.get("view")
    if kind == "hand":
        racks = ev["racks"]
        if view is None:
            if any(r is None for r in racks):
                raise ViewFormatError("field 'racks' of a hand event must be 4 lists of tiles (null only for a "
                                      "hidden seat of a seat-view log)", "racks")
            return
        for s, r in enumerate(racks):
            if (r is None) == (s == view):
                raise ViewFormatError(f"field 'racks' of a seat-view hand event holds seat {view}'s rack and null "
                                      f"for the other seats; seat {s} has {brief(r)}", "racks")
        if "deck" in ev:
            raise ViewFormatError("a seat-view hand event has no 'deck' (nobody saw it)", "deck")
    elif kind == "draw":
        if view is None or ev["seat"] == view:
            if "tile" not in ev:
                raise ViewFormatError("draw event lacks field 'tile'", "tile")
        elif "tile" in ev:
            raise ViewFormatError(f"a draw by hidden seat {ev['seat']} has no 'tile' in a seat-view log of seat "
                                  f"{view} (nobody saw it)", "tile")
    elif kind == "end" and view is not None and "racks" in ev:
        if not _tile_or_null_lists(ev["racks"]):
            raise ViewFormatError(f"field 'racks' of an end event must be 4 lists of tiles or null, got "
                                  f"{brief(ev['racks'])}", "racks")


# ---- the engine --------------------------------------------------------------------------------


def new_view_hand(rules: Rules, hand: int, starter: int, indicator: Tile, rack: Sequence[Tile],
                  view: int) -> HandState:
    """A dealt hand seen by ``view``: its rack checked as in a full log (D1, T1, T2), the other
    racks HIDDEN tiles of their dealt sizes (D1)."""
    if indicator.is_joker:
        raise IllegalMove("a false okey cannot be the indicator; it is put back and another drawn", "T2")
    want = rules.dealt_starter if view == starter else rules.deal
    if len(rack) != want:
        who = "the starter" if view == starter else f"seat {view}"
        raise IllegalMove(f"{who} (the viewing seat) must be dealt {want} tiles, got {len(rack)}", "D1")
    over = [f"{t} x{n}" for t, n in over_copies(Counter((indicator, *rack)))]
    if over:
        raise IllegalMove(f"more copies than the set holds: {', '.join(sorted(over))}", "T1")
    racks = tuple(tuple(rack) if s == view else (HIDDEN,) * (rules.dealt_starter if s == starter else rules.deal)
                  for s in range(4))
    dealt = sum(len(r) for r in racks)
    return HandState(rules=rules, hand=hand, starter=starter, indicator=indicator, okey=okey_of(indicator),
                     racks=racks, deck=None, deck_count=105 - dealt, discards=((), (), (), ()), table=(),
                     opened=(None,) * 4, turn=starter, phase="play", view=view)


def _parse(x: Any) -> Tile:
    t = PARSED.get(x) if isinstance(x, str) else None
    if t is None:
        t = Tile.parse(x)
    return t


def _shown_tiles(state: HandState, seat: int, ev: Mapping[str, Any]) -> list[Tile]:
    """The physical tiles ``ev`` takes from (or shows of) the mover's rack; raises NotationError."""
    kind = ev["type"]
    if kind in ("discard", "show"):
        return [_parse(ev.get("tile"))]
    if kind in _PLACING:
        pairs = "pairs" in ev
        twin = state.indicator if (pairs and state.shown[seat]) else None
        groups = ev.get("pairs") if pairs else ev.get("melds")
        if not isinstance(groups, list):
            return []
        return [parse_placed(x, state.okey, twin).physical for g in groups if isinstance(g, list) for x in g]
    if kind == "layoff":
        raw = ev.get("tiles")
        return [parse_placed(x, state.okey).physical for x in raw] if isinstance(raw, list) else []
    if kind == "swap":
        raw = ev.get("tiles")
        return [_parse(x) for x in raw] if isinstance(raw, list) else []
    return []


def where_copies(state: HandState, t: Tile, extra: Counter[Tile] | None = None) -> str:
    """Where the known copies of ``t`` lie, for a refusal: the viewer's rack, face up, taken."""
    parts = []
    if state.view is not None and (n := state.racks[state.view].count(t)):
        parts.append(f"seat {state.view} (the view) holds {n}")
    if t is state.indicator:
        parts.append("1 is the indicator")
    up = sum(d.count(t) for d in state.discards) + sum(
        1 for m in state.table if m is not None for p in m.tiles if p.physical is t)
    if up:
        parts.append(f"{up} lie face up")
    known = sum(r.count(t) for s, r in enumerate(state.racks) if s != state.view) + (extra or Counter())[t]
    if known:
        parts.append(f"{known} known in the hidden racks")
    return ", ".join(parts) or "none"


def _reveal(state: HandState, seat: int, need: Sequence[Tile], what: str) -> HandState:
    """The state with ``need`` (tiles a hidden seat just showed) in place of HIDDEN tiles of its
    rack, after checking that each could still be hidden (T1, T2) and that the rack holds them."""
    rack = state.racks[seat]
    fresh: list[Tile] = []
    if len(need) == 1:  # a discard or a show: the common case, without counting the rack
        t = need[0]
        if t in rack:  # seen going in (a take, a swap)
            return state
        if state.turn_base is None and HIDDEN in rack and _copies(state, t) < FULL_SET[t]:
            i = rack.index(HIDDEN)
            return evolve(state, racks=replace_at(state.racks, seat, rack[:i] + (t,) + rack[i + 1:]))
        fresh.append(t)  # the checks below say what is wrong, or a turn base to update
    else:
        known = Counter(t for t in rack if t is not HIDDEN)
        for t in need:
            if known[t] > 0:
                known[t] -= 1
            else:
                fresh.append(t)
    if not fresh:
        return state
    hidden = rack.count(HIDDEN)
    if len(fresh) > hidden:
        raise IllegalMove(f"seat {seat} {what} {len(need)} tile(s) but holds only {len(rack)}", "P1")
    added: Counter[Tile] = Counter()
    seen = state.tiles_in_play() if len(fresh) > 1 else None  # one count for a whole placing
    for t in fresh:
        if (seen[t] if seen is not None else _copies(state, t)) + added[t] >= FULL_SET[t]:
            rule = "T2" if t is state.indicator else "T1"
            raise IllegalMove(f"seat {seat} {what} {t}, but every copy of {t} is accounted for "
                              f"({where_copies(state, t, added)}): the set holds {FULL_SET[t]}", rule)
        added[t] += 1

    def fill(r: tuple[Tile, ...]) -> tuple[Tile, ...]:
        out = list(r)
        for t in fresh:
            out[out.index(HIDDEN)] = t
        return tuple(out)

    changes: dict[str, Any] = {"racks": replace_at(state.racks, seat, fill(state.racks[seat]))}
    base = state.turn_base
    if base is not None and base.racks[seat].count(HIDDEN) >= len(fresh):
        # a takeback returns the turn's base: what was seen stays seen
        changes["turn_base"] = evolve(base, racks=replace_at(base.racks, seat, fill(base.racks[seat])))
    return evolve(state, **changes)


def _copies(state: HandState, t: Tile) -> int:
    """The copies of ``t`` known to lie anywhere (racks, discards, table, indicator)."""
    return state.copies(t)


_VERB = {"discard": "discarded", "show": "showed", "open": "placed", "meld": "placed", "layoff": "laid off",
         "swap": "put in"}


def apply_view(state: HandState, event: Mapping[str, Any]) -> HandState:
    """:func:`~analysis.game.engine.apply` for a seat-view hand: a hidden seat's tiles are revealed
    as it shows them (checked, T1/T2/P1), its draws add a HIDDEN tile; the viewer's moves and every
    face-up rule are the engine's."""
    seat = event.get("seat")
    view = state.view
    if view is None or seat == view or type(seat) is not int or not 0 <= seat <= 3:
        return apply(state, event)
    kind = event.get("type")
    if kind == "draw":
        return _hidden_draw(state, event)
    if kind in _VERB and state.phase != "over":
        try:
            need = _shown_tiles(state, seat, event)
        except NotationError:
            return apply(state, event)  # the engine names the notation error
        if need:
            state = _reveal(state, seat, need, _VERB[kind])
    return apply(state, event)


def _hidden_draw(state: HandState, ev: Mapping[str, Any]) -> HandState:
    """A hidden seat's draw (no tile: nobody saw it), with on_draw's checks (P1, D1, E1)."""
    if state.phase == "over":
        raise IllegalMove(f"the hand is over ({state.result}); no draw after it", "E1")
    seat = event_seat(state, ev)
    if state.phase != "draw":
        raise IllegalMove(f"seat {seat} cannot draw now: " + (
            "the starter opens the hand by discarding without drawing" if not state.started[seat]
            else "one draw or take per turn"), "P1" if state.started[seat] else "D1")
    if state.deck_count <= 0:
        raise IllegalMove("the deck is empty", "E1")
    return evolve(state, racks=replace_at(state.racks, seat, state.racks[seat] + (HIDDEN,)),
                  deck_count=state.deck_count - 1, phase="play", takeable=None,
                  started=replace_at(state.started, seat, True), last_event=ev)


# ---- scores ------------------------------------------------------------------------------------


def settle_scores(state: HandState, recorded: Mapping[str, Any] | None
                  ) -> tuple[tuple[int, ...], list[dict[str, Any]], HandState]:
    """A finished or exhausted seat-view hand's scores, the notes on them, and the final state with
    the racks ``end.racks`` showed and these scores.

    A seat whose score needs none of its hidden tiles is computed (E4-E8); an opened hidden seat
    still holding hidden tiles is scored from ``end.racks`` (checked like any revealed tile), else
    taken from ``end.scores``; with neither, it is reported and scored 0."""
    scores = list(state.scores or (0, 0, 0, 0))
    notes: list[dict[str, Any]] = []
    lines = explain_state(state)
    if lines is None:
        return tuple(scores), notes, state
    rec = recorded or {}
    shown = rec.get("racks") if isinstance(rec.get("racks"), list) else [None] * 4
    rec_scores = rec.get("scores")
    line = rec.get("line")
    racks = list(state.racks)
    need_lines = False
    for s, sl in enumerate(lines):
        if sl.why != "rack" or HIDDEN not in state.racks[s]:
            continue
        if shown[s] is not None:
            try:
                tiles = [_parse(x) for x in shown[s]]
                if len(tiles) != len(state.racks[s]):
                    raise IllegalMove(f"end.racks shows {len(tiles)} tiles for seat {s}, who holds "
                                      f"{len(state.racks[s])}", "E5")
                racks[s] = _reveal(state, s, tiles, "showed").racks[s]
                state = evolve(state, racks=replace_at(state.racks, s, racks[s]))
                need_lines = True
                continue
            except (IllegalMove, NotationError) as e:
                notes.append({"kind": "racks", "line": line, "seat": s, "message": str(e)})
        if isinstance(rec_scores, list):
            scores[s] = rec_scores[s]
        else:
            notes.append({"kind": "unscored", "line": line, "seat": s,
                          "message": f"seat {s}'s rack was never shown and end has no scores: scored 0 [E5]"})
            scores[s] = 0
    if need_lines:
        again = explain_state(state)
        assert again is not None
        for s, sl in enumerate(again):
            if HIDDEN not in state.racks[s] and sl.why == "rack" and s != state.view:
                scores[s] = sl.score
    return tuple(scores), notes, evolve(state, scores=tuple(scores))


def is_view(header: Mapping[str, Any]) -> bool:
    return header.get("view") is not None


__all__ = ["HIDDEN", "ViewFormatError", "apply_view", "check_event", "check_header", "is_view", "new_view_hand",
           "settle_scores", "where_copies"]
