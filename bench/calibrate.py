"""Calibration of the evaluator: its expected hand score against what happened.

Reads the per-deal lines of ``istaka match --bots expert,B ... --deals-out FILE``: for every
decision the expert acted on (take or draw, opening, discard) the evaluator's expected hand score
of the chosen candidate (the model's value), and the seat's actual hand score (hand-end score plus
in-game penalties) in that hand. Prints, by bins of the prediction: decisions, their share, the
hand-seats they come from, mean predicted, mean actual, the gap with its 95% interval (the deals
as clusters: the decisions of a deal share its outcome); once for the model's value and once
through the preset's calibration curve (:mod:`analysis.evaluate.calibration`). Several files
(matches on other seeds) pool. The target: every bin holding >= 2% within 10 points.

``--fit`` fits a curve on the even-numbered deals, prints it (the literal for ``CURVES``) and
shows both tables on the odd-numbered deals only, which the fit never saw. ``--fit --cross`` on
several files (matches on other seeds) checks each file through a curve fitted on the others and
shows the tables of all of them pooled, then prints the curve fitted on every file: how an
installed curve is made and checked.

    istaka match --bots expert,solver --variant 101 --deals 500 --seed final --deals-out m.jsonl
    python bench/calibrate.py m.jsonl [m2.jsonl ...] --variant 101 [--fit [--cross] [--knots K]] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from analysis.evaluate.calibration import KNOTS, Curve, apply_curve, curve_for, fit_curve
from analysis.game import preset

BINS = (-1000, -50, 0, 25, 50, 100, 150, 250, 10_000)


Pair = tuple[float, int, tuple[int, int, int]]  # (model value, actual hand score, (file, deal, seat))
SHARE = 0.02  # the target counts the bins holding at least 2% of the decisions


def read(paths: Sequence[str], keep: Callable[[int], bool] = lambda deal: True) -> list[Pair]:
    """(model value, actual hand score, its hand-seat) of every decision the expert acted on, in
    kept deals. The decisions of one hand-seat share its outcome: the hand-seats, not the
    decisions, are the independent samples (a hand-seat is its file's, deal and seat: files of
    several matches pool)."""
    pairs: list[Pair] = []
    for i, path in enumerate(paths):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                if not keep(int(d.get("deal", 0))):
                    continue
                for k, preds in enumerate(d.get("pred") or ()):
                    pairs += [(p, d["a"][k], (i, int(d.get("deal", 0)), k)) for p in preds]
    return pairs


def cluster_se(xs: Sequence[tuple[float, tuple[int, int, int]]]) -> float:
    """The standard error of the mean of ``xs`` (gaps, each with its hand-seat), the decisions of
    one deal taken as a cluster (a hand-seat's decisions share its outcome, and the seats of a
    deal share the hand): the cluster-robust (sandwich) estimate, k/(k-1) corrected."""
    n = len(xs)
    m = sum(x for x, _ in xs) / n
    sums: dict[tuple[int, int], float] = {}
    for x, h in xs:
        sums[h[:2]] = sums.get(h[:2], 0.0) + x - m
    k = len(sums)
    if k < 2:
        return math.inf
    return math.sqrt(sum(v * v for v in sums.values()) * k / (k - 1)) / n


def table(pairs: Sequence[Pair], curve: Curve | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    mapped = [(apply_curve(curve, p), y, h) for p, y, h in pairs]
    for lo, hi in itertools.pairwise(BINS):
        sel = [(p, y, h) for p, y, h in mapped if lo < p <= hi]
        if not sel:
            continue
        mp = sum(p for p, _, _ in sel) / len(sel)
        my = sum(y for _, y, _ in sel) / len(sel)
        se = cluster_se([(y - p, h) for p, y, h in sel])
        rows.append({"bin": f"({lo}, {hi}]", "decisions": len(sel), "share": round(len(sel) / len(mapped), 4),
                     "hands": len({h for _, _, h in sel}),
                     "predicted": round(mp, 1), "actual": round(my, 1), "gap": round(my - mp, 1),
                     "ci": [round(my - mp - 1.96 * se, 1), round(my - mp + 1.96 * se, 1)]})
    return rows


def show(title: str, rows: list[dict[str, Any]]) -> None:
    worst = max((abs(float(r["gap"])) for r in rows), default=0.0)
    held = max((abs(float(r["gap"])) for r in rows if float(r["share"]) >= SHARE), default=0.0)
    print(f"{title} (largest gap {worst:.1f}; {held:.1f} in the bins holding >= {SHARE:.0%} of the decisions)")
    print(f"{'predicted bin':>16} {'decisions':>9} {'share':>6} {'hand-seats':>10} {'predicted':>9} {'actual':>8} "
          f"{'gap':>7}  95% CI (deals as clusters)")
    for r in rows:
        lo, hi = r["ci"]
        print(f"{r['bin']:>16} {r['decisions']:>9} {float(r['share']):>6.1%} {r['hands']:>10} {r['predicted']:>9} "
              f"{r['actual']:>8} {r['gap']:>+7}  [{lo:+.1f}, {hi:+.1f}]")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", help="istaka match --deals-out files")
    ap.add_argument("--variant", default="101", help="the matches' preset (its calibration curve)")
    ap.add_argument("--fit", action="store_true", help="fit the curve on even deals, check it on odd ones")
    ap.add_argument("--cross", action="store_true", help="with --fit: check each file through a curve fitted on "
                    "the others, then fit on all")
    ap.add_argument("--knots", type=int, default=KNOTS, help="with --fit: the fit's equal-count chunks")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.cross and (not a.fit or len(a.files) < 2):
        ap.error("--cross needs --fit and at least two files")
    if a.cross:  # each file through a curve fitted on the others' decisions (h[0]: the file)
        test = read(a.files)
        curve = _fit(test, a.knots)
        others = [_fit([x for x in test if x[2][0] != i], a.knots) for i in range(len(a.files))]
        cal = table([(apply_curve(others[h[0]], p), y, h) for p, y, h in test])
    else:
        if a.fit:
            curve = _fit(read(a.files, lambda d: d % 2 == 0), a.knots)
            test = read(a.files, lambda d: d % 2 == 1)
        else:
            curve = curve_for(preset(a.variant))
            test = read(a.files)
        cal = table(test, curve)
    raw = table(test)
    if a.json:
        print(json.dumps({"decisions": len(test), "curve": curve, "model": raw, "calibrated": cal}))
        return
    if a.cross:
        print(f'fitted on every file ({a.knots} chunks): "{a.variant}": {curve!r},')
        print(f"checked file by file, each through a curve fitted on the others: {len(test)} evaluated decisions")
    elif a.fit:
        print(f'fitted on the even deals ({a.knots} chunks): "{a.variant}": {curve!r},')
        print(f"checked on the odd deals: {len(test)} evaluated decisions")
    else:
        print(f"{len(test)} evaluated decisions")
    show("the model's value", raw)
    if curve:
        show("through curves fitted on the other files" if a.cross else f"through the {a.variant} calibration curve",
             cal)


def _fit(pairs: Sequence[Pair], knots: int) -> Curve:
    return fit_curve([(p, float(y)) for p, y, _ in pairs], knots)


if __name__ == "__main__":
    main()
