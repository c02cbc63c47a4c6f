"""The DuckDB store: schema migrations, opening a database file, and Parquet export.

Connections that create, migrate and seed the database are :mod:`.connection`; the import lives
in :mod:`.importer` (files to replayed games) and :mod:`.rows` (a replayed game to rows, and
their transactional write). The package names them all (``store.connect``, ``store.import_paths``).

Every game is replayed by the engine before it is stored. A game's rows only ever go to the
database inside one transaction together with all its other rows (several whole games may share
a transaction, see ``import_paths``), so a crash or a kill never leaves part of a game. A game is
identified by its id and the checksum of its content: the same content again changes nothing,
different content under a known id is a conflict unless ``replace`` is given.

DuckDB lets one process hold a database file read-write, and no reader may open it meanwhile.
So readers (the dashboard) open, read and close (:func:`reading`), and writers retry on the lock
for a few seconds before failing with :class:`DatabaseBusy`, whose message says what to do.
"""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DB = REPO / "data" / "istaka.duckdb"
SAMPLE_DIR = REPO / "data" / "sample"
ENV_DB = "ISTAKA_DB"
LOCK_WAIT = 10.0  # seconds a writer waits for readers to let go
READ_WAIT = 5.0  # seconds a reader waits for a writer (an import) to finish

# ---- schema -------------------------------------------------------------------------------
# A list of numbered migrations, applied once each and recorded in schema_migrations. A fix is
# a new migration appended here, never an edit of an old one (per-move annotations from the
# review issue come as a later migration referencing events(game, seq)).

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "games, players, events, engine results, imports", """
CREATE TABLE imports (
    import_id INTEGER PRIMARY KEY, file VARCHAR NOT NULL, checksum VARCHAR, bytes BIGINT,
    started_at TIMESTAMP, finished_at TIMESTAMP, games INTEGER, events BIGINT, stored INTEGER,
    unchanged INTEGER, conflicts INTEGER, invalid INTEGER, failed INTEGER);
CREATE SEQUENCE import_ids START 1;
CREATE TABLE import_errors (
    import_id INTEGER, file VARCHAR, line INTEGER, game VARCHAR,
    kind VARCHAR,            -- unreadable, conflict, invalid
    rule VARCHAR, field VARCHAR, message VARCHAR);
CREATE TABLE players (name VARCHAR PRIMARY KEY);
CREATE TABLE games (
    game VARCHAR PRIMARY KEY, checksum VARCHAR NOT NULL, variant VARCHAR,
    rules JSON,              -- the resolved Rules (preset + overrides), NULL when refused
    rule_overrides JSON,     -- the log's own 'rules' object
    site VARCHAR, started TIMESTAMP, started_text VARCHAR,
    hands_planned INTEGER,   -- the header's 'hands' (NULL when absent)
    hands_played INTEGER, valid BOOLEAN, agrees BOOLEAN,
    error_line INTEGER, error_rule VARCHAR, error_message VARCHAR,
    totals INTEGER[], match_points INTEGER[], winner VARCHAR,
    file VARCHAR, line INTEGER, header_extra JSON, import_id INTEGER, imported_at TIMESTAMP);
CREATE TABLE seats (game VARCHAR, seat TINYINT, player VARCHAR);
CREATE TABLE hands (
    game VARCHAR, ord SMALLINT,  -- ord: 1, 2, ... in log order (a replayed void hand keeps its number)
    hand SMALLINT, line INTEGER, starter TINYINT, indicator VARCHAR,
    result VARCHAR,          -- finish, exhausted, void, invalid, unfinished
    finisher TINYINT, finish_kinds VARCHAR[], scores INTEGER[], penalty_totals INTEGER[],
    totals INTEGER[], error_line INTEGER, error_rule VARCHAR, error_message VARCHAR,
    recorded_result VARCHAR, recorded_scores INTEGER[]);
CREATE TABLE hand_seats (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR,
    score INTEGER, penalties INTEGER, total INTEGER, opened BOOLEAN, finished BOOLEAN);
CREATE TABLE penalties (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR, points INTEGER,
    rule VARCHAR, line INTEGER);
CREATE TABLE openings (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR, kind VARCHAR,
    value INTEGER, threshold INTEGER, line INTEGER);
CREATE TABLE mismatches (
    game VARCHAR, ord SMALLINT, hand SMALLINT, kind VARCHAR, seat TINYINT, line INTEGER,
    recorded JSON, computed JSON);
CREATE TABLE events (
    game VARCHAR, seq INTEGER,   -- seq: 1, 2, ... after the game event, in log order
    line INTEGER, ord SMALLINT, hand SMALLINT, type VARCHAR, seat TINYINT,
    tile VARCHAR, tiles VARCHAR[], melds VARCHAR[][], pairs VARCHAR[][], meld INTEGER,
    t DOUBLE, what VARCHAR, points INTEGER, reason VARCHAR, starter TINYINT, indicator VARCHAR,
    racks VARCHAR[][], deck VARCHAR[], scores INTEGER[],
    extra JSON,              -- fields LOG_FORMAT does not define for this type, kept as read
    valid BOOLEAN);          -- false from a hand's first illegal move on (the valid prefix is true)
"""),
    (2, "player_hands: one row per player and hand with the game's variant and start", """
CREATE VIEW player_hands AS
    SELECT hs.*, g.variant, g.site, g.started FROM hand_seats hs JOIN games g USING (game);
"""),
    (3, "move review: annotated games, decision points, mistakes (istaka analyze)", """
CREATE TABLE review_games (
    game VARCHAR PRIMARY KEY, checksum VARCHAR,  -- the games.checksum annotated (a replaced game is redone)
    version VARCHAR,         -- analysis.review.SOLVER_VERSION
    analyzed_at TIMESTAMP, seconds DOUBLE, decisions INTEGER, mistakes INTEGER, cost INTEGER);
CREATE TABLE review_decisions (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR, turn SMALLINT,
    step INTEGER, end_step INTEGER, line INTEGER,  -- step: index into the hand's replay steps
    choice VARCHAR, take_opens BOOLEAN, opened_before BOOLEAN,
    exposure_played INTEGER, exposure_best INTEGER, cost INTEGER, agrees BOOLEAN, mistakes INTEGER,
    played JSON, best JSON);
CREATE TABLE review_mistakes (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR, turn SMALLINT,
    step INTEGER, line INTEGER, category VARCHAR, cost INTEGER, severity VARCHAR, detail JSON);
"""),
    (4, "gid: a game number in insert order for fast per-game reads; players and counted hands on games", """
ALTER TABLE games ADD COLUMN gid INTEGER;
ALTER TABLE games ADD COLUMN players VARCHAR[];
ALTER TABLE games ADD COLUMN hands_counted INTEGER;  -- hands that count: not void (E3)
ALTER TABLE events ADD COLUMN gid INTEGER;
ALTER TABLE hands ADD COLUMN gid INTEGER;
ALTER TABLE hand_seats ADD COLUMN gid INTEGER;
UPDATE games SET gid = r.n FROM (SELECT game, row_number() OVER (ORDER BY import_id, game) AS n FROM games) r
    WHERE r.game = games.game;
UPDATE games SET players = (SELECT list(s.player ORDER BY s.seat) FROM seats s WHERE s.game = games.game),
                 hands_counted = (SELECT count(*) FROM hands h WHERE h.game = games.game AND h.result <> 'void');
UPDATE events SET gid = g.gid FROM games g WHERE g.game = events.game;
UPDATE hands SET gid = g.gid FROM games g WHERE g.game = hands.game;
UPDATE hand_seats SET gid = g.gid FROM games g WHERE g.game = hand_seats.game;
"""),
    (5, "deep review: depth of each annotation, decisions graded in expected points (istaka analyze --deep)", """
ALTER TABLE review_games ADD COLUMN depth VARCHAR DEFAULT 'quick';  -- annotations made before: the quick pass
ALTER TABLE review_games ADD COLUMN graded INTEGER;        -- decisions given a cost
ALTER TABLE review_games ADD COLUMN cost_points DOUBLE;    -- expected points lost (deep), else the quick cost
UPDATE review_games SET depth = 'quick', graded = decisions, cost_points = cost;
ALTER TABLE review_decisions ADD COLUMN cost_points DOUBLE;
UPDATE review_decisions SET cost_points = cost;
CREATE TABLE review_choices (
    game VARCHAR, ord SMALLINT, hand SMALLINT, seat TINYINT, player VARCHAR, turn SMALLINT,
    kind VARCHAR,            -- take (draw or take), place, discard
    step INTEGER, line INTEGER, played VARCHAR, best VARCHAR,
    expected_played DOUBLE, expected_best DOUBLE, se DOUBLE, cost DOUBLE, category VARCHAR,
    candidates JSON,         -- the evaluator's best candidates and the played one: move, expected, se, n, events
    played_events JSON);
"""),
    (6, "score sheets: games.sheet marks a game kept as a score sheet (LOG_FORMAT \"Score sheets\")", """
ALTER TABLE games ADD COLUMN sheet BOOLEAN DEFAULT false;
UPDATE games SET sheet = coalesce(json_extract(header_extra, '$.sheet')::VARCHAR = 'true', false);
"""),
    (7, "seat-view logs: the seat a game was recorded by (NULL: a full log, every rack known)", """
ALTER TABLE games ADD COLUMN view_seat TINYINT;  -- the header's 'view', which also stays in header_extra
UPDATE games SET view_seat = TRY_CAST(json_extract(header_extra, '$.view') AS TINYINT)
    WHERE header_extra IS NOT NULL;
"""),
    (8, "deep review priced on fixed worlds: each decision's interval, pricing worlds, forced reason, lesson reason", """
ALTER TABLE review_choices ADD COLUMN ci DOUBLE;        -- half-width of the paired interval of the cost
ALTER TABLE review_choices ADD COLUMN worlds INTEGER;   -- the fixed pricing worlds (0 or NULL: not priced)
ALTER TABLE review_choices ADD COLUMN forced VARCHAR;   -- why the candidates cannot differ (not graded), else NULL
ALTER TABLE review_choices ADD COLUMN reason JSON;      -- what the recommended line does (analysis/review/reasons.py)
"""),
    (9, "uploads named by their own file, not a temporary path; import errors cut to 200 rows per file", """
UPDATE games SET file = 'upload/' || regexp_extract(file, '[^/]+$') WHERE file LIKE '%/istaka-upload-%';
UPDATE imports SET file = 'upload/' || regexp_extract(file, '[^/]+$') WHERE file LIKE '%/istaka-upload-%';
UPDATE import_errors SET file = 'upload/' || regexp_extract(file, '[^/]+$') WHERE file LIKE '%/istaka-upload-%';
CREATE TEMP TABLE _istaka_ranked AS
    SELECT rowid AS r, import_id, file, row_number() OVER (PARTITION BY import_id, file ORDER BY line NULLS FIRST) AS k,
           count(*) OVER (PARTITION BY import_id, file) AS n
    FROM import_errors;
INSERT INTO import_errors
    SELECT DISTINCT import_id, file, NULL, NULL, 'unreadable', NULL, NULL,
           format('{:,} more errors in this file are not listed (the first 200 are)', n - 200)
    FROM _istaka_ranked WHERE n > 200;
DELETE FROM import_errors WHERE rowid IN (SELECT r FROM _istaka_ranked WHERE k > 200);
DROP TABLE _istaka_ranked;
"""),
    (10, "a coach's notes, a mark and a comment on a step of a game (analysis/store/notes.py)", """
CREATE TABLE notes (
    game VARCHAR NOT NULL, hand SMALLINT NOT NULL,
    step INTEGER NOT NULL,               -- index into the hand's replay steps (Replay's ?step=)
    mark VARCHAR NOT NULL DEFAULT '',    -- '', '!!', '!', '?!', '?', '??' (notes.MARKS)
    text VARCHAR NOT NULL DEFAULT '',    -- at most 2,000 characters (notes.MAX_TEXT)
    author VARCHAR NOT NULL DEFAULT '',  -- the writer's name when logged in, else empty
    created TIMESTAMP NOT NULL, updated TIMESTAMP NOT NULL,  -- UTC
    PRIMARY KEY (game, hand, step));
"""),
    (11, "studies: named, ordered positions (game, hand, step, seat) with a note each", """
CREATE SEQUENCE study_ids START 1;
CREATE TABLE studies (
    study INTEGER PRIMARY KEY, name VARCHAR NOT NULL, created_at TIMESTAMP, updated_at TIMESTAMP);
CREATE TABLE study_items (
    study INTEGER, pos INTEGER,  -- pos: 1, 2, ... in the study's order (rewritten whole on a move)
    game VARCHAR, hand SMALLINT, step INTEGER, seat TINYINT, note VARCHAR);
"""),
]
# Rows of one game are written together and games get increasing gids, so DuckDB's per-segment
# min/max (zone maps) on gid let a read of one game skip nearly all of a big table: an index
# would cost the import several times more than it saves.
GID_TABLES = ("games", "events", "hands", "hand_seats")
LATEST = MIGRATIONS[-1][0]

# the tables a game's rows live in (deleted together by --replace)
GAME_TABLES = ("events", "mismatches", "openings", "penalties", "hand_seats", "hands", "seats", "games")


class StoreError(RuntimeError):
    """A store problem worth a message rather than a traceback."""


class DatabaseBusy(StoreError):
    """Another process holds the database file."""


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    has = con.execute("SELECT count(*) FROM information_schema.tables "
                      "WHERE table_name = 'schema_migrations'").fetchall()[0][0]
    if not has:
        return 0
    return con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchall()[0][0]


def migrate(con: duckdb.DuckDBPyConnection, upto: int | None = None) -> list[int]:
    """Apply the migrations not yet applied (each in its own transaction); return their numbers."""
    con.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)")
    done = {r[0] for r in con.execute("SELECT version FROM schema_migrations").fetchall()}
    applied = []
    for version, name, sql in MIGRATIONS:
        if version in done or (upto is not None and version > upto):
            continue
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(sql)
            con.execute("INSERT INTO schema_migrations VALUES (?, ?, now())", [version, name])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied


# ---- connections --------------------------------------------------------------------------

def db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """``path``, else $ISTAKA_DB, else data/istaka.duckdb in the repository."""
    if path:
        return Path(path)
    env = os.environ.get(ENV_DB)
    return Path(env) if env else DEFAULT_DB


def lock_holder(message: str) -> str:
    """The process named in DuckDB's lock error: 'Conflicting lock is held in /usr/bin/python3.11
    (PID 12080) by user x. See also https://...' gives '/usr/bin/python3.11 (PID 12080)'."""
    m = re.search(r"Conflicting lock is held in (.*?)(?: by user [^.]*)?(?:\. See also|\.?\s*$)", message, re.S)
    return (m.group(1) if m else "another process").strip()


def _is_lock_error(e: Exception) -> bool:
    msg = str(e)
    return "lock" in msg.lower() and ("Conflicting lock" in msg or "Could not set lock" in msg)


NOT_DB_SUFFIXES = (".jsonl", ".gz", ".json", ".csv", ".tsv", ".parquet", ".txt", ".xlsx")


def check_db_file(path: Path) -> None:
    """Refuse a ``--db`` that is not a DuckDB file: DuckDB would open a log or CSV as an empty
    in-memory database with a view on it, store nothing and say it did; a device or FIFO would
    block or fail later with a traceback."""
    try:
        st = os.stat(path)
    except OSError:
        if path.name.lower().endswith(NOT_DB_SUFFIXES):
            raise StoreError(f"{path} is named like a log or data file, not a database: give a .duckdb "
                             f"file to --db (the logs are the PATH arguments)") from None
        return
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{path} is not a database file (a directory, device or FIFO): give a .duckdb file")
    if st.st_size == 0:  # DuckDB 2 opens no empty file; nothing is in it to lose
        raise StoreError(f"{path} is empty (0 bytes), not a DuckDB database: remove it and the next command "
                         f"creates a new one, or give another --db")
    try:
        with open(path, "rb") as fh:
            head = fh.read(12)
    except OSError as e:
        raise StoreError(f"cannot read the database {path}: {e.strerror or e}") from None
    if head[8:12] != b"DUCK":
        raise StoreError(f"{path} is not a DuckDB database (a log, a CSV or another file?): nothing was "
                         f"written to it; give a .duckdb file to --db")


def open_connection(path: Path, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to ``path``, retrying a lock conflict for ``wait`` seconds (DatabaseBusy)."""
    check_db_file(path)
    deadline = time.monotonic() + wait
    delay = 0.02
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            con.execute("SET enable_progress_bar = false")  # no bars from inside the library
            return con
        except (duckdb.IOException, duckdb.ConnectionException) as e:
            # ConnectionException: this process holds the file with the other read_only setting
            # (a read beside a write); it is let go as soon as that connection closes, so wait
            if isinstance(e, duckdb.IOException) and not _is_lock_error(e):
                raise damaged(path, e) from None
            if time.monotonic() >= deadline:
                holder = (lock_holder(str(e)) if isinstance(e, duckdb.IOException)
                          else "this process, with the other read-only setting")
                what = ("an import or another writer is using it" if read_only
                        else "another process (the dashboard, an import) has it open")
                raise DatabaseBusy(
                    f"database {path} is busy: {what} (held by {holder}); waited {wait:g}s. "
                    f"Retry when the other process is done, or close it"
                    + ("" if read_only else " (the dashboard only holds the file while it reads)")
                    + ".") from None
            time.sleep(delay)
            delay = min(delay * 1.5, 0.25)


def damaged(path: Path | str, e: Exception) -> StoreError:
    """A database file DuckDB cannot read (cut short, overwritten): one line, not a traceback."""
    why = str(e).splitlines()[0] if str(e) else type(e).__name__
    return StoreError(f"database {path} is damaged and cannot be read ({why[:200]}); nothing was written to it: "
                      f"restore it from a copy, or give another --db")


# ---- export -------------------------------------------------------------------------------

EXPORT_TABLES = ("games", "seats", "players", "hands", "hand_seats", "events", "penalties", "openings",
                 "mismatches", "imports", "import_errors", "notes", "studies", "study_items")


def export_parquet(con: duckdb.DuckDBPyConnection, directory: str | Path) -> list[Path]:
    """Write each table as DIR/<table>.parquet (readable by pandas, Polars, Spark, DuckDB)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for t in EXPORT_TABLES:
        p = d / f"{t}.parquet"
        con.table(t).write_parquet(str(p))
        out.append(p)
    return out
