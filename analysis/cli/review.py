"""``istaka analyze`` (annotate stored games with the move review) and ``istaka report`` (one
game's review as a standalone HTML file).

    istaka analyze [--db FILE] [--jobs J] [--force]
    istaka report GAME --out FILE.html [--db FILE | --log FILE.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import UsageError, busy


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    db_help = "database file (default: $ISTAKA_DB, else data/istaka.duckdb)"
    a = sub.add_parser("analyze", help="grade every move of the stored games (the move review)",
                       description="Annotate every stored game not yet annotated by the current solver "
                       "version: decision points, mistakes and their costs (README: Review).")
    a.add_argument("--db", help=db_help)
    a.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    a.add_argument("--force", action="store_true", help="annotate every game again")
    a.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    a.add_argument("--json", action="store_true", help="print the summary as JSON")
    a.add_argument("--no-progress", action="store_true", help="no progress bar")

    r = sub.add_parser("report", help="write one game's review as a standalone HTML file")
    r.add_argument("game", metavar="GAME", help="game id")
    r.add_argument("--out", required=True, metavar="FILE.html")
    src = r.add_mutually_exclusive_group()
    src.add_argument("--db", help=db_help)
    src.add_argument("--log", metavar="FILE", help="read the game from a .jsonl / .jsonl.gz log instead")
    return {"analyze": busy(cmd_analyze), "report": busy(cmd_report)}


def cmd_analyze(args: argparse.Namespace) -> int:
    from analysis import store
    from analysis.store import analyze

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    con = store.connect(args.db)
    try:
        s = analyze(con, jobs=args.jobs, force=args.force, progress=not args.no_progress and sys.stderr.isatty(),
                    games=args.game)
    finally:
        con.close()
    if args.json:
        print(json.dumps(s.__dict__, ensure_ascii=False))
    else:
        print(s.line())
        for e in s.errors or []:
            print(f"  failed: {e}")
    return 1 if s.failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    from analysis.game import replay_game
    from analysis.review import render, review_game

    if args.log:
        from analysis.game import read_file

        try:
            rr = read_file(args.log)
        except OSError as e:
            raise UsageError(f"cannot read {args.log}: {e.strerror or e}") from None
        g = next((x for x in rr.games if x.id == args.game), None)
    else:
        from analysis import store
        from analysis.store import queries

        with store.reading(args.db) as con:
            g = queries.load_gamelog(con, args.game)
    if g is None:
        raise UsageError(f"no game {args.game!r}")
    res = replay_game(g, keep_steps=True)
    if res.error is not None:
        raise UsageError(f"game {args.game!r} cannot be replayed: {res.error['message']}")
    text = render(res, review_game(res))
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"{args.out}: review of {args.game} ({len(text) // 1024} KB)")
    return 0
