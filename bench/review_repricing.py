"""Are the deep review's costs stable? (The target: the total within 5%, 95% of the signs kept.) Unseen bot-table games are simulated
and deep-reviewed; every costed decision is priced again, played move against the recommended
one, on ``--factor`` times the worlds its cost was charged on (a cost is screened on the pricing
worlds, priced again on the deep pass's CONFIRM times as many, and charged on those after the
screen's: (CONFIRM - 1) times the pricing worlds)
with another seed. Prints the total cost against
the re-priced total (target: within 5%) and the share of costs that keep their sign (target
>= 95%), with the machine load.

    python bench/review_repricing.py [--games 2] [--hands 3] [--factor 10] [--worlds 64] [--confirm K] [--seed S]

``--confirm 1`` prices as before CONFIRM (charged on the screening worlds themselves): the baseline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.evaluate import Candidate, price  # noqa: E402
from analysis.game import replay_game  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.review import deep  # noqa: E402
from analysis.review.deep import deep_review_game, seat_knows  # noqa: E402
from analysis.selfplay import play_game, specs  # noqa: E402
from analysis.game import read_file  # noqa: E402


def _cand(kind: str, row: dict) -> Candidate:
    evs = tuple(dict(e) for e in row.get("events") or [])
    if kind == "take":
        k = "take" if evs and evs[0].get("type") == "take" else "draw"
    else:
        k = kind
    return Candidate(k, evs, str(row.get("move")))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--seed", default="reprice")
    ap.add_argument("--confirm", type=int, default=deep.CONFIRM, help="the deep pass's CONFIRM (1: the baseline)")
    ap.add_argument("--bots", default="random,greedy,solver,expert")
    a = ap.parse_args()
    bots = tuple(a.bots.split(","))
    deep.CONFIRM = a.confirm
    print(f"load {os.getloadavg()}", flush=True)
    t0 = time.process_time()
    total = again = 0.0
    kept = n = 0
    rows: list[tuple[float, float, float, str]] = []  # (cost, re-priced difference, interval, kind)
    charged: list[int] = []  # the worlds each cost was charged on
    for spec in specs(a.games, variant="101", bots=bots, seed=a.seed, hands=a.hands):
        text = "".join(play_game(spec).lines())
        g = read_file(f"{spec.game}.jsonl", raw=text.encode("utf-8")).games[0]
        res = replay_game(g, keep_steps=True)
        gr = deep_review_game(res, worlds=a.worlds)
        for h in gr.hands:
            steps = res.hands[h.ord - 1].steps
            for d in h.decisions:
                for c in d.choices:
                    if c.cost <= 0:
                        continue
                    played = next(x for x in c.candidates if x.get("played"))
                    rec = c.candidates[0]
                    state = steps[c.step].state
                    view = View.of(state, d.seat)
                    ev = price(view, [_cand(c.kind, played), _cand(c.kind, rec)], seed=f"{a.seed}:again:{c.step}",
                               worlds=a.factor * c.worlds, known=seat_knows(steps, c.step, d.seat))
                    diff = ev[0].diff(ev[1])[0]
                    total += c.cost
                    again += diff
                    kept += diff > 0
                    n += 1
                    rows.append((c.cost, diff, c.ci or 0.0, c.kind))
                    charged.append(c.worlds)
        print(f"  {g.id}: {n} costed decisions so far, cpu {time.process_time() - t0:.0f} s", flush=True)
    if not n:
        print("no costed decision")
        return
    change = 100.0 * (again - total) / total
    print(f"{a.games} games x {a.hands} hands ({'/'.join(bots)}), pricing {a.worlds} worlds, charged on "
          f"{statistics.median(charged):.0f} (confirm {a.confirm}), re-priced on {a.factor}x that with another seed:"
          f" {n} costed decisions")
    print(f"  total cost {total:.1f}, re-priced {again:.1f}: {change:+.1f}% (target within 5%)")
    print(f"  sign kept {kept}/{n} = {100.0 * kept / n:.1f}% (target >= 95%)")
    for name, lo, hi in (("cost <= 30", 0, 30), ("30 < cost <= 100", 30, 100), ("cost > 100", 100, float("inf"))):
        _line(name, [r for r in rows if lo < r[0] <= hi])
    for kind in sorted({r[3] for r in rows}):
        _line(f"kind {kind}", [r for r in rows if r[3] == kind])
    print(f"  cpu {time.process_time() - t0:.0f} s, load {os.getloadavg()}")


def _line(name: str, rs: list[tuple[float, float, float, str]]) -> None:
    """One slice of the costed decisions: how far its total moves when re-priced, signs kept."""
    if not rs:
        return
    t, g = sum(r[0] for r in rs), sum(r[1] for r in rs)
    print(f"    {name:18} {len(rs):4} decisions: total {t:8.1f} -> {g:8.1f} ({100.0 * (g - t) / t:+6.1f}%),"
          f" signs kept {sum(1 for r in rs if r[1] > 0)}/{len(rs)}, median interval {statistics.median(r[2] for r in rs):.1f}")


if __name__ == "__main__":
    main()
