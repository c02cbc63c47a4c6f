"""Speed of the evaluator: time per decision at the default budget, and one game.

Positions come from real self-play (``solver`` tables): every draw-or-take with a discard on
offer, every placing of an unopened seat and every discard. Each is evaluated with all its
candidates (:func:`analysis.evaluate.candidates`) at the default budget on one core.
Then one 11-hand ``101`` game with four ``expert`` seats is timed, with the time of each of the
expert's own decisions (48 worlds over its pruned candidates), against the baseline of the same game
seed played by four ``solver`` seats in the same run. Times are CPU seconds of this
process (the machine is shared; wall time would count other people's work).

The worlds a decision gets at the budget are printed for both models (the target: the speed is
spent on more worlds). Rollout speed: on the same positions, seeds and worlds, the Python reference model
(:mod:`analysis.evaluate.sim`) and the compiled one (``rollout.c``) each play every candidate in
``--rollout-worlds`` worlds; the bench prints rollouts per CPU-second of each (the rollout calls
alone, and whole evaluations with the sampling) and their ratio (target >= 20x), with the
machine's load beside them, and the rate of the compiled rollout calls without their kernel searches' time
(the most a cheaper search alone could give).

    python bench/evaluate.py [--positions N] [--seed S] [--no-game] [--rollout-worlds W]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import analysis.evaluate.core as C
import analysis.evaluate.expert as E
from analysis.evaluate import DEFAULT_BUDGET, candidates, decision_of, evaluate
from analysis.evaluate.fast import search_stats
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


WHAT = {"opening": "an unopened seat's best placing", "question": "would it open with the discard (take)",
        "opened": "an opened seat's placing"}  # the compiled model's kinds of kernel search


def rollout_speed(views: list[tuple[View, str]], worlds: int) -> None:
    """Rollouts per CPU-second of the Python and the compiled model on the same worlds."""
    real = C.rollout
    spent = [0.0]

    def timed(*args: Any) -> int:
        t = time.process_time()
        out = real(*args)
        spent[0] += time.process_time() - t
        return out

    got: dict[str, tuple[int, float, float, list]] = {}
    searches: dict[str, Any] | None = None
    C.rollout = timed  # type: ignore[assignment]
    try:
        for model in ("python", "compiled"):
            search_stats()  # counters from here
            spent[0] = 0.0
            n = 0
            t0 = time.process_time()
            answers = []
            for i, (v, d) in enumerate(views):
                evs = evaluate(v, candidates(v, d), seed=i, worlds=worlds, model=model)
                n += sum(e.n for e in evs)
                answers.append(min(evs, key=lambda e: e.mean).candidate.label)
            got[model] = (n, spent[0], time.process_time() - t0, answers)
            if model == "compiled":
                searches = search_stats()
    finally:
        C.rollout = real  # type: ignore[assignment]
    load = os.getloadavg()
    for model, (n, roll, whole, _) in got.items():
        print(f"{model:8s} model: {n} rollouts, {n / roll:,.0f} rollouts per CPU-second (rollout calls), "
              f"{n / whole:,.0f} per CPU-second of whole evaluations")
    (n_p, r_p, w_p, a_p), (n_c, r_c, w_c, a_c) = got["python"], got["compiled"]
    same = sum(x == y for x, y in zip(a_p, a_c))
    print(f"compiled / python: x{(n_c / r_c) / (n_p / r_p):.1f} (rollout calls), x{(n_c / w_c) / (n_p / w_p):.1f} "
          f"(whole evaluations), same best candidate in {same} of {len(views)} decisions "
          f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; target >= 20x)")
    if searches:  # where the compiled rollout's time goes: the kernel's searches, by kind
        sec, cnt = searches["seconds"], searches["by_kind"]
        total = sum(sec.values())
        parts = ", ".join(f"{WHAT[k]} {cnt[k]:,} searches {sec[k]:.2f} s ({sec[k] / total:.0%}, "
                          f"{1e6 * sec[k] / max(cnt[k], 1):.0f} us each)" for k in WHAT)
        print(f"compiled model: kernel searches {total:.2f} s of {r_c:.2f} s in rollout calls "
              f"({total / r_c:.0%}; {searches['memo_hits']:,} answered by the memo): {parts}")
        rest = n_c / max(r_c - total, 1e-9)  # the rollout calls' time outside the searches
        print(f"compiled model without its searches' time: {rest:,.0f} rollouts per CPU-second, "
              f"x{rest / (n_p / r_p):.1f} the Python model (the most that cheaper searches alone could give)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--no-game", action="store_true")
    ap.add_argument("--rollout-worlds", type=int, default=8, help="worlds per decision for the speed ratio")
    a = ap.parse_args()
    views = positions(a.positions, a.seed)
    rollout_speed(views, a.rollout_worlds)
    py_worlds = [max(e.n for e in evaluate(v, candidates(v, d), seed=i, budget=a.budget, model="python"))
                 for i, (v, d) in enumerate(views)]
    print(f"worlds per decision at the budget with the Python model: median {statistics.median(py_worlds):.0f}, "
          f"mean {statistics.mean(py_worlds):.0f}")
    times = []
    ncand = []
    nworlds = []
    for i, (v, d) in enumerate(views):
        cs = candidates(v, d)
        t0 = time.process_time()
        evs = evaluate(v, cs, seed=i, budget=a.budget)
        times.append((time.process_time() - t0) * 1000)
        ncand.append(len(cs))
        nworlds.append(max(e.n for e in evs))
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"decisions: {len(times)}, candidates per decision: mean {statistics.mean(ncand):.1f}, worlds per "
          f"decision at the budget: median {statistics.median(nworlds):.0f}, mean {statistics.mean(nworlds):.0f} "
          f"(cap {C.MAX_WORLDS}; load {os.getloadavg()[0]:.2f})")
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
              f"{len(rec.events)} events, refused {rec.refused}) (target <= 30 s; the first evaluator's was 60 s)")
        E.evaluate = real
        base, dt_base = _game("solver", a.seed)
        print(f"baseline, the same deal seed with four solver seats: {dt_base:.2f} s ({base.hands_played} hands); "
              f"expert game / solver game: x{dt / max(dt_base, 1e-9):.0f}")
        own.sort()
        print(f"the expert's own decisions in that game: {len(own)}, median {statistics.median(own):.1f} ms, "
              f"p90 {own[int(0.9 * (len(own) - 1))]:.1f} ms")


if __name__ == "__main__":
    main()
