"""``istaka import``, ``istaka errors`` and ``istaka export``: the store from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .common import UsageError, add_cluster, busy, cluster_of, connect_db


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    db_help = "database file (default: $ISTAKA_DB, else data/istaka.duckdb)"
    p = sub.add_parser("import", help="replay game logs and store them in the database",
                       description="Import .jsonl / .jsonl.gz game logs (files, directories, globs). Every "
                       "game is replayed by the engine first; each game is written whole or not at all.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, directories or globs")
    p.add_argument("--db", help=db_help)
    p.add_argument("--replace", action="store_true",
                   help="overwrite a stored game whose id comes again with different content")
    p.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                   help="how long to wait for another process holding the database (default 10)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="replay in N worker processes (default: by the size of the import)")
    p.add_argument("--batch", type=int, default=500, metavar="GAMES",
                   help="whole games per transaction (1: one transaction per game)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_cluster(p)

    e = sub.add_parser("errors", help="list import errors and invalid games",
                       description="Every import error and invalid game in the database, one a line: the file "
                       "and line, the game, what was wrong and the rule it breaks. Exit 1 when there is any.")
    e.add_argument("--db", help=db_help)
    e.add_argument("--file", help="only errors of this file")
    e.add_argument("--json", action="store_true", help="one JSON object per line")

    x = sub.add_parser("export", help="write the database's tables as Parquet files",
                       description="Write the database's tables as Parquet files, one a table, or as a "
                       "hive-partitioned Parquet lake (--partition) that ISTAKA_DB=DIR opens read-only.")
    x.add_argument("--parquet", required=True, metavar="DIR", help="directory for <table>.parquet")
    x.add_argument("--partition", metavar="KEYS",
                   help="a Parquet lake instead: DIR/<table>/variant=.../month=.../*.parquet, hive-partitioned "
                   "by these keys (variant, month, year, site), readable with ISTAKA_DB=DIR")
    x.add_argument("--append", action="store_true",
                   help="with --partition: add this database to the lake DIR as a shard (other games; its game "
                   "and import numbers follow the lake's) instead of replacing it")
    x.add_argument("--db", help=db_help)
    return {"import": busy(cmd_import), "errors": busy(cmd_errors), "export": busy(cmd_export)}


def cmd_import(args: argparse.Namespace) -> int:
    from analysis.store import StoreError, expand_paths, import_paths

    try:
        expand_paths(args.paths)  # a mistyped path fails before the database is touched
    except StoreError as err:
        raise UsageError(str(err)) from None
    with cluster_of(args) as cluster:
        con = connect_db(args)
        try:
            s = import_paths(con, args.paths, replace=args.replace, batch_games=max(1, args.batch),
                             workers=args.jobs, progress=not args.no_progress and sys.stderr.isatty(),
                             cluster=cluster)
        except StoreError as err:
            raise UsageError(str(err)) from None
        finally:
            con.close()
    if args.json:
        print(json.dumps(s.to_dict()))
    else:
        print(s.line())
        if s.conflicts or s.failed or s.invalid:
            print("see `istaka errors` for what went wrong and where")
    return 1 if (s.conflicts or s.failed) else 0


def cmd_errors(args: argparse.Namespace) -> int:
    from analysis.store.queries import import_errors

    con = connect_db(args, read_only=True)
    try:
        df = import_errors(con)
    finally:
        con.close()
    if args.file:
        df = df[df.file == args.file]
    import pandas as pd

    def val(x: Any) -> Any:  # a missing value (None, NaN or pandas' NA) as None
        return None if x is None or x is pd.NA or (isinstance(x, float) and x != x) else x

    for r in df.itertuples(index=False):
        line, game, rule = val(r.line), val(r.game), val(r.rule)
        if args.json:
            print(json.dumps({"file": val(r.file), "line": None if line is None else int(line), "game": game,
                              "kind": val(r.kind), "rule": rule, "field": val(r.field),
                              "message": val(r.message)}, ensure_ascii=False))
            continue
        where = f"{r.file}:{int(line)}" if line is not None else f"{r.file}"
        print(f"{where}{f' game {game}' if game else ''}: {r.kind}: {r.message}{f' [{rule}]' if rule else ''}")
    if not args.json:
        print(f"{len(df)} errors")
    return 1 if len(df) else 0


def cmd_export(args: argparse.Namespace) -> int:
    from analysis.store import StoreError, export_lake, export_parquet, parse_partition

    try:
        keys = parse_partition(args.partition) if args.partition else None
    except StoreError as err:
        raise UsageError(str(err)) from None
    if args.append and keys is None:
        raise UsageError("--append adds to a Parquet lake: give --partition KEYS too")
    con = connect_db(args, read_only=True)
    try:
        if keys is None:
            paths = export_parquet(con, args.parquet)
        else:
            paths = export_lake(con, args.parquet, keys, append=args.append)
    except StoreError as err:
        raise UsageError(str(err)) from None
    finally:
        con.close()
    for p in paths:
        print(p)
    return 0
