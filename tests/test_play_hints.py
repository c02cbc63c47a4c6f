"""The Play page's hints are the review's verdict: a scripted person asks for a hint at every
decision and plays its best; the hand's stored log, replayed, gives the same decisions at the same
steps, and the review's judge (analysis.review.deep.judge_spot) charges none of them and names the
hint's best as its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from analysis.game import read_file, replay_game
from analysis.review.deep import judge_spot
from analysis.review.spots import seed_game, spot_at
from analysis.selfplay import new_game
from dashboard.state.play_games import log_text
from dashboard.state.play_hints import best_three


@pytest.mark.parametrize("seed", ["h1", "h4"])
def test_a_hand_played_by_the_hints_is_judged_without_a_cost_and_the_same_best(seed: str, tmp_path: Path) -> None:
    g = new_game("oyun-20261205-120000", seats=["person", "greedy", "greedy", "greedy"], names=list("abcd"),
                 seed=seed, starter=1, hands=1)
    asked: list[tuple[int, dict[str, Any]]] = []
    kinds: set[str] = set()
    while True:
        g.bots_until_person()
        if g.over:
            break
        hints = best_three(g, 0)
        assert 1 <= len(hints) <= 3, g.state()
        means = [h["mean"] for h in hints]
        assert None in means or means == sorted(means)  # best first (None: a forced decision)
        asked.append((len(g.hand_result().steps) - 1, hints[0]))
        kinds.add(hints[0]["kind"])
        for e in hints[0]["events"]:  # the hint's best, played
            g.person(dict(e))
            if g.over:
                break
    assert kinds == {"take", "place", "discard"} and len(asked) >= 8  # an opening among them
    path = tmp_path / "hand.jsonl"
    path.write_text(log_text(g), encoding="utf-8")
    res = replay_game(read_file(str(path)).games[0], keep_steps=True)
    hr = res.hands[0]
    assert hr.error is None and not hr.mismatches
    for step, best in asked:
        spot = spot_at(hr, step, best["kind"], 0)
        assert spot is not None, (step, best)  # the review finds the decision where the hint was asked
        c = judge_spot(seed_game(res), hr, spot)
        assert c is not None
        assert c.cost == 0, (step, best, c.best)
        if c.forced is None:
            assert c.best == best["label"] and abs(c.expected_best - best["mean"]) <= 0.06, (step, best, c.best)


def test_no_hint_for_a_seat_whose_turn_it_is_not() -> None:
    g = new_game("oyun-20261205-120001", seats=["person", "greedy", "greedy", "greedy"], names=list("abcd"),
                 seed="h3", starter=1, hands=1)
    assert g.bot_to_move() == 1 and best_three(g, 0) == []
