"""Solver timing against the integer program (issue 3, Performance).

Prints median/p90/p99 per call of ``best_points_opening`` and of the MILP (tests/solver_milp.py,
scipy/HiGHS) on (a) random 22-tile deals and (b) dense 22-tile racks (two colours plus both
okeys), the ratios, and an opened player's best turn with ten table melds. Our solver is timed
cold (fresh process) and again on a second, unseen set, and with the compiled kernel
(analysis/solver/kernel.c) switched off, the pure-Python search with its memo tables starting empty,
to show what the kernel buys. Times are CPU
time of this process (``time.process_time``): the machine is shared, and the ratios are what
compare.

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
from analysis.solver import best_points_opening, best_turn  # noqa: E402
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


def pure(fn):
    """``fn`` with the compiled kernel switched off (solver_core.search_py, warm memo tables)."""
    def run(*a):
        kernel, C.KERNEL = C.KERNEL, None
        try:
            return fn(*a)
        finally:
            C.KERNEL = kernel
    return run


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
