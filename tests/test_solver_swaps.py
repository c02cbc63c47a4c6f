"""Taking an okey off the table (S1, S2) is worth it only when the rack it leaves is better
. The freed okey comes into the rack; a plan that cannot place it again keeps it and is
charged for it (E5: its face value, + 101 for an opened player). Each position is asked through
``istaka solve``'s position reader, with the compiled kernel and with the pure-Python search.
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.cli.position import solve_position
from analysis.solver import search

FULL_RUN = ["R1", "R2", "R3", "R4", "R5", "K1>R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13"]
OPENED = {"kind": "points", "value": 120}

# (name, position, swaps expected, tiles left, penalty); indicator K13: the okey is K1
POSITIONS: list[tuple[str, dict[str, Any], bool, list[str], int]] = [
    # the okey stands for R6 in a run with no room left: swapping keeps K1 (1 + 101 = 102), not R6 (6)
    ("full run", {"rack": ["R6"], "table": [FULL_RUN]}, False, ["R6"], 6),
    # L6 (101-classic): no lay-offs in the opening turn, so the freed okey could only be kept
    ("L6, opening turn", {"rack": ["R6", "Y2"], "variant": "101-classic", "opened_this_turn": True,
                          "table": [["R5", "K1>R6", "R7"], ["Y9", "Y10", "Y11"]]}, False, ["R6", "Y2"], 8),
    # S2: completing R9 Y9 *B9 with B9 and K9 frees the okey into a rack with nothing else: 102;
    # laying K9 off onto the group leaves B9: 9
    ("group of three", {"rack": ["B9", "K9"], "table": [["R9", "Y9", "K1>B9"]]}, False, ["B9"], 9),
    # a pairs opener: the okey kept costs 2 x 1 + 101, R6 and B2 kept 2 x (6 + 2) = 16
    ("pairs opener", {"rack": ["R6", "B2"], "table": [FULL_RUN], "opened": {"kind": "pairs", "value": 5}},
     False, ["B2", "R6"], 16),
    # the control: where the freed okey can be laid off (Y12 onto Y9-Y11), the swap is right
    ("swap pays", {"rack": ["R6", "B2"], "table": [["R5", "K1>R6", "R7"], ["Y9", "Y10", "Y11"]]},
     True, ["B2"], 2),
]


@pytest.fixture(params=["kernel", "python"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "kernel":
        if search.KERNEL is None:
            pytest.skip("the compiled kernel is not built (or ISTAKA_PURE=1)")
    else:
        monkeypatch.setattr(search, "KERNEL", None)
    return str(request.param)


@pytest.mark.parametrize("name,pos,swaps,left,penalty", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_a_freed_okey_that_stays_in_the_rack_is_charged_S1_S2_E5(
        name: str, pos: dict[str, Any], swaps: bool, left: list[str], penalty: int, path: str) -> None:
    plan = solve_position({"indicator": "K13", "opened": OPENED, **pos})["plan"]
    assert bool(plan["swaps"]) == swaps, (name, plan)
    assert sorted(plan["left"]) == sorted(left), (name, plan)
    assert plan["penalty"] == penalty, (name, plan)


def test_the_review_grades_against_a_turn_that_keeps_no_okey_missed_swap(tmp_path) -> None:
    """The review grades an opened turn against best_turn (it was once misled). Seat 2 holds
    B9 K9 next to the table group R9 Y9 *B9 (okey K1) and lays nothing off. Every other table meld
    is a full group, so an okey taken by completing the group (S2) could only be kept: the best
    turn lays K9 off, 9 points better than what was played, and no swap is suggested."""
    from golden.builder import LogFile

    from analysis.game import read_file, replay_game
    from analysis.review import review_game

    f = LogFile()
    g = f.game("sw", variant="101", rules={"katlamali": False}, hands=1)
    kit1 = ["R10 Y10 B10 K10", "R11 Y11 B11 K11", "R12 Y12 B12 K12", "R9 Y9 K1>B9"]  # 159
    kit2 = ["R5 Y5 B5 K5", "R6 Y6 B6 K6", "R7 Y7 B7 K7", "R8 Y8 B8 K8"]  # 104
    h = g.hand(1, starter=0, indicator="K13", deck="R1 Y1 B1 R3 Y3 B3 R4",
               racks={1: " ".join(x.split(">")[0] for m in kit1 for x in m.split()) + " *",
                      2: " ".join(x for m in kit2 for x in m.split()) + " B9 K9 R2 Y4 B13 *"})
    h.discard(0, next(t for t in h.rack(0) if t not in ("K1", "J", "K9")))
    h.draw(1)
    h.open(1, melds=kit1)
    h.discard(1, "R1")
    h.draw(2)
    h.open(2, melds=kit2)
    h.discard(2, "Y1")
    h.cycle([3, 0, 1])
    h.draw(2)
    line = h.discard(2, h.last_drawn)  # nothing laid off
    log = tmp_path / "sw.jsonl"
    log.write_text(f.text(), encoding="utf-8")
    res = replay_game(read_file(log).games[0], keep_steps=True)
    assert res.hands[0].error is None, res.hands[0].error
    d = next(d for hv in review_game(res).hands for d in hv.decisions if d.seat == 2 and d.opened_before)
    assert d.line <= line
    assert d.best["turn"]["swaps"] == [] and d.best["turn"]["layoffs"] == [{"meld": 3, "tiles": ["K9"]}]
    # R2 Y4 B3 B9 B13 left: 31, where the swap would keep the okey: R2 Y4 B3 B13 + 1 + 101 = 124
    assert d.best["turn"]["penalty"] == 31 and d.exposure_best == 31 and d.exposure_played == 40
    assert not [m for m in d.mistakes if m.category == "missed_swap"]
