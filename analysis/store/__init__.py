"""The DuckDB store: numbered migrations, connections, the import of logs (every game replayed,
whole games per transaction, idempotent by checksum), the dashboard's queries and the review's
tables.

Imports every lower layer (game, the review). Modules: :mod:`.db` (schema, opening a file,
export), :mod:`.connection` (``connect``, ``reading``), :mod:`.importer` and :mod:`.rows`
(``import_paths``, a replayed game to rows), :mod:`.queries` (reads, all with bound parameters),
:mod:`.reviews` (``istaka analyze``'s annotations), :mod:`.cluster` (the same work on a Dask
cluster, this process the only writer), :mod:`.lake` (hive-partitioned Parquet, opened read-only),
:mod:`.notes` (a coach's marks and comments on a game's steps).
"""

from . import connection, notes, queries, studies
from .cluster import Cluster, ClusterError, VersionMismatch
from .connection import connect, reading
from .db import (
                 DEFAULT_DB,
                 ENV_DB,
                 EXPORT_TABLES,
                 GAME_TABLES,
                 GID_TABLES,
                 LATEST,
                 LOCK_WAIT,
                 MIGRATIONS,
                 READ_WAIT,
                 REPO,
                 SAMPLE_DIR,
                 DatabaseBusy,
                 StoreError,
                 db_path,
                 export_parquet,
                 migrate,
                 open_connection,
                 schema_version,
)
from .importer import (
                 LOG_SUFFIXES,
                 Entry,
                 FilePrep,
                 ImportSummary,
                 default_workers,
                 expand_paths,
                 import_paths,
                 prepare_file,
)
from .lake import export_lake, is_lake, open_lake, parse_partition
from .notes import MARKS, Note, NoteError, add_note, delete_note, get_note, list_notes, save_note, update_note
from .reviews import AnalyzeSummary, analyze, load_review
from .rows import (
                 COLUMNS,
                 EVENT_COLUMNS,
                 GameRows,
                 game_checksum,
                 game_rows,
                 next_gid,
                 store_games,
                 to_tables,
                 write_tables,
)

__all__ = [
    "COLUMNS", "DEFAULT_DB", "ENV_DB", "EVENT_COLUMNS", "EXPORT_TABLES", "GAME_TABLES", "GID_TABLES", "LATEST",
    "LOCK_WAIT", "LOG_SUFFIXES", "MIGRATIONS", "READ_WAIT", "REPO", "SAMPLE_DIR", "AnalyzeSummary",
    "DatabaseBusy", "Entry", "FilePrep", "GameRows", "ImportSummary", "StoreError", "analyze", "connect",
    "db_path", "default_workers", "expand_paths", "export_parquet", "game_checksum", "game_rows",
    "connection", "import_paths", "load_review", "migrate", "next_gid", "open_connection", "prepare_file", "queries", "reading",
    "studies",
    "schema_version", "store_games", "to_tables", "write_tables",
    "Cluster", "ClusterError", "VersionMismatch", "export_lake", "is_lake", "open_lake", "parse_partition",
    "MARKS", "Note", "NoteError", "add_note", "delete_note", "get_note", "list_notes", "notes", "save_note",
    "update_note",
]
