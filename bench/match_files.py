"""Several duplicate matches read together: the deal lines of ``istaka match --deals-out FILE``
runs (the same two bots and preset, any seeds) pooled into one paired difference.

Each file is summed on its own and then all together: deals, paired hand-seats, A and B per
hand, A − B with its 95% t-interval over deals (:func:`analysis.selfplay.paired_ci`, as ``istaka
match`` prints it), and the difference and its interval relative to B's score. A seed's deals are
numbered from 0, so deals are told apart by file, never by number.

    istaka match --bots expert,solver --variant 101-classic --deals 500 --seed s28final --deals-out a.jsonl
    istaka match --bots expert,solver --variant 101-classic --deals 1000 --seed s31classic --deals-out b.jsonl
    python bench/match_files.py a.jsonl b.jsonl [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.selfplay import paired_ci  # noqa: E402

Deal = tuple[list[int], list[int]]  # (A alone in seat k, the all-B table), per seat


def read(path: Path) -> list[Deal]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            a, b = [int(x) for x in d["a"]], [int(x) for x in d["b"]]
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{path}:{n}: not a deal line of istaka match --deals-out ({e})") from None
        if len(a) != len(b) or not a:
            raise SystemExit(f"{path}:{n}: field a and field b must hold one score per seat")
        out.append((a, b))
    return out


def summary(name: str, deals: list[Deal]) -> dict:
    diffs = [sum(x - y for x, y in zip(a, b)) / len(a) for a, b in deals]
    hands = sum(len(a) for a, _ in deals)
    a_mean = sum(sum(a) for a, _ in deals) / hands
    b_mean = sum(sum(b) for _, b in deals) / hands
    m, lo, hi = paired_ci(diffs)
    rel = [100 * x / b_mean if b_mean else float("nan") for x in (m, lo, hi)]
    return {"name": name, "deals": len(deals), "hands": hands, "A": a_mean, "B": b_mean, "diff": m,
            "ci95": [lo, hi], "relative": rel[0], "relative_ci95": rel[1:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    runs = [(str(p), read(p)) for p in a.files]
    rows = [summary(name, d) for name, d in runs]
    if len(runs) > 1:
        rows.append(summary("together", [x for _, d in runs for x in d]))
    if a.json:
        print(json.dumps(rows))
        return
    for r in rows:
        lo, hi = r["ci95"]
        rlo, rhi = r["relative_ci95"]
        print(f"{r['name']}: {r['deals']} deals, {r['hands']} paired hand-seats; A {r['A']:.2f}, B {r['B']:.2f} "
              f"a hand; A - B {r['diff']:+.2f} [{lo:+.2f}, {hi:+.2f}], {r['relative']:+.1f}% of B "
              f"[{rlo:+.1f}%, {rhi:+.1f}%]")


if __name__ == "__main__":
    main()
