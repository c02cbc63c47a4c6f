"""Self-play throughput on one core: 11-hand `101` games per minute for 4 `greedy` bots and for
4 `solver` bots (target: solver >= 60 games/min), with 4 `random` bots as the baseline.

    python bench/simulate.py [--games N] [--variant 101]
"""

from __future__ import annotations

import argparse
import statistics
import time

from analysis.players import solver_bot
from analysis.selfplay import play_game, specs


def measure(bot: str, games: int, variant: str) -> tuple[float, float, int]:
    """(median CPU seconds per game, games per CPU minute, hands played). CPU time, not wall
    time: the figure is for one core, whatever else the machine is running."""
    times = []
    hands = 0
    todo = specs(games, variant=variant, bots=(bot,) * 4, seed=2024)
    play_game(todo[0])  # warm caches and imports
    t_all = time.process_time()
    for spec in todo:
        t0 = time.process_time()
        rec = play_game(spec)
        times.append(time.process_time() - t0)
        hands += rec.hands_played
        assert rec.refused == 0
    total = time.process_time() - t_all
    return statistics.median(times), 60.0 * games / total, hands


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--variant", default="101")
    a = ap.parse_args()
    print(f"self-play, {a.variant}, 11 hands per game, {a.games} games per table, one core"
          f" (exact solver {'on' if solver_bot.available() else 'NOT available: solver bots play greedy'})")
    base = None
    for bot in ("random", "greedy", "solver"):
        med, gpm, hands = measure(bot, a.games, a.variant)
        base = base or med
        print(f"  4 x {bot:<7} median {med * 1000:8.1f} ms/game  {gpm:7.1f} games/min"
              f"  {hands / a.games:5.1f} hands/game  x{med / base:5.2f} vs random")


if __name__ == "__main__":
    main()
