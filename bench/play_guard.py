"""The Play page's mistake guard (training): how long a move waits for its verdict before it is
applied or held with a warning, against a hint on the same decision (the baseline), and whether the
review of the stored hand charges what the guard warned.

    python bench/play_guard.py [--decisions 60] [--seed 1]

A scripted person against three greedy bots plays, at each decision, either the hint's best (its
events one by one) or a naive move (draw; discard the highest tile, never placing), half and half
by a seeded coin. Timed, on one core:

- the guard on a naive move, nothing judged before (``large_mistakes``, cold): by decision
  (a draw or take; a discard, which judges the wait as well when nothing was placed);
- a hint on the same decision (``best_three``, the baseline: the page's slowest single ask), on
  a copy of the game under another id (no verdict kept from the guard);
- the guard on each event of the hint's best after the hint (the verdicts kept: what a person
  who asked for a hint waits).

Each hand is then stored, replayed and reviewed at the warned decisions: the review's cost must
equal the guard's. Prints medians, the ratio to the hint and the count of warnings.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]
os.environ.setdefault("ISTAKA_RAISE_ERRORS", "1")

from analysis.game import read_file, replay_game  # noqa: E402
from analysis.review.deep import judge_spot  # noqa: E402
from analysis.review.spots import seed_game, spot_at  # noqa: E402
from analysis.selfplay import PlayGame, new_game  # noqa: E402
from dashboard.state.play_games import log_text  # noqa: E402
from dashboard.state.play_hints import LARGE_MISTAKE, best_three, large_mistakes  # noqa: E402


def _med(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.0f} ms (n={len(xs)}, p90 {sorted(xs)[int(0.9 * (len(xs) - 1))] * 1000:.0f}, " \
           f"max {max(xs) * 1000:.0f})" if xs else "—"


def run(decisions: int, seed: int) -> None:
    rng = random.Random(seed)
    cold: dict[str, list[float]] = {"take": [], "discard": []}
    hint: list[float] = []
    cached: list[float] = []
    warned = agree = checked = 0
    n = game = 0
    with tempfile.TemporaryDirectory() as d:
        while n < decisions:
            game += 1
            g = new_game(f"oyun-bench-g{seed}-{game}", seats=["person", "greedy", "greedy", "greedy"],
                         names=["p", "a", "b", "c"], seed=f"bench-guard-{seed}-{game}", starter=1, hands=1)
            warns: list[tuple[int, object]] = []
            while True:
                g.bots_until_person()
                if g.over:
                    break
                s = g.state()
                assert s is not None
                if s.phase == "draw":
                    naive = {"type": "draw", "seat": 0}
                else:
                    tiles = sorted(s.racks[0], key=lambda x: (x != s.okey and not x.is_joker, x.number))
                    naive = {"type": "discard", "seat": 0, "tile": str(tiles[-1])}
                step = len(g.hand_result().steps) - 1
                follow = s.took is not None and s.took_unopened  # a take must open (P2): the hint's line
                found = []
                if not follow:
                    t0 = time.process_time()
                    found = large_mistakes(g, 0, naive)
                    cold["take" if naive["type"] == "draw" else "discard"].append(time.process_time() - t0)
                twin = PlayGame.from_dict(g.to_dict())  # the same position under another id: nothing kept
                twin.id = f"{g.id}-b"
                t0 = time.process_time()
                best_three(twin, 0)
                hint.append(time.process_time() - t0)
                best = best_three(g, 0)  # the page's hint (its verdicts kept for the guard below)
                n += 1
                if (follow or rng.random() < 0.5) and best:
                    for e in best[0]["events"]:  # the hint's best, each event guarded then played
                        t0 = time.process_time()
                        large_mistakes(g, 0, e)
                        cached.append(time.process_time() - t0)
                        g.person(dict(e))
                        if g.over:
                            break
                    continue
                warned += bool(found)
                warns += [(step, m) for m in found]
                g.person(naive)
            path = Path(d) / f"{g.id}.jsonl"
            path.write_text(log_text(g), encoding="utf-8")
            res = replay_game(read_file(str(path)).games[0], keep_steps=True)
            hr = res.hands[0]
            for step, m in warns:
                spot = spot_at(hr, step, m.kind, 0)  # type: ignore[attr-defined]
                c = judge_spot(seed_game(res), hr, spot) if spot is not None else None
                checked += 1
                agree += c is not None and round(c.cost, 1) == m.cost  # type: ignore[attr-defined]
    allcold = cold["take"] + cold["discard"]
    print(f"decisions {n} in {game} hands, threshold {LARGE_MISTAKE:.0f} points, load {os.getloadavg()[0]:.1f}")
    print(f"guard, cold, any decision: {_med(allcold)}")
    print(f"  draw or take: {_med(cold['take'])}")
    print(f"  discard (with the wait): {_med(cold['discard'])}")
    print(f"hint on the same decisions (baseline): {_med(hint)}")
    print(f"ratio guard/hint (medians): {statistics.median(allcold) / statistics.median(hint):.2f}")
    print(f"guard on the hint's best after the hint (verdicts kept): {_med(cached)}")
    print(f"naive moves warned: {warned}; warned decisions the review charged the same: {agree}/{checked}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    run(a.decisions, a.seed)


if __name__ == "__main__":
    main()
