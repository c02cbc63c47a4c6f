"""``istaka match``: a duplicate match between two bots.

    istaka match --bots expert,solver --variant 101 --deals 60 --seed 7 --json

Every deal is played by four B seats and again with A in each seat among three B; the paired
difference per hand-seat (A's score minus B's in the same seat of the same deal) is what counts.
Negative ``diff``: A scores fewer points, A is better.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from typing import Any

from .simulate import BOT_NAMES

FEW_DEALS = 30  # below this many deals the paired interval is too wide to rank anything


def cmd_match(args: argparse.Namespace) -> int:
    from analysis.selfplay import BOTS, duplicate_match

    from .common import UsageError, cluster_of, rule_overrides

    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) != 2 or any(b not in BOTS for b in bots):
        raise UsageError(f"--bots takes two of {', '.join(BOTS)} as A,B, got {args.bots!r}")
    overrides = rule_overrides(args.variant, args.rules)
    if args.deals < 1:
        raise UsageError("--deals N needs N >= 1")
    if args.jobs < 1:
        raise UsageError("--jobs J needs J >= 1")
    with cluster_of(args) as cluster:  # one task per deal, summed here
        mapper = None if cluster is None else functools.partial(
            cluster.map, progress=sys.stderr.isatty(), desc="match", total=args.deals)
        try:
            deals_out = open(args.deals_out, "w", encoding="utf-8") if args.deals_out else None  # noqa: SIM115
        except OSError as e:
            raise UsageError(f"cannot write {args.deals_out}: {e.strerror or e}") from None
        try:
            res = duplicate_match(bots[0], bots[1], variant=args.variant, rules=overrides, n=args.deals,
                                  seed=args.seed, jobs=args.jobs, mapper=mapper, out=deals_out)
        finally:
            if deals_out is not None:
                deals_out.close()
    if args.json:
        print(json.dumps(res))
    else:
        a, b = res["bots"]["A"], res["bots"]["B"]
        lo, hi = res["ci95"]
        print(f"{res['variant']}: {res['deals']} deals, {res['hands']} paired hand-seats, {res['seconds']:.1f} s")
        print(f"  {a['name']:>8}  {a['mean']:8.2f} points per hand ({a['hands']} hands)")
        print(f"  {b['name']:>8}  {b['mean']:8.2f} points per hand ({b['hands']} hands)")
        rel = f" ({res['diff'] / b['mean'] * 100:+.1f}%)" if b["mean"] else ""
        print(f"  {a['name']} - {b['name']}: {res['diff']:+.2f}{rel}, 95% CI [{lo:+.2f}, {hi:+.2f}]")
    if res["deals"] < FEW_DEALS:  # an interval of +-105 points once said nothing about why
        lo, hi = res["ci95"]
        print(f"istaka match: note: {res['deals']} deals are far too few to rank two bots: the 95% interval is "
              f"±{(hi - lo) / 2:.0f} points; give --deals {FEW_DEALS * 4} or more for a difference you can trust",
              file=sys.stderr)
    if res["refused"]:
        print(f"istaka match: {res['refused']} bot moves were refused by the engine", file=sys.stderr)
    return 0


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    from .common import add_cluster

    p = sub.add_parser("match", help="a duplicate match between two bots: paired mean difference and 95%% CI",
                       description="A duplicate match: every deal is played by four B seats and again with A in "
                       "each seat among three B; the paired difference per hand-seat (A's score minus B's in the "
                       "same seat of the same deal), its mean and 95%% interval. Negative: A scores fewer "
                       "points, A is better.")
    p.add_argument("--bots", required=True, help=f"A,B: two of {', '.join(BOT_NAMES)}")
    p.add_argument("--variant", default="101", help="preset: 101, 101-classic or 51")
    p.add_argument("--rules", help='option overrides as JSON, e.g. \'{"esli": true}\'')
    p.add_argument("--deals", type=int, default=100, help="deals (each gives four paired hand-seats)")
    p.add_argument("--seed", default="0", help="the same seed gives the same match")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--deals-out", metavar="FILE", help="also write each deal's scores as a JSON line, as it ends")
    add_cluster(p)
    return {"match": cmd_match}


__all__ = ["cmd_match", "register"]
