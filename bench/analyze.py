"""Move review speed: CPU seconds to annotate one 11-hand `101` game on one core (target < 1 s),
against replaying the same game (the baseline, measured in the same run), and games per minute
through ``istaka analyze`` with ``--jobs 1`` and ``--jobs J`` on a scratch database; then the deep
pass (every decision in expected points, target <= 30 s a game on one core) on the first
``--deep-games`` games, against the quick pass of the same games.

    python bench/analyze.py [--games N] [--jobs J] [--bots solver,greedy,random,greedy] [--deep-games K]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis import review, store  # noqa: E402
from analysis.game import read_file  # noqa: E402
from analysis.game import replay_game  # noqa: E402
from analysis.store import analyze  # noqa: E402
from analysis.selfplay import run, specs, write_records  # noqa: E402


def _fresh_caches() -> None:
    """Per-position caches start empty for each game: the figure is not a repeat-lookup one."""
    review.clear_caches()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bots", default="solver,greedy,random,greedy")
    ap.add_argument("--seed", default="2027")
    ap.add_argument("--deep-games", type=int, default=3, help="games for the deep pass (0: skip it)")
    a = ap.parse_args()
    bots = tuple(a.bots.split(","))
    with tempfile.TemporaryDirectory() as d:
        log = Path(d) / "games.jsonl"
        write_records(run(specs(a.games, variant="101", bots=bots, seed=a.seed, hands=11), jobs=a.jobs), str(log))
        games = read_file(log).games
        review_game = review.review_game
        review_game(replay_game(games[0]))  # imports and warm-up
        base, took, decisions = [], [], 0
        for g in games:
            t0 = time.process_time()
            res = replay_game(g)
            t1 = time.process_time()
            _fresh_caches()
            gr = review_game(res)
            t2 = time.process_time()
            base.append(t1 - t0)
            took.append(t2 - t1)
            decisions += len(gr.decisions)
        med, b = statistics.median(took), statistics.median(base)
        print(f"move review, 101, 11 hands per game, {len(games)} games ({'/'.join(bots)}), one core:")
        print(f"  annotate  median {med:6.3f} s/game  mean {statistics.mean(took):6.3f}  max {max(took):6.3f}"
              f"  ({decisions / len(games):.0f} decisions/game)  target < 1 s: {'ok' if med < 1 else 'MISSED'}")
        print(f"  replay    median {b:6.3f} s/game (baseline)  annotate / replay x{med / b:6.1f}")
        if a.deep_games:
            _deep(games[:a.deep_games], took[:a.deep_games])
        db = Path(d) / "bench.duckdb"
        con = store.connect(db, seed=False)
        try:
            store.import_paths(con, [str(log)], workers=1)
            rates = {}
            for jobs in sorted({1, a.jobs}):
                s = analyze(con, jobs=jobs, force=True)
                rates[jobs] = 60.0 * s.annotated / s.seconds
                print(f"  istaka analyze --jobs {jobs}: {s.annotated} games in {s.seconds:5.1f} s wall"
                      f" = {rates[jobs]:6.1f} games/min")
            if a.jobs > 1:
                print(f"  --jobs {a.jobs} vs --jobs 1: x{rates[a.jobs] / rates[1]:.2f}")
        finally:
            con.close()


def _deep(games: list, quick: list[float]) -> None:
    from analysis.review.deep import deep_review_game

    import os

    from analysis.evaluate import PRICE_WORLDS

    took, graded, forced = [], [], []
    for g in games:
        res = replay_game(g, keep_steps=True)
        _fresh_caches()
        t0 = time.process_time()
        gr = deep_review_game(res)
        took.append(time.process_time() - t0)
        graded.append(sum(1 for d in gr.decisions for c in d.choices if c.graded))
        forced.append(sum(1 for d in gr.decisions for c in d.choices if not c.graded))
    med = statistics.median(took)
    per = sum(took) / max(1, sum(graded))
    print(f"  deep      median {med:6.2f} s/game  max {max(took):6.2f}  ({statistics.mean(graded):.0f} decisions"
          f" graded/game, {statistics.mean(forced):.0f} forced; {1000 * per:.0f} ms a graded one; {PRICE_WORLDS}"
          f" pricing worlds)  target <= 30 s: {'ok' if med <= 30 else 'MISSED'}  load {os.getloadavg()}")
    print(f"  deep / quick on the same games x{med / statistics.median(quick):6.0f}")


if __name__ == "__main__":
    main()
