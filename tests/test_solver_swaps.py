"""Taking an okey off the table (S1, S2) is worth it only when the rack it leaves is better
(issue 13). The freed okey comes into the rack; a plan that cannot place it again keeps it and is
charged for it (E5: its face value, + 101 for an opened player). Each position is asked through
``istaka solve``'s position reader, with the compiled kernel and with the pure-Python search.
"""

from __future__ import annotations

from typing import Any

import pytest

from analysis.cli.solve import solve_position
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
