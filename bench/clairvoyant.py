"""What information is worth, and how much of it the expert gets (docs/evaluator.md).

Two duplicate matches on the same deals (``analysis.selfplay.match``: the same seed gives the
same shuffles, starters and bot seeds): ``expert`` against ``solver`` and ``clairvoyant`` against
``solver``. Both put their bot alone in each seat among three ``solver`` seats, beside the same
all-``solver`` table, so a deal's four seats pair the expert with the clairvoyant directly. Per
preset it prints, with 95% intervals over deals:

- expert − solver and clairvoyant − solver (points per hand; negative: fewer points, better);
- expert − clairvoyant, each among three solvers, paired by deal and seat;
- the share of the solver → clairvoyant gap the expert closes, (expert − solver) /
  (clairvoyant − solver), its interval from 2,000 bootstrap resamples of the deals (seeded).

    python bench/clairvoyant.py [--variants 101,101-classic,51] [--deals 500] [--seed S] [--jobs 2]
    python bench/clairvoyant.py --variants 101 --files expert.jsonl clairvoyant.jsonl

``--out DIR`` keeps each match's deals (``istaka match --deals-out`` lines) as
``DIR/expert-V.jsonl`` and ``DIR/clairvoyant-V.jsonl``; ``--files`` reads two such files instead
of playing (one variant).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.selfplay import duplicate_match, paired_ci  # noqa: E402

Deals = dict[int, tuple[list[int], list[int]]]  # deal -> (the bot alone in seat k, the all-solver table)


def _read(path: Path) -> Deals:
    out: Deals = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out[int(d["deal"])] = (list(d["a"]), list(d["b"]))
    return out


def _play(bot: str, variant: str, deals: int, seed: str, jobs: int, out: Path) -> Deals:
    t0 = time.perf_counter()
    with out.open("w", encoding="utf-8") as fh:
        s = duplicate_match(bot, "solver", variant=variant, n=deals, seed=seed, jobs=jobs, out=fh)
    print(f"  {bot},solver {variant}: {s['deals']} deals in {time.perf_counter() - t0:.0f} s, refused {s['refused']}",
          flush=True)
    return _read(out)


def _per_deal(d: Deals, keys: list[int]) -> list[float]:
    """Each deal's mean over its four seats of (the bot alone) − (the all-solver table)."""
    return [sum(x - y for x, y in zip(*d[k])) / 4 for k in keys]


def _share(e: list[float], c: list[float], rounds: int = 2000) -> tuple[float, float, float]:
    """(share, low, high): sum(e) / sum(c) and its 2.5 and 97.5 percentiles over resampled deals."""
    rnd = random.Random("clairvoyant-share")
    n = len(e)
    got = []
    for _ in range(rounds):
        idx = [rnd.randrange(n) for _ in range(n)]
        den = sum(c[i] for i in idx)
        if den:
            got.append(sum(e[i] for i in idx) / den)
    got.sort()
    return sum(e) / sum(c), got[int(0.025 * (len(got) - 1))], got[int(0.975 * (len(got) - 1))]


def report(variant: str, ex: Deals, cv: Deals) -> None:
    keys = sorted(set(ex) & set(cv))
    if not keys:
        print(f"{variant}: no deal in both matches")
        return
    mismatched = [k for k in keys if ex[k][1] != cv[k][1]]
    if mismatched:  # the all-solver tables must be the same deals, or nothing here is paired
        raise SystemExit(f"{variant}: the all-solver tables differ at deals {mismatched[:5]}: not the same deals")
    e, c = _per_deal(ex, keys), _per_deal(cv, keys)
    solver = sum(sum(ex[k][1]) for k in keys) / (4 * len(keys))
    rows = [("expert - solver", e), ("clairvoyant - solver", c), ("expert - clairvoyant", [x - y for x, y in zip(e, c)])]
    print(f"{variant}: {len(keys)} deals ({4 * len(keys)} paired hand-seats); solver {solver:.1f} points a hand")
    for name, v in rows:
        m, lo, hi = paired_ci(v)
        print(f"  {name:22s} {m:+8.2f} [{lo:+.2f}, {hi:+.2f}]  ({100 * m / solver:+.1f}% of the solver's score)")
    s, lo, hi = _share(e, c)
    print(f"  share of the solver -> clairvoyant gap the expert closes: {100 * s:.0f}% [{100 * lo:.0f}%, {100 * hi:.0f}%]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="101,101-classic,51")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", default="clairvoyant")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="a folder to keep the deals of each match")
    ap.add_argument("--files", nargs=2, metavar=("EXPERT", "CLAIRVOYANT"), help="deals files of the two matches")
    a = ap.parse_args()
    variants = [v.strip() for v in a.variants.split(",") if v.strip()]
    if a.files:
        if len(variants) != 1:
            raise SystemExit("--files reads one variant's matches: give --variants V")
        report(variants[0], _read(Path(a.files[0])), _read(Path(a.files[1])))
        return
    out = Path(a.out) if a.out else Path(f"/tmp/istaka-clairvoyant-{a.seed}")
    out.mkdir(parents=True, exist_ok=True)
    for v in variants:
        cv = _play("clairvoyant", v, a.deals, a.seed, a.jobs, out / f"clairvoyant-{v}.jsonl")
        ex = _play("expert", v, a.deals, a.seed, a.jobs, out / f"expert-{v}.jsonl")
        report(v, ex, cv)


if __name__ == "__main__":
    main()
