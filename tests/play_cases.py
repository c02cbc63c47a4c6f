"""Games with a fixed first hand for the Play page's tests: seat 0 (and seat 1) get the racks a
test needs, the rest is dealt in order from what is left."""

from __future__ import annotations

from collections import Counter

from analysis.game import Tile, full_set
from analysis.selfplay.table import PlayGame, new_game

OPENER = ("R10 R11 R12 R13 B10 B11 B12 B13 K7 K8 K9 K10 K4 K5 K6 Y1 Y1 Y2 Y2 Y3 Y3 B1").split()


def fixed_game(rack0: list[str], *, indicator: str = "Y9", seats: list[str] | None = None, starter: int = 0,
               rack1: list[str] | None = None, variant: str = "101", gid: str = "oyun-20261205-000000") -> PlayGame:
    """A game whose first hand gives seat 0 ``rack0`` (seat 1 ``rack1``); the rest dealt in order."""
    g = new_game(gid, variant=variant, seats=seats or ["person"] * 4, names=["A", "B", "C", "D"],
                 seed="1", starter=starter)
    left = Counter(full_set())
    left[Tile.parse(indicator)] -= 1
    racks: list[list[str]] = [[], [], [], []]
    fixed = {0: rack0, 1: rack1 or []}
    for s, r in fixed.items():
        for x in r:
            left[Tile.parse(x)] -= 1
            racks[s].append(x)
    rest = sorted(t for t, n in left.items() for _ in range(n))
    rest_s = [str(t) for t in rest]
    rules = g.table_rules()
    for s in range(4):
        want = rules.deal + (1 if s == starter else 0)
        while len(racks[s]) < want:
            racks[s].append(rest_s.pop(0))
    g.dealt, g._states = False, None
    g.indicator, g.racks, g.deck = indicator, racks, rest_s
    g.deal()
    return g


