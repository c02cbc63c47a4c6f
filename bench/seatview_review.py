"""Deep review of seat views against their full logs, on the sample games (target: a
seat's grades identical to the full log's under the same seed, on every sample game).

    python bench/seatview_review.py [--games 60] [--hands 11] [--budget 0.04] [--seats 0,1,2,3]

For each sample game (its first --hands hands), the full log's deep review is made once; each
seat's view (``istaka view``'s cut) is deep-reviewed and that seat's decisions (choices, costs,
labels, candidates) compared with the full review's for that seat. Prints the games and seats
compared, the mismatches (none expected), the decisions compared and the time, with the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--hands", type=int, default=11)
    ap.add_argument("--budget", type=float, default=0.04)
    ap.add_argument("--seats", default="0,1,2,3")
    args = ap.parse_args()

    from analysis.game import read_file, replay_game
    from analysis.game.cut import cut_view
    from analysis.review.deep import deep_review_game

    seats = [int(s) for s in args.seats.split(",")]
    t0 = time.perf_counter()
    games = read_file(REPO / "data" / "sample" / "games.jsonl.gz").games[: args.games]
    compared = decisions = 0
    bad = []
    for g in games:
        full = replay_game(g, keep_steps=True)
        full = replace(full, hands=full.hands[: args.hands])
        fr = deep_review_game(full, budget=args.budget)
        for s in seats:
            v = replay_game(cut_view(g, s), keep_steps=True)
            v = replace(v, hands=v.hands[: args.hands])
            vr = deep_review_game(v, budget=args.budget)
            mine = [asdict(d) for d in vr.decisions]
            want = [asdict(d) for d in fr.decisions if d.seat == s]
            compared += 1
            decisions += len(mine)
            if mine != want or any(d["seat"] != s for d in mine):
                bad.append(f"{g.id} seat {s}")
        print(f"{g.id}: {len(seats)} seats compared, {len(bad)} mismatching so far", flush=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{len(games)} games x {len(seats)} seats ({args.hands} hands each, budget {args.budget}): {compared} "
          f"compared, {decisions} decisions, {len(bad)} mismatches {bad[:5]}; {time.perf_counter() - t0:.0f} s, "
          f"load average {load}")


if __name__ == "__main__":
    main()
