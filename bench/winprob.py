"""Is the chance to win calibrated? (analysis/review/winprob.py; docs/winprob.md).

Per model (a preset, with or without partners) two sets of self-play games are played with four
``solver`` bots (the exact solver's player: cheap, and stronger than ``greedy``): the fit games
(seed ``winprob-fit``), whose hands make the model, and the held-out games (seed ``winprob-test``),
never seen by the fit. On every held-out game the chance is predicted at every hand boundary with
a hand still to play (before hand 1, after hand 1, …, before the last hand), for every side (a
player, or a team with partners); the observed result is the side's share of the win (1, 0, or
1/k in a k-way tie for the lowest total).

Printed per model: the predictions by decile of the predicted chance (0-10%, …, 90-100%), each
with its share of the predictions, the mean predicted and the observed win frequency with a 95%
interval clustered by game, and the Brier score beside the uniform guess's (1 / sides, the
baseline of the same run). Target: in every decile holding at least 2% of the predictions the
observed frequency is within 5 percentage points of the mean predicted one (PASS / FAIL).

``--write`` writes the fit games' hands of the models run into the model file
(analysis/review/winprob_hands.json), the file's other models kept: the committed file is made by
``python bench/winprob.py --write`` (400 fit games a model). Played games
are kept under ``--cache`` (a game depends only on its seed and number), so a second run only
predicts.

    python bench/winprob.py [--fit 300] [--test 1000] [--models 101,101-classic,51,101+esli,...]
        [--jobs 2] [--samples 4000] [--write]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.game import process_pool, replay_game, resolve  # noqa: E402
from analysis.game.log import read_lines  # noqa: E402
from analysis.review import winprob  # noqa: E402
from analysis.selfplay import play_game, specs  # noqa: E402

MODELS = ("101", "101-classic", "51", "101+esli", "101-classic+esli", "51+esli")
BOTS = ("solver",) * 4
TARGET = 0.05  # percentage points of a decile's gap
MIN_SHARE = 0.02  # deciles holding less of the predictions are not held to the target


def _split(key: str) -> tuple[str, bool]:
    return key.removesuffix("+esli"), key.endswith("+esli")


def _one(spec: Any) -> dict[str, Any]:
    """A worker's game: played, replayed, and kept as its hands' results and score vectors."""
    rec = play_game(spec)
    res = replay_game(read_lines(rec.lines()).games[0], keep_steps=False)
    return {"game": spec.game, "planned": res.planned_hands,
            "hands": [[h.result, h.totals()] for h in res.hands]}


def games(key: str, kind: str, n: int, jobs: int, cache: Path) -> list[dict[str, Any]]:
    """``n`` games of model ``key`` (``kind`` fit or test), played or read from the cache."""
    variant, esli = _split(key)
    seed = f"winprob-{kind}"
    path = cache / f"{key}-{seed}.jsonl.gz"
    have: list[dict[str, Any]] = []
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            have = [json.loads(line) for line in fh]
    if len(have) >= n:
        return have[:n]
    todo = specs(n, variant=variant, rules={"esli": True} if esli else None, bots=BOTS, seed=seed)[len(have):]
    t0 = time.perf_counter()
    if jobs > 1:
        with process_pool(jobs) as ex:
            new = list(ex.map(_one, todo, chunksize=4))
    else:
        new = [_one(s) for s in todo]
    dt = time.perf_counter() - t0
    print(f"  {key} {kind}: played {len(new)} games in {dt:.0f} s ({60 * len(new) / max(dt, 1e-9):.0f} games/min "
          f"on {jobs} worker(s))", flush=True)
    have += new
    cache.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for g in have:
            fh.write(json.dumps(g) + "\n")
    return have[:n]


def model_of(key: str, fit_games: list[dict[str, Any]]) -> winprob.HandModel:
    import numpy as np

    vecs = [t for g in fit_games for r, t in g["hands"] if r in winprob.COUNTED]
    return winprob.HandModel(key, np.array(vecs, dtype=np.int64), len(fit_games))


def predictions(key: str, model: winprob.HandModel, test_games: list[dict[str, Any]],
                samples: int) -> list[tuple[int, int, float, float]]:
    """(game index, hands left, predicted, observed) for every side at every boundary with a hand to play."""
    variant, esli = _split(key)
    rules = resolve(variant, {"esli": True} if esli else None)
    out = []
    for gi, g in enumerate(test_games):
        done_hands = [t for r, t in g["hands"] if r in winprob.DONE]
        planned = g["planned"]
        final = [sum(t[s] for t in done_hands) for s in range(4)]
        observed = winprob.chance(rules, final, 0, planned=planned).win
        totals = [0, 0, 0, 0]
        for k in range(planned):
            ch = winprob.chance(rules, totals, planned - k, planned=planned, model=model, samples=samples)
            for p, o in zip(ch.win, observed):
                out.append((gi, planned - k, p, o))
            if k < len(done_hands):
                totals = [a + b for a, b in zip(totals, done_hands[k])]
    return out


def calibration(preds: list[tuple[int, int, float, float]]) -> tuple[list[dict[str, Any]], bool, float, float]:
    """Deciles of the predicted chance: share, mean predicted, observed (95% interval clustered by
    game), and pass/fail; the Brier score and the uniform guess's."""
    n = len(preds)
    rows = []
    ok = True
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        inbin = [x for x in preds if lo <= x[2] < hi or (d == 9 and x[2] == 1.0)]
        if not inbin:
            rows.append({"decile": f"{10 * d}-{10 * d + 10}%", "n": 0})
            continue
        m = len(inbin)
        pred = sum(x[2] for x in inbin) / m
        obs = sum(x[3] for x in inbin) / m
        var = _cluster_var(inbin, obs - pred)  # the residuals summed per game: a game's sides move together
        half = 1.96 * math.sqrt(var) / m
        share = m / n
        held = share >= MIN_SHARE
        good = abs(obs - pred) <= TARGET
        if held and not good:
            ok = False
        rows.append({"decile": f"{10 * d}-{10 * d + 10}%", "n": m, "share": share, "pred": pred, "obs": obs,
                     "half": half, "gap": obs - pred, "held": held, "good": good})
    brier = sum((p - o) ** 2 for _, _, p, o in preds) / n
    sides = 4 if len(preds) == 0 else round(1 / max(1e-9, sum(x[3] for x in preds) / n))
    base = sum((1 / sides - o) ** 2 for _, _, _, o in preds) / n
    return rows, ok, brier, base


def _cluster_var(inbin: list[tuple[int, int, float, float]], mean_res: float) -> float:
    per: dict[int, float] = {}
    for gi, _, p, o in inbin:
        per[gi] = per.get(gi, 0.0) + (o - p - mean_res)
    return sum(v * v for v in per.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fit", type=int, default=300, help="fit games per model")
    ap.add_argument("--test", type=int, default=1000, help="held-out games per model")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--samples", type=int, default=winprob.SAMPLES)
    ap.add_argument("--cache", default="/tmp/istaka-bench/winprob")
    ap.add_argument("--write", action="store_true", help="write the fit games' hands as the model file")
    a = ap.parse_args()
    keys = [k.strip() for k in a.models.split(",") if k.strip()]
    for k in keys:
        if k not in MODELS:
            print(f"bench/winprob.py: unknown model {k!r}; models are {', '.join(MODELS)}", file=sys.stderr)
            return 2
    cache = Path(a.cache)
    print(f"win-chance calibration: {a.fit} fit and {a.test} held-out games per model, bots {','.join(BOTS)}, "
          f"{a.samples} samples per prediction", flush=True)
    fitted = []
    all_ok = True
    for key in keys:
        fit_games = games(key, "fit", a.fit, a.jobs, cache)
        model = model_of(key, fit_games)
        fitted.append(model)
        if a.test <= 0:  # --test 0: the model alone (to --write it), no calibration
            print(f"\n{key}: model of {len(model.hands)} hands ({a.fit} games); not tested (--test 0)")
            all_ok = False
            continue
        test_games = games(key, "test", a.test, a.jobs, cache)
        t0 = time.process_time()
        preds = predictions(key, model, test_games, a.samples)
        cpu = time.process_time() - t0
        rows, ok, brier, base = calibration(preds)
        all_ok &= ok
        print(f"\n{key}: model of {len(model.hands)} hands ({a.fit} games, mean {model.hands.mean():.1f} points a "
              f"seat-hand); {len(preds)} predictions on {len(test_games)} held-out games "
              f"({1000 * cpu / max(1, len(preds) // (2 if key.endswith('+esli') else 4)):.1f} ms CPU a prediction)")
        print(f"  {'decile':>8} {'n':>6} {'share':>6} {'predicted':>9} {'observed':>9} {'95% CI':>14} {'gap':>6}  check")
        for r in rows:
            if not r["n"]:
                print(f"  {r['decile']:>8} {0:>6}")
                continue
            check = ("ok" if r["good"] else "MISS") if r["held"] else "(<2%)"
            print(f"  {r['decile']:>8} {r['n']:>6} {100 * r['share']:>5.1f}% {100 * r['pred']:>8.1f}% "
                  f"{100 * r['obs']:>8.1f}% [{100 * (r['obs'] - r['half']):>5.1f}, {100 * (r['obs'] + r['half']):>5.1f}] "
                  f"{100 * r['gap']:>+5.1f}  {check}")
        print(f"  Brier {brier:.4f}, uniform guess {base:.4f} (ratio {brier / base:.2f}); "
              f"{'PASS' if ok else 'FAIL'} (every decile with >= 2% within {100 * TARGET:.0f} points)", flush=True)
    print(f"\noverall: {'PASS' if all_ok else 'FAIL'}")
    if a.write:  # this run's models replace theirs in the file; the file's other models stay
        kept = winprob.load_models() if winprob.MODEL_FILE.exists() else {}
        for m in fitted:
            kept[m.key] = m
        winprob.write_models([kept[k] for k in MODELS if k in kept], about={
            "made_by": "python bench/winprob.py --write (--models M, --fit N)", "bots": ",".join(BOTS),
            "seed": "winprob-fit", "what": "per model, the four seats' scores of every finished or exhausted "
                                           "hand of its fit games (penalties included); games: how many"})
        print(f"wrote {', '.join(m.key for m in fitted)} into {winprob.MODEL_FILE}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
