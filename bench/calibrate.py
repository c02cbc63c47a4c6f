"""Calibration of the evaluator (issue 14): its expected hand score against what happened.

Reads the per-deal lines of ``istaka match --bots expert,B ... --deals-out FILE``: for every
decision the expert acted on (take or draw, opening, discard) the evaluator's expected hand score
of the chosen candidate, and the seat's actual hand score (hand-end score plus in-game penalties)
in that hand. Prints, by bins of the prediction: decisions, mean predicted, mean actual, the gap.

    istaka match --bots expert,solver --variant 101 --deals 100 --seed 1 --deals-out m.jsonl
    python bench/calibrate.py m.jsonl [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json

BINS = (-1000, -50, 0, 25, 50, 100, 150, 250, 10_000)


def table(paths: list[str]) -> tuple[int, list[dict[str, float | int | str]]]:
    pairs: list[tuple[float, int]] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                for k, preds in enumerate(d.get("pred") or ()):
                    pairs += [(p, d["a"][k]) for p in preds]
    rows: list[dict[str, float | int | str]] = []
    for lo, hi in itertools.pairwise(BINS):
        sel = [(p, y) for p, y in pairs if lo < p <= hi]
        if not sel:
            continue
        mp = sum(p for p, _ in sel) / len(sel)
        my = sum(y for _, y in sel) / len(sel)
        rows.append({"bin": f"({lo}, {hi}]", "decisions": len(sel), "predicted": round(mp, 1),
                     "actual": round(my, 1), "gap": round(my - mp, 1)})
    return len(pairs), rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", help="istaka match --deals-out files")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    n, rows = table(a.files)
    if a.json:
        print(json.dumps({"decisions": n, "bins": rows}))
        return
    print(f"{n} evaluated decisions")
    print(f"{'predicted bin':>16} {'decisions':>9} {'predicted':>9} {'actual':>8} {'gap':>7}")
    for r in rows:
        print(f"{r['bin']:>16} {r['decisions']:>9} {r['predicted']:>9} {r['actual']:>8} {r['gap']:>+7}")


if __name__ == "__main__":
    main()
