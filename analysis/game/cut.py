"""Cutting a full log down to one seat's view (``istaka view``; docs/log-format.md "Seat-view logs").

The seat-view game keeps every face-up event as it was, hides the other racks (``null``) and
their draws (no tile), drops the deck, and closes each hand with an ``end`` event carrying the
engine's scores (what the table wrote) and, with ``shown``, the other racks as they were counted.
Its id is ``<id>.s<seat>`` and its ``game`` event names the full game it came from (``of``), so a
review of it samples the same worlds as the full log's (analysis.review.deep).
"""

from __future__ import annotations

from typing import Any

from .log import GameLog
from .replay import replay_game


def view_id(game: str, seat: int) -> str:
    return f"{game}.s{seat}"


def cut_view(g: GameLog, seat: int, *, shown: bool = False) -> GameLog:
    """``g`` (a full log) as ``seat`` saw it. Raises ValueError for a seat-view log or a bad seat."""
    if g.header.get("view") is not None:
        raise ValueError(f"game {g.id} is already a seat-view log (of seat {g.header['view']})")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0-3, got {seat!r}")
    res = replay_game(g, keep_steps=True)
    # by the line of the hand event: a void hand and its replay share a number (E3)
    finals = {h.line: (h, h.steps[-1].state if h.steps else None) for h in res.hands}
    gid = view_id(g.id, seat)
    header = {**g.header, "game": gid, "view": seat, "of": g.id}
    events: list[tuple[int, dict[str, Any]]] = []

    def close(hand_line: int | None, had_end: bool) -> None:
        if hand_line is None or had_end:
            return
        hr, st = finals.get(hand_line, (None, None))
        if hr is None or hr.result not in ("finish", "exhausted", "void"):
            return
        events.append((0, _end(gid, hr.hand, hr.result, list(hr.scores), st, seat, shown)))

    current: int | None = None
    had_end = False
    for line, ev in g.events:
        kind = ev["type"]
        if kind == "hand":
            close(current, had_end)
            current, had_end = line, False
            out = {k: v for k, v in ev.items() if k != "deck"}
            out["racks"] = [list(r) if s == seat else None for s, r in enumerate(ev["racks"])]
        elif kind == "draw" and ev.get("seat") != seat:
            out = {k: v for k, v in ev.items() if k != "tile"}
        elif kind == "end":
            had_end = True
            hr, st = finals.get(current, (None, None)) if current is not None else (None, None)
            out = dict(ev)
            if hr is not None and hr.result in ("finish", "exhausted", "void"):
                out = _end(gid, ev["hand"], hr.result, list(hr.scores), st, seat, shown) | {
                    k: v for k, v in ev.items() if k not in ("type", "game", "reason", "scores", "racks")}
        else:
            out = dict(ev)
        out["game"] = gid
        events.append((line, out))
    close(current, had_end)
    return GameLog(gid, g.file, g.line, header, events)


def _end(gid: str, hand: int, reason: str, scores: list[int], state: Any, seat: int, shown: bool) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "end", "game": gid, "hand": hand, "reason": reason, "scores": scores}
    if shown and state is not None and reason != "void":
        ev["racks"] = [None if s == seat or not r else [str(t) for t in r] for s, r in enumerate(state.racks)]
    return ev


__all__ = ["cut_view", "view_id"]
