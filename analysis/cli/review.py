"""``istaka analyze`` (annotate stored games with the move review, quick or deep) and ``istaka
report`` (one game's review as a standalone HTML file, or as JSON).

    istaka analyze [--db FILE] [--jobs J] [--force] [--deep [--budget S] [--worlds W]]
    istaka report GAME (--out FILE.html | --json) [--db FILE | --log FILE.jsonl] [--deep] [--lang tr|en]
                  [--min-cost N] [--luck]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .common import UsageError, add_cluster, busy, cluster_of, write_atomic


MAX_REPORT_CHARS = 16 << 20  # a report (an 11-hand game's is some 100 KB)


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    db_help = "database file (default: $ISTAKA_DB, else data/istaka.duckdb)"
    a = sub.add_parser("analyze", help="grade every move of the stored games (the move review)",
                       description="Annotate every stored game not yet annotated by the current solver "
                       "version: decision points, mistakes and their costs (docs/review-design.md).")
    a.add_argument("--db", help=db_help)
    a.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    a.add_argument("--force", action="store_true", help="annotate every game again")
    a.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    a.add_argument("--json", action="store_true", help="print the summary as JSON")
    a.add_argument("--no-progress", action="store_true",
                   help="no progress: no bar on a terminal, no line per game on stderr otherwise")
    a.add_argument("--deep", action="store_true",
                   help="grade every decision in expected points with the evaluator (about 30 s a game per core)")
    a.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="evaluation time per decision in the deep pass's ranking (default 0.04)")
    a.add_argument("--worlds", type=int, default=None, metavar="W",
                   help="fixed worlds each decision is priced on in the deep pass (default 64)")
    add_cluster(a)

    r = sub.add_parser("report", help="one game's review as a standalone HTML file, or as JSON",
                       description="The stored annotation of the game when there is one (quick or deep), "
                       "else a review made now (quick, or deep with --deep).")
    r.add_argument("game", metavar="GAME", help="game id")
    r.add_argument("--out", metavar="FILE", help="write here (FILE.html; with --json, FILE.json; default: stdout for --json)")
    r.add_argument("--json", action="store_true", help="the review as JSON (docs/review-design.md)")
    r.add_argument("--deep", action="store_true", help="review in expected points when nothing is stored")
    r.add_argument("--lang", choices=("tr", "en"), default="tr",
                   help="the report's language: the HTML, and the key moments' lessons in --json (default tr, "
                   "as the board)")
    r.add_argument("--luck", action="store_true",
                   help="add each hand's luck and skill split (every seat whose rack is known, from its own view; "
                   "a few seconds a hand)")
    r.add_argument("--min-cost", type=float, default=0, metavar="N",
                   help="only mistakes over N expected points in full; the rest collapsed (default 0)")
    src = r.add_mutually_exclusive_group()
    src.add_argument("--db", help=db_help)
    src.add_argument("--log", metavar="FILE", help="read the game from a .jsonl / .jsonl.gz log instead")
    return {"analyze": busy(cmd_analyze), "report": busy(cmd_report)}


def cmd_analyze(args: argparse.Namespace) -> int:
    from analysis import store
    from analysis.store import analyze

    from analysis.review import DEEP_BUDGET

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    budget = DEEP_BUDGET if args.budget is None else args.budget
    if not 0 < budget <= 60:
        raise UsageError("--budget must be more than 0 and at most 60 seconds")
    if args.worlds is not None and not 1 <= args.worlds <= 100_000:
        raise UsageError("--worlds must be between 1 and 100000")
    with cluster_of(args) as cluster:
        try:
            con = store.connect(args.db)
        except store.StoreError as err:
            if isinstance(err, store.DatabaseBusy):
                raise
            raise UsageError(str(err)) from None
        bar = not args.no_progress and sys.stderr.isatty()
        try:
            s = analyze(con, jobs=args.jobs, force=args.force, progress=bar, games=args.game, cluster=cluster,
                        deep=args.deep, budget=budget, worlds=args.worlds,
                        each=None if bar or args.no_progress else _log_game)
        finally:
            con.close()
    if args.json:
        print(json.dumps(s.__dict__, ensure_ascii=False))
    else:
        print(s.line())
        for e in s.errors or []:
            print(f"  failed: {e}")
    return 1 if s.failed else 0


def _log_game(a: Any, done: int, todo: int) -> None:
    """Progress where no bar can be drawn (a log file, a pipe): one line per game on stderr."""
    what = (f"failed: {(a.error.splitlines() or [''])[0]}" if a.error is not None else
            f"{len(a.decisions)} decisions, {len(a.mistakes)} mistakes, {a.seconds:.1f}s")
    print(f"analyze: {done}/{todo} {a.game}: {what}", file=sys.stderr, flush=True)


def report_json(gr: Any, res: Any, notes: Sequence[Any], lang: str) -> dict[str, Any]:
    """The review as JSON (:func:`analysis.review.lesson.to_json`) with what the HTML report
    opens on: each seat's key moments (lessons in ``lang``) and the coach's notes, in game order."""
    from dataclasses import asdict

    from analysis.review.lesson import to_json
    from analysis.review.moments import key_moments

    out = to_json(gr, res)
    out["moments"] = [[{**asdict(m), "cost": round(m.cost, 2), "severity": m.severity} for m in seat]
                      for seat in key_moments(gr, lang)]
    out["notes"] = [n.as_json() for n in notes]
    return out


def cmd_report(args: argparse.Namespace) -> int:
    from analysis.game import replay_game
    from analysis.review import render, review_game

    if not args.out and not args.json:
        raise UsageError("say where the report goes: --out FILE.html, or --json")
    stored = None
    notes: list[Any] = []  # the coach's notes on the game (a log file has none)
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
            stored = store.load_review(con, args.game) if g is not None else None
            notes = store.list_notes(con, args.game) if g is not None else []
    if g is None:
        raise UsageError(f"no game {args.game!r}")
    res = replay_game(g, keep_steps=True)
    if res.error is not None:
        raise UsageError(f"game {args.game!r} cannot be replayed: {res.error['message']}")
    if stored is not None and (stored.depth == "deep" or not args.deep):
        gr = stored
    elif args.deep:
        from analysis.review.deep import deep_review_game

        gr = deep_review_game(res)
    else:
        gr = review_game(res)
    luck: list[Any] = []
    if args.luck:
        from analysis.review.luck import split_game
        from analysis.store.profile import PROFILE_WORLDS

        luck = split_game(res, worlds=PROFILE_WORLDS)
    if args.json:
        out = report_json(gr, res, notes, args.lang)
        if args.luck:
            out["luck"] = [s.to_dict() for s in luck]
        text = json.dumps(out, ensure_ascii=False)
        if not args.out:
            print(text)
            return 0
    else:
        if args.min_cost < 0:
            raise UsageError("--min-cost must be 0 or more")
        text = render(res, gr, lang=args.lang, min_cost=args.min_cost, notes=notes, luck=luck)
    if len(text) > MAX_REPORT_CHARS:  # a game of legal but endless turns: refused before it is written
        raise UsageError(f"the report of {args.game} would be {len(text) / 2**20:,.0f} MB, past the limit of "
                         f"{MAX_REPORT_CHARS >> 20} MB (docs/limits.md); nothing was written")
    write_atomic(args.out, text)
    print(f"{args.out}: {gr.depth} review of {args.game} ({max(1, len(text) // 1024)} KB)")
    return 0
