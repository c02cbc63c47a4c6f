"""Positions the belief tests share (tests/test_belief.py, tests/test_reading.py): a state well
into a sample hand, and the same hand with its hidden tiles dealt again."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from pathlib import Path

from analysis.game import HandState
from analysis.game.replay import read_and_replay

ROOT = Path(__file__).resolve().parents[1]


@cache
def mid_hand() -> HandState:
    """A state of the sample's first game well into its first hand (discards on every pile)."""
    games, _ = read_and_replay(str(ROOT / "data/sample/games.jsonl.gz"), keep_steps=True)
    return next(s.state for s in games[0].hands[0].steps[30:] if s.state.phase == "draw" and all(s.state.discards))


def shuffled_hidden(st: HandState, seat: int) -> HandState:
    """The same hand with the tiles of the other racks and the deck dealt among them again (same
    sizes): everything ``seat`` cannot see, changed."""
    others = [s for s in range(4) if s != seat]
    pool = [t for s in others for t in st.racks[s]] + list(st.deck or ())
    random.Random(5).shuffle(pool)
    racks = list(st.racks)
    k = 0
    for s in others:
        racks[s] = tuple(pool[k:k + len(st.racks[s])])
        k += len(st.racks[s])
    return replace(st, racks=tuple(racks), deck=tuple(pool[k:]) if st.deck is not None else None)
