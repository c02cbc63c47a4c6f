"""The ``istaka`` command line: one module per command, registered here; :func:`main` is the
entry point (``istaka`` and ``python -m analysis.cli``).

The top layer: it may import every package of the library, and none of them imports it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from .common import TILES_HELP, HelpFormatter, UsageError

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}
# the module of each command, in the order ``istaka --help`` lists them: a command imports only
# its own module, so ``istaka replay`` starts without pandas, DuckDB or the evaluator
MODULES = ("replay", "solve", "simulate", "match", "store", "review", "notes", "evaluate", "view", "study", "sets", "profile")
OWNER = {"replay": "replay", "solve": "solve", "simulate": "simulate", "match": "match", "import": "store",
         "errors": "store", "export": "store", "analyze": "review", "report": "review", "notes": "notes",
         "evaluate": "evaluate", "view": "view", "study": "study", "set": "sets", "profile": "profile"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of ``command`` when it names one."""
    p = argparse.ArgumentParser(prog="istaka", description="Istaka: the analysis board for 101 Okey. "
                                "`istaka COMMAND --help` tells what a command does and takes.",
                                epilog=TILES_HELP, formatter_class=HelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name in (OWNER[command],) if command in OWNER else MODULES:
        COMMANDS.update(importlib.import_module(f"{__name__}.{name}").register(sub))
    _same_format(p)
    return p


def _same_format(parser: argparse.ArgumentParser) -> None:
    """Every command's help, and its subcommands', formatted as the top level's."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sp in action.choices.values():
                sp.formatter_class = HelpFormatter
                _same_format(sp)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not args.command:
        parser.print_help()
        return 2
    bad = _not_text(args)
    if bad is not None:
        print(f"istaka {args.command}: {bad}", file=sys.stderr)
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
    except Exception as e:  # a store fault no command turned into a message: still one line
        if not (type(e).__module__.split(".")[0] in ("duckdb", "_duckdb")
                or any(c.__name__ == "StoreError" for c in type(e).__mro__)):
            raise
        first = (str(e).splitlines() or [type(e).__name__])[0]
        print(f"istaka {args.command}: {first[:300]}", file=sys.stderr)
        return 2


def _not_text(args: argparse.Namespace) -> str | None:
    """An argument that is not UTF-8 text (bytes the shell passed undecoded, held as lone
    surrogates) and names no existing file: the store cannot hold it, so it is refused here."""
    for name, v in vars(args).items():
        for x in v if isinstance(v, list) else [v]:
            if not isinstance(x, str):
                continue
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                if not os.path.lexists(x):
                    shown = x.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
                    return f"{name}: {shown[:80]!s} is not UTF-8 text"
    return None


__all__ = ["COMMANDS", "MODULES", "OWNER", "UsageError", "build_parser", "main"]
