"""Replaying a game: the fold of :func:`analysis.engine.apply` over a log, with a report.

``replay_game`` gives, per hand, every state after every event (the dashboard's replayer
steps through them by index), the engine's scores and penalties, the first illegal move, and
every difference from what the log recorded (``penalty`` and ``end`` events).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from .engine import apply
from .log import GameLog, ReadError, read_file
from .rules import Rules, RulesError, resolve
from .scoring import match_points
from .seatview import apply_view, new_view_hand, settle_scores
from .sheet import score_sheet
from .state import HandState, IllegalMove, Penalty, evolve, new_hand
from .tiles import PARSED, NotationError, Tile


@dataclass
class Step:
    line: int
    event: dict[str, Any]
    state: HandState


@dataclass
class HandResult:
    hand: int
    line: int
    result: str = "unfinished"  # finish, exhausted, void, invalid, unfinished
    finisher: int | None = None
    finish_kinds: tuple[str, ...] = ()
    scores: tuple[int, ...] = (0, 0, 0, 0)
    penalties: list[Penalty] = field(default_factory=list)
    error: dict[str, Any] | None = None
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    recorded_penalties: list[tuple[int, int, str | None, int]] = field(default_factory=list)
    recorded_end: dict[str, Any] | None = None
    openings: list[dict[str, Any]] = field(default_factory=list)  # seat, kind, value, threshold, line

    @property
    def valid(self) -> bool:
        return self.error is None

    def totals(self) -> list[int]:
        t = list(self.scores)
        for p in self.penalties:
            t[p.seat] += p.points
        return t

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "result": self.result, "finisher": self.finisher,
                "finish_kinds": list(self.finish_kinds), "scores": list(self.scores),
                "penalties": [p.to_dict() | {"line": p.line} for p in self.penalties],
                "error": self.error, "mismatches": self.mismatches, "openings": self.openings}


@dataclass
class GameResult:
    game: str
    file: str
    variant: str
    rules: Rules | None
    players: list[str]
    header: dict[str, Any]
    hands: list[HandResult] = field(default_factory=list)
    error: dict[str, Any] | None = None  # a game-level refusal (unknown preset or option)

    @property
    def view(self) -> int | None:
        """The seat a seat-view log was recorded by (None: a full log, every rack known)."""
        v = self.header.get("view")
        return v if isinstance(v, int) else None

    @property
    def valid(self) -> bool:
        return self.error is None and all(h.valid for h in self.hands)

    @property
    def agrees(self) -> bool:
        return all(not h.mismatches for h in self.hands)

    @property
    def totals(self) -> list[int]:
        t = [0, 0, 0, 0]
        for h in self.hands:
            for s, v in enumerate(h.totals()):
                t[s] += v
        return t

    @property
    def match_points(self) -> list[int] | None:
        if self.rules is None or not self.rules.match_points:
            return None
        return match_points(self.totals, self.planned_hands)

    @property
    def planned_hands(self) -> int:
        h = self.header.get("hands")
        return h if isinstance(h, int) else (self.rules.hands if self.rules else 11)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game, "file": self.file, "variant": self.variant, "players": self.players,
            "valid": self.valid, "agrees": self.agrees, "totals": self.totals,
            "match_points": self.match_points, "hands": [h.to_dict() for h in self.hands],
            "error": self.error,
        }
        if self.header.get("sheet") is True:
            d["sheet"] = True  # a score-sheet log (analysis.game.sheet)
        if self.view is not None:
            d["view"] = self.view
        if self.rules is not None and self.rules.esli:
            d["team_totals"] = [self.totals[0] + self.totals[2], self.totals[1] + self.totals[3]]
        return d


def _error(line: int, e: IllegalMove) -> dict[str, Any]:
    return {"line": line, "rule": e.rule, "message": e.message}


def replay_game(g: GameLog, *, keep_steps: bool = True) -> GameResult:
    """Replay every hand of a game; an illegal move ends its hand, later hands still replay."""
    header = g.header
    res = GameResult(g.id, g.file, header.get("variant", "101"), None, list(header.get("players", [])), header)
    try:
        res.rules = resolve(header.get("variant", "101"), header.get("rules"))
    except RulesError as e:
        res.error = {"line": g.line, "rule": None, "message": str(e)}
        return res
    rules = res.rules
    if header.get("sheet") is True:  # a score sheet: results, no moves (analysis.game.sheet)
        res.hands = [HandResult(h.hand, h.line, h.result, h.finisher, h.finish_kinds, h.scores, h.penalties,
                                h.error, h.mismatches, recorded_end=h.recorded_end, openings=h.openings)
                     for h in score_sheet(rules, g.events, res.planned_hands)]
        return res
    view = res.view
    step = apply if view is None else apply_view  # a seat-view log hides three racks (seatview)
    hand: HandResult | None = None
    state: HandState | None = None
    prev_hand: HandResult | None = None
    prev_starter: int | None = None
    for line, ev in g.events:
        kind = ev["type"]
        if kind == "hand":
            if hand is not None:
                _close(hand, state, view)
                prev_hand, prev_starter = hand, (state.starter if state else None)
            hand = HandResult(ev["hand"], line)
            res.hands.append(hand)
            state = None
            try:
                state = _start_hand(rules, ev, prev_hand, prev_starter, view)
            except IllegalMove as e:
                hand.result, hand.error = "invalid", _error(line, e)
                continue
            hand.steps.append(Step(line, ev, state)) if keep_steps else None
            continue
        if hand is None or ev["hand"] != hand.hand:
            # an event outside the current hand: a hand the log never started
            if hand is not None and hand.error is not None:
                continue
            err = IllegalMove(f"event for hand {ev['hand']} outside its hand (no 'hand' event started it)", "D1")
            if hand is None:
                hand = HandResult(ev["hand"], line)
                res.hands.append(hand)
            hand.result, hand.error = "invalid", _error(line, err)
            state = None
            continue
        if kind == "penalty":
            hand.recorded_penalties.append((ev["seat"], ev["points"], ev.get("reason"), line))
            continue
        if kind == "end":
            hand.recorded_end = {"line": line, **ev}
            continue
        if state is None or hand.error is not None:
            continue
        try:
            new = step(state, ev)
        except IllegalMove as e:
            hand.result, hand.error = "invalid", _error(line, e)
            continue
        except (NotationError, ValueError) as e:  # notation slipping through: still a refusal
            hand.result, hand.error = "invalid", {"line": line, "rule": "T1", "message": str(e)}
            continue
        if keep_steps:
            hand.steps.append(Step(line, ev, new))
        if not state.opened_this_turn and new.penalties is state.penalties:
            state = new  # the common case: nothing to record
            continue
        if state.opened_this_turn and (kind == "discard" or new.result == "void"):
            op = new.opened[ev["seat"]] if new.result == "void" else state.opened[ev["seat"]]
            if op is not None:
                need = state.points_threshold(ev["seat"]) if op.kind == "points" else state.pairs_threshold(ev["seat"])
                hand.openings.append({"seat": ev["seat"], "kind": op.kind, "value": op.value,
                                      "threshold": need, "line": line})
        if len(new.penalties) > len(state.penalties):
            n = len(state.penalties)
            new = evolve(new, penalties=new.penalties[:n] + tuple(replace(p, line=line) for p in new.penalties[n:]))
            if keep_steps:
                hand.steps[-1] = Step(line, ev, new)
        state = new
    if hand is not None:
        _close(hand, state, view)
    if any(h.recorded_penalties for h in res.hands):
        for h in res.hands:
            _compare_penalties(h)
    return res


def _start_hand(rules: Rules, ev: dict[str, Any], prev: HandResult | None, prev_starter: int | None,
                view: int | None = None) -> HandState:
    n = ev["hand"]
    if prev is None:
        if n != 1:
            raise IllegalMove(f"the first hand is hand 1, got {n}", "G1")
    else:
        want = prev.hand if prev.result == "void" else prev.hand + 1
        if n != want:
            why = "a void hand is played again with its number" if prev.result == "void" else "hands go in order"
            raise IllegalMove(f"expected hand {want}, got {n} ({why})", "E3" if prev.result == "void" else "G1")
        if prev_starter is not None:
            ok = {(prev_starter + 1) % 4} | ({prev_starter} if prev.result == "void" else set())
            if ev["starter"] not in ok:
                raise IllegalMove(f"hand {n} must be started by seat {(prev_starter + 1) % 4}, "
                                  f"the seat after the last starter, got {ev['starter']}", "D2")
    try:
        ind = Tile.parse(ev["indicator"])
        if view is not None:
            return new_view_hand(rules, n, ev["starter"], ind, _tiles(ev["racks"][view]), view)
        racks = [_tiles(r) for r in ev["racks"]]
        deck = _tiles(ev["deck"]) if "deck" in ev else None
    except NotationError as e:
        msg = str(e)
        raise IllegalMove(msg.rsplit(" [", 1)[0], "T2" if "indicator" in msg else "T1") from None
    return new_hand(rules, n, ev["starter"], ind, racks, deck)


def _tiles(texts: list[str]) -> list[Tile]:
    """Parse a list of tiles: canonical spellings by one lookup each, the rest by Tile.parse."""
    try:
        return [PARSED[t] for t in texts]
    except (KeyError, TypeError):
        return [Tile.parse(t) for t in texts]


def _close(hand: HandResult, state: HandState | None, view: int | None = None) -> None:
    """Settle a hand's result and compare it with what the log recorded."""
    if state is not None:
        hand.penalties = list(state.penalties)
    if hand.error is None and state is not None and state.result is not None:
        hand.result = state.result
        hand.finisher = state.finisher
        hand.finish_kinds = state.finish_kinds
        hand.scores = state.scores or (0, 0, 0, 0)
    if hand.error is not None:
        hand.result = "invalid"
        return
    if hand.result == "void":
        hand.penalties = []  # E3: nobody is scored
    rec = hand.recorded_end
    if view is not None and state is not None and hand.result in ("finish", "exhausted"):
        hand.scores, notes, final = settle_scores(state, rec)  # hidden racks: end.racks, else end.scores
        hand.mismatches.extend(notes)
        if hand.steps and hand.steps[-1].state is state:  # the replayer shows the settled scores
            hand.steps[-1] = Step(hand.steps[-1].line, hand.steps[-1].event, final)
    if rec is not None:
        if rec["reason"] != hand.result:
            hand.mismatches.append({"kind": "result", "line": rec["line"], "recorded": rec["reason"],
                                    "computed": hand.result})
        if "scores" in rec and list(rec["scores"]) != list(hand.scores):
            hand.mismatches.append({"kind": "scores", "line": rec["line"], "recorded": list(rec["scores"]),
                                    "computed": list(hand.scores)})


def _compare_penalties(hand: HandResult) -> None:
    """Recorded penalty events against the engine's, per seat (a source that writes any writes all)."""
    if hand.error is None:
        recorded = Counter((s, p) for s, p, _, _ in hand.recorded_penalties)
        computed = Counter((p.seat, p.points) for p in hand.penalties)
        for seat in range(4):
            r = sorted(p for (s, p), k in recorded.items() for _ in range(k) if s == seat)
            c = sorted(p for (s, p), k in computed.items() for _ in range(k) if s == seat)
            if r != c:
                hand.mismatches.append({"kind": "penalties", "seat": seat, "recorded": r, "computed": c,
                                        "rules": [p.rule for p in hand.penalties if p.seat == seat]})


def read_and_replay(path: str, *, keep_steps: bool = False) -> tuple[list[GameResult], list[ReadError]]:
    rr = read_file(path)
    return [replay_game(g, keep_steps=keep_steps) for g in rr.games], rr.errors
