"""Score-sheet logs (LOG_FORMAT "Score sheets"; docs/log-format.md): a game written hand by hand
as its results, the way a live table keeps its sheet.

The game event has ``"sheet": true``; each hand is one ``result`` event. The reader checks each
field's shape (:func:`result_problem`, a line the reader cannot take); :func:`score_sheet`
checks every result against the rules (a hand that breaks one is invalid with the rule's ID,
the later hands still count) and scores it with :func:`analysis.game.scoring.explain_counts`,
the engine's own E4-E8, then compares the table's ``scores``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .rules import Rules
from .scoring import FinishInfo, ScoreLine, explain_counts
from .state import Penalty
from .tiles import brief

FINISH_KINDS = ("normal", "okey", "elden", "pairs")  # E6, E7: a list where they combine
END_KINDS = ("exhausted", "void")  # E2 (E4), E3
OPENED = ("points", "pairs")
PENALTY_RULES = ("X1", "X2", "X3", "X4", "X5", "X6", "X7", "O8")
RESULT_FIELDS = ("finisher", "kind", "opened", "left", "okeys_left", "penalties", "scores")
SILER_POINTS = -101  # O8: 101 struck off at once


class SheetError(ValueError):
    """A result that breaks a rule: the hand is invalid (``rule``; ``field`` the field at fault)."""

    def __init__(self, message: str, rule: str, field: str) -> None:
        super().__init__(message.removesuffix(f" [{rule}]"))  # the rule is shown once, by its reader
        self.rule = rule
        self.field = field


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _four(x: Any, ok: Any) -> bool:
    return isinstance(x, list) and len(x) == 4 and all(ok(v) for v in x)


def kinds_of(kind: Any) -> tuple[str, ...] | None:
    """A result's ``kind`` as a tuple of names (None when it is not one)."""
    if isinstance(kind, str):
        return (kind,) if kind in FINISH_KINDS + END_KINDS else None
    if (isinstance(kind, list) and kind and all(isinstance(k, str) and k in FINISH_KINDS for k in kind)
            and len(set(kind)) == len(kind) and ("normal" not in kind or len(kind) == 1)):
        return tuple(kind)
    return None


# the rule each result field serves, named beside a field's format error
FIELD_RULES = {"finisher": "E1", "kind": "E6", "opened": "O1", "left": "E5", "okeys_left": "E5",
               "penalties": "X1", "scores": "E5"}


def result_problem(ev: dict[str, Any]) -> tuple[str, str, str] | None:
    """(message, field, rule) for the first field of a ``result`` event with a wrong shape, else None."""
    def need(name: str, ok: Any, what: str, optional: bool = False) -> tuple[str, str, str] | None:
        if name not in ev:
            return None if optional else (f"result event lacks field {name!r}", name, FIELD_RULES[name])
        if not ok(ev[name]):
            return (f"field {name!r} of a result event must be {what}, got {brief(ev[name])}", name,
                    FIELD_RULES[name])
        return None

    checks = (
        need("finisher", lambda x: x is None or (_int(x) and 0 <= x <= 3), "a seat 0-3 or null"),
        need("kind", lambda x: kinds_of(x) is not None,
             "normal, okey, elden or pairs (or a list of okey, elden, pairs), exhausted or void"),
        need("opened", lambda x: _four(x, lambda v: v is None or v in OPENED), '4 entries "points", "pairs" or null'),
        need("left", lambda x: _four(x, lambda v: v is None or (_int(v) and v >= 0)),
             "4 entries, each a whole number >= 0 or null"),
        need("okeys_left", lambda x: _four(x, lambda v: _int(v) and 0 <= v <= 2), "4 whole numbers 0-2",
             optional=True),
        need("penalties", lambda x: isinstance(x, list) and all(_penalty_shape(p) for p in x),
             'a list of {"seat": 0-3, "rule": "X1"-"X7" or "O8", "points": a whole number}', optional=True),
        need("scores", lambda x: _four(x, _int), "4 whole numbers", optional=True),
    )
    return next((c for c in checks if c is not None), None)


def _penalty_shape(p: Any) -> bool:
    return (isinstance(p, dict) and _int(p.get("seat")) and 0 <= p["seat"] <= 3
            and isinstance(p.get("rule"), str) and _int(p.get("points")))


def misplaced(header: dict[str, Any], ev: dict[str, Any]) -> str | None:
    """Why an event does not belong in its game (a ``result`` outside a sheet, a move inside one)."""
    sheet = header.get("sheet") is True
    if sheet and ev["type"] != "result":
        return f"a score-sheet log (game.sheet true) holds only result events, got a {ev['type']} event"
    if not sheet and ev["type"] == "result":
        return "a result event belongs to a score-sheet log: its game event needs \"sheet\": true"
    return None


@dataclass
class SheetHand:
    """One scored result, in the fields of :class:`analysis.game.replay.HandResult`."""

    hand: int
    line: int
    result: str = "invalid"  # finish, exhausted, void, invalid
    finisher: int | None = None
    finish_kinds: tuple[str, ...] = ()
    scores: tuple[int, ...] = (0, 0, 0, 0)
    penalties: list[Penalty] = field(default_factory=list)
    error: dict[str, Any] | None = None
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    recorded_end: dict[str, Any] | None = None
    openings: list[dict[str, Any]] = field(default_factory=list)
    lines: tuple[ScoreLine, ...] = ()  # what each seat's hand-end score is made of


def check_penalty(rules: Rules, p: dict[str, Any], opened: Sequence[str | None], i: int) -> Penalty:
    """One penalty entry checked against the game's rules (X1-X7, O8)."""
    rule, pts, seat = p["rule"], p["points"], p["seat"]
    where = f"penalties[{i}]"

    def bad(msg: str, r: str) -> SheetError:
        return SheetError(f"field {where!r}: {msg} [{r}]", r, "penalties")

    if rule not in PENALTY_RULES:
        raise bad(f"rule {brief(rule)} is not an in-game penalty; these are {', '.join(PENALTY_RULES)}", "X1")
    if rule == "O8":
        if not rules.siler:
            raise bad("this game plays without siler (option 'siler' off)", "O8")
        if opened[seat] is None:
            raise bad(f"siler strikes 101 off a big opening, and seat {seat} did not open", "O8")
        if pts != SILER_POINTS:
            raise bad(f"siler is written {SILER_POINTS}, got {pts}", "O8")
        return Penalty(seat, pts, rule)
    if not rules.cezali:
        raise bad(f"{rule} is an in-game penalty and this game is not cezali: none is written", "X1")
    if rule in ("X5", "X6", "X7") and not getattr(rules, rule.lower()):
        raise bad(f"this game plays without {rule} (option {rule.lower()!r} off)", rule)
    if rule == "X5":
        f = rules.x5_factor
        if pts % f or not 1 <= pts // f <= 13:
            raise bad(f"X5 is {f} x the discarded tile's value (1-13): {f} to {13 * f} in steps of {f}, got {pts}",
                      "X5")
    elif pts != rules.penalty_unit:
        raise bad(f"{rule} costs one penalty unit, {rules.penalty_unit}, got {pts}", rule)
    return Penalty(seat, pts, rule)


def score_result(rules: Rules, ev: dict[str, Any], line: int) -> SheetHand:
    """Check one result against the rules and score it (E4-E8); raises :class:`SheetError`."""
    h = SheetHand(ev["hand"], line)
    kinds = kinds_of(ev["kind"])
    if not kinds:  # (the log reader refuses it first: result_problem)
        raise SheetError(f"field 'kind': not a result kind, got {brief(ev['kind'])} [E6]", "E6", "kind")
    fin = ev["finisher"]
    opened: list[str | None] = list(ev["opened"])
    left: list[int | None] = list(ev["left"])
    okeys = list(ev.get("okeys_left") or (0, 0, 0, 0))
    if kinds[0] in END_KINDS:
        if fin is not None:
            raise SheetError(f"field 'finisher': a hand that is {kinds[0]} has no finisher (null), got {fin} "
                             f"[{'E2' if kinds[0] == 'exhausted' else 'E3'}]",
                             "E2" if kinds[0] == "exhausted" else "E3", "finisher")
        if kinds[0] == "void":
            if not rules.void_all_pairs:
                raise SheetError("field 'kind': in this game all four opening pairs does not void the hand "
                                 "(option 'void_all_pairs' off) [E3]", "E3", "kind")
            if "points" in opened:
                raise SheetError("field 'opened': a void hand is four pairs openings, a seat opened by points "
                                 "[E3]", "E3", "opened")
            h.result = "void"  # E3: nobody is scored, in-game penalties included
            return h
        h.result = "exhausted"
        info = FinishInfo("exhausted", None, (), True)
    else:
        if fin is None:
            raise SheetError(f"field 'finisher': a {'+'.join(kinds)} finish needs the seat that finished [E1]",
                             "E1", "finisher")
        if left[fin] not in (None, 0) or okeys[fin]:
            what = "left" if left[fin] not in (None, 0) else "okeys_left"
            raise SheetError(f"field {what!r}: the finisher (seat {fin}) has nothing left in his rack [E1]",
                             "E1", what)
        multi = "E7" if rules.multipliers == "E7" else "E6"
        if "pairs" in kinds and opened[fin] == "points":
            raise SheetError(f"field 'kind': a pairs finish, and the finisher (seat {fin}) opened by points "
                             f"[{multi}]", multi, "kind")
        if opened[fin] is None:  # a finisher has opened; the sheet may leave his entry empty
            opened[fin] = "pairs" if "pairs" in kinds else "points"
        others = any(opened[s] is not None for s in range(4) if s != fin)
        if "elden" in kinds and others:
            raise SheetError("field 'kind': elden is finishing while nobody else has opened, and "
                             f"seat {next(s for s in range(4) if s != fin and opened[s])} opened [E2]", "E2", "kind")
        names = tuple(k for k in ("okey", "elden", "pairs")
                      if k in kinds or (k == "pairs" and opened[fin] == "pairs"))  # the engine's order
        h.result, h.finisher, h.finish_kinds = "finish", fin, names
        info = FinishInfo("finish", fin, names, others)
    scored = [s for s in range(4) if opened[s] is not None and s != fin
              and not (rules.esli and fin is not None and s == (fin + 2) % 4)]
    if info.result == "exhausted" and all(o is None for o in opened):
        scored = []  # E4: nobody opened, nobody is scored
    for s in scored:
        if left[s] is None:
            raise SheetError(f"field 'left': seat {s} opened, so the value left in his rack is scored; it is "
                             f"null [E5]", "E5", "left")
    penalties = [check_penalty(rules, p, opened, i) for i, p in enumerate(ev.get("penalties") or ())]
    h.penalties = [Penalty(p.seat, p.points, p.rule, line) for p in penalties]
    counted_okeys = [okeys[s] if s in scored else 0 for s in range(4)]  # E5: okeys of an opened rack only
    h.lines = explain_counts(rules, info, left, opened, counted_okeys)
    h.scores = tuple(x.score for x in h.lines)
    h.openings = [{"seat": s, "kind": opened[s], "value": None, "threshold": None, "line": line}
                  for s in range(4) if opened[s] is not None]
    return h


def compare_scores(h: SheetHand, ev: dict[str, Any], line: int) -> None:
    """The table's ``scores`` against the engine's: a row may be written with or without its
    in-game penalties (both agree); anything else is reported."""
    if "scores" not in ev:
        return
    with_pen = list(h.scores)
    for p in h.penalties:
        with_pen[p.seat] += p.points
    rec = list(ev["scores"])
    if rec != list(h.scores) and rec != with_pen:
        h.mismatches.append({"kind": "scores", "line": line, "recorded": rec, "computed": list(h.scores),
                             "computed_with_penalties": with_pen})


def past_the_end(n: int, planned: int) -> SheetError | None:
    """G1: hand ``n`` of a game of ``planned`` hands is past its end (the error), else None."""
    if n <= planned:
        return None
    return SheetError(f"field 'hand': hand {n} is past the end of a game of {planned} hands [G1]", "G1", "hand")


def score_sheet(rules: Rules, events: Sequence[tuple[int, dict[str, Any]]],
                planned: int | None = None) -> list[SheetHand]:
    """Every result of a sheet, in order: hands numbered 1, 2, … (a void hand is played again
    with its number, E3); a hand that breaks a rule is invalid and scores nothing, and so is a
    hand past the game's ``planned`` count (the header's ``hands``, else the rules', G1)."""
    out: list[SheetHand] = []
    prev: SheetHand | None = None
    last = planned if planned is not None else rules.hands
    for line, ev in events:
        n = ev["hand"]
        want = 1 if prev is None else (prev.hand if prev.result == "void" else prev.hand + 1)
        try:
            if n != want:
                rule = "E3" if prev is not None and prev.result == "void" else "G1"
                why = "a void hand is played again with its number" if rule == "E3" else "hands go in order"
                raise SheetError(f"field 'hand': expected hand {want}, got {n} ({why}) [{rule}]", rule, "hand")
            if (end := past_the_end(n, last)) is not None:
                raise end
            h = score_result(rules, ev, line)
            compare_scores(h, ev, line)
        except SheetError as e:
            h = SheetHand(n, line, error={"line": line, "rule": e.rule, "field": e.field, "message": str(e)})
        h.recorded_end = {"line": line, **ev}
        out.append(h)
        prev = h if h.error is None else SheetHand(n, line, result="played")
    return out
