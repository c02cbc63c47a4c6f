"""The compiled rollout model proven against the engine: every model hand, written as a
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


def test_a_void_hands_proof_log_carries_no_penalty_E3() -> None:
    """Seats 1 and 2 opened 5 pairs; seat 3 takes seat 2's K7 to open 6 pairs and discards (X5 to
    seat 2: 70), then seat 0 opens 7 pairs, the fourth pairs opener: the hand is void and nobody
    is scored, so the model's log carries no penalty though the engine wrote one on the way."""
    from dataclasses import replace

    from test_evaluate import position

    from analysis.evaluate.proof import model_hand
    from analysis.game import Opening, apply
    from analysis.game.state import TableMeld
    from analysis.game.tiles import parse_placed

    seat3 = "K1 K1 K2 K2 K3 K3 K4 K4 K5 K5 K7 R8 R10 R12 Y8 Y10 Y12 B2 B4 B6 K11"
    seat0 = "R7 R7 R9 R9 R11 R11 Y7 Y7 Y9 Y9 Y11 Y11 B1 B1 R13 Y13 B3 B5 B7 K12 K10"
    pairs = {1: "R1 R2 R3 R4 R5", 2: "Y1 Y2 Y3 Y4 Y5"}
    on_table = " ".join(f"{t} {t}" for o in (1, 2) for t in pairs[o].split())
    st = position(rack=seat3, seat=3, sizes={0: 21, 1: 11, 2: 11}, known={0: seat0},
                  discards={1: on_table, 2: "K7"}, takeable=2, phase="draw", deck=20)
    table = tuple(TableMeld(i, o, "pair", (parse_placed(t, st.okey),) * 2, (o, o))
                  for i, (o, t) in enumerate((o, t) for o in (1, 2) for t in pairs[o].split()))
    st = replace(st, table=table, discards=(st.discards[0], (), st.discards[2], st.discards[3]),
                 opened=(None, Opening("pairs", 5), Opening("pairs", 5), None))
    vals, res, evs = model_hand(st, list(st.racks), list(st.deck))
    assert fast.RESULTS[res] == "void" and vals == (0, 0, 0, 0)
    assert [e["type"] for e in evs] == ["take", "open", "discard", "draw", "open", "end"]
    assert evs[-1] == {"type": "end", "reason": "void", "scores": [0, 0, 0, 0]}
    engine = st
    for e in evs[:-1]:
        engine = apply(engine, e)
    # the engine wrote X5 at seat 3's discard; the void hand scores nobody, and the log says so
    assert engine.result == "void" and [(p.seat, p.points, p.rule) for p in engine.penalties] == [(2, 70, "X5")]
    assert not [e for e in evs if e["type"] == "penalty"]
