"""Reading and writing game logs, format version 1 (docs/log-format.md).

The reader never dies on one bad game: a line that is not JSON, lacks a field or has a wrong
type makes its game unreadable and is reported with file, line and field; the other games in
the file are still read. Rule checks are the engine's (see :mod:`analysis.replay`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .lines import Damage, named_game, open_text, parse_line, raw_lines  # noqa: F401  (open_text: bench)
from .lines import loads as _loads  # noqa: F401  (bench/replay.py times the reader's own parser)
from .rules import PRESETS, RulesError, resolve
from .seatview import ViewFormatError, check_event, check_header
from .sheet import RESULT_FIELDS, misplaced, result_problem
from .tiles import brief

EVENT_TYPES = ("game", "hand", "show", "declare", "draw", "take", "return", "open", "meld",
               "layoff", "swap", "takeback", "discard", "penalty", "end", "result")
SEATED = {"show", "declare", "draw", "take", "return", "open", "meld", "layoff", "swap", "takeback",
          "discard", "penalty"}
END_REASONS = ("finish", "exhausted", "void")
# canonical field order per type (LOG_FORMAT "Events"); others follow, then t
FIELDS: dict[str, tuple[str, ...]] = {
    "game": ("variant", "rules", "players", "hands", "started", "site", "view"),
    "hand": ("starter", "indicator", "racks", "deck"),
    "show": ("tile",), "declare": ("what",), "draw": ("tile",), "take": ("tile",),
    "return": ("tile",), "open": ("melds", "pairs"), "meld": ("melds", "pairs"),
    "layoff": ("meld", "tiles"), "swap": ("meld", "tiles"), "takeback": (),
    "discard": ("tile",), "penalty": ("points", "reason"), "end": ("reason", "scores"),
    "result": RESULT_FIELDS,  # score sheets (analysis.game.sheet)
}


class LogFormatError(ValueError):
    """A line that breaks LOG_FORMAT v1 (not a rule: the engine reports those)."""

    def __init__(self, message: str, field: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule


@dataclass
class ReadError:
    file: str
    line: int | None
    game: str | None
    message: str
    field: str | None = None
    rule: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "game": self.game, "field": self.field,
                "rule": self.rule, "message": self.message}

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        what = f" game {self.game}" if self.game else ""
        fld = f" [{self.field}]" if self.field and f"{self.field!r}" not in self.message else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}{what}:{fld} {self.message}{rule}"


@dataclass
class GameLog:
    """One game's events as read, each with its line number."""

    id: str
    file: str
    line: int
    header: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    error: ReadError | None = None
    hands_seen: int = field(default=0, compare=False, repr=False)
    hand_events: int = field(default=0, compare=False, repr=False)  # events since the last 'hand'
    complete: bool = field(default=False, compare=False, repr=False)  # its planned last hand has ended
    more_errors: list[ReadError] = field(default_factory=list, compare=False, repr=False)  # bad lines after its first

    def content(self) -> list[dict[str, Any]]:
        return [self.header] + [e for _, e in self.events]

    @property
    def people(self) -> list[int]:
        """The seats a person played (the header's optional ``people``; none named: [])."""
        return list(self.header.get("people") or [])


@dataclass
class ReadResult:
    games: list[GameLog]
    errors: list[ReadError]
    dropped: int = 0  # errors past MAX_ERRORS: counted in the summary error, not listed


# What one file may amplify into (docs/limits.md): past these the
# reader stops listing or reading, with one error saying so, and every game before stays.
MAX_GAMES = 10_000  # games in one file
MAX_HANDS = 100  # hand events in one game (G1 plays 7-21)
MAX_EVENTS = 20_000  # events in one game (an 11-hand game has some 700, 21 hands at most 2,600)
MAX_HAND_EVENTS = 1_000  # events in one hand (a hand has some 60, at most 124 in the sample); each
# state of a hand keeps its penalties and table, so a hand's replay grows with its events' square
# (20,000 events of the worst legal kind: in hands of 1,990 the replay held 83 MB, of 990 62 MB)
MAX_NAME = 100  # characters in a player's name
MAX_ERRORS = 100  # errors listed per file; the rest are counted in one summary error
MAX_GAME_ERRORS = 20  # bad lines listed per refused game (its reason first); the rest counted in one line


class _Errors(list[ReadError]):
    """The file's error list, holding at most MAX_ERRORS (3,000,000 broken lines cost 100 rows)."""

    dropped = 0

    def append(self, err: ReadError) -> None:
        if len(self) < MAX_ERRORS:
            super().append(err)
        else:
            self.dropped += 1

    def extend(self, errs: Iterable[ReadError]) -> None:
        for e in errs:
            self.append(e)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _need(ev: dict[str, Any], name: str, check: Any, what: str) -> None:
    if name not in ev:
        raise LogFormatError(f"{ev['type']} event lacks field {name!r}", name)
    if not check(ev[name]):
        raise LogFormatError(f"field {name!r} of a {ev['type']} event must be {what}, got {brief(ev[name])}", name)


def _tile_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(t, str) for t in x)


def _groups(x: Any) -> bool:
    return isinstance(x, list) and all(_tile_list(g) for g in x)


_TILE_EVENTS = frozenset(("draw", "discard", "take", "return", "show"))
_IN_CONTEXT = frozenset(("hand", "draw", "end"))  # lines whose rules depend on the game's 'view'


def validate_event(ev: Any) -> dict[str, Any]:
    """Check an event's shape (fields and types), not its legality."""
    # fast path for the events that make up most of a log; anything unusual takes the slow
    # path below, which says precisely what is wrong
    if type(ev) is dict:
        kind = ev.get("type")
        if type(kind) is str and kind in _TILE_EVENTS:
            h, s, t = ev.get("hand"), ev.get("seat"), ev.get("tile")
            if (type(h) is int and h >= 1 and type(s) is int and 0 <= s <= 3 and type(t) is str
                    and type(ev.get("game")) is str and ev["game"]
                    and ("t" not in ev or type(ev["t"]) in (int, float))):
                return ev
    return _validate_slow(ev)


def _validate_slow(ev: Any) -> dict[str, Any]:
    if not isinstance(ev, dict):
        raise LogFormatError(f"an event is a JSON object, got {type(ev).__name__}")
    if "type" not in ev:
        raise LogFormatError("event lacks field 'type'", "type")
    kind = ev["type"]
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise LogFormatError(f"unknown event type {brief(kind)}", "type")
    if not isinstance(ev.get("game"), str) or not ev.get("game"):
        raise LogFormatError(f"{kind} event lacks field 'game' (a non-empty string)", "game")
    if "t" in ev and not (isinstance(ev["t"], (int, float)) and not isinstance(ev["t"], bool)):
        raise LogFormatError(f"field 't' must be milliseconds, got {brief(ev['t'])}", "t")
    if kind == "game":
        _need(ev, "variant", lambda x: isinstance(x, str), "a preset name")
        _need(ev, "players", lambda x: isinstance(x, list) and len(x) == 4 and all(isinstance(p, str) for p in x),
              "a list of 4 names")
        if any(len(p) > MAX_NAME for p in ev["players"]):
            raise LogFormatError(f"a player's name is longer than {MAX_NAME} characters, the reader's limit",
                                 "players")
        if "rules" in ev and not isinstance(ev["rules"], dict):
            raise LogFormatError(f"field 'rules' must be an object, got {brief(ev['rules'])}", "rules")
        if "hands" in ev and not (_is_int(ev["hands"]) and ev["hands"] >= 1):
            raise LogFormatError(f"field 'hands' must be a whole number >= 1, got {brief(ev['hands'])}", "hands")
        for f in ("started", "site"):
            if f in ev and not isinstance(ev[f], str):
                raise LogFormatError(f"field {f!r} must be a string, got {brief(ev[f])}", f)
        if "people" in ev and not (isinstance(ev["people"], list) and len(set(map(repr, ev["people"]))) == len(ev["people"])
                                   and all(_is_int(x) and 0 <= x <= 3 for x in ev["people"])):
            raise LogFormatError(f"field 'people' must list distinct seats 0-3, got {brief(ev['people'])}", "people")
        if "sheet" in ev and not isinstance(ev["sheet"], bool):
            raise LogFormatError(f"field 'sheet' must be true or false, got {brief(ev['sheet'])}", "sheet")
        try:
            resolve(ev["variant"], ev.get("rules"))
            if "view" in ev:
                check_header(ev)  # a seat-view log (analysis.game.seatview)
        except RulesError as e:
            raise LogFormatError(str(e), "variant" if ev["variant"] not in PRESETS else "rules") from None
        except ViewFormatError as e:
            raise LogFormatError(str(e), e.field) from None
        return ev
    _need(ev, "hand", lambda x: _is_int(x) and x >= 1, "a hand number >= 1")
    if kind in SEATED:
        _need(ev, "seat", lambda x: _is_int(x) and 0 <= x <= 3, "a seat 0-3")
    if kind == "hand":
        _need(ev, "starter", lambda x: _is_int(x) and 0 <= x <= 3, "a seat 0-3")
        _need(ev, "indicator", lambda x: isinstance(x, str), "a tile")
        # null: a hidden seat of a seat-view log; which seats may be null is checked against the
        # game's header (seatview.check_event)
        _need(ev, "racks", lambda x: isinstance(x, list) and len(x) == 4
              and all(r is None or _tile_list(r) for r in x), "4 lists of tiles")
        if "deck" in ev:
            _need(ev, "deck", _tile_list, "a list of tiles")
    elif kind in ("show", "draw", "take", "return", "discard"):
        if kind != "draw" or "tile" in ev:  # a hidden seat's draw has none (seatview.check_event)
            _need(ev, "tile", lambda x: isinstance(x, str), "a tile")
    elif kind == "declare":
        _need(ev, "what", lambda x: isinstance(x, str), "a string")
    elif kind in ("open", "meld"):
        if "melds" not in ev and "pairs" not in ev:
            raise LogFormatError(f"{kind} event lacks field 'melds' or 'pairs'", "melds")
        for f in ("melds", "pairs"):
            if f in ev and not _groups(ev[f]):
                raise LogFormatError(f"field {f!r} must be a list of lists of tiles, got {brief(ev[f])}", f)
    elif kind in ("layoff", "swap"):
        _need(ev, "meld", lambda x: _is_int(x) and x >= 0, "a table meld index")
        _need(ev, "tiles", _tile_list, "a list of tiles")
    elif kind == "penalty":
        _need(ev, "points", _is_int, "a whole number")
        if "reason" in ev and not isinstance(ev["reason"], str):
            raise LogFormatError(f"field 'reason' must be a string, got {brief(ev['reason'])}", "reason")
    elif kind == "result":
        bad = result_problem(ev)
        if bad is not None:
            raise LogFormatError(*bad)
    elif kind == "end":
        _need(ev, "reason", lambda x: x in END_REASONS, "finish, exhausted or void")
        if "scores" in ev:
            _need(ev, "scores", lambda x: isinstance(x, list) and len(x) == 4 and all(_is_int(v) for v in x),
                  "4 whole numbers")
    return ev


def read_lines(lines: Iterable[str | bytes | Damage], file: str = "<input>") -> ReadResult:
    """Group events into games; collect every format error without stopping.

    A line that cannot be read (not UTF-8, not JSON, past a limit, no usable ``game``) is charged
    to the game it names; a line naming none is charged to the game around it when the lines on
    both sides belong to that game, else to no game (LOG_FORMAT "What a reader must do").
    """
    games: list[GameLog] = []
    current: dict[str, GameLog] = {}
    errors = _Errors()
    early: dict[str, ReadError] = {}  # broken lines naming a game whose header has not come yet
    orphans: set[str] = set()
    unnamed = _Errors()  # broken lines naming no game, waiting for the next named line
    unnamed_after: str | None = None  # the game of the last named line before them
    last_game: str | None = None
    n = 0

    def fail(g: GameLog, err: ReadError) -> None:
        if g.complete:  # nothing after a game's last hand takes the game down with it: a file error
            err.message += f"; after the last hand of game {brief(g.id)}: the line is not read, the game is kept"
            err.game = None
            errors.append(err)
        elif g.error is None:
            g.error = err
        else:  # every bad line of a game is listed (up to MAX_GAME_ERRORS), not only its first
            g.more_errors.append(err)

    def charge(gid: str | None, err: ReadError) -> None:
        g = current.get(gid) if gid is not None else None
        if g is not None:
            fail(g, err)
        elif gid is not None and gid not in orphans:
            early.setdefault(gid, err)
        else:
            errors.append(err)

    def settle(next_game: str | None, next_is_header: bool) -> None:
        """Broken lines naming no game: the surrounding game's when both sides are that game."""
        target = unnamed_after if (next_game is not None and next_game == unnamed_after
                                   and not next_is_header) else None
        for err in unnamed:
            if target is not None and target in current:
                err.game = target
                fail(current[target], err)
            else:
                errors.append(err)
        if unnamed.dropped and not (target is not None and target in current):
            errors.dropped += unnamed.dropped
        unnamed.clear()
        unnamed.dropped = 0

    for n, raw in enumerate(lines, 1):
        if isinstance(raw, Damage):
            err = ReadError(file, n, None if raw.complete else last_game, raw.message)
            if unnamed:
                settle(None, False)
            if raw.complete or last_game is None or last_game not in current:
                errors.append(err)
            else:
                fail(current[last_game], err)
            break
        if not raw.strip():
            continue
        ev, why, fld = parse_line(raw)
        gid = ev.get("game") if isinstance(ev, dict) else None
        if why is not None or not isinstance(gid, str) or not gid:
            name = gid if isinstance(gid, str) and gid else None
            if why is None:
                try:
                    validate_event(ev)
                    why, fld = "event lacks field 'game' (a non-empty string)", "game"
                except LogFormatError as e:
                    why, fld = str(e), e.field
            elif name is None:
                name = named_game(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"))
            err = ReadError(file, n, name, why, fld)
            if name is not None:
                charge(name, err)
            else:
                if not unnamed:
                    unnamed_after = last_game
                unnamed.append(err)
            continue
        is_header = ev.get("type") == "game"
        if unnamed:
            settle(gid, is_header)
        try:
            validate_event(ev)
        except LogFormatError as e:
            err = ReadError(file, n, gid, str(e), e.field, e.rule)
            if is_header:
                g = GameLog(gid, file, n, ev, error=early.pop(gid, None) or err)
                games.append(g)
                current[gid] = g
                last_game = gid
            else:
                charge(gid, err)
                last_game = gid
            continue
        if is_header:
            if len(games) >= MAX_GAMES:
                errors.append(ReadError(file, n, gid, f"the file holds more than {MAX_GAMES:,} games, the reader's "
                                        f"limit: this game and the rest of the file are not read; split the file"))
                break
            g = GameLog(gid, file, n, ev, error=early.pop(gid, None))
            games.append(g)
            current[gid] = g
            last_game = gid
            continue
        g = current.get(gid)
        if g is None:
            if gid in early:
                errors.append(early.pop(gid))
                orphans.add(gid)
            elif gid not in orphans:
                errors.append(ReadError(file, n, gid, f"{ev['type']} event before the game's 'game' event",
                                        "type"))
                orphans.add(gid)
            last_game = gid
            continue
        if g.complete:
            fail(g, ReadError(file, n, gid, f"a {ev['type']} event", "type"))
            last_game = gid
            continue
        wrong = misplaced(g.header, ev)  # score sheets hold results, full logs none
        if wrong is not None:
            fail(g, ReadError(file, n, gid, wrong, "type", "G1"))
        if ev["type"] in _IN_CONTEXT:
            try:
                check_event(g.header, ev)  # full log or seat view: what the header allows
            except ViewFormatError as e:
                charge(gid, ReadError(file, n, gid, str(e), e.field))
                last_game = gid
                continue
        last_game = gid
        if g.hands_seen < 0:
            continue  # past a limit below: its events are no longer kept
        if len(g.events) >= MAX_EVENTS:
            fail(g, ReadError(file, n, gid, f"the game holds more than {MAX_EVENTS:,} events, the reader's limit"))
            g.events.clear()
            g.hands_seen = -1
            continue
        if ev["type"] == "hand" or ev["type"] == "result":  # a score sheet's result is its hand
            g.hands_seen += 1
            g.hand_events = 0
            if g.hands_seen > MAX_HANDS:
                fail(g, ReadError(file, n, gid, f"the game holds more than {MAX_HANDS} hands, the reader's limit "
                                  f"(a game plays 7 to 21)", "hand", "G1"))
                g.events.clear()
                g.hands_seen = -1
                continue
        else:
            g.hand_events += 1
            if g.hand_events > MAX_HAND_EVENTS:
                fail(g, ReadError(file, n, gid, f"hand {ev.get('hand')} holds more than {MAX_HAND_EVENTS:,} events, "
                                  f"the reader's limit (a hand has some 60)", "hand"))
                g.events.clear()
                g.hands_seen = -1
                continue
        g.events.append((n, ev))
        if ((ev["type"] == "end" or ev["type"] == "result") and ev["hand"] == g.header.get("hands")
                and g.error is None and ev.get("reason") != "void" and ev.get("kind") != "void"):
            g.complete = True  # the planned last hand ended (a void hand is played again, E3)
    if unnamed:
        settle(None, False)
    errors.extend(early.values())
    # a game id seen again: identical content is the same game, different content is reported
    seen: dict[str, GameLog] = {}
    kept: list[GameLog] = []
    for g in games:
        first = seen.get(g.id)
        if first is None:
            seen[g.id] = g
            kept.append(g)
        elif first.content() != g.content():
            errors.append(ReadError(file, g.line, g.id, f"game id {brief(g.id)} seen again (first at line "
                                    f"{first.line}) with different content; not merged", "game"))
        elif g.error is not None and first.error is None:
            first.error = g.error
    cut: list[ReadError] = []  # per refused game: its bad lines past MAX_GAME_ERRORS, counted
    for g in kept:
        if g.error is not None:
            list.append(errors, g.error)  # a refused game's reason is always listed, past the bound too
            errors.extend(g.more_errors[:MAX_GAME_ERRORS - 1])
            if len(g.more_errors) >= MAX_GAME_ERRORS:
                left = len(g.more_errors) - (MAX_GAME_ERRORS - 1)
                cut.append(ReadError(file, None, g.id, f"{left:,} more bad lines in this game are not listed "
                                     f"(the first {MAX_GAME_ERRORS} are)"))
    errors.sort(key=lambda e: e.line or 0)
    room = max(0, MAX_ERRORS - len(errors))  # the per-game counts too stay within the file's bound
    out = list(errors) + cut[:room]
    errors.dropped += len(cut[room:])
    good = [g for g in kept if g.error is None]
    if errors.dropped:
        out.append(ReadError(file, None, None, f"{errors.dropped:,} more errors in this file are not listed (the "
                             f"first {MAX_ERRORS} are); games read: {len(good):,}, refused: "
                             f"{len(kept) - len(good):,}"))
    return ReadResult(good, out, errors.dropped)


def read_file(path: str | Path, raw: bytes | None = None) -> ReadResult:
    """Read one .jsonl or .jsonl.gz file. A file that cannot be opened raises OSError, one whose
    compression cannot be read from its start :class:`FileUnreadable` (an OSError); damage later
    on is reported with its line, and every game read before it is kept. ``raw``: the file's
    bytes, read elsewhere (a cluster task carries them); ``path`` still names the file."""
    return read_lines(raw_lines(Path(path), raw), str(path))


def canonical_event(ev: dict[str, Any]) -> dict[str, Any]:
    """The event with its fields in canonical order (type, game, hand, seat, fields, extras, t)."""
    kind = ev["type"]
    out: dict[str, Any] = {"type": kind, "game": ev["game"]}
    for k in ("hand", "seat"):
        if k in ev:
            out[k] = ev[k]
    for k in FIELDS.get(kind, ()):
        if k in ev:
            out[k] = ev[k]
    for k in sorted(ev):
        if k not in out and k != "t":
            out[k] = ev[k]
    if "t" in ev:
        out["t"] = ev["t"]
    return out


def dumps(ev: dict[str, Any]) -> str:
    return json.dumps(canonical_event(ev), ensure_ascii=False, separators=(",", ":"))


def iter_lines(games: Iterable[GameLog]) -> Iterator[str]:
    for g in games:
        for ev in g.content():
            yield dumps(ev) + "\n"


def write(games: Iterable[GameLog], out: TextIO) -> None:
    """Write games as canonical v1 JSON Lines."""
    out.writelines(iter_lines(games))


def write_events(events: Iterable[dict[str, Any]], out: TextIO) -> None:
    out.writelines(dumps(e) + "\n" for e in events)
