"""``istaka view``: turn full logs into one seat's view (docs/log-format.md, "Seat-view logs")."""

from __future__ import annotations

import argparse
import gzip
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import UsageError


def cmd_view(args: argparse.Namespace) -> int:
    from analysis.game import read_file, write  # the engine, not for --help
    from analysis.game.cut import cut_view

    if not 0 <= args.seat <= 3:
        raise UsageError(f"--seat must be 0-3, got {args.seat}")
    try:
        rr = read_file(args.file)
    except OSError as e:
        raise UsageError(f"{args.file}: cannot read the file: {e.strerror or e}") from None
    games = [g for g in rr.games if not args.game or g.id == args.game]
    if args.game and not games:
        raise UsageError(f"no readable game {args.game!r} in {args.file}")
    out, skipped = [], 0
    for g in games:
        try:
            out.append(cut_view(g, args.seat, shown=args.shown))
        except ValueError as e:  # already a seat view
            print(f"istaka view: {args.file}: {e}; skipped", file=sys.stderr)
            skipped += 1
    buf = io.StringIO()
    write(out, buf)
    dest = Path(args.out)
    try:
        if dest.name.endswith(".gz"):  # mtime 0: the same input gives the same bytes
            with open(dest, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:
                f.write(buf.getvalue().encode("utf-8"))
        else:
            dest.write_text(buf.getvalue(), encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{args.out}: cannot write the file: {e.strerror or e}") from None
    for err in rr.errors:
        print(f"unreadable: {err}", file=sys.stderr)
    print(f"{len(out)} games written as seat {args.seat}'s view to {args.out}"
          + (f"; {skipped} skipped" if skipped else "") + (f"; {len(rr.errors)} unreadable" if rr.errors else ""))
    return 1 if rr.errors or skipped else 0


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    v = sub.add_parser("view", help="write full game logs as one seat saw them (seat-view logs)",
                       description="Cut full logs down to one seat's view: the other racks and draws hidden, "
                       "every face-up move kept, each hand closed by an end event with its scores.")
    v.add_argument("file", metavar="FILE", help="a .jsonl or .jsonl.gz full log")
    v.add_argument("--seat", type=int, required=True, metavar="S", help="the viewing seat, 0-3")
    v.add_argument("--out", required=True, metavar="F", help="the seat-view log to write (.jsonl or .jsonl.gz)")
    v.add_argument("--game", help="only this game id")
    v.add_argument("--shown", action="store_true",
                   help="also write the other racks as shown when each hand was counted (end.racks)")
    return {"view": cmd_view}
