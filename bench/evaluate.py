"""Speed of the evaluator (issue 14): time per decision at the default budget, and one game.

Positions come from real self-play (``solver`` tables): every draw-or-take with a discard on
offer, every placing of an unopened seat and every discard. Each is evaluated with all its
candidates (:func:`analysis.evaluate.candidates`) at the default budget on one core.
Then one 11-hand ``101`` game with four ``expert`` seats is timed, with the time of each of the
expert's own decisions (48 worlds over its pruned candidates), against the baseline of the same game
seed played by four ``solver`` seats in the same run. Times are CPU seconds of this
process (the machine is shared; wall time would count other people's work).

    python bench/evaluate.py [--positions N] [--seed S] [--no-game]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import analysis.evaluate.expert as E
from analysis.evaluate import DEFAULT_BUDGET, candidates, decision_of, evaluate
from analysis.game import Tile, apply, new_hand, resolve
from analysis.players import View
from analysis.selfplay import GameSpec, Player, play_game


def positions(n: int, seed: str) -> list[tuple[View, str]]:
    """(view, decision) at every take-or-draw with a discard on offer, every unopened placing and
    every discard of some solver self-play games, shuffled; the first ``n``."""
    out: list[tuple[View, str]] = []
    g = 0
    while len(out) < n * 3:
        g += 1
        rec = play_game(GameSpec(f"bench-{g}", tuple(Player(f"P{k}", "solver") for k in range(4)), "101", None,
                                 seed, hands=2))
        rules = resolve("101")
        st = None
        ply = 0
        for ev in rec.events:
            t = ev["type"]
            if t == "hand":
                st = new_hand(rules, ev["hand"], ev["starter"], Tile.parse(ev["indicator"]),
                              [[Tile.parse(x) for x in r] for r in ev["racks"]], [Tile.parse(x) for x in ev["deck"]])
                ply = 0
                continue
            if st is None or t in ("game", "end", "penalty") or st.over:
                continue
            if t in ("draw", "take") or (t in ("open", "meld", "discard") and st.turn_base is None):
                v = View.of(st, st.turn, ply)
                d = decision_of(v)
                if (d == "draw" and v.takeable() is not None) or (d == "place" and not v.opened):
                    out.append((v, d))
            if t == "discard":
                out.append((View.of(st, st.turn, ply), "discard"))
            st = apply(st, {k: x for k, x in ev.items() if k not in ("game", "hand", "t")})
            if t == "discard":
                ply += 1
    random.Random(seed).shuffle(out)
    return out[:n]


def _game(bot: str, seed: str) -> tuple[Any, float]:
    """One 11-hand ``101`` game of four ``bot`` seats from ``seed``, and its CPU seconds."""
    t0 = time.process_time()
    rec = play_game(GameSpec("bench-expert", tuple(Player(f"{bot[0].upper()}{k}", bot) for k in range(4)), "101",
                             None, seed))
    return rec, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--no-game", action="store_true")
    a = ap.parse_args()
    views = positions(a.positions, a.seed)
    times = []
    ncand = []
    for i, (v, d) in enumerate(views):
        cs = candidates(v, d)
        t0 = time.process_time()
        evaluate(v, cs, seed=i, budget=a.budget)
        times.append((time.process_time() - t0) * 1000)
        ncand.append(len(cs))
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"decisions: {len(times)}, candidates per decision: mean {statistics.mean(ncand):.1f}")
    print(f"evaluate one decision (budget {a.budget * 1000:.0f} ms): median {statistics.median(times):.1f} ms, "
          f"p90 {p90:.1f} ms, max {times[-1]:.1f} ms (targets: median <= 50, p90 <= 150)")
    if not a.no_game:
        own: list[float] = []
        real = E.evaluate

        def timed(*args: Any, **kw: Any) -> Any:
            t = time.process_time()
            out = real(*args, **kw)
            own.append((time.process_time() - t) * 1000)
            return out

        E.evaluate = timed
        rec, dt = _game("expert", a.seed)
        print(f"one 11-hand 101 game, four expert seats: {dt:.1f} s ({rec.hands_played} hands, "
              f"{len(rec.events)} events, refused {rec.refused}) (target <= 60 s)")
        E.evaluate = real
        base, dt_base = _game("solver", a.seed)
        print(f"baseline, the same deal seed with four solver seats: {dt_base:.2f} s ({base.hands_played} hands); "
              f"expert game / solver game: x{dt / max(dt_base, 1e-9):.0f}")
        own.sort()
        print(f"the expert's own decisions in that game: {len(own)}, median {statistics.median(own):.1f} ms, "
              f"p90 {own[int(0.9 * (len(own) - 1))]:.1f} ms")


if __name__ == "__main__":
    main()
