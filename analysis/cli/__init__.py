"""The ``istaka`` command line: one module per command, registered here; :func:`main` is the
entry point (``istaka`` and ``python -m analysis.cli``).

The top layer: it may import every package of the library, and none of them imports it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from . import evaluate, match, notes, replay, review, simulate, solve, store, study, view
from .common import UsageError

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}
MODULES = (replay, solve, simulate, match, store, review, notes, evaluate, view, study)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="istaka", description="Istaka: the analysis board for 101 Okey.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for mod in MODULES:
        COMMANDS.update(mod.register(sub))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return COMMANDS[args.command](args)
    except UsageError as e:
        print(f"istaka {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:  # a full disk, a folder given for a file: one line, never a traceback
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        print(f"istaka {args.command}: {e.strerror or e}{where}", file=sys.stderr)
        return 2


__all__ = ["COMMANDS", "UsageError", "build_parser", "main"]
