"""What every ``istaka`` command shares: the usage error (exit 2) and the busy database (exit 3)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


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


def rule_overrides(variant: str, rules: str | None) -> dict[str, Any] | None:
    """``--rules JSON`` read and checked against ``--variant`` (a UsageError names what is wrong)."""
    import json

    from analysis.game import RulesError, resolve

    try:
        overrides = json.loads(rules) if rules else None
        resolve(variant, overrides)
    except (json.JSONDecodeError, RulesError) as e:
        raise UsageError(f"--variant/--rules: {e}") from None
    return overrides


TILES_HELP = """\
tiles (RULES.md T1-T5):
  R7      a colour letter and a number, 1 to 13: R red (kırmızı), Y yellow (sarı), B blue (mavi), K black (siyah)
  J       the false okey (sahte okey): it always counts as the okey's face (T5)
  okey    the indicator's (gösterge) colour, one number higher (T3): indicator R5, okey R6; indicator 13, okey 1. In a rack the okey is written as its face (R6)
  R6>K9   in a meld, a wild tile as PHYSICAL>STANDS_FOR: the okey R6 standing for the black 9
  rack    tiles separated by spaces or commas: "R1 R2 R3 J\""""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, but a text's own lines are kept, each wrapped on its own; a line
    ``  TERM    text`` wraps under its text (the tile notation above reads as a list)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import re
        import textwrap

        out = []
        for line in text.splitlines():
            m = re.match(r"(\s+\S+\s{2,})", line)
            hang = indent + " " * len(m.group(1)) if m else indent
            first = indent + line[:len(m.group(1))] if m else indent
            body = " ".join(line[len(m.group(1)):].split()) if m else " ".join(line.split())
            out.append(textwrap.fill(body, width, initial_indent=first, subsequent_indent=hang) if line.strip() else "")
        return "\n".join(out)


CLUSTER_HELP = ("do the work on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`) or local:N "
                "(N worker processes on this machine for this run); this process stays the only writer")


def add_cluster(parser: argparse.ArgumentParser) -> None:
    """The ``--cluster ADDRESS`` option of import, analyze, simulate and match."""
    parser.add_argument("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)


@contextlib.contextmanager
def cluster_of(args: argparse.Namespace) -> Iterator[Any]:
    """The cluster ``--cluster`` names, open for the command's run (None without the flag).

    Opened before the database is touched, so a wrong address or a worker with other code
    (refused by version digest) changes nothing; cluster errors are usage errors (exit 2).
    """
    address = getattr(args, "cluster", None)
    if not address:
        yield None
        return
    from analysis.store import Cluster, ClusterError

    try:
        cluster = Cluster.open(address)
    except ClusterError as err:
        raise UsageError(str(err)) from None
    try:
        yield cluster
    except ClusterError as err:  # during the run: a task that kills every worker it meets, none left
        raise UsageError(str(err)) from None
    finally:
        cluster.close()


def _sweep(dest: Path) -> None:
    """Remove the temporary files of earlier writes to ``dest`` whose process is gone (killed with
    -9 between its write and its rename): ``.NAME.PID.tmp`` beside it."""
    import glob

    from analysis.game.procs import alive

    with contextlib.suppress(OSError):
        for p in dest.parent.glob(f".{glob.escape(dest.name)}.*.tmp"):
            pid = p.name[len(dest.name) + 2:-4]
            if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
                with contextlib.suppress(OSError):
                    p.unlink()


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """``text`` written to ``path`` (UTF-8) through a temporary file beside it, renamed over it when
    whole: a failed write (a full disk, text that cannot be encoded) leaves the old file, or none,
    never a partial one. The failure is a usage error, one line."""
    given = Path(path)
    dest = Path(os.path.realpath(given))  # through a link: the file it names is replaced, the link kept
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    _sweep(dest)
    try:
        data = text.encode("utf-8")
        if given.exists() and not given.is_file():  # /dev/stdout, a pipe, a device, a folder: written in
            with open(given, "wb") as f:           # place, never renamed over (a device replaced by a file)
                f.write(data)
            return
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, dest)
    except BrokenPipeError:  # `--out /dev/stdout | head`: the reader has had enough (main: exit 0)
        raise
    except (OSError, UnicodeError) as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise UsageError(f"{given}: cannot write the file: {why}") from None


def connect_db(args: argparse.Namespace, read_only: bool = False) -> Any:
    """The store of ``--db`` (and ``--wait``): a busy database raises DatabaseBusy for :func:`busy`
    to report; any other store error is a usage error, one line."""
    from analysis.store import StoreError, connect

    try:
        return connect(args.db, read_only=read_only, wait=getattr(args, "wait", None))
    except StoreError as err:
        if type(err).__name__ == "DatabaseBusy":
            raise
        raise UsageError(str(err)) from None
