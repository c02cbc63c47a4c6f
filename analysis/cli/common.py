"""What every ``istaka`` command shares: the usage error (exit 2) and the busy database (exit 3)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


class UsageError(Exception):
    """Bad arguments or an unreadable file: exit 2."""


EXIT_BUSY = 3


def busy(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Another process holding the database: a message and exit 3, not a traceback."""
    def run(args: argparse.Namespace) -> int:
        from analysis.store import DatabaseBusy

        try:
            return fn(args)
        except DatabaseBusy as err:
            print(f"istaka {args.command}: {err}", file=sys.stderr)
            return EXIT_BUSY
    run.__doc__ = fn.__doc__
    return run
