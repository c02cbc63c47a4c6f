"""Recording a hand as it is played (the dashboard's "Kayıt / Record" page, issue 22).

A :class:`Recording` holds one game of one hand: the table (preset, players, the recording seat
or ``None`` for "all racks"), the deal (starter, gösterge, the known racks) and the events entered
so far. Every event is checked by the engine as it is entered (:meth:`Recording.add`: the whole
hand is replayed, a refusal names its rule and leaves the recording as it was); :meth:`undo`
goes back one event at a time. The recording is a plain JSON object (:meth:`to_dict`), so a page
can keep it in a file and pick it up after a reload; :meth:`log_events` is the finished game as a
seat-view log (or a full log for "all racks").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .log import GameLog, LogFormatError, validate_event
from .replay import HandResult, replay_game
from .rules import RulesError, resolve
from .seatview import ViewFormatError, check_event
from .state import HandState
from .tiles import NotationError, Tile


class RecordError(ValueError):
    """An entry the recording refuses; ``rule`` is the rule ID when the engine refused it."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.message = message
        self.rule = rule


@dataclass
class Recording:
    id: str
    variant: str = "101"
    rules: dict[str, Any] | None = None
    players: list[str] = field(default_factory=lambda: ["", "", "", ""])
    view: int | None = 0  # the recording seat; None: "all racks" (a full log, a teaching game)
    starter: int = 0
    indicator: str | None = None
    racks: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    dealt: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    started: str | None = None
    scores: list[int] | None = None  # the table's end scores, as entered (end.scores)

    # ---- what it is as a log -----------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        h: dict[str, Any] = {"type": "game", "game": self.id, "variant": self.variant,
                             "players": list(self.players), "hands": 1, "site": "Istaka Kayıt"}
        if self.rules:
            h["rules"] = dict(self.rules)
        if self.started:
            h["started"] = self.started
        if self.view is not None:
            h["view"] = self.view
        return h

    def hand_event(self) -> dict[str, Any]:
        racks: list[list[str] | None] = [list(r) for r in self.racks]
        if self.view is not None:
            racks = [r if s == self.view else None for s, r in enumerate(racks)]
        return {"type": "hand", "game": self.id, "hand": 1, "starter": self.starter,
                "indicator": self.indicator, "racks": racks}

    def log_events(self, *, end: bool = True) -> list[dict[str, Any]]:
        """The game as log events: header, hand, the moves and (when the hand is over) its end."""
        out = [self.header(), self.hand_event()]
        out += [{"type": e["type"], "game": self.id, "hand": 1, **{k: v for k, v in e.items() if k != "type"}}
                for e in self.events]
        if end and self.dealt:
            hr = self.replay()
            if hr.result in ("finish", "exhausted", "void"):
                ev: dict[str, Any] = {"type": "end", "game": self.id, "hand": 1, "reason": hr.result}
                if self.scores is not None:
                    ev["scores"] = list(self.scores)
                out.append(ev)
        return out

    def gamelog(self, *, end: bool = False) -> GameLog:
        evs = self.log_events(end=end)
        return GameLog(self.id, "recording", 1, evs[0], [(i, e) for i, e in enumerate(evs[1:], 2)])

    # ---- the engine ----------------------------------------------------------------------------
    def replay(self) -> HandResult:
        res = replay_game(self.gamelog(), keep_steps=True)
        if res.error is not None:
            raise RecordError(res.error["message"])
        return res.hands[0]

    def state(self) -> HandState | None:
        """The hand as it stands (None before the deal is accepted)."""
        if not self.dealt:
            return None
        hr = self.replay()
        return hr.steps[-1].state if hr.steps else None

    def deal(self) -> None:
        """Accept the deal (gösterge and known racks), checked like a log's hand event (D1, T1, T2)."""
        try:
            resolve(self.variant, self.rules)
        except RulesError as e:
            raise RecordError(str(e)) from None
        if self.indicator is None:
            raise RecordError("the gösterge is not entered yet", "T2")
        was = self.dealt
        self.dealt = True
        try:
            hr = self.replay()
        except RecordError:
            self.dealt = was
            raise
        if hr.error is not None:
            self.dealt = was
            raise RecordError(hr.error["message"], hr.error["rule"])

    def add(self, event: dict[str, Any]) -> HandState:
        """Enter one event (``type``, ``seat`` and its fields); checked by the engine first. A
        refusal (RecordError with the rule ID) leaves the recording unchanged."""
        if not self.dealt:
            raise RecordError("enter the deal first", "D1")
        ev = {"game": self.id, "hand": 1, **event}
        try:
            validate_event(ev)
            check_event(self.header(), ev)
        except (LogFormatError, ViewFormatError) as e:
            raise RecordError(str(e)) from None
        self.events.append(dict(event))
        try:
            hr = self.replay()
        except (RecordError, NotationError) as e:
            self.events.pop()
            raise RecordError(str(e)) from None
        if hr.error is not None:
            self.events.pop()
            raise RecordError(hr.error["message"], hr.error["rule"])
        return hr.steps[-1].state

    def undo(self) -> dict[str, Any] | None:
        """Take back the last event (or the deal, when no event is left); what was undone."""
        if self.events:
            return self.events.pop()
        if self.dealt:
            self.dealt = False
            return {"type": "hand"}
        return None

    # ---- keeping it --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.variant, "rules": self.rules, "players": self.players,
                "view": self.view, "starter": self.starter, "indicator": self.indicator, "racks": self.racks,
                "dealt": self.dealt, "events": self.events, "started": self.started, "scores": self.scores}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Recording:
        r = cls(str(d["id"]))
        for k in ("variant", "rules", "players", "view", "starter", "indicator", "racks", "dealt", "events",
                  "started", "scores"):
            if k in d:
                setattr(r, k, d[k])
        return r


def parse_groups(text: str) -> list[list[str]]:
    """Melds or pairs typed as ``R1 R2 R3 | K5 K6 R6>K7`` (``|`` or ``;`` between groups), each
    tile checked as notation (T1); wild tiles say what they stand for (``R6>K9``)."""
    groups = []
    for part in text.replace(";", "|").split("|"):
        items = part.replace(",", " ").split()
        if not items:
            continue
        for x in items:
            phys = x.split(">")[0]
            try:
                Tile.parse(phys)
                if ">" in x:
                    Tile.parse(x.split(">", 1)[1])
            except NotationError as e:
                raise RecordError(str(e).rsplit(" [", 1)[0], "T1") from None
        groups.append([x.upper() for x in items])
    if not groups:
        raise RecordError("no tiles entered", "M1")
    return groups


__all__ = ["RecordError", "Recording", "parse_groups"]
