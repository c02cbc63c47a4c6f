"""The lesson's reason is drawn from the parts of its cost and never contradicts them: over the
charged decisions of sample games, each reason names the largest part of the cost (played minus
best, part by part, on the same worlds), and the parts add up to the cost's difference."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.game import read_and_replay
from analysis.review.deep import deep_review_hand
from analysis.review.lesson import cost_split, sentence
from analysis.review.reasons import RATE_GAP, REASON_TEXT

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"


@pytest.fixture(scope="module")
def charged() -> list:
    games, _ = read_and_replay(str(SAMPLE), keep_steps=True)
    out = []
    for res in games[:6]:
        for i, hr in enumerate(res.hands[:2], 1):
            rv = deep_review_hand(res.game, hr, i, worlds=16)
            out += [c for d in rv.decisions for c in d.choices if c.cost > 0]
    return out


def test_every_charged_lesson_gives_a_reason_drawn_from_the_parts(charged) -> None:
    assert len(charged) >= 20
    with_reason = [c for c in charged if (c.reason or {}).get("code", "").startswith("p_")]
    assert len(with_reason) / len(charged) >= 0.9, (len(with_reason), len(charged))


def test_no_reason_contradicts_the_parts(charged) -> None:
    for c in charged:
        split = cost_split(c)
        assert sum(split.values()) == pytest.approx(c.expected_played - c.expected_best, abs=0.1)
        why = c.reason or {}
        if not why.get("code", "").startswith("p_"):
            continue
        largest = max((k for k in split if k != "paid"), key=lambda k: split[k])
        assert why["part"] == largest and split[largest] > 0, (why, split)
        if why["code"] in ("p_finishes", "p_blocks_finish", "p_blocks_opening"):
            mine = next(x for x in c.candidates if x["played"])["rates"]
            best = c.candidates[0]["rates"]
            rate = {"p_finishes": "finish", "p_blocks_finish": "next_finishes",
                    "p_blocks_opening": "next_opens"}[why["code"]]
            gap = best[rate] - mine[rate] if rate == "finish" else mine[rate] - best[rate]
            assert gap >= RATE_GAP - 1e-9  # the rate named moves the way the reason says
        for lang in ("tr", "en"):
            assert why["code"] in REASON_TEXT and "{" not in sentence(c, lang)


def test_partners_show_the_seats_own_expected_apart_and_say_your_team_G4() -> None:
    """Partners: a decision's value is the team's (G4); each candidate keeps the seat's own value
    beside it, the hand's expected score beside the seat's actual one is its own, and the lesson
    says "your team"."""
    from analysis.review.lesson import hand_expected

    games, _ = read_and_replay(str(SAMPLE), keep_steps=True)
    res = next(r for r in games if r.rules.esli and r.variant == "101")
    hr = res.hands[0]
    rv = deep_review_hand(res.game, hr, 1, worlds=16)
    graded = [c for d in rv.decisions for c in d.choices if c.graded]
    assert graded and all(x.get("team") and x.get("own") is not None for c in graded for x in c.candidates)
    assert any(abs(x["own"] - x["expected"]) > 1 for c in graded for x in c.candidates)  # not the team's
    exp = hand_expected(rv, None)
    for d in rv.decisions:
        first = next((c for c in d.choices if c.graded), None)
        if first is not None and exp[d.seat] is not None:
            mine = next(x for x in first.candidates if x["played"])
            assert exp[d.seat] == pytest.approx(mine["own"])
            break
    costly = [c for c in graded if c.cost > 0]
    for c in costly[:3]:
        assert "your team's expected score" in sentence(c, "en") and "takımının" in sentence(c, "tr")
