"""The import: files to replayed games to the store, with its guarantees (docs/import.md, docs/store.md).

Files are read and replayed in worker processes (:func:`prepare_file`); the parent decides per
game (new, unchanged, conflict) and writes whole games per transaction (:mod:`analysis.store_rows`).
"""

from __future__ import annotations

import dataclasses
import glob as globmod
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from analysis.game import ReadError, process_pool
from analysis.game.log import read_lines, raw_lines
from analysis.game import replay_game

from .db import StoreError
from .rows import (
    GameRows,
    Tables,
    game_checksum,
    game_rows,
    next_gid,
    out_of_range_games,
    rows_out_of_range,
    take_games,
    to_tables,
    write_tables,
)

if TYPE_CHECKING:
    from .cluster import Cluster

# ---- import -------------------------------------------------------------------------------

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
MAX_ERROR_ROWS = 200  # import_errors rows per file import, then one row counting the rest


def expand_paths(paths: Iterable[str]) -> list[Path]:
    """Files, directories (searched recursively for .jsonl/.jsonl.gz) and globs, in a stable order."""
    out: list[Path] = []
    for raw in paths:
        try:
            # a name that exists is itself, "kahve [eylül].jsonl" included; only others are globs
            literal = Path(raw).exists() or not globmod.has_magic(raw)
            matches = [Path(raw)] if literal else [Path(m) for m in sorted(globmod.glob(raw, recursive=True))]
            if not matches or not all(m.exists() for m in matches):
                raise StoreError(f"no such file or directory: {raw}")
            for m in matches:
                if m.is_dir():
                    out.extend(sorted(f for f in m.rglob("*") if f.is_file() and f.name.endswith(LOG_SUFFIXES)))
                elif not m.is_file():  # a FIFO would block the import (and its write lock) for ever
                    raise StoreError(f"{raw} is not a regular file (a FIFO, device or socket): only log files "
                                     f"are imported")
                else:
                    out.append(m)
        except OSError as e:  # a name too long, a folder without permission: one line, not a traceback
            raise StoreError(f"cannot read {raw[:200]}{'…' if len(raw) > 200 else ''}: {e.strerror or e}") from None
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            unique.append(p)
    return unique


@dataclass
class Entry:
    """One game of a file: ``status`` new (replayed, rows in the file's tables), unchanged, conflict
    or refused (it cannot be stored: ``message`` says why)."""

    game: str
    checksum: str
    line: int
    status: str
    valid: bool = True
    gid: int = 0
    span: dict[str, tuple[int, int]] = field(default_factory=dict)
    message: str = ""  # why a game was refused (status "refused": a value past the store's limits)


@dataclass
class FilePrep:
    """A file read and its new games replayed into column tables (made in a worker process)."""

    file: str
    checksum: str
    bytes: int
    errors: list[ReadError]
    games: list[Entry]
    tables: Tables
    events: int = 0
    dropped: int = 0  # the reader's errors past its list (one summary error stands for them)


_KNOWN: dict[str, str] = {}


def _init_worker(known: dict[str, str]) -> None:
    global _KNOWN
    _KNOWN = known


def shown_name(name: str) -> str:
    """A file's name as the store keeps it: a name that is not UTF-8 (its bytes held as lone
    surrogates) shows them as ``\\xff``, so its rows can be stored and the files after it read."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")


def prepare_file(path: str | Path, known: dict[str, str] | None = None, replace: bool = False, *,
                 raw: bytes | None = None, stored: Any = None, label: str | None = None) -> FilePrep:
    """Read a file and replay every game the database does not hold yet (``known``: id -> checksum).

    On a cluster the file's bytes come with the task (``raw``), and instead of the id map, which
    may be large, the workers share ``stored``: the stored games' checksums (:func:`stored_checksums`).
    A game found there is unchanged; any other is replayed, and the client decides as always.
    ``label``: the file's name in the store, where not its path (an upload).
    """
    known = _KNOWN if known is None else known
    p = Path(path)
    name = shown_name(label or str(path))
    digest = hashlib.sha256()
    size = [0]

    def tap(block: bytes) -> None:  # the file hashed as it is read, never held whole
        digest.update(block)
        size[0] += len(block)
    try:
        rr = read_lines(raw_lines(p, raw, tap=tap), name)
    except OSError as e:  # the file, not a game: reported, and the other files still go in
        err = ReadError(name, None, None, f"cannot read the file: {e.strerror or e}")
        return FilePrep(name, "", 0, [err], [], to_tables([])[0], 0)
    entries: list[Entry] = []
    new: list[GameRows] = []
    events = 0
    for g in rr.games:
        events += len(g.events) + 1
        try:
            cs = game_checksum(g)
            have = known.get(g.id)
            if have == cs or (stored is not None and _holds(stored, cs)):
                entries.append(Entry(g.id, cs, g.line, "unchanged"))
                continue
            if have is not None and not replace:
                entries.append(Entry(g.id, cs, g.line, "conflict"))
                continue
            rows = game_rows(g, replay_game(g, keep_steps=False), cs)
        except (ValueError, TypeError, OverflowError, RecursionError) as e:  # one game, never the file
            entries.append(Entry(g.id, "", g.line, "refused", False, message=f"{type(e).__name__}: {e}"))
            continue
        entries.append(Entry(g.id, cs, g.line, "new", rows.valid))
        new.append(rows)
    try:
        tables, spans = to_tables(new)
    except (OverflowError, ValueError, TypeError):  # an integer past int64: find its games
        by_id = {e.game: e for e in entries if e.status == "new"}
        for rows in new:
            why = rows_out_of_range(rows)
            if why is not None:
                by_id[rows.game].status, by_id[rows.game].message = "refused", why
        new = [r for r in new if by_id[r.game].status == "new"]
        try:
            tables, spans = to_tables(new)
        except (OverflowError, ValueError, TypeError):  # something else: game by game
            for rows in new:
                try:
                    to_tables([rows])
                except (OverflowError, ValueError, TypeError) as e:
                    by_id[rows.game].status, by_id[rows.game].message = "refused", f"{type(e).__name__}: {e}"
            new = [r for r in new if by_id[r.game].status == "new"]
            tables, spans = to_tables(new)
    too_big = out_of_range_games(tables, spans)  # past INTEGER: refused here, not by the database
    if too_big:
        by_id = {e.game: e for e in entries if e.status == "new"}
        for k, why in too_big.items():
            by_id[new[k].game].status, by_id[new[k].game].message = "refused", why
        new = [r for r in new if by_id[r.game].status == "new"]
        tables, spans = to_tables(new)
    for entry, sp in zip((x for x in entries if x.status == "new"), spans, strict=True):
        entry.span = sp
    return FilePrep(name, digest.hexdigest(), size[0], rr.errors, entries, tables, events, rr.dropped)


def _prepare_remote(args: tuple[str, bool, str | None]) -> FilePrep:
    return prepare_file(args[0], None, args[1], label=args[2])


def stored_checksums(known: dict[str, str]) -> Any:
    """The stored games' checksums as a sorted array of 32-byte strings: 32 MB for a million
    games, sent once to every worker (the id map would be several times that)."""
    import numpy as np

    return np.sort(np.array([bytes.fromhex(c) for c in known.values()], dtype="S32"))


def _holds(stored: Any, checksum: str) -> bool:
    import numpy as np

    key = np.array([bytes.fromhex(checksum)], dtype="S32")
    i = int(np.searchsorted(stored, key)[0])
    return i < len(stored) and bool(stored[i] == key[0])


def _prepare_task(item: tuple[str, bytes | None], replace: bool, stored: Any) -> FilePrep:
    """A cluster task: one file (its bytes carried along, or read by the worker when the client
    could not) to replayed rows."""
    return prepare_file(item[0], {}, replace, raw=item[1], stored=stored)


def _bytes_or_none(f: Path) -> bytes | None:
    try:
        return f.read_bytes()
    except OSError:
        return None  # the worker tries too and reports the file as prepare_file does


@dataclass
class ImportSummary:
    files: int = 0
    games: int = 0
    events: int = 0
    stored: int = 0
    unchanged: int = 0
    conflicts: int = 0
    invalid: int = 0
    failed: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        return (f"{self.files} files, {self.games} games ({self.events} events) in {self.seconds:.1f}s: "
                f"{self.stored} stored, {self.unchanged} unchanged, {self.conflicts} conflicts, "
                f"{self.invalid} invalid, {self.failed} failed")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _preps(files: list[Path], known: dict[str, str], replace: bool, workers: int,
           cluster: Cluster | None = None, progress: bool = False,
           labels: Mapping[str, str] | None = None) -> Iterator[FilePrep]:
    labels = labels or {}
    if cluster is not None:  # in file order, so gids, conflicts and records are the plain path's
        stored = cluster.share(stored_checksums(known)) if known else None
        yield from cluster.map(_prepare_task, ((str(f), _bytes_or_none(f)) for f in files),
                               shared=(replace, stored), progress=progress, desc="import", total=len(files))
        return
    if workers <= 1 or len(files) < 2:
        for f in files:
            yield prepare_file(f, known, replace, label=labels.get(str(f)))
        return
    with process_pool(workers, initializer=_init_worker, initargs=(known,)) as ex:
        yield from ex.map(_prepare_remote, [(str(f), replace, labels.get(str(f))) for f in files], chunksize=1)


def default_workers(files: Sequence[Path]) -> int:
    """Replay in worker processes only when there is enough to gain over their start-up."""
    # ~8 MB of JSON Lines is some 80,000 events, a few seconds of replay; gzip packs ~8x
    size = sum(f.stat().st_size * (8 if f.name.endswith(".gz") else 1) for f in files)
    if len(files) < 2 or size < 8_000_000:
        return 1
    return max(1, min(os.cpu_count() or 1, len(files), 8))


def import_paths(con: duckdb.DuckDBPyConnection, paths: Iterable[str], *, replace: bool = False,
                 batch_games: int = 500, workers: int | None = None, progress: bool = False,
                 cluster: Cluster | None = None, labels: Mapping[str, str] | None = None) -> ImportSummary:
    """Import log files into the store; see the module docstring for the guarantees.

    ``cluster``: files are read and replayed by its workers (one task per file, the bytes sent
    with it), this process writes; ``workers`` is then unused.

    A transaction holds up to ``batch_games`` whole games of one file (1: a transaction per
    game), and the file's import record goes with its last games. A transaction that fails is
    rolled back and its games retried one per transaction, so a bad game never takes good ones
    along; a game that still cannot be written is reported (kind ``store``), not half-written.

    ``labels``: the name stored for a path (an upload's own file name, not its temporary path):
    the games' ``file``, the import record and its errors, replaced when that name comes again.
    """
    t0 = time.perf_counter()
    files = expand_paths(paths)
    summary = ImportSummary(files=len(files))
    known: dict[str, str] = dict(con.execute("SELECT game, checksum FROM games").fetchall())
    gids = [next_gid(con)]  # the next game number, shared by the files of this import
    if workers is None:
        workers = default_workers(files)
    bar = None
    if progress and cluster is None:  # the cluster's own bar counts tasks and workers alive
        from tqdm import tqdm

        bar = tqdm(total=sum(f.stat().st_size for f in files), unit="B", unit_scale=True, desc="import",
                   leave=False)
    try:
        for prep in _preps(files, known, replace, workers, cluster, progress, labels or {}):
            _import_file(con, prep, known, replace, batch_games, summary, gids)
            if bar is not None:
                bar.update(prep.bytes)
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - t0
    return summary


def _import_file(con: duckdb.DuckDBPyConnection, prep: FilePrep, known: dict[str, str], replace: bool,
                 batch_games: int, summary: ImportSummary, gids: list[int]) -> None:
    import_id = con.execute("SELECT nextval('import_ids')").fetchall()[0][0]
    started = datetime.now()
    n = {"games": 0, "stored": 0, "unchanged": 0, "conflicts": 0, "invalid": 0, "failed": 0}
    errs: list[tuple[Any, ...]] = [(import_id, prep.file, e.line, e.game, "unreadable", e.rule, e.field, e.message)
                                   for e in prep.errors]
    n["failed"] = len({e.game if e.game is not None else ("", e.line) for e in prep.errors}) + prep.dropped
    pending: list[Entry] = []
    replacing: set[str] = set()

    def flush(extra: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> None:
        batch = list(pending)
        pending.clear()
        rep = [e.game for e in batch if e.game in replacing]
        try:
            write_tables(con, take_games(prep.tables, [e.span for e in batch], [e.gid for e in batch]), import_id, rep,
                         extra)
            return
        except duckdb.Error as err:
            if len(batch) == 1:
                fail(batch[0], str(err))
                batch = []
        for e in batch:  # one game per transaction now
            try:
                write_tables(con, take_games(prep.tables, [e.span], [e.gid]), import_id,
                             [e.game] if e.game in replacing else [])
            except duckdb.Error as err:
                fail(e, str(err))
        if extra is not None:
            write_tables(con, {}, import_id, (), extra)

    def fail(e: Entry, msg: str) -> None:
        msg = msg.splitlines()[0] if msg else msg
        n["stored"] -= 1
        n["invalid"] -= not e.valid
        n["failed"] += 1
        known.pop(e.game, None)
        errs.append((import_id, prep.file, e.line, e.game, "store", None, None, f"could not be stored: {msg}"))

    for e in prep.games:
        n["games"] += 1
        if e.status == "refused":
            n["failed"] += 1
            errs.append((import_id, prep.file, e.line, e.game, "store", None, None,
                         f"could not be stored: {e.message}"))
            continue
        have = known.get(e.game)
        if have == e.checksum:
            n["unchanged"] += 1
            continue
        if e.status == "conflict" or (have is not None and not replace):
            n["conflicts"] += 1
            msg = (f"game {e.game!r} is already stored with different content; not merged "
                   f"(import with --replace to overwrite it)")
            errs.append((import_id, prep.file, e.line, e.game, "conflict", None, "game", msg))
            continue
        if e.status == "unchanged":  # its id was stored from another file earlier in this run
            n["unchanged"] += 1
            continue
        if have is not None:
            replacing.add(e.game)
        e.gid = gids[0]
        gids[0] += 1
        pending.append(e)
        known[e.game] = e.checksum
        n["stored"] += 1
        n["invalid"] += not e.valid
        if len(pending) >= batch_games:
            flush()

    def record(c: duckdb.DuckDBPyConnection) -> None:
        # a file's errors are those of its latest import
        c.execute("DELETE FROM import_errors WHERE file = ?", [prep.file])
        c.execute("INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  [import_id, prep.file, prep.checksum, prep.bytes, started, datetime.now(), n["games"],
                   prep.events, n["stored"], n["unchanged"], n["conflicts"], n["invalid"], n["failed"]])
        if len(errs) > MAX_ERROR_ROWS:  # a file of 3,000,000 broken lines must not weigh on every page
            # a game's own outcome (not stored, not merged: one row a game) stays; the reader's lines are cut
            own = [e for e in errs if e[4] != "unreadable"]
            lines = [e for e in errs if e[4] == "unreadable"]
            room = max(0, MAX_ERROR_ROWS - len(own))
            more = len(lines) - room + prep.dropped
            errs[:] = lines[:room] + own
            errs.append((import_id, prep.file, None, None, "unreadable", None, None,
                         f"{more:,} more errors in this file are not listed (the first {MAX_ERROR_ROWS} are)"))
        if errs:  # one insert from Arrow: executemany takes a millisecond a row
            import pyarrow as pa

            cols = list(zip(*errs))
            c.register("_istaka_errors", pa.table({
                f"c{i}": pa.array(col, type=pa.int64() if i in (0, 2) else pa.string())
                for i, col in enumerate(cols)}))
            try:
                c.execute("INSERT INTO import_errors SELECT * FROM _istaka_errors")
            finally:
                c.unregister("_istaka_errors")

    flush(record)
    for k, v in n.items():
        setattr(summary, k, getattr(summary, k) + v)
    summary.events += prep.events
