"""Connections as the library and the dashboard use them: a database created, migrated and, at
the default location, filled with ``data/sample/`` on first use; readers open, read and close.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import duckdb

from .db import (
    LATEST,
    LOCK_WAIT,
    READ_WAIT,
    SAMPLE_DIR,
    StoreError,
    db_path,
    migrate,
    open_connection,
    schema_version,
)
from .importer import import_paths
from .lake import MANIFEST, is_lake, open_lake


def connect(path: str | os.PathLike[str] | None = None, read_only: bool = False,
            wait: float | None = None, seed: bool | None = None) -> duckdb.DuckDBPyConnection:
    """Open the database, creating and migrating it when needed.

    A new database at the default location ($ISTAKA_DB, else data/istaka.duckdb) is filled with
    data/sample/ first (``seed``; the sample's duplicate set and its people's games are copied
    beside it). A read-only open of a missing or outdated database first
    creates or migrates it read-write, then reopens it read-only. Lock conflicts are retried for
    ``wait`` seconds, then raise :class:`DatabaseBusy`. A directory holding a Parquet lake
    (``istaka export --parquet DIR --partition ...``) opens read-only, as views over its files.
    """
    p = db_path(path)
    if p.is_dir():
        if not is_lake(p):
            raise StoreError(f"{p} is a directory without a Parquet lake ({MANIFEST}); give a database file "
                             f"or a directory written by `istaka export --parquet DIR --partition variant,month`")
        if not read_only:
            raise StoreError(f"{p} is a Parquet lake, which opens read-only: import into a DuckDB file "
                             f"(--db FILE) and export it again with `istaka export --parquet {p} --partition ...`")
        return open_lake(p)
    if seed is None:  # the default database (or $ISTAKA_DB), however it was named
        seed = p.resolve() == db_path().resolve()
    if wait is None:
        wait = READ_WAIT if read_only else LOCK_WAIT
    if read_only:
        if p.exists():
            con = open_connection(p, True, wait)
            try:
                if schema_version(con) >= LATEST:
                    return con
            except BaseException:
                con.close()
                raise
            con.close()
        _open_writable(p, wait, seed).close()
        return open_connection(p, True, wait)
    return _open_writable(p, wait, seed)


def _open_writable(p: Path, wait: float, seed: bool) -> duckdb.DuckDBPyConnection:
    fresh = not p.exists()
    if fresh:
        p.parent.mkdir(parents=True, exist_ok=True)
    con = open_connection(p, False, wait)
    try:
        version = schema_version(con)
        if version > LATEST:
            raise StoreError(f"database {p} has schema version {version}, newer than this code ({LATEST})")
        migrate(con)
        if fresh and seed and SAMPLE_DIR.is_dir():
            import_paths(con, [str(SAMPLE_DIR)])
            from analysis.selfplay.sets import install_sample  # the sample's duplicate set, for the Play page

            install_sample(p, SAMPLE_DIR)
    except BaseException:
        con.close()
        raise
    return con


@contextlib.contextmanager
def reading(path: str | os.PathLike[str] | None = None, wait: float | None = None
            ) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection for one burst of reads, closed after: an import can run between."""
    con = connect(path, read_only=True, wait=wait)
    try:
        yield con
    finally:
        con.close()
