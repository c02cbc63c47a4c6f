"""What the Replay board marks at a step, drawn by :func:`dashboard.board.tiles_view.table_html`:
the tiles the seat to play discards or lays off in the rest of its turn and the better ones by
the stored review (deep: the best line of each decision still to come that cost something;
quick: a finding's better tile or the missed lay-offs), the table meld a lay-off goes to, and
the discard that fed the hand's finish (from the replay itself: the finisher took it and finished
in that turn, as the review's ``fed_finish`` check reads it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import streamlit as st

from analysis import store
from analysis.game import NotationError, Tile
from analysis.game import Step
from analysis.review import Decision, GameReview

from dashboard.state import data
from dashboard.board.tiles_view import Marks


def _tile(x: Any) -> Tile | None:
    try:
        return Tile.parse(str(x))
    except (NotationError, ValueError):
        return None


def _tiles(x: Any) -> list[Tile]:
    items = x if isinstance(x, (list, tuple)) else [x] if x not in (None, "") else []
    return [t for t in (_tile(i) for i in items) if t is not None]


def played_marks(steps: Sequence[Step], step: int, seat: int, end: int) -> tuple[list[Tile], dict[int, str]]:
    """The tiles ``seat`` discards or lays off after ``step`` up to its turn's ``end``, and the
    table melds those lay-offs go to."""
    tiles: list[Tile] = []
    melds: dict[int, str] = {}
    for i in range(step + 1, min(end, len(steps) - 1) + 1):
        ev = steps[i].event
        if ev.get("seat") != seat:
            continue
        if ev.get("type") == "discard":
            tiles += _tiles(ev.get("tile"))
        elif ev.get("type") == "layoff":
            tiles += _tiles(ev.get("tiles", ev.get("tile")))
            if isinstance(ev.get("meld"), int):
                melds[int(ev["meld"])] = "layoff"
    return tiles, melds


def better_marks(d: Decision | None, step: int) -> tuple[list[Tile], dict[int, str]]:
    """The better tiles and lay-off melds the review gives for the rest of this turn: a deep
    review's best line of each costly decision at or after ``step``; a quick review's better
    discard (``best_tile``, else the first penalty-free tile) and, for a missed lay-off, the best
    turn's lay-offs."""
    tiles: list[Tile] = []
    melds: dict[int, str] = {}
    if d is None:
        return tiles, melds
    if d.choices:
        for c in d.choices:
            if c.step < step or c.cost <= 0 or not c.graded:
                continue
            for ev in c.best_events:
                if ev.get("type") == "discard":
                    tiles += _tiles(ev.get("tile"))
                elif ev.get("type") == "layoff":
                    tiles += _tiles(ev.get("tiles", ev.get("tile")))
                    if isinstance(ev.get("meld"), int):
                        melds[int(ev["meld"])] = "better"
        return tiles, melds
    for m in d.mistakes:
        if m.cost <= 0 or m.step < step - 1:
            continue
        if m.detail.get("best_tile"):
            tiles += _tiles(m.detail["best_tile"])
        elif m.detail.get("free"):
            tiles += _tiles(sorted(m.detail["free"])[:1])
        if m.category == "missed_layoff":
            for x in (d.best.get("turn") or {}).get("layoffs", []):
                tiles += _tiles(x.get("tiles", []))
                if isinstance(x.get("meld"), int):
                    melds[int(x["meld"])] = "better"
    return tiles, melds


def fed_finish(steps: Sequence[Step]) -> tuple[int, int, Tile] | None:
    """(the feeding discard's step, its seat, the tile) when the hand's finisher took the previous
    discard and finished in that turn; else None."""
    if not steps:
        return None
    final = steps[-1].state
    fin = final.finisher
    if final.result != "finish" or fin is None:
        return None
    take = next((i for i in range(len(steps) - 1, 0, -1) if steps[i].event.get("type") in ("draw", "take")), None)
    if take is None:
        return None
    ev = steps[take].event
    if ev.get("type") != "take" or ev.get("seat") != fin:
        return None
    if any(steps[i].event.get("type") == "discard" for i in range(take + 1, len(steps) - 1)):
        return None  # the finisher discarded before its finish: not fed at once
    fed = next((i for i in range(take - 1, 0, -1) if steps[i].event.get("type") == "discard"), None)
    tile = _tile(ev.get("tile"))
    if fed is None or tile is None:
        return None
    return fed, int(steps[fed].event.get("seat", (fin - 1) % 4)), tile


def _decision(gr: GameReview | None, ord: int, seat: int, start: int, end: int) -> Decision | None:
    if gr is None:
        return None
    for h in gr.hands:
        if h.ord == ord:
            return next((d for d in h.decisions if d.seat == seat and d.start <= end and d.end >= start), None)
    return None


def marks_at(steps: Sequence[Step], step: int, turn: Any, gr: GameReview | None, ord: int) -> Marks:
    """The marks of ``step``: ``turn`` is the Replay's turn at the step (seat, start, end) or None;
    ``gr`` the stored review (or None); ``ord`` the hand's 1-based place in the game."""
    seat = None
    played: list[Tile] = []
    better: list[Tile] = []
    melds: dict[int, str] = {}
    state = steps[step].state
    if turn is not None and not state.over and step < turn.end:
        seat = int(turn.seat)
        rack = list(state.racks[seat])
        played, melds = played_marks(steps, step, seat, turn.end)
        b_tiles, b_melds = better_marks(_decision(gr, ord, seat, turn.start, turn.end), step)
        better = [x for x in b_tiles if x not in played]
        for k, v in b_melds.items():
            melds.setdefault(k, v)
        played, better = _in_rack(played, rack), _in_rack(better, rack)
    fed = fed_finish(steps)
    fed_mark = None
    note = False
    if fed is not None and step >= fed[0]:
        fed_mark = (fed[1], fed[2])
        take = next((i for i in range(fed[0] + 1, len(steps)) if steps[i].event.get("type") == "take"), len(steps))
        note = step >= take
    return Marks(seat, tuple(played), tuple(better), melds, fed_mark, note)


def _in_rack(tiles: Iterable[Tile], rack: list[Tile]) -> list[Tile]:
    """The tiles that are in the rack now, each copy once."""
    left = list(rack)
    out = []
    for x in tiles:
        if x in left:
            left.remove(x)
            out.append(x)
    return out


@st.cache_resource(show_spinner=False, max_entries=8)  # read-only: no copy per rerun
def _review(v: int, path: str, game: str) -> GameReview | None:
    with data.reading_db() as con:
        return store.load_review(con, game)


def replay_marks(game: str, hand: int, step: int) -> Marks:
    """The marks of a Replay step of ``game``'s hand number ``hand``, from its stored review."""
    rp = data.replay(game)
    hr = rp.hand(hand) if rp is not None else None
    if rp is None or hr is None or not hr.steps:
        return Marks()
    step = max(0, min(step, len(hr.steps) - 1))
    return marks_at(hr.steps, step, rp.turn_at(hand, step), _review(data.version(), data.db_file(), game),
                    rp.hand_index(hand) + 1)


__all__ = ["better_marks", "fed_finish", "marks_at", "played_marks", "replay_marks"]
