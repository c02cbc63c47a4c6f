"""Does the luck split take the luck out? Expert against solver, from each seat's own hands alone.

Per preset, one-hand games are played at tables of two ``expert`` and two ``solver`` seats
(alternating, the seats rotating from game to game); every seat of every hand is split from its
own view (:func:`analysis.review.luck.split_hand`). Nothing pairs the deals: each hand-seat is one
sample of its bot. Printed per preset:

- the mean raw score per hand of each bot and their difference (expert - solver) with its 95%
  interval, then the same with the luck-adjusted scores;
- the standard deviation per hand-seat, raw and adjusted (pooled within bots), their ratio, and
  the hands needed to tell the two bots apart at 95% with each — ``n = 2 (1.96 sd / diff)^2`` hand-seats
  per bot for the measured difference — and the ratio of the two, which is the sd ratio squared
  (target: at least 5x fewer hands adjusted, i.e. the sd ratio at most 0.45);
- the largest gap between the actual score and the sum of its parts over every hand-seat
  (target: under 0.01);
- speed: on ``--speed-games`` games (of ``--speed-hands`` hands) the CPU seconds of the deep
  review of the game and of the split of every seat of it, on one core, and the ratio (target: at
  most 2).

    python bench/luck.py [--hand-seats 2000] [--presets 101,51] [--worlds 16] [--anchors best,policy]
                         [--draws sample|enumerate] [--draw-worlds 16]
                         [--jobs 1] [--seed S] [--speed-games 1] [--speed-hands 3]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.game import process_pool, replay_game  # noqa: E402
from analysis.game.log import read_lines  # noqa: E402
from analysis.review.deep import deep_review_game  # noqa: E402
from analysis.review.luck import DRAW_WORLDS, split_game  # noqa: E402
from analysis.selfplay import play_game  # noqa: E402
from analysis.selfplay.simulate import GameSpec, Player  # noqa: E402

BOTS = ("expert", "solver")


def _spec(preset: str, seed: str, i: int, hands: int = 1) -> GameSpec:
    rot = i % 4
    kinds = [BOTS[(s + rot) % 2] for s in range(4)]
    return GameSpec(f"luck-{preset}-{i}", tuple(Player(f"{k}-{s}", k) for s, k in enumerate(kinds)), preset, None,
                    f"luck:{seed}", None, "istaka-bench", hands)


def _replayed(spec: GameSpec) -> Any:
    rec = play_game(spec)
    g = read_lines(rec.lines()).games[0]
    return replay_game(g, keep_steps=True)


def one_game(args: tuple[str, str, int, int, int, str, tuple[str, ...]]) -> list[dict[str, Any]]:
    """Play one one-hand game and split every seat of it (with each anchor): a row per hand-seat
    and anchor."""
    preset, seed, i, worlds, draw_worlds, draws, anchors = args
    t0 = time.process_time()
    res = _replayed(_spec(preset, seed, i))
    t1 = time.process_time()
    out = []
    for anchor in anchors:
        t1 = time.process_time()
        got = []
        for sp in split_game(res, worlds=worlds, draw_worlds=draw_worlds, draws=draws, anchor=anchor):
            bot = res.header.get("bots", [None] * 4)[sp.seat]
            got.append({"anchor": anchor, "bot": bot, "actual": sp.actual, "adjusted": sp.adjusted,
                        "residual": sp.residual(), "cost": sp.cost, "noise": sp.noise, "luck": sp.luck_total,
                        "deal_luck": sp.deal_luck, "events": sp.luck_total - sp.deal_luck})
        t2 = time.process_time()
        for r in got:
            r["play_s"] = (t1 - t0) / max(1, len(got))
            r["split_s"] = (t2 - t1) / max(1, len(got))
        out += got
    return out


def _pooled_sd(rows: list[dict[str, Any]], key: str) -> float:
    ss = 0.0
    df = 0
    for b in BOTS:
        xs = [r[key] for r in rows if r["bot"] == b]
        if len(xs) > 1:
            m = statistics.fmean(xs)
            ss += sum((x - m) ** 2 for x in xs)
            df += len(xs) - 1
    return math.sqrt(ss / df) if df else math.nan


def _diff(rows: list[dict[str, Any]], key: str) -> tuple[float, float, float, float]:
    a = [r[key] for r in rows if r["bot"] == BOTS[0]]
    b = [r[key] for r in rows if r["bot"] == BOTS[1]]
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return ma, mb, ma - mb, 1.96 * se


def report(preset: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    print(f"\n== {preset}: {n} hand-seats ({sum(r['bot'] == BOTS[0] for r in rows)} expert, "
          f"{sum(r['bot'] == BOTS[1] for r in rows)} solver), no deals paired")
    out: dict[str, Any] = {"preset": preset, "hand_seats": n}
    for key in ("actual", "adjusted"):
        ma, mb, d, h = _diff(rows, key)
        sd = _pooled_sd(rows, key)
        need = 2 * (1.96 * sd / d) ** 2 if d else math.inf
        out[key] = {"expert": ma, "solver": mb, "diff": d, "half": h, "sd": sd, "need": need}
        name = "raw     " if key == "actual" else "adjusted"
        print(f"  {name} expert {ma:7.1f}  solver {mb:7.1f}  diff {d:+7.1f} ± {h:5.1f}  sd/hand-seat {sd:6.1f}  "
              f"hand-seats per bot to tell apart at 95%: {need:,.0f}")
    ratio = out["adjusted"]["sd"] / out["actual"]["sd"]
    out["sd_ratio"] = ratio
    print(f"  sd ratio adjusted/raw {ratio:.3f} (target <= 0.45): {1 / ratio ** 2:.1f}x fewer hands (target >= 5x)")
    for key in ("cost", "noise", "luck", "deal_luck", "events"):
        xs = [r[key] for r in rows]
        h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
        print(f"  {key:<9} mean {statistics.fmean(xs):7.2f} ± {h:5.2f}  sd {statistics.stdev(xs):6.1f}")
    print("  (luck = deal_luck + events: an unbiased luck term averages to 0 within its interval)")
    worst = max(abs(r["residual"]) for r in rows)
    out["worst_residual"] = worst
    print(f"  parts vs actual: largest gap {worst:.2e} over {n} hand-seats (target < 0.01)")
    print(f"  CPU per hand-seat: play {statistics.median(r['play_s'] for r in rows):.2f}s, "
          f"split {statistics.median(r['split_s'] for r in rows):.2f}s (medians)")
    return out


def speed(preset: str, seed: str, games: int, hands: int, worlds: int, draw_worlds: int, draws: str,
          anchor: str) -> None:
    """Deep review of a game against its split (every seat), CPU seconds on one core."""
    ratios = []
    for i in range(games):
        res = _replayed(_spec(preset, f"{seed}-speed", i, hands))
        t0 = time.process_time()
        deep_review_game(res, worlds=worlds)
        t1 = time.process_time()
        got = split_game(res, worlds=worlds, draw_worlds=draw_worlds, draws=draws, anchor=anchor)
        t2 = time.process_time()
        ratios.append((t2 - t1) / (t1 - t0))
        print(f"  speed {preset} game {i + 1} ({len(res.hands)} hands, {len(got)} hand-seats, {worlds} worlds): "
              f"deep review {t1 - t0:.1f}s, split {t2 - t1:.1f}s, ratio {(t2 - t1) / (t1 - t0):.2f} (target <= 2)",
              flush=True)
    print(f"  speed ratio median {statistics.median(ratios):.2f} over {games} games")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hand-seats", type=int, default=2000,
                    help="hand-seats per preset (4 per game; 0: only the speed comparison)")
    ap.add_argument("--presets", default="101,51")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--draw-worlds", type=int, default=DRAW_WORLDS)
    ap.add_argument("--draws", choices=("sample", "enumerate"), default="sample",
                    help="a draw's expectation: the draw's own price (sample) or every tile priced (enumerate)")
    ap.add_argument("--anchors", default="best,policy",
                    help="the value where a seat decides: best (the best candidate's price), policy (the rollout "
                    "policy's), or both on the same hands")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--speed-games", type=int, default=1)
    ap.add_argument("--speed-hands", type=int, default=3)
    a = ap.parse_args()
    print(f"load {os.getloadavg()}; worlds {a.worlds}, draws {a.draws}"
          + (f" ({a.draw_worlds} worlds each)" if a.draws == "enumerate" else ""), flush=True)
    t0 = time.time()
    c0 = time.process_time()
    for preset in a.presets.split(","):
        games = a.hand_seats // 4  # 0: the speed comparison alone
        anchors = tuple(a.anchors.split(","))
        work = [(preset, a.seed, i, a.worlds, a.draw_worlds, a.draws, anchors) for i in range(games)]
        rows: list[dict[str, Any]] = []
        if a.jobs > 1:
            with process_pool(a.jobs) as ex:
                for got in ex.map(one_game, work, chunksize=1):
                    rows += got
        else:
            for w in work:
                rows += one_game(w)
        for anchor in anchors if rows else ():
            report(f"{preset}, anchor {anchor}", [r for r in rows if r["anchor"] == anchor])
        if a.speed_games:
            speed(preset, a.seed, a.speed_games, a.speed_hands, a.worlds, a.draw_worlds, a.draws, anchors[0])
        sys.stdout.flush()
    print(f"\nwall {time.time() - t0:.0f}s, this process's CPU {time.process_time() - c0:.0f}s "
          f"(workers' not counted); load {os.getloadavg()}")


if __name__ == "__main__":
    main()
