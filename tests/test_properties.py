"""Invariants over simulated games: every game the bots play is legal, conserves the
106 tiles after every event, replays from its written log to the same results, records the
engine's own penalties and scores, and survives write(read(x)) byte for byte."""

from __future__ import annotations

import pytest

from analysis.game import check_conservation
from analysis.game.log import iter_lines, read_lines
from analysis.game import replay_game
from analysis.selfplay import GameSpec, Player, play_game

VARIANTS = ("101", "101-classic", "51")
OVERRIDES = (
    None,
    {"esli": True},
    {"cezali": False},
    {"katlamali": False, "unopened_penalty": 101},
    {"esli": True, "x5_factor": 20},
    {"gosterge": True, "layoff_opening_turn": True},
    {"open_below_finishing": "yes", "run_end_cap": True},
)
TABLES = (
    ("greedy", "greedy", "greedy", "greedy"),
    ("solver", "greedy", "random", "greedy"),
    ("random", "random", "random", "random"),
    ("solver", "solver", "solver", "solver"),
    ("greedy", "random", "solver", "random"),
)
SEEDS = range(200)


def spec_for(seed: int) -> GameSpec:
    """Seed -> a game: presets, overrides and tables spread over the seeds."""
    variant = VARIANTS[seed % 3]
    rules = OVERRIDES[(seed // 3) % len(OVERRIDES)]
    bots = TABLES[(seed // 7) % len(TABLES)]
    players = tuple(Player(f"P{i}", b) for i, b in enumerate(bots))
    return GameSpec(f"prop-{seed}", players, variant, rules, seed=str(seed), hands=1 + seed % 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_simulated_game_is_legal_conserves_tiles_and_replays_to_the_same_scores(seed: int) -> None:
    rec = play_game(spec_for(seed))
    assert rec.refused == 0, "a bot proposed a move the engine refused"
    text = "".join(rec.lines())
    rr = read_lines(text.splitlines(keepends=True), f"seed-{seed}")
    assert rr.errors == [] and len(rr.games) == 1
    # write(read(x)) is the canonical text itself
    assert "".join(iter_lines(rr.games)) == text
    res = replay_game(rr.games[0], keep_steps=True)
    assert res.valid, [h.error for h in res.hands if h.error]
    # recorded `end` scores and `penalty` events equal what the engine computes on replay
    assert res.agrees, [h.mismatches for h in res.hands if h.mismatches]
    assert all(h.recorded_end is not None for h in res.hands)
    # T1 after every event
    for h in res.hands:
        for step in h.steps:
            check_conservation(step.state)
    # the replay of the written log ends every hand where the game loop ended it
    assert len(res.hands) == len(rec.finals)
    for h, final in zip(res.hands, rec.finals):
        assert h.result == final.result
        assert h.scores == final.scores
        assert [(p.seat, p.points, p.rule) for p in h.penalties] == \
            [(p.seat, p.points, p.rule) for p in final.penalties]
        last = h.steps[-1].state
        assert last.racks == final.racks and last.table == final.table
        assert last.discards == final.discards


def test_property_seeds_cover_every_preset_table_and_override() -> None:
    specs = [spec_for(s) for s in SEEDS]
    assert {s.variant for s in specs} == set(VARIANTS)
    assert {tuple(p.bot for p in s.players) for s in specs} == set(TABLES)
    for v in VARIANTS:
        assert {repr(s.rules) for s in specs if s.variant == v} == {repr(o) for o in OVERRIDES}
