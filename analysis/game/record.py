"""Recording a game as it is played (the dashboard's "Kayıt / Record" page).

A :class:`Recording` holds one game, hand after hand: the table (preset, players, the recording
seat or ``None`` for "all racks"), the hands already played (:attr:`Recording.done`) and the hand
in progress (starter, gösterge, the known racks, the events entered so far). Every event is
checked by the engine as it is entered (:meth:`Recording.add`: a refusal names its rule and leaves
the recording as it was); :meth:`undo` goes back one step at a time, across hands too;
:meth:`next_hand` closes a finished hand and deals the next (the starter moves on, D2; a void hand
is played again with its number, E3). The recording is a plain JSON object (:meth:`to_dict`), so a
page can keep it in a file and pick it up after a reload; :meth:`log_events` is the game as a
seat-view log (or a full log for "all racks").

The hand in progress is kept as the engine's states, one per event (a fold over the events,
``states[-1]`` the hand as it stands): entering an event applies it to the last state, undo drops
the last state. They are rebuilt by one replay of the game when the recording is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import apply
from .lines import MAX_LINE_BYTES, parse_line
from .log import MAX_HAND_EVENTS, MAX_HANDS, MAX_NAME, GameLog, LogFormatError, validate_event
from .replay import GameResult, HandResult, replay_game
from .rules import Rules, RulesError, resolve
from .seatview import ViewFormatError, apply_view, check_event
from .state import HandState, IllegalMove
from .tiles import NotationError, Tile

_OVER = ("finish", "exhausted", "void")
MAX_FILE_BYTES = MAX_LINE_BYTES  # a recording file (a 21-hand game with every rack: some 200 KB)


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
    scores: list[int] | None = None  # the table's end scores of the hand in progress (end.scores)
    hand: int = 1  # the number of the hand in progress (a void hand keeps its number, E3)
    # the hands played: {"hand", "starter", "indicator", "racks", "events", "scores"}, in order
    done: list[dict[str, Any]] = field(default_factory=list)
    # the engine's states of the hand in progress (not kept in the file; rebuilt from the events)
    _states: list[HandState] | None = field(default=None, repr=False, compare=False)
    _game: GameResult | None = field(default=None, repr=False, compare=False)
    _game_key: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    # ---- the table's rules -------------------------------------------------------------------
    def table_rules(self) -> Rules:
        try:
            return resolve(self.variant, self.rules)
        except RulesError as e:
            raise RecordError(str(e)) from None

    @property
    def planned(self) -> int:
        """The hands the game is played over (G1: the preset's count, or the ``hands`` option)."""
        try:
            return self.table_rules().hands
        except RecordError:
            return 11

    # ---- what it is as a log -----------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        h: dict[str, Any] = {"type": "game", "game": self.id, "variant": self.variant,
                             "players": list(self.players), "hands": self.planned, "site": "Istaka Kayıt"}
        if self.rules:
            h["rules"] = dict(self.rules)
        if self.started:
            h["started"] = self.started
        if self.view is not None:
            h["view"] = self.view
        return h

    def _hand_events(self, h: dict[str, Any], result: str | None) -> list[dict[str, Any]]:
        racks: list[list[str] | None] = [list(r) for r in h["racks"]]
        if self.view is not None:
            racks = [r if s == self.view else None for s, r in enumerate(racks)]
        n = h["hand"]
        out: list[dict[str, Any]] = [{"type": "hand", "game": self.id, "hand": n, "starter": h["starter"],
                                      "indicator": h["indicator"], "racks": racks}]
        out += [{"type": e["type"], "game": self.id, "hand": n, **{k: v for k, v in e.items() if k != "type"}}
                for e in h["events"]]
        if result in _OVER:
            ev: dict[str, Any] = {"type": "end", "game": self.id, "hand": n, "reason": result}
            if h.get("scores") is not None:
                ev["scores"] = list(h["scores"])
            out.append(ev)
        return out

    def current(self) -> dict[str, Any]:
        """The hand in progress as a ``done`` entry."""
        return {"hand": self.hand, "starter": self.starter, "indicator": self.indicator, "racks": self.racks,
                "events": self.events, "scores": self.scores}

    def log_events(self, *, end: bool = True, unfinished: bool = True) -> list[dict[str, Any]]:
        """The game as log events: the header, every hand played with its end, then the hand in
        progress (its end once it is over; left out when ``unfinished`` is false and it is not)."""
        out = [self.header()]
        for h in self.done:
            out += self._hand_events(h, h.get("result") if end else None)
        if self.dealt:
            state = self.state() if (end or not unfinished) else None
            res = state.result if state is not None and state.over else None
            if unfinished or res in _OVER:
                out += self._hand_events(self.current(), res if end else None)
        return out

    def gamelog(self, *, end: bool = False) -> GameLog:
        evs = self.log_events(end=end)
        return GameLog(self.id, "recording", 1, evs[0], [(i, e) for i, e in enumerate(evs[1:], 2)])

    # ---- the engine ----------------------------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return len(self.done), self.dealt, len(self.events), tuple(self.scores or ())

    def _replay(self, *, end: bool) -> GameResult:
        res = replay_game(self.gamelog(end=end), keep_steps=True)
        if res.error is not None:
            raise RecordError(res.error["message"])
        return res

    def states(self) -> list[HandState]:
        """The engine's states of the hand in progress: the deal, then one per event (cached)."""
        if not self.dealt:
            return []
        if self._states is None or len(self._states) != len(self.events) + 1:
            hr = self._replay(end=False).hands[-1]
            if hr.error is not None:
                raise RecordError(hr.error["message"], hr.error["rule"])
            self._states = [s.state for s in hr.steps]
        return self._states

    def state(self) -> HandState | None:
        """The hand as it stands (None before the deal is accepted)."""
        s = self.states()
        return s[-1] if s else None

    def game(self) -> GameResult:
        """The whole game replayed (every hand played and the one in progress), cached until the
        next change: its hands' results and scores, the totals."""
        if self._game is None or self._game_key != self._key():
            self._game = self._replay(end=True)
            self._game_key = self._key()
        return self._game

    def hand_result(self) -> HandResult:
        """The hand in progress replayed (its scores settled once it is over)."""
        if not self.dealt:
            raise RecordError("enter the deal first", "D1")
        return self.game().hands[-1]

    def replay(self) -> HandResult:
        return self.hand_result()

    def _changed(self) -> None:
        self._game = None

    def deal(self) -> None:
        """Accept the deal (gösterge and known racks), checked like a log's hand event (D1, T1, T2,
        and D2 / G1 against the hand before)."""
        self.table_rules()
        if any(len(p) > MAX_NAME for p in self.players):
            raise RecordError(f"a player's name is longer than {MAX_NAME} characters")
        if self.indicator is None:
            raise RecordError("the gösterge is not entered yet", "T2")
        was = self.dealt
        self.dealt = True
        self._states = None
        self._changed()
        try:
            self.states()
        except RecordError:
            self.dealt = was
            self._states = None
            raise

    def add(self, event: dict[str, Any]) -> HandState:
        """Enter one event (``type``, ``seat`` and its fields); checked by the engine first. A
        refusal (RecordError with the rule ID) leaves the recording unchanged."""
        if not self.dealt:
            raise RecordError("enter the deal first", "D1")
        if len(self.events) >= MAX_HAND_EVENTS:
            raise RecordError(f"a hand holds at most {MAX_HAND_EVENTS:,} events (the reader's limit)")
        ev = {"game": self.id, "hand": self.hand, **event}
        try:
            validate_event(ev)
            check_event(self.header(), ev)
        except (LogFormatError, ViewFormatError) as e:
            raise RecordError(str(e)) from None
        states = self.states()
        step = apply if self.view is None else apply_view  # as replay_game steps a log
        try:
            new = step(states[-1], ev)
        except IllegalMove as e:
            raise RecordError(e.message, e.rule) from None
        except (NotationError, ValueError) as e:
            raise RecordError(str(e).rsplit(" [", 1)[0], "T1") from None
        self.events.append(dict(event))
        states.append(new)
        self._changed()
        return new

    @property
    def over(self) -> bool:
        """The hand in progress is over (finished, exhausted or void)."""
        s = self.state()
        return s is not None and s.over

    @property
    def game_over(self) -> bool:
        """Every planned hand is played (G1; a void hand does not count, E3)."""
        if self.dealt and self.over:
            return self.hand_result().result != "void" and self.hand >= self.planned
        return bool(self.done) and not self.dealt and self.hand > self.planned

    def next_hand(self) -> None:
        """Close the finished hand (with the table's scores entered in :attr:`scores`) and start
        the next: the seat after the starter deals it (D2), a void hand is played again with its
        number and starter (E3); the gösterge and the recording seat's rack are entered anew."""
        if not self.dealt or not self.over:
            raise RecordError("the hand is not over yet", "E1")
        if self.game_over:
            raise RecordError(f"the game's {self.planned} hands are played", "G1")
        result = self.hand_result().result
        self.done.append({**self.current(), "result": result})
        if result != "void":
            self.hand += 1
            self.starter = (self.starter + 1) % 4
        self.indicator, self.racks, self.dealt, self.events, self.scores = None, [[], [], [], []], False, [], None
        self._states = None
        self._changed()

    def undo(self) -> dict[str, Any] | None:
        """Take back the last event, the deal when no event is left, and before an empty deal
        the step to this hand (the hand before is in progress again, at its end). What was undone."""
        if self.events:
            ev = self.events.pop()
            if self._states is not None and len(self._states) > 1:
                self._states.pop()
            self._changed()
            return ev
        if self.dealt:
            self.dealt = False
            self._states = None
            self._changed()
            return {"type": "hand"}
        if self.done and self.indicator is None and not any(self.racks):
            h = self.done.pop()
            self.hand, self.starter, self.indicator = h["hand"], h["starter"], h["indicator"]
            self.racks, self.events, self.scores = h["racks"], h["events"], h.get("scores")
            self.dealt = True
            self._states = None
            self._changed()
            return {"type": "next_hand"}
        return None

    def totals(self) -> list[int]:
        """The game's totals so far (every finished hand, its in-game penalties included)."""
        return self.game().totals if (self.done or self.dealt) else [0, 0, 0, 0]

    def finished_hands(self) -> list[HandResult]:
        """The hands played to their end, in order (the hand in progress once it is over)."""
        if not (self.done or self.dealt):
            return []
        return [h for h in self.game().hands if h.result in _OVER]

    # ---- keeping it --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.variant, "rules": self.rules, "players": self.players,
                "view": self.view, "starter": self.starter, "indicator": self.indicator, "racks": self.racks,
                "dealt": self.dealt, "events": self.events, "started": self.started, "scores": self.scores,
                "hand": self.hand, "done": self.done}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Recording:
        """A recording from its file (:meth:`to_dict`); a file whose fields have the wrong shape
        or whose moves the engine refuses (an edited or damaged file) is refused with one
        RecordError naming the field or the rule."""
        if not isinstance(d, dict) or not isinstance(d.get("id"), str) or not 0 < len(d["id"]) <= 200:
            raise RecordError("a recording file is an object with an id")
        r = cls(d["id"])
        for k in ("variant", "rules", "players", "view", "starter", "indicator", "racks", "dealt", "events",
                  "started", "scores", "hand", "done"):
            if k in d:
                setattr(r, k, d[k])
        _check_shape(r)
        try:
            if r.done or r.dealt:
                r.game()  # every hand played and the one in progress, through the engine
                r.states()
        except RecordError as e:
            raise RecordError(f"recording {r.id}: {e.message}", e.rule) from None
        except (LogFormatError, ViewFormatError, NotationError, KeyError, TypeError) as e:
            raise RecordError(f"recording {r.id}: {e}") from None
        return r

    @classmethod
    def from_json(cls, raw: bytes | str) -> Recording:
        """A recording from its file's text, read with the log reader's bounds (size, nesting,
        string length): a damaged file is one RecordError, never a RecursionError."""
        return cls.from_dict(load_json(raw))


def load_json(raw: bytes | str) -> Any:
    """A recording file's JSON (a recording, a played game), read with the log reader's bounds;
    past them, or not JSON, one RecordError."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_FILE_BYTES:
        raise RecordError(f"a recording file of {size:,} bytes; the limit is {MAX_FILE_BYTES:,}")
    d, why, fld = parse_line(raw)
    if why is not None:
        raise RecordError(f"recording file: {why}" + (f" (field {fld!r})" if fld else ""))
    return d


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


__all__ = ["RecordError", "Recording", "load_json", "parse_groups"]


def _check_shape(r: Recording) -> None:
    """The types a recording's fields must have before the engine reads them."""
    def bad(field_: str) -> RecordError:
        return RecordError(f"recording {r.id}: field {field_!r} has the wrong shape")

    def is_int(x: Any, lo: int, hi: int) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi

    if not isinstance(r.variant, str) or (r.rules is not None and not isinstance(r.rules, dict)):
        raise bad("variant" if not isinstance(r.variant, str) else "rules")
    if not (isinstance(r.players, list) and len(r.players) == 4
            and all(isinstance(p, str) and len(p) <= MAX_NAME for p in r.players)):
        raise bad("players")
    if r.view is not None and not is_int(r.view, 0, 3):
        raise bad("view")
    if not is_int(r.starter, 0, 3):
        raise bad("starter")
    if not is_int(r.hand, 1, 100):
        raise bad("hand")
    if r.indicator is not None and not isinstance(r.indicator, str):
        raise bad("indicator")
    if not (isinstance(r.racks, list) and len(r.racks) == 4
            and all(isinstance(x, list) and all(isinstance(t, str) for t in x) for x in r.racks)):
        raise bad("racks")
    if not isinstance(r.dealt, bool):
        raise bad("dealt")
    if not _events(r.events):
        raise bad("events")
    if r.scores is not None and not (isinstance(r.scores, list) and len(r.scores) == 4
                                     and all(is_int(x, -10**7, 10**7) for x in r.scores)):
        raise bad("scores")
    if r.started is not None and not isinstance(r.started, str):
        raise bad("started")
    if not (isinstance(r.done, list) and len(r.done) <= MAX_HANDS and all(_played(h) for h in r.done)):
        raise bad("done")


def _events(x: Any) -> bool:
    return (isinstance(x, list) and len(x) <= MAX_HAND_EVENTS
            and all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in x))


def _played(h: Any) -> bool:
    """A ``done`` entry: a hand played, with what :meth:`Recording._hand_events` reads."""
    def small(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_HANDS

    return (isinstance(h, dict) and small(h.get("hand")) and small(h.get("starter"))
            and isinstance(h.get("indicator"), str)
            and isinstance(h.get("racks"), list) and len(h["racks"]) == 4
            and all(isinstance(x, list) and all(isinstance(t, str) for t in x) for x in h["racks"])
            and _events(h.get("events"))
            and (h.get("scores") is None or (isinstance(h["scores"], list) and len(h["scores"]) == 4
                                              and all(isinstance(v, int) and not isinstance(v, bool)
                                                      and abs(v) <= 10**7 for v in h["scores"])))
            and h.get("result") in (*_OVER, "invalid", "unfinished", None))
