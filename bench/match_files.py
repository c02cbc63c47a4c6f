"""Several duplicate matches read together: the deal lines of ``istaka match --deals-out FILE``
runs (the same two bots and preset, any seeds) pooled into one paired difference.

Each file is summed on its own and then all together by ``istaka match``'s own summary
(:func:`analysis.selfplay.match.summarize`): deals, paired hand-seats, A and B per hand, A − B
with its 95% t-interval over deals; then the difference and its interval relative to B's score.
A seed's deals are numbered from 0, so deals are told apart by file, never by number.

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

from analysis.selfplay.match import DealResult, summarize  # noqa: E402


def read(path: Path) -> list[DealResult]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            a, b = tuple(int(x) for x in d["a"]), tuple(int(x) for x in d["b"])
            out.append(DealResult(int(d["deal"]), a, b, int(d.get("refused", 0))))
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{path}:{n}: not a deal line of istaka match --deals-out ({e})") from None
        if len(a) != 4 or len(b) != 4:
            raise SystemExit(f"{path}:{n}: field a and field b must hold one score per seat, four each")
    return out


def row(name: str, deals: list[DealResult]) -> dict:
    """``istaka match``'s own summary of these deals, with the difference relative to B."""
    s = summarize("A", "B", "", deals, 0.0)
    b_mean = s["bots"]["B"]["mean"]
    rel = [100 * x / b_mean if b_mean else float("nan") for x in (s["diff"], *s["ci95"])]
    return {"name": name, "deals": s["deals"], "hands": s["hands"], "A": s["bots"]["A"]["mean"], "B": b_mean,
            "diff": s["diff"], "ci95": s["ci95"], "relative": rel[0], "relative_ci95": rel[1:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    runs = [(str(p), read(p)) for p in a.files]
    rows = [row(name, d) for name, d in runs]
    if len(runs) > 1:
        rows.append(row("together", [x for _, d in runs for x in d]))
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
