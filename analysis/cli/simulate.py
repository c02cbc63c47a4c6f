"""``istaka simulate``: self-play games to a v1 log file, and the committed sample set.

    istaka simulate --games 20 --variant 101 --bots solver,greedy,greedy,random --seed 7 --out g.jsonl
    istaka simulate --sample --out data/sample/games.jsonl.gz     # regenerate data/sample/

Also runnable as ``python -m analysis.cli simulate ...``.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

# the bots' names for --help, without importing them (the bots import the evaluator); the same
# names as analysis.selfplay.BOTS (tests/test_cli_help.py)
BOT_NAMES = ("random", "greedy", "solver", "expert", "expert-uniform", "expert-careless", "expert-dealt", "clairvoyant")


def cmd_simulate(args: argparse.Namespace) -> int:
    from analysis.selfplay import BOTS, SAMPLE_GAMES, SAMPLE_SEED, run, sample_specs, specs, write_records

    from .common import UsageError, cluster_of, rule_overrides

    if args.sample:
        todo = sample_specs(args.games or SAMPLE_GAMES, args.seed if args.seed is not None else SAMPLE_SEED)
        out = args.out or "data/sample/games.jsonl.gz"
    else:
        bots = [b.strip() for b in args.bots.split(",")]
        if len(bots) == 1:
            bots *= 4
        if len(bots) != 4 or any(b not in BOTS for b in bots):
            raise UsageError(f"--bots takes four of {', '.join(BOTS)} (or one for every seat), got {args.bots!r}")
        overrides = rule_overrides(args.variant, args.rules)
        if args.games is None or args.games < 1:
            raise UsageError("--games N (N >= 1) is required")
        todo = specs(args.games, variant=args.variant, rules=overrides, bots=bots,
                     seed=args.seed if args.seed is not None else 0, hands=args.hands)
        out = args.out or "-"
    with cluster_of(args) as cluster:  # one task per game, written here in order: the same bytes as without
        mapper = None if cluster is None else functools.partial(
            cluster.map, progress=not args.quiet, desc="simulate", total=len(todo))
        recs = run(todo, jobs=max(1, args.jobs), progress=not args.quiet and cluster is None, mapper=mapper)
        if out == "-":
            refused = 0
            for rec in recs:
                sys.stdout.writelines(rec.lines())
                refused += rec.refused
            games = len(todo)
        else:
            try:
                games, refused = write_records(recs, out)
            except OSError as e:
                raise UsageError(f"cannot write {out}: {e.strerror or e}") from None
            print(f"{games} games written to {out}" + (f" ({refused} bot moves refused by the engine)" if refused else ""),
                  file=sys.stderr)
    return 0 if refused == 0 else 1


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    from .common import add_cluster

    p = sub.add_parser("simulate", help="self-play games by bots, written as v1 game logs",
                       description="Self-play: four bots play whole games under a preset's rules, written as "
                       "v1 game logs (the same seed, the same bytes); --sample rebuilds the committed sample set.")
    p.add_argument("--games", type=int, help="how many games (sample: 60)")
    p.add_argument("--variant", default="101", help="preset: 101, 101-classic or 51")
    p.add_argument("--rules", help='option overrides as JSON, e.g. \'{"esli": true}\'')
    p.add_argument("--bots", default="greedy,greedy,greedy,greedy",
                   help=f"four bots in seat order ({', '.join(BOT_NAMES)}), or one for all")
    p.add_argument("--hands", type=int, help="hands per game (default: the rules' count)")
    p.add_argument("--seed", type=int, help="the same seed gives the same file byte for byte")
    p.add_argument("--out", help="FILE.jsonl or FILE.jsonl.gz (default: stdout)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_cluster(p)
    p.add_argument("--sample", action="store_true",
                   help="the committed sample set (data/sample/): fixed cast, presets, dates")
    return {"simulate": cmd_simulate}
