"""``istaka study list|export|import``: studies as one file (docs/studies.md), so a coach can send
a lesson to a student whose database may not hold its games."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .common import UsageError, busy, connect_db


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    db_help = "database file (default: $ISTAKA_DB, else data/istaka.duckdb)"
    p = sub.add_parser("study", help="list studies, export one to a file, import one from a file",
                       description="Studies: named, ordered positions with a note each (made on the dashboard's "
                       "Replay and Studies pages). A study file carries the log lines of every game it refers to.")
    cmds = p.add_subparsers(dest="study_command", metavar="ACTION")
    ls = cmds.add_parser("list", help="the stored studies",
                         description="The stored studies, one a line: its number, its name and how many positions it holds.")
    ls.add_argument("--db", help=db_help)
    ex = cmds.add_parser("export", help="write a study and its games to one file",
                         description="Write a study to one file: its positions and notes, and the log lines of "
                         "every game it refers to, for a database that does not hold them.")
    ex.add_argument("name", metavar="NAME", help="the study's name (or its number, as `istaka study list` shows)")
    ex.add_argument("--out", required=True, metavar="FILE", help="the file to write (e.g. lesson.istaka-study)")
    ex.add_argument("--db", help=db_help)
    im = cmds.add_parser("import", help="store a study file's games (the normal import) and the study",
                         description="Store a study file: its games go through the normal import (replayed, "
                         "checked, each written whole or not at all), then the study itself.")
    im.add_argument("file", metavar="FILE", help="a study file (istaka study export, or the Studies page)")
    im.add_argument("--name", help="store the study under this name instead of the file's")
    im.add_argument("--replace", action="store_true",
                    help="overwrite a stored game whose id comes again with different content")
    im.add_argument("--db", help=db_help)
    im.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                    help="how long to wait for another process holding the database (default 10)")
    return {"study": busy(cmd_study)}


def cmd_study(args: argparse.Namespace) -> int:
    from analysis.store import studies

    action = getattr(args, "study_command", None)
    if action is None:
        raise UsageError("give an action: list, export NAME --out FILE, or import FILE")
    if action == "import":
        con = connect_db(args)
        try:
            res = studies.import_study(con, args.file, replace=args.replace, name=args.name)
        finally:
            con.close()
        for line in res.lines():
            print(line, file=sys.stdout if res.status != "refused" or line.startswith("games:") else sys.stderr)
        return 0 if res.status != "refused" else 1
    con = connect_db(args, read_only=True)
    try:
        if action == "list":
            df = studies.list_studies(con)
            for r in df.itertuples(index=False):
                print(f"{r.study}\t{r.name}\t{r.items} items")
            print(f"{len(df)} studies")
            return 0
        sid = studies.find(con, args.name)
        if sid is None and args.name.strip().isdigit() and studies.get(con, int(args.name)) is not None:
            sid = int(args.name)
        if sid is None:
            raise UsageError(f"no study named {args.name[:200]!r} (see `istaka study list`)")
        try:
            out = studies.export_study(con, sid, args.out)
        except studies.StudyError as err:
            raise UsageError(str(err)) from None
    finally:
        con.close()
    with open(out, "rb") as fh:
        n = sum(1 for _ in fh)
    print(f"{out}: study {args.name!r}, {n} lines")
    return 0
