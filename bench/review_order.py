"""Does the deep review order the players as their strength does? (docs/calibration.md, "Mixed tables").

Runs what a user would, through the ``istaka`` command line: simulates short games with one
``random``, ``greedy``, ``solver`` and ``expert`` seat at each table (the seats rotate from game to
game), imports them into a fresh database, deep-analyses them and reads every game back with
``istaka report GAME --json``. Prints per bot: hands, graded decisions (every decision of a deep
review), deep-review cost per hand with a 95% interval over games, accuracy, and the real hand
score per hand; and whether the cost orders the bots random > greedy > solver > expert.

    python bench/review_order.py [--games 8] [--hands 3] [--variant 101] [--seed 5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

BOTS = ("random", "greedy", "solver", "expert")


def istaka(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    if out.returncode != 0:
        raise SystemExit(f"istaka {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()[-400:]}")
    return out.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--variant", default="101")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "order.duckdb")
        logs = []
        for i in range(a.games):  # one file per seating: every bot sits in every seat
            order = BOTS[i % 4:] + BOTS[:i % 4]
            log = str(Path(tmp) / f"g{i}.jsonl")
            istaka("simulate", "--games", "1", "--hands", str(a.hands), "--variant", a.variant, "--bots",
                   ",".join(order), "--seed", str(a.seed * 1000 + i), "--out", log, "--quiet")
            logs.append((log, order))
        istaka("import", *[x for x, _ in logs], "--db", db, "--no-progress")
        istaka("analyze", "--deep", "--db", db, "--jobs", str(a.jobs), "--no-progress")
        cost: dict[str, list[float]] = defaultdict(list)
        hands: dict[str, int] = defaultdict(int)
        graded: dict[str, int] = defaultdict(int)
        at_best: dict[str, int] = defaultdict(int)
        ungraded = 0
        for log, order in logs:
            gid = json.loads(Path(log).read_text().splitlines()[0])["game"]
            rep = json.loads(istaka("report", gid, "--json", "--db", db))
            assert rep["depth"] == "deep", rep["depth"]
            for s in rep["seats"]:
                bot = order[s["seat"]]
                cost[bot].append(s["cost"] / max(1, s["hands"]))
                hands[bot] += s["hands"]
                graded[bot] += s["graded"]
                at_best[bot] += round(s["accuracy"] * s["graded"] / 100) if s["graded"] else 0
            ungraded += sum(1 for d in rep["decisions"] if d.get("cost") is None)
    wall = time.perf_counter() - t0
    print(f"deep review of {a.games} {a.variant} games x {a.hands} hands, one seat per bot; {wall:.0f} s wall")
    print(f"{'bot':8} {'hands':>6} {'graded':>7} {'cost / hand (95% CI over games)':>34} {'accuracy':>9}")
    means = {}
    for b in BOTS:
        xs = cost[b]
        m = statistics.mean(xs)
        h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan
        means[b] = m
        acc = 100.0 * at_best[b] / graded[b] if graded[b] else math.nan
        print(f"{b:8} {hands[b]:6d} {graded[b]:7d} {m:18.1f} [{m - h:6.1f}, {m + h:6.1f}] {acc:8.1f}%")
    order_ok = means["random"] > means["greedy"] > means["solver"] > means["expert"]
    print(f"decisions without a cost: {ungraded}; cost orders random > greedy > solver > expert: "
          f"{'yes' if order_ok else 'NO'}")


if __name__ == "__main__":
    main()
