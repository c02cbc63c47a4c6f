"""Hand-written seat-view logs (docs/log-format.md "Seat-view logs") and their expected replay.

    python tests/seatview_cases.py     # rewrites tests/data/seatview/

Every expectation is worked out by hand from docs/rules.md (the arithmetic is in the comments),
never by the engine. The viewer is seat 0, the starter; the indicator is K3 (okey K4, the false
okey J counts as K4).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DIR = Path(__file__).resolve().parent / "data" / "seatview"


def run(colour: str, lo: int, hi: int) -> list[str]:
    return [f"{colour}{n}" for n in range(lo, hi + 1)]


# 22 tiles: R1-R13 (91 points) and B1-B8 (36 points) open with 127 and leave Y9 (or a drawn tile)
RACK_A = run("R", 1, 13) + run("B", 1, 8) + ["Y9"]
SEAT1_OPEN = [run("Y", 10, 13), run("B", 9, 13)]  # 46 + 55 = 101 points: exactly the threshold (O1)
SEAT_101 = [run("K", 5, 10), run("R", 8, 12), run("Y", 1, 3)]  # 45 + 50 + 6 = 101 points


class Case:
    def __init__(self, name: str, variant: str = "101", rules: dict[str, Any] | None = None,
                 rack: list[str] | None = None, indicator: str = "K3") -> None:
        self.name = name
        self.gid = f"sv-{name}"
        self.events: list[dict[str, Any]] = []
        head: dict[str, Any] = {"type": "game", "game": self.gid, "variant": variant,
                                "players": ["Ben", "P2", "P3", "P4"], "hands": 1, "view": 0}
        if rules:
            head["rules"] = rules
        self.events.append(head)
        self.events.append({"type": "hand", "game": self.gid, "hand": 1, "starter": 0, "indicator": indicator,
                            "racks": [rack or RACK_A, None, None, None]})
        self.expected: dict[str, Any] = {}

    def ev(self, kind: str, seat: int | None = None, **fields: Any) -> Case:
        e: dict[str, Any] = {"type": kind, "game": self.gid, "hand": 1}
        if seat is not None:
            e["seat"] = seat
        e.update(fields)
        self.events.append(e)
        return self

    def line(self) -> int:
        """The line number of the last event written."""
        return len(self.events)

    def text(self) -> str:
        return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in self.events)


def _seat1_opens(c: Case) -> Case:
    """Seat 0 throws Y9; seat 1 draws, opens with 101 (exactly the threshold) and throws K13."""
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("open", 1, melds=SEAT1_OPEN).ev("discard", 1, tile="K13")
    return c


def _viewer_finishes(c: Case) -> Case:
    """... seats 2 and 3 draw and throw K12, K11; seat 0 draws Y1, opens with R1-R13 + B1-B8 (127,
    over the 102 that escalation asks after 101, O2) and finishes by throwing Y1 (E1; not elden:
    seat 1 had opened, E2)."""
    c.ev("draw", 2).ev("discard", 2, tile="K12").ev("draw", 3).ev("discard", 3, tile="K11")
    c.ev("draw", 0, tile="Y1").ev("open", 0, melds=[run("R", 1, 13), run("B", 1, 8)]).ev("discard", 0, tile="Y1")
    return c


# seat 1's 12 tiles left, as shown at the count: 1+1+2+2+2+3+4+5+6+7+8 + J (the okey's face K4: 4) = 45
SHOWN_1 = ["K1", "K1", "K2", "K2", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "J"]


def cases() -> list[Case]:
    out = []

    c = Case("hidden_third_copy")  # K9 thrown by seats 1 and 2: the set holds two (T1)
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("discard", 1, tile="K9").ev("draw", 2)
    c.ev("discard", 2, tile="K9").ev("draw", 3).ev("discard", 3, tile="K9")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "T1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # the viewer holds the indicator's twin K3: with the indicator face up no copy is left (T2)
    c = Case("hidden_indicator_copy", rack=run("R", 1, 13) + run("B", 1, 7) + ["K3", "Y9"])
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("discard", 1, tile="K3")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "T2"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # the viewer holds both R5: a hidden seat cannot throw one (T1)
    c = Case("hidden_discards_viewers_tile", rack=run("R", 1, 13) + ["R5"] + run("B", 1, 7) + ["Y9"])
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("discard", 1, tile="R5")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "T1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # seat 1 opens with Y10-Y13 + B9-B12 = 46 + 42 = 88 < 101 and throws without taking it back (O1)
    c = Case("hidden_opens_under_threshold")
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("open", 1, melds=[run("Y", 10, 13), run("B", 9, 12)])
    c.ev("discard", 1, tile="K13")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "O1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # seat 2 throws Y9, which seat 1's run Y10-Y13 takes: X4, one unit (101); seat 3 throws the okey
    # K4: X3, 101 (cezali is on in 101, X1)
    c = _seat1_opens(Case("hidden_x4_charged"))
    c.ev("draw", 2).ev("discard", 2, tile="Y9").ev("draw", 3).ev("discard", 3, tile="K4")
    c.expected = {"result": "unfinished", "error": None, "scores": [0, 0, 0, 0],
                  "penalties": [[2, 101, "X4"], [3, 101, "X3"]], "valid": True, "mismatches": []}
    out.append(c)

    # normal finish by the viewer (E6): 0 gets -101; 2 and 3 never opened: 202; 1 opened: its rack
    # as shown, 45 (E5)
    c = _viewer_finishes(_seat1_opens(Case("viewer_finishes_shown_racks")))
    c.ev("end", reason="finish", scores=[-101, 45, 202, 202], racks=[None, SHOWN_1, None, None])
    c.expected = {"result": "finish", "finisher": 0, "error": None, "scores": [-101, 45, 202, 202],
                  "penalties": [], "valid": True, "mismatches": []}
    out.append(c)

    # the same without end.racks: seat 1's 45 is taken from end.scores (nothing else tells it)
    c = _viewer_finishes(_seat1_opens(Case("hidden_score_from_end_scores")))
    c.ev("end", reason="finish", scores=[-101, 45, 202, 202])
    c.expected = {"result": "finish", "finisher": 0, "error": None, "scores": [-101, 45, 202, 202],
                  "penalties": [], "valid": True, "mismatches": []}
    out.append(c)

    # the table wrote 101 for seat 3, who never opened: 202 (E5, E6); reported, not silently taken
    c = _viewer_finishes(_seat1_opens(Case("end_scores_disagree")))
    c.ev("end", reason="finish", scores=[-101, 45, 202, 101])
    c.expected = {"result": "finish", "finisher": 0, "error": None, "scores": [-101, 45, 202, 202],
                  "penalties": [], "valid": True,
                  "mismatches": [{"kind": "scores", "recorded": [-101, 45, 202, 101], "computed": [-101, 45, 202, 202]}]}
    out.append(c)

    # end.racks shows seat 1 holding K11 twice, but seat 3 threw one K11 face up: a third copy (T1);
    # reported, and seat 1's score taken from end.scores
    c = _viewer_finishes(_seat1_opens(Case("end_racks_impossible")))
    bad = ["K11", "K11"] + SHOWN_1[2:]
    c.ev("end", reason="finish", scores=[-101, 45, 202, 202], racks=[None, bad, None, None])
    c.expected = {"result": "finish", "finisher": 0, "error": None, "scores": [-101, 45, 202, 202],
                  "penalties": [], "valid": True, "mismatches": [{"kind": "racks", "seat": 1}]}
    out.append(c)

    # partners (O11): after seat 1's 101, seat 2 (the other team, partner not opened) needs 102
    c = _seat1_opens(Case("partners_hidden_escalation", rules={"esli": True}))
    c.ev("draw", 2).ev("open", 2, melds=SEAT_101).ev("discard", 2, tile="K13")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "O1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # partners: seat 3, seat 1's partner, opens with 101 (O11: the team's escalation is passed once)
    # and throws R1 (no table meld takes it); the viewer finishes as above: 0 gets -101, seat 2 his
    # partner 0 (E8), seats 1 and 3 opened, hidden: from end.scores
    c = _seat1_opens(Case("partners_finish", rules={"esli": True}))
    c.ev("draw", 2).ev("discard", 2, tile="K12").ev("draw", 3).ev("open", 3, melds=SEAT_101)
    c.ev("discard", 3, tile="R1")
    c.ev("draw", 0, tile="Y1").ev("open", 0, melds=[run("R", 1, 13), run("B", 1, 8)]).ev("discard", 0, tile="Y1")
    c.ev("end", reason="finish", scores=[-101, 45, 0, 30])
    c.expected = {"result": "finish", "finisher": 0, "error": None, "scores": [-101, 45, 0, 30],
                  "penalties": [], "valid": True, "mismatches": []}
    out.append(c)

    # 101-classic: no escalation (O2 off): seat 2's 101 after seat 1's 101 stands
    c = _seat1_opens(Case("classic_no_escalation", variant="101-classic"))
    c.ev("draw", 2).ev("open", 2, melds=SEAT_101).ev("discard", 2, tile="K13")
    c.expected = {"result": "unfinished", "error": None, "scores": [0, 0, 0, 0], "penalties": [], "valid": True,
                  "mismatches": []}
    out.append(c)

    # 51: 15 tiles for the starter (D1); seat 1's Y10-Y13 is 46 < 51 (O1)
    c = Case("fifty_one_hidden_under", variant="51", rack=run("R", 1, 13) + ["B1", "Y9"])
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("open", 1, melds=[run("Y", 10, 13)]).ev("discard", 1, tile="K13")
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "O1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # a hidden seat holds 21 tiles after its draw and discard; it cannot place 22 (P1: rack sizes)
    c = Case("hidden_rack_too_small")
    big = [run("Y", 1, 13), run("K", 5, 13)]  # 13 + 9 = 22 tiles; seat 1 holds 21 + 1 drawn = 22, P5
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("open", 1, melds=big)
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "P5"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)

    # ... and 23 tiles are more than it holds: refused before any meld is looked at (P1)
    c = Case("hidden_places_more_than_it_holds")
    c.ev("discard", 0, tile="Y9").ev("draw", 1).ev("open", 1, melds=[run("Y", 1, 13), run("K", 5, 11), run("B", 9, 11)])
    c.expected = {"result": "invalid", "error": {"line": c.line(), "rule": "P1"}, "scores": [0, 0, 0, 0],
                  "penalties": [], "valid": False, "mismatches": []}
    out.append(c)
    return out


def write_all() -> None:
    DIR.mkdir(parents=True, exist_ok=True)
    for c in cases():
        (DIR / f"{c.name}.jsonl").write_text(c.text(), encoding="utf-8")


if __name__ == "__main__":
    write_all()
    sys.exit(0)
