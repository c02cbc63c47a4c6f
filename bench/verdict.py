"""Speed of the judge's verdict: one decision with every legal candidate priced (and its parts),
and a whole 11-hand ``101`` deep review, on one core.

Decisions are the deep review's own spots (:mod:`analysis.review.spots`) in the sample games:
every kind (show, take, place, discard). Each is judged by :func:`analysis.review.deep.judge_spot`
at the default worlds, as the deep review, Replay, Practice and ``istaka evaluate`` judge it. The
baseline, in the same run on the same spots: the same pricing without the parts (what the parts
cost), and the same spots priced on only the played and the recommended candidates (what pricing
every candidate costs). Times are CPU seconds of this process.

Targets: a decision median <= 50 ms and p90 <= 150 ms; an 11-hand ``101`` deep review <= 15 s.

    python bench/verdict.py [--spots N] [--game ID]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.evaluate import PRICE_WORLDS, candidates, price  # noqa: E402
from analysis.game import read_and_replay  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.review.deep import deep_review_game, judge_spot  # noqa: E402
from analysis.review.spots import hand_spots, seat_knows, seed_game, spot_seed  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", type=int, default=300, help="decisions timed (default 300)")
    ap.add_argument("--game", default="kahve-2026-09-07-1", help="the 11-hand 101 game reviewed whole")
    args = ap.parse_args()
    games, _ = read_and_replay(str(SAMPLE), keep_steps=True)
    pool = [(res, hr, s) for res in games if res.variant == "101" for hr in res.hands if hr.steps
            for turn in hand_spots(hr) for s in turn]
    random.Random(7).shuffle(pool)
    pool = pool[: args.spots]
    times, plain, two, kinds = [], [], [], {}
    for res, hr, s in pool:
        t0 = time.process_time()
        c = judge_spot(seed_game(res), hr, s)
        dt = time.process_time() - t0
        if c is None:
            continue
        times.append(dt)
        kinds.setdefault(s.kind, []).append(dt)
        if s.kind in ("take", "discard"):  # the baselines, on the same worlds
            st = hr.steps[s.step].state
            view = View.of(st, s.seat)
            cands = candidates(view, "draw" if s.kind == "take" else "discard")
            kn = seat_knows(hr.steps, s.step, s.seat)
            seed = spot_seed(seed_game(res), hr.hand, s)
            t0 = time.process_time()
            price(view, cands, seed=seed, worlds=PRICE_WORLDS, known=kn)
            plain.append(time.process_time() - t0)
            t0 = time.process_time()
            price(view, cands[:2], seed=seed, worlds=PRICE_WORLDS, known=kn)
            two.append(time.process_time() - t0)
    ms = [1000 * x for x in times]
    print(f"decisions: {len(ms)} (of {len(pool)} spots), {PRICE_WORLDS} worlds, every candidate priced with parts")
    print(f"  median {statistics.median(ms):.1f} ms, p90 {_pct(ms, 0.9):.1f} ms, max {max(ms):.1f} ms "
          f"(targets 50 / 150)")
    for k, xs in sorted(kinds.items()):
        print(f"  {k:8} n={len(xs):4}  median {1000 * statistics.median(xs):6.1f} ms  p90 {1000 * _pct(xs, 0.9):6.1f} ms")
    if plain:
        print(f"baseline on the {len(plain)} take and discard spots: every candidate without parts median "
              f"{1000 * statistics.median(plain):.1f} ms; two candidates {1000 * statistics.median(two):.1f} ms")
    g = next(r for r in games if r.game == args.game)
    t0 = time.process_time()
    gr = deep_review_game(g)
    dt = time.process_time() - t0
    n = sum(len(d.choices) for d in gr.decisions)
    print(f"deep review of {g.game} ({len(g.hands)} hands, {n} decisions): {dt:.1f} s CPU (target 15 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
