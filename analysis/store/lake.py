"""A Parquet lake: the store's tables as hive-partitioned Parquet files, read through DuckDB views.

    istaka export --parquet DIR --partition variant,month      # DIR/<table>/variant=101/month=2026-09/*.parquet
    ISTAKA_DB=DIR istaka errors                                  # and the dashboard: read-only

One DuckDB file has one writer; past what one machine stores or one writer absorbs, the archive
can live as Parquet files (written by this export, or by other tools in the same layout) and be
read by any number of readers. A table whose rows belong to games is partitioned by its game's
keys; the import records and the players are one file each. ``_istaka_lake.json`` records each
table's columns in order and the store's views, so :func:`open_lake` gives the queries the
tables they know, as views over the files.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from .db import StoreError, schema_version

MANIFEST = "_istaka_lake.json"
LAKE_FORMAT = 1
# hive key -> its value for a row of a game (g: the row's game in `games`); constant SQL only
PARTITION_KEYS = {
    "variant": "g.variant",
    "month": "strftime(g.started, '%Y-%m')",
    "year": "strftime(g.started, '%Y')",
    "site": "g.site",
}
UNPARTITIONED = ("imports", "import_errors", "players", "schema_migrations")  # rows of files, not games


def is_lake(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def parse_partition(text: str) -> tuple[str, ...]:
    """``variant,month`` -> ("variant", "month"); unknown keys are a StoreError naming the known ones."""
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in keys if k not in PARTITION_KEYS]
    if bad or not keys or len(set(keys)) != len(keys):
        raise StoreError(f"--partition {text!r}: give a comma-separated list of distinct keys from "
                         f"{', '.join(PARTITION_KEYS)}")
    return keys


def _literal(path: Path) -> str:
    """A path as an SQL string literal (DuckDB takes no bound parameter in COPY targets or views)."""
    return "'" + str(path).replace("'", "''") + "'"


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = ? "
        "ORDER BY ordinal_position", [table]).fetchall()]


def export_lake(con: duckdb.DuckDBPyConnection, directory: str | Path,
                partition: Sequence[str] = ("variant", "month"), append: bool = False) -> list[Path]:
    """Write every table of the store under DIR/<table>/ (hive-partitioned) and the manifest.

    DIR must be empty, missing, or an earlier lake, whose tables are replaced. ``append`` adds
    this database to the lake instead, as a shard: new files beside the old ones, its game and
    import numbers (``gid``, ``import_id``) moved past the lake's, so that several DuckDB files,
    each with its own single writer, make one archive. Returns the table directories written.
    """
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise StoreError(f"{d} is a file; give a directory for the Parquet lake")
    if d.is_dir() and any(d.iterdir()) and not is_lake(d):
        raise StoreError(f"{d} is not empty and holds no Parquet lake ({MANIFEST}); give a new directory")
    old: dict[str, Any] = json.loads((d / MANIFEST).read_text(encoding="utf-8")) if is_lake(d) else {}
    if append and old:
        return _append(con, d, old, list(partition))
    for t in old.get("tables", {}):
        if t.isidentifier() and (d / t).is_dir():
            shutil.rmtree(d / t)
    d.mkdir(parents=True, exist_ok=True)
    tables = [r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
        "AND table_type = 'BASE TABLE' ORDER BY table_name").fetchall()]
    manifest: dict[str, Any] = {"format": LAKE_FORMAT, "schema_version": schema_version(con),
                                "partition": list(partition), "exported_at": datetime.now().isoformat(),
                                "tables": {}, "shards": [{"name": "data", "appended_at": datetime.now().isoformat()}]}
    out = []
    for t in tables:
        cols = _columns(con, t)
        keys = list(partition) if ("game" in cols and t not in UNPARTITIONED) else []
        (d / t).mkdir()
        _write_table(con, t, cols, keys, d / t, {}, "data")
        manifest["tables"][t] = {"columns": cols, "partition": keys}
        out.append(d / t)
    manifest["views"] = [r[0] for r in con.execute(
        "SELECT sql FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' ORDER BY view_name").fetchall()]
    (d / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return out


NUMBERED = ("gid", "import_id")  # numbers a database counts from 1: moved past the lake's on append
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"  # what DuckDB writes, and reads back, for a NULL key


def _write_table(con: duckdb.DuckDBPyConnection, t: str, cols: list[str], keys: list[str], target: Path,
                 shift: dict[str, int], name: str) -> None:
    """One table's rows as Parquet files named ``name``_* under ``target`` (``keys``: hive-partitioned
    by its rows' games). Table and column names come from the database, never from a user."""
    own = [k for k in keys if k in cols]
    body = ", ".join(f"t.{c} + {int(shift[c])} AS {c}" if c in shift else f"t.{c}" for c in cols if c not in own)
    if not keys:
        con.sql(f"SELECT {body} FROM {t} t").write_parquet(str(target / f"{name}.parquet"))
        return
    parts = ", ".join(f"{PARTITION_KEYS[k]} AS {k}" for k in keys)
    rel = con.sql(f"SELECT {body}, {parts} FROM {t} t LEFT JOIN "
                  f"(SELECT game, variant, started, site FROM games) g ON g.game = t.game")
    if con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] == 0:
        # no partition to write: one empty file under NULL keys keeps the columns readable
        empty = target.joinpath(*(f"{k}={NULL_PARTITION}" for k in keys))
        empty.mkdir(parents=True, exist_ok=True)
        con.sql(f"SELECT {body} FROM {t} t").write_parquet(str(empty / f"{name}.parquet"))
        return
    rel.write_parquet(str(target), partition_by=keys, append=True, filename_pattern=f"{name}_{{uuid}}")


def _append(con: duckdb.DuckDBPyConnection, d: Path, manifest: dict[str, Any], partition: list[str]) -> list[Path]:
    """Add this database to the lake ``d`` as a shard (see :func:`export_lake`)."""
    if manifest.get("partition") != partition:
        raise StoreError(f"the lake {d} is partitioned by {','.join(manifest.get('partition', []))}: append with "
                         f"the same --partition")
    lake = open_lake(d)
    try:
        shift = {c: int(lake.execute(f"SELECT coalesce(max({c}), 0) FROM {t}").fetchall()[0][0])
                 for c, t in (("gid", "games"), ("import_id", "imports"))}
        ours = [r[0] for r in con.execute("SELECT game FROM games").fetchall()]
        clash = lake.execute("SELECT count(*) FROM games WHERE game IN (SELECT unnest(?::VARCHAR[]))",
                             [ours]).fetchall()[0][0]
        # keyed by their first column (a name, a migration number): each is written once
        shared = {t: {r[0] for r in lake.execute(f"SELECT * FROM {t}").fetchall()}
                  for t in ("players", "schema_migrations") if t in manifest["tables"]}
    finally:
        lake.close()
    if clash:
        raise StoreError(f"{clash} games of this database are in the lake {d} already: shards must hold different "
                         f"games (split the archive by site or by month)")
    name = f"shard_{uuid.uuid4().hex[:12]}"
    out = []
    for t, spec in manifest["tables"].items():
        if not t.isidentifier():
            raise StoreError(f"{d}: table name {t!r} in {MANIFEST}")
        cols = _columns(con, t)
        if cols != spec["columns"]:
            raise StoreError(f"table {t} has other columns here than in the lake {d} (schema versions differ): "
                             f"open this database with this version of istaka first, then append")
        if con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] == 0:
            continue
        if t in shared:  # players and migrations that every shard has are written once
            import pyarrow as pa

            tbl = con.sql(f"SELECT * FROM {t}").to_arrow_table()
            new = [key not in shared[t] for key in tbl.column(0).to_pylist()]
            if not any(new):
                continue
            con.from_arrow(tbl.filter(pa.array(new))).write_parquet(str(d / t / f"{name}.parquet"))
        else:
            _write_table(con, t, cols, list(spec.get("partition") or []), d / t,
                         {c: shift[c] for c in NUMBERED if c in cols}, name)
        out.append(d / t)
    manifest["shards"] = [*manifest.get("shards", []), {"name": name, "appended_at": datetime.now().isoformat()}]
    (d / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return out


def open_lake(directory: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB whose tables are views over the lake's Parquet files (read-only)."""
    d = Path(directory)
    try:
        manifest = json.loads((d / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise StoreError(f"{d} is not a readable Parquet lake: {e}") from None
    if manifest.get("format") != LAKE_FORMAT:
        raise StoreError(f"{d}: lake format {manifest.get('format')!r}, this code reads {LAKE_FORMAT}")
    con = duckdb.connect()
    try:
        con.execute("SET enable_progress_bar = false")
        for t, spec in manifest["tables"].items():
            if not t.isidentifier():
                raise StoreError(f"{d}: table name {t!r} in {MANIFEST}")
            cols = ", ".join(f'"{c}"' for c in spec["columns"] if c.isidentifier())
            glob = _literal(d / t / "**" / "*.parquet")
            keys = spec.get("partition") or []
            opts = ""
            if keys:
                types = ", ".join(f"'{k}': VARCHAR" for k in keys if k in PARTITION_KEYS)
                opts = f", hive_partitioning = true, hive_types = {{{types}}}"
            con.execute(f"CREATE VIEW {t} AS SELECT {cols} FROM read_parquet({glob}{opts})")
        for sql in manifest.get("views", []):
            if not sql.upper().startswith("CREATE VIEW "):
                raise StoreError(f"{d}: {MANIFEST} holds something other than a view: {sql[:60]!r}")
            con.execute(sql)
    except BaseException:
        con.close()
        raise
    return con


__all__ = ["MANIFEST", "PARTITION_KEYS", "export_lake", "is_lake", "open_lake", "parse_partition"]
