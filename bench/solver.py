"""Solver timing against the integer program (docs/figures.md, Solver), and the pairs opening
against a closed-form baseline.

Prints median/p90/p99 per call of ``best_points_opening`` and of the MILP (tests/solver_milp.py,
scipy/HiGHS) on (a) random 22-tile deals and (b) dense 22-tile racks (two colours plus both
okeys), the ratios, and an opened player's best turn with ten table melds. Our solver is timed
cold (fresh process) and again on a second, unseen set, and with the compiled kernel
(analysis/solver/kernel.c) switched off, the pure-Python search with its memo tables starting empty,
to show what the kernel buys. Times are CPU
time of this process (``time.process_time``): the machine is shared, and the ratios are what
compare.

The pairs section times ``best_pairs_opening`` (the closed form of analysis/solver/pairs.py,
with the plan: placed pairs, tiles left, P2/P5/O7) against ``peer_pairs`` below, a port of a
public peer's closed form (count the pairs, let okeys complete the highest singles, two okeys
pair; iltan987/okey101 ``findPairs`` with its ``toCounts``), on the same racks, alternating rack by
rack, and against the exact search it replaced (tests/pairs_reference.py).

    python bench/solver.py [--n 500] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.solver import search as C  # noqa: E402
from analysis.game import HandState, Opening  # noqa: E402
from analysis.game import PRESETS  # noqa: E402
from analysis.game import FACES, FALSE_OKEY  # noqa: E402
from analysis.solver import best_pairs_opening, best_points_opening, best_turn  # noqa: E402
from tests.pairs_reference import pairs_reference  # noqa: E402
from tests.solver_milp import milp_opening  # noqa: E402
from tests.test_solver_milp import deal, dense, random_table  # noqa: E402

R = PRESETS["101"]


def stats(ts: list[float]) -> tuple[float, float, float]:
    s = sorted(ts)
    q = lambda p: s[min(len(s) - 1, int(p * len(s)))] * 1e3  # noqa: E731
    return statistics.median(s) * 1e3, q(0.90), q(0.99)


def timed(fn, items) -> list[float]:
    out = []
    for it in items:
        t0 = time.process_time()
        fn(*it)
        out.append(time.process_time() - t0)
    return out


def line(name: str, ts: list[float]) -> tuple[float, float, float]:
    m, p90, p99 = stats(ts)
    print(f"  {name:<26} median {m:8.3f} ms   p90 {p90:8.3f} ms   p99 {p99:8.3f} ms")
    return m, p90, p99


def line_us(name: str, ts: list[float]) -> tuple[float, float, float]:
    m, p90, p99 = stats(ts)
    print(f"  {name:<26} median {m * 1e3:7.2f} us   p90 {p90 * 1e3:7.2f} us   p99 {p99 * 1e3:7.2f} us")
    return m, p90, p99


def pure(fn):
    """``fn`` with the compiled kernel switched off (solver_core.search_py, warm memo tables)."""
    def run(*a):
        kernel, C.KERNEL = C.KERNEL, None
        try:
            return fn(*a)
        finally:
            C.KERNEL = kernel
    return run


def peer_pairs(rack, okey, okey_penalty=101, pairs_to_open=5) -> dict:
    """The baseline: the peer's closed form, ported line by line (its input is a face count
    vector and an okey count, so the counting is timed too). Not exact: it never keeps a tile to
    discard (P5) and never trades a natural pair for an okey; it has no P2 and no O7."""
    counts = [0] * 52
    jokers = 0
    for t in rack:
        if t is okey:
            jokers += 1
        else:
            counts[(okey if t is FALSE_OKEY else t).index] += 1
    pairs, singles = [], []
    for i, c in enumerate(counts):
        if c:
            face = FACES[i]
            for _ in range(c // 2):
                pairs.append(({"face": face, "joker": False}, {"face": face, "joker": False}))
            if c % 2:
                singles.append(face)
    singles.sort(key=lambda f: -f.number)
    while jokers > 0 and singles:
        face = singles.pop(0)
        pairs.append(({"face": face, "joker": False}, {"face": face, "joker": True}))
        jokers -= 1
    if jokers >= 2:
        pairs.append(({"face": None, "joker": True}, {"face": None, "joker": True}))
        jokers -= 2
    penalty = sum(f.number for f in singles) + jokers * okey_penalty
    return {"pairs": pairs, "leftover": singles, "leftoverJokers": jokers,
            "canOpen": len(pairs) >= pairs_to_open, "penalty": penalty}


def alternating(fns, items) -> list[list[float]]:
    """Each function on each item in turn, the order rotated from item to item, so load changes
    and warm caches favour none of them."""
    out: list[list[float]] = [[] for _ in fns]
    for i, it in enumerate(items):
        for j in range(len(fns)):
            k = (i + j) % len(fns)
            t0 = time.process_time()
            fns[k](*it)
            out[k].append(time.process_time() - t0)
    return out


def pairs_section(sets: dict) -> None:
    ours = lambda rack, okey: best_pairs_opening(rack, okey, rules=R)  # noqa: E731
    exact = lambda rack, okey: pairs_reference(rack, okey, R, None, None)  # noqa: E731
    for name, items in sets.items():
        print(f"pairs opening, {name} ({len(items)} racks of 22 tiles)")
        t_ours, t_peer, t_exact = alternating((ours, peer_pairs, exact), items)
        mo = line_us("best_pairs_opening", t_ours)
        mp = line_us("closed-form baseline", t_peer)
        me = line_us("exact search (reference)", t_exact)
        print(f"  ratio solver/baseline median {mo[0] / mp[0]:5.2f}x (p90 {mo[1] / mp[1]:5.2f}x)"
              f"   exact search/solver {me[0] / mo[0]:5.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    sets = {
        "deals": [deal(rng)[:2] for _ in range(a.n)],
        "dense": [dense(rng) for _ in range(a.n)],
    }
    unseen = {"deals": [deal(rng)[:2] for _ in range(a.n)], "dense": [dense(rng) for _ in range(a.n)]}
    ours = lambda rack, okey: best_points_opening(rack, okey, rules=R)  # noqa: E731
    for name in ("deals", "dense"):
        print(f"{name} ({a.n} racks of 22 tiles)")
        cold = line("solver, cold", timed(ours, sets[name]))
        warm = line("solver, warm (unseen set)", timed(ours, unseen[name]))
        py = line("pure Python, cold", timed(pure(ours), sets[name]))
        mi = line("MILP (scipy HiGHS)", timed(milp_opening, sets[name]))
        print(f"  ratio MILP/solver median: cold {mi[0] / cold[0]:6.1f}x   warm {mi[0] / warm[0]:6.1f}x"
              f"   p99 cold {mi[2] / cold[2]:5.1f}x   kernel/pure Python {py[0] / warm[0]:5.1f}x")
    pairs_section(sets)
    # an opened player's turn with ten table melds
    items = []
    for _ in range(200):
        rack, okey, _ = deal(rng, 14)
        table = random_table(rng, okey, 10, okeys=2 - rack.count(okey))
        st = HandState(rules=R, hand=1, starter=0, indicator=okey, okey=okey, racks=(tuple(rack), (), (), ()),
                       deck=None, deck_count=40, discards=((), (), (), ()), table=table,
                       opened=(Opening("points", 120), None, None, None), turn=0, phase="play")
        items.append((st, 0))
    print("best turn, opened player, ten table melds (200 positions, 14-tile racks)")
    line("best_turn", timed(best_turn, items))
    line("best_turn, pure Python", timed(pure(best_turn), items))


if __name__ == "__main__":
    main()
