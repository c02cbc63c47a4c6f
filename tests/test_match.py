"""``istaka match``: seeded and reproducible; the interval comes from paired differences."""

from __future__ import annotations

import json
import math

import pytest

from analysis.cli import main
from analysis.selfplay import duplicate_match, paired_ci
from analysis.selfplay.match import DealResult, summarize, t975


def test_paired_ci_on_synthetic_numbers() -> None:
    m, lo, hi = paired_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    # mean 3, sd sqrt(2.5), t(4) = 2.7764
    h = 2.7764 * math.sqrt(2.5) / math.sqrt(5)
    assert m == 3.0 and lo == pytest.approx(3 - h, abs=1e-3) and hi == pytest.approx(3 + h, abs=1e-3)
    # Student's t quantiles (the exact values to 4 places): a table read at the next row up gave
    # 2.179 for 11 degrees of freedom, an interval too narrow
    for df, t in ((1, 12.706), (3, 3.182), (4, 2.7764), (11, 2.2010), (30, 2.0423), (1000, 1.9623)):
        assert t975(df) == pytest.approx(t, abs=1e-3), df


def test_summary_pairs_a_with_b_by_deal_and_seat() -> None:
    # A is 10 better in every seat of deal 0 and 20 better in deal 1: a spread in the means of the
    # bots that is far larger than the spread of the paired differences
    res = [DealResult(0, (90, 190, -111, 40), (100, 200, -101, 50)),
           DealResult(1, (180, 0, 30, 10), (200, 20, 50, 30))]
    s = summarize("x", "y", "101", res, 1.0)
    assert s["hands"] == 8 and s["deals"] == 2
    assert s["bots"]["A"]["mean"] == pytest.approx((90 + 190 - 111 + 40 + 180 + 0 + 30 + 10) / 8)
    assert s["diff"] == pytest.approx(-15.0)
    _m, lo, hi = paired_ci([-10.0, -20.0])
    assert s["ci95"] == [pytest.approx(lo), pytest.approx(hi)]
    assert lo == pytest.approx(-15 - 12.706 * 5)  # sd of (-10, -20) is 7.07, / sqrt(2) = 5


def test_match_is_seeded_and_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    a = duplicate_match("greedy", "random", variant="51", n=3, seed=4)
    b = duplicate_match("greedy", "random", variant="51", n=3, seed=4)
    c = duplicate_match("greedy", "random", variant="51", n=3, seed=5)
    for x in (a, b, c):
        x.pop("seconds")
    assert a == b and a != c
    assert main(["match", "--bots", "greedy,random", "--variant", "51", "--deals", "3", "--seed", "4",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"variant", "deals", "hands", "bots", "diff", "ci95", "seconds"} <= set(out)
    assert set(out["bots"]["A"]) >= {"mean", "hands"} and set(out["bots"]["B"]) >= {"mean", "hands"}
    out.pop("seconds")
    assert out == a
    assert main(["match", "--bots", "greedy,nobody"]) == 2
