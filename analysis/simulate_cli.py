"""``istaka simulate``: self-play games to a v1 log file, and the committed sample set.

    istaka simulate --games 20 --variant 101 --bots solver,greedy,greedy,random --seed 7 --out g.jsonl
    istaka simulate --sample --out data/sample/games.jsonl.gz     # regenerate data/sample/

Also runnable as ``python -m analysis.simulate_cli ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from .bots import BOTS
from .rules import RulesError, resolve
from .simulate import GameSpec, Player, run, specs, write_records

# The sample's cast: a stable table of friends at mixed strengths (bot) and speeds.
CAST: tuple[Player, ...] = (
    Player("Ayşe", "solver", 1.1),
    Player("Mehmet", "solver", 0.8),
    Player("Zeynep", "greedy", 0.9),
    Player("Ali", "greedy", 1.3),
    Player("Elif", "solver", 1.0),
    Player("Mustafa", "greedy", 1.6),
    Player("Fatma", "greedy", 1.2),
    Player("Emre", "random", 0.7),
)

# (variant, rule overrides, hands): the mix of games the sample cycles through
SAMPLE_TABLES: tuple[tuple[str, dict[str, Any] | None, int], ...] = (
    ("101", None, 11),
    ("101", {"esli": True}, 11),
    ("51", None, 7),
    ("101-classic", None, 7),
    ("101", {"cezali": False}, 7),
    ("101", None, 5),
    ("51", {"esli": True}, 5),
    ("101-classic", {"esli": True, "hands": 5}, 5),
    ("101", {"unopened_penalty": 101, "katlamali": False}, 7),
    ("51", {"cezali": False}, 7),
)

SAMPLE_GAMES = 60
SAMPLE_SEED = 2026


def sample_specs(n: int = SAMPLE_GAMES, seed: int = SAMPLE_SEED) -> list[GameSpec]:
    """The sample set: ``n`` evenings at the kahvehane over about seven weeks."""
    import random

    rng = random.Random(f"istaka-sample:{seed}")
    day = datetime(2026, 9, 7, 19, 30, tzinfo=UTC)
    out = []
    for i in range(n):
        variant, rules, hands = SAMPLE_TABLES[i % len(SAMPLE_TABLES)]
        four = rng.sample(CAST, 4)
        if i and i % 2 == 0:
            day += timedelta(days=rng.choice((1, 1, 2)))
        when = day + timedelta(minutes=rng.randrange(0, 150))
        out.append(GameSpec(
            game=f"kahve-{when:%Y-%m-%d}-{i + 1}", players=tuple(four), variant=variant,
            rules=rules, seed=str(seed), started=when.isoformat(), site="Kahve Istaka", hands=hands,
        ))
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    from .cli import UsageError

    if args.sample:
        todo = sample_specs(args.games or SAMPLE_GAMES, args.seed if args.seed is not None else SAMPLE_SEED)
        out = args.out or "data/sample/games.jsonl.gz"
    else:
        bots = [b.strip() for b in args.bots.split(",")]
        if len(bots) == 1:
            bots *= 4
        if len(bots) != 4 or any(b not in BOTS for b in bots):
            raise UsageError(f"--bots takes four of {', '.join(BOTS)} (or one for every seat), got {args.bots!r}")
        try:
            overrides = json.loads(args.rules) if args.rules else None
            resolve(args.variant, overrides)
        except (json.JSONDecodeError, RulesError) as e:
            raise UsageError(f"--variant/--rules: {e}") from None
        if args.games is None or args.games < 1:
            raise UsageError("--games N (N >= 1) is required")
        todo = specs(args.games, variant=args.variant, rules=overrides, bots=bots,
                     seed=args.seed if args.seed is not None else 0, hands=args.hands)
        out = args.out or "-"
    recs = run(todo, jobs=max(1, args.jobs), progress=not args.quiet)
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
    p = sub.add_parser("simulate", help="self-play games by bots, written as v1 game logs")
    p.add_argument("--games", type=int, help="how many games (sample: 60)")
    p.add_argument("--variant", default="101", help="preset: 101, 101-classic or 51")
    p.add_argument("--rules", help='option overrides as JSON, e.g. \'{"esli": true}\'')
    p.add_argument("--bots", default="greedy,greedy,greedy,greedy",
                   help="four bots in seat order (random, greedy, solver), or one for all")
    p.add_argument("--hands", type=int, help="hands per game (default: the rules' count)")
    p.add_argument("--seed", type=int, help="the same seed gives the same file byte for byte")
    p.add_argument("--out", help="FILE.jsonl or FILE.jsonl.gz (default: stdout)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--sample", action="store_true",
                   help="the committed sample set (data/sample/): fixed cast, presets, dates")
    return {"simulate": cmd_simulate}


def main(argv: list[str] | None = None) -> int:
    from .cli import main as cli_main

    return cli_main(["simulate", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
