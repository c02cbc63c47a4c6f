"""The compiled rollout model proven against the engine (issue 20): every model hand, written as a
v1 log and replayed by analysis.game, has no illegal move and the engine's result, scores and
penalties (seat, points, rule) are the model's. bench/rollout_replay.py runs 50,000 hands."""

from __future__ import annotations

from collections import Counter

import pytest

from analysis.evaluate import fast
from analysis.evaluate.proof import CASES, check_hand

pytestmark = pytest.mark.skipif(fast.COMPILED is None, reason="the compiled rollout is not built")

SEEDS = 167  # 6 cases x 167 seeds x (from the deal, from mid-hand) = 2,004 hands


def test_2000_model_hands_replay_with_no_illegal_move_and_the_engines_scores_and_penalties() -> None:
    bad = []
    seen: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    hands = 0
    for variant, overrides in CASES:
        for seed in range(SEEDS):
            for mid in (False, True):
                c = check_hand(variant, overrides, seed, midhand=mid)
                hands += 1
                seen[c.result] += 1
                rules.update(p[2] for p in c.penalties)
                for e in c.log:
                    if e["type"] in ("swap", "show", "declare"):
                        rules[e["type"]] += 1
                    if e["type"] == "open":
                        rules["open pairs" if "pairs" in e else "open melds"] += 1
                if not c.ok:
                    bad.append((variant, overrides, seed, mid, c.why))
    assert hands >= 2000
    assert not bad, f"{len(bad)} of {hands} hands differ from the engine, first: {bad[:3]}"
    # the proof covers what the model plays: finishes and exhausted decks, both kinds of opening,
    # O7 shows, O10 declarations, S1-S3 swaps and the penalties a policy can incur
    assert seen["finish"] > 500 and seen["exhausted"] > 300
    for what in ("open pairs", "open melds", "swap", "show", "declare", "O8", "X5", "X6"):
        assert rules[what] > 0, f"no {what} in {hands} hands: {rules}"
