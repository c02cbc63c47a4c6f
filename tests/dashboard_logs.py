"""Small legal v1 logs for the dashboard's tests and benchmark (written by hand, no simulator).

Hand 1 of every game is scripted so that the table shows everything a replay must draw:
seat 1 opens with per (an okey standing for K12 inside), seat 3 opens with çift, lays off K8
and swaps K12 for the okey (S1, X6 for seat 1), seat 1 finishes by placing three per; seats 0
and 2 never open. The filler tiles come from a seeded shuffle. Later hands (``hands`` > 1) are
draw-and-discard hands until the deck runs out (E1), so games differ in length and scores.
Every log is replayed by the engine in the tests: a script bug shows up as an invalid game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

PLAYERS = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
OPEN_MELDS = [["K9", "K10", "K11", "R6>K12"], ["Y7", "B7", "K7"], ["B10", "B11", "B12", "B13"]]  # 109
LATER_MELDS = [["R1", "R2", "R3", "R4"], ["Y11", "Y12", "Y13"], ["K1", "Y1", "B1"]]
SEAT1 = ["K9", "K10", "K11", "R6", "Y7", "B7", "K7", "B10", "B11", "B12", "B13",
         "R1", "R2", "R3", "R4", "K1", "Y1", "B1", "Y11", "Y12", "K13"]
PAIRS = [["B2", "B2"], ["K3", "K3"], ["Y4", "Y4"], ["B5", "B5"], ["K6", "K6"]]
SEAT3_FIXED = [t for p in PAIRS for t in p] + ["K12"]


def full_set() -> list[str]:
    return sorted([f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["J", "J"])


def _scripted_hand(gid: str, rng: random.Random) -> list[dict[str, Any]]:
    pool = full_set()
    for t in SEAT1 + SEAT3_FIXED + ["R5", "K8", "Y13"]:  # R5: the indicator; K8, Y13: drawn later
        pool.remove(t)
    rng.shuffle(pool)
    racks = [pool[:22], list(SEAT1), pool[22:43], SEAT3_FIXED + pool[43:53]]
    rest = pool[53:]
    deck = rest[:6] + ["K8"] + rest[6:7] + ["Y13"] + rest[7:]
    evs: list[dict[str, Any]] = [{"type": "hand", "game": gid, "hand": 1, "starter": 0, "indicator": "R5",
                                  "racks": racks, "deck": deck}]
    t = 0
    d = iter(deck)

    def ev(kind: str, seat: int, **kw: Any) -> None:
        nonlocal t
        t += rng.randint(800, 9000)
        evs.append({"type": kind, "game": gid, "hand": 1, "seat": seat, **kw, "t": t})

    def cycle(seat: int) -> None:
        tile = next(d)
        ev("draw", seat, tile=tile)
        ev("discard", seat, tile=tile)

    ev("discard", 0, tile=racks[0][-1])
    tile = next(d)
    ev("draw", 1, tile=tile)
    ev("open", 1, melds=OPEN_MELDS)
    ev("discard", 1, tile=tile)
    cycle(2)
    tile = next(d)
    ev("draw", 3, tile=tile)
    ev("open", 3, pairs=PAIRS)
    ev("discard", 3, tile=tile)
    cycle(0)
    cycle(1)
    cycle(2)
    ev("draw", 3, tile=next(d))  # K8
    ev("layoff", 3, meld=0, tiles=["K8"])
    ev("swap", 3, meld=0, tiles=["K12"])
    ev("discard", 3, tile=racks[3][-1])
    cycle(0)
    ev("draw", 1, tile=next(d))  # Y13
    ev("meld", 1, melds=LATER_MELDS)
    ev("discard", 1, tile="K13")  # the finishing tile
    return evs


def _plain_hand(gid: str, n: int, starter: int, rng: random.Random) -> list[dict[str, Any]]:
    pool = full_set()
    rng.shuffle(pool)
    indicator = next(x for x in pool if x != "J")
    pool.remove(indicator)
    racks: list[list[str]] = []
    for s in range(4):
        k = 22 if s == starter else 21
        racks.append(pool[:k])
        pool = pool[k:]
    evs: list[dict[str, Any]] = [{"type": "hand", "game": gid, "hand": n, "starter": starter,
                                  "indicator": indicator, "racks": racks, "deck": list(pool)}]
    evs.append({"type": "discard", "game": gid, "hand": n, "seat": starter, "tile": racks[starter][0]})
    seat = (starter + 1) % 4
    for tile in pool:
        evs.append({"type": "draw", "game": gid, "hand": n, "seat": seat, "tile": tile})
        evs.append({"type": "discard", "game": gid, "hand": n, "seat": seat, "tile": tile})
        seat = (seat + 1) % 4
    return evs


def make_game(gid: str, *, players: Sequence[str] = PLAYERS, seed: int = 0, hands: int = 1,
              started: str = "2026-01-05T20:00:00+03:00", site: str = "kahve") -> list[dict[str, Any]]:
    """One game: the scripted hand 1, then ``hands - 1`` exhausted hands."""
    rng = random.Random(seed)
    evs: list[dict[str, Any]] = [{"type": "game", "game": gid, "variant": "101", "players": list(players),
                                  "hands": hands, "started": started, "site": site}]
    evs += _scripted_hand(gid, rng)
    for n in range(2, hands + 1):
        evs += _plain_hand(gid, n, (n - 1) % 4, rng)
    return evs


def write_log(path: Path, games: Iterable[list[dict[str, Any]]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for g in games:
            fh.writelines(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in g)
    return path


def many_games(n: int, *, hands: int = 2, seed: int = 1) -> list[list[dict[str, Any]]]:
    """``n`` games among six players, on different dates and sites."""
    rng = random.Random(seed)
    names = ["Ali", "Ayşe", "Mehmet", "Zeynep", "Deniz", "Emre"]
    out = []
    for i in range(n):
        day = 1 + i % 28
        month = 1 + (i // 28) % 12
        out.append(make_game(f"g{i:04d}", players=rng.sample(names, 4), seed=seed * 100000 + i, hands=hands,
                             started=f"2026-{month:02d}-{day:02d}T20:00:00+03:00",
                             site=("kahve", "online")[i % 2]))
    return out
