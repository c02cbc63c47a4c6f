"""``istaka notes``: a game's coach's notes, listed, written or deleted.

    istaka notes GAME [--db FILE] [--json]                       # every note, in hand and step order
    istaka notes GAME --set HAND STEP [--mark M] [--text TEXT]    # add, or edit the one at that step
    istaka notes GAME --delete HAND STEP
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .common import UsageError, busy

# for --help, without importing the store (DuckDB and pandas: a second and more); the same as
# analysis.store.notes.MARKS and MAX_TEXT (tests/test_cli_help.py), which check every note written
MARKS = ("", "!!", "!", "?!", "?", "??")
MAX_TEXT = 2_000


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    p = sub.add_parser("notes", help="a game's notes: a mark and a comment on a step (list, set, delete)",
                       description="The coach's notes on a game, as the dashboard's Replay writes them.")
    p.add_argument("game", metavar="GAME", help="game id")
    p.add_argument("--db", help="database file (default: $ISTAKA_DB, else data/istaka.duckdb)")
    p.add_argument("--json", action="store_true", help="list the notes as JSON lines")
    act = p.add_mutually_exclusive_group()
    act.add_argument("--set", nargs=2, type=int, metavar=("HAND", "STEP"), help="add or edit the note at this step")
    act.add_argument("--delete", nargs=2, type=int, metavar=("HAND", "STEP"), help="delete the note at this step")
    p.add_argument("--mark", default="", help="with --set: one of " + " ".join(m for m in MARKS if m)
                   + " (default none)")
    p.add_argument("--text", default="", help=f"with --set: the comment (at most {MAX_TEXT:,} characters)")
    return {"notes": busy(cmd_notes)}


def cmd_notes(args: argparse.Namespace) -> int:
    from analysis import store

    if (args.mark or args.text) and not args.set:
        raise UsageError("--mark and --text go with --set HAND STEP")
    try:
        con = store.connect(args.db, read_only=not (args.set or args.delete))
    except store.StoreError as err:
        if isinstance(err, store.DatabaseBusy):
            raise
        raise UsageError(str(err)) from None
    try:
        if args.set:
            n = store.save_note(con, args.game, args.set[0], args.set[1], args.mark, args.text)
            print(f"{n.game} hand {n.hand} step {n.step}: note saved")
            return 0
        if args.delete:
            if not store.delete_note(con, args.game, *args.delete):
                raise UsageError(f"no note at hand {args.delete[0]}, step {args.delete[1]} of {args.game!r}")
            print(f"{args.game} hand {args.delete[0]} step {args.delete[1]}: note deleted")
            return 0
        notes = store.list_notes(con, args.game)
    except store.NoteError as e:
        raise UsageError(str(e)) from None
    finally:
        con.close()
    for n in notes:
        if args.json:
            print(json.dumps(n.as_json(), ensure_ascii=False))
        else:
            by = f" ({n.author})" if n.author else ""
            text = n.text.replace("\n", " / ")
            print(f"hand {n.hand} step {n.step}: {n.mark or '-'} {text}{by}".rstrip())
    if not notes and not args.json:
        print(f"no notes on {args.game}")
    return 0
