"""The compiled rollout model against the engine at scale: N model hands (default
50,000) over the presets and partner games of ``analysis.evaluate.proof.CASES``, half from the
deal and half from an engine state cut at a random move, each written as a v1 log and replayed by
``analysis.game``. Prints the hands, the illegal moves and score or penalty differences found
(target: 0), the results and penalties seen, and the CPU time (one core per job).

    python bench/rollout_replay.py [--hands 50000] [--jobs 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from typing import Any

from analysis.evaluate.proof import CASES, check_hand
from analysis.game import process_pool


def _chunk(args: tuple[int, int, int]) -> tuple[int, list[Any], Counter[str], float]:
    start, n, seed = args
    t0 = time.process_time()
    bad: list[Any] = []
    seen: Counter[str] = Counter()
    for i in range(start, start + n):
        variant, overrides = CASES[i % len(CASES)]
        c = check_hand(variant, overrides, seed * 1_000_000 + i // len(CASES), midhand=bool((i // len(CASES)) % 2))
        seen[f"{variant}{' esli' if overrides else ''} {c.result}"] += 1
        seen.update(f"penalty {p[2]}" for p in c.penalties)
        if not c.ok:
            bad.append((variant, overrides, i, c.why))
    return n, bad, seen, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    step = 1000
    work = [(s, min(step, a.hands - s), a.seed) for s in range(0, a.hands, step)]
    t0 = time.perf_counter()
    total, bad, seen, cpu = 0, [], Counter(), 0.0
    if a.jobs > 1:
        with process_pool(a.jobs) as ex:
            results = list(ex.map(_chunk, work))
    else:
        results = [_chunk(w) for w in work]
    for n, b, s, c in results:
        total += n
        bad += b
        seen.update(s)
        cpu += c
    print(f"model hands written as v1 logs and replayed: {total:,} ({len(CASES)} cases, half cut mid-hand)")
    print(f"illegal moves or differences from the engine (result, scores, penalties, totals): {len(bad)}")
    for x in bad[:10]:
        print("  ", x)
    for k in sorted(seen):
        print(f"  {k}: {seen[k]:,}")
    load = os.getloadavg()
    print(f"CPU {cpu:.1f} s ({cpu / max(total, 1) * 1000:.2f} ms a hand: model, log, read and replay), "
          f"wall {time.perf_counter() - t0:.1f} s, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
