"""``istaka set``: duplicate sets people play on the Play page against the expert's score.

    istaka set create NAME --variant V --hands N [--seed S] [--bots B,B,B] [--seat K] [--db FILE]
    istaka set list [--db FILE]
    istaka set results NAME [--json] [--db FILE]
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .common import UsageError

VARIANTS = ("101", "101-classic", "51", "partners")  # analysis.selfplay.table.VARIANTS (not imported for --help)
BOTS = ("random", "greedy", "solver", "expert")


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    p = sub.add_parser("set", help="duplicate sets: seeded deals people play against the expert's score",
                       description="A duplicate set is a named list of seeded deals with fixed bot seats; the "
                       "expert plays every deal once in the people's seat; people play the same deals on the "
                       "dashboard's Play page and are ranked by their paired difference to the expert.")
    sp = p.add_subparsers(dest="set_command", metavar="ACTION")
    c = sp.add_parser("create", help="make a set and play the expert's deals",
                      description="Make a duplicate set: its seeded deals, the people's seat and the other seats' "
                      "bots; the expert plays every deal once in the people's seat and its scores are kept with "
                      "the set (sets/NAME.json beside the database).")
    c.add_argument("name", metavar="NAME")
    c.add_argument("--variant", default="101", choices=VARIANTS, help="the table (default 101)")
    c.add_argument("--hands", type=int, default=11, help="deals in the set, 1-50 (default 11)")
    c.add_argument("--seed", default=None, help="the deals' seed (default: the set's name)")
    c.add_argument("--bots", default="expert,expert,expert",
                   help=f"the three other seats' bots, comma-separated ({', '.join(BOTS)}; default expert x3)")
    c.add_argument("--seat", type=int, default=0, help="the seat people play, 0-3 (default 0)")
    c.add_argument("--db", help="database file (the set lives in sets/ beside it)")
    ls = sp.add_parser("list", help="the sets",
                       description="Every duplicate set beside the database: its table, deals, the people's seat "
                       "and the expert's total.")
    ls.add_argument("--db", help="database file")
    r = sp.add_parser("results", help="each person's deals against the expert's, with the 95%% interval",
                      description="Per person who played the set on the Play page: each deal's score beside the "
                      "expert's, the mean paired difference with its 95%% interval (as istaka match computes "
                      "it) and the ranking by that mean.")
    r.add_argument("name", metavar="NAME")
    r.add_argument("--json", action="store_true", help="one JSON object")
    r.add_argument("--db", help="database file")
    return {"set": cmd_set}


def _db(args: argparse.Namespace) -> str:
    from analysis.store import db_path

    return str(db_path(args.db))


def _num(x: float) -> str:
    return "—" if not math.isfinite(x) else f"{x:+.1f}"


def cmd_set(args: argparse.Namespace) -> int:
    from analysis.selfplay import sets

    db = _db(args)
    try:
        if args.set_command == "create":
            bots = [b.strip() for b in args.bots.split(",") if b.strip()]
            s = sets.make(args.name, variant=args.variant, hands=args.hands, seed=args.seed or args.name,
                          seat=args.seat, bots=bots, created=datetime.now(UTC).replace(microsecond=0).isoformat())
            path = sets.save(db, s)
            print(f"set {s.name}: {s.hands} deals of {s.variant}, people at seat {s.seat}, bots "
                  f"{', '.join(b for b in s.bots if b != 'person')}; the expert scored {sum(s.expert)} "
                  f"({' '.join(map(str, s.expert))}) -> {path}")
            return 0
        if args.set_command == "list":
            for name in sets.names(db):
                s = sets.load(db, name)
                print(f"{s.name}\t{s.variant}\t{s.hands} deals\tseat {s.seat}\texpert {sum(s.expert)}")
            return 0
        if args.set_command == "results":
            res = sets.results(db, sets.load(db, args.name))
            if args.json:
                print(json.dumps(res, ensure_ascii=False, default=lambda x: None))
                return 0
            print(f"set {res['set']} ({res['variant']}, {res['hands']} deals): expert {sum(res['expert'])}")
            if not res["people"]:
                print("nobody has played it yet")
            for r in res["people"]:
                print(f"{r['rank']}. {r['person']}: {r['deals']} deals, {sum(r['scores'])} against the expert's "
                      f"{sum(r['expert'])}; mean difference {_num(r['mean_diff'])} a deal, 95% "
                      f"[{_num(r['low'])}, {_num(r['high'])}] (below 0: better than the expert)")
            return 0
    except sets.SetError as e:
        raise UsageError(str(e)) from None
    raise UsageError("istaka set create | list | results")
