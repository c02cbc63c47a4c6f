"""The DuckDB store: schema migrations, connections, and the import of game logs.

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

import contextlib
import dataclasses
import glob as globmod
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any

import duckdb

from .log import END_REASONS, FIELDS, SEATED, GameLog, ReadError, read_file  # noqa: F401
from .replay import GameResult, replay_game

REPO = Path(__file__).resolve().parents[1]
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


def _is_lock_error(e: Exception) -> bool:
    msg = str(e)
    return "lock" in msg.lower() and ("Conflicting lock" in msg or "Could not set lock" in msg)


def _open(path: Path, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + wait
    delay = 0.02
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            con.execute("SET enable_progress_bar = false")  # no bars from inside the library
            return con
        except duckdb.IOException as e:
            if not _is_lock_error(e):
                raise
            if time.monotonic() >= deadline:
                holder = str(e).split("Conflicting lock is held in", 1)[-1].split(".", 1)[0].strip()
                what = ("an import or another writer is using it" if read_only
                        else "another process (the dashboard, an import) has it open")
                raise DatabaseBusy(
                    f"database {path} is busy: {what} (held by {holder}); waited {wait:g}s. "
                    f"Retry when the other process is done, or close it"
                    + ("" if read_only else " (the dashboard only holds the file while it reads)")
                    + ".") from None
            time.sleep(delay)
            delay = min(delay * 1.5, 0.25)


def connect(path: str | os.PathLike[str] | None = None, read_only: bool = False,
            wait: float | None = None, seed: bool | None = None) -> duckdb.DuckDBPyConnection:
    """Open the database, creating and migrating it when needed.

    A new database at the default location ($ISTAKA_DB, else data/istaka.duckdb) is filled with
    data/sample/ first (``seed``). A read-only open of a missing or outdated database first creates or migrates it
    read-write, then reopens it read-only. Lock conflicts are retried for ``wait`` seconds.
    """
    p = db_path(path)
    if seed is None:  # the default database (or $ISTAKA_DB), however it was named
        seed = p.resolve() == db_path().resolve()
    if wait is None:
        wait = READ_WAIT if read_only else LOCK_WAIT
    if read_only:
        if p.exists():
            con = _open(p, True, wait)
            try:
                if schema_version(con) >= LATEST:
                    return con
            except BaseException:
                con.close()
                raise
            con.close()
        _open_writable(p, wait, seed).close()
        return _open(p, True, wait)
    return _open_writable(p, wait, seed)


def _open_writable(p: Path, wait: float, seed: bool) -> duckdb.DuckDBPyConnection:
    fresh = not p.exists()
    if fresh:
        p.parent.mkdir(parents=True, exist_ok=True)
    con = _open(p, False, wait)
    try:
        version = schema_version(con)
        if version > LATEST:
            raise StoreError(f"database {p} has schema version {version}, newer than this code ({LATEST})")
        migrate(con)
        if fresh and seed and SAMPLE_DIR.is_dir():
            import_paths(con, [str(SAMPLE_DIR)])
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


# ---- from a replayed game to rows ---------------------------------------------------------

def game_checksum(g: GameLog) -> str:
    """SHA-256 of the game's content (events without line numbers, keys sorted)."""
    text = json.dumps(g.content(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _parse_started(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        d = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if d.tzinfo is not None:
        d = d.astimezone(UTC).replace(tzinfo=None)
    return d


EVENT_COLUMNS = ("game", "seq", "line", "ord", "hand", "type", "seat", "tile", "tiles", "melds", "pairs",
                 "meld", "t", "what", "points", "reason", "starter", "indicator", "racks", "deck",
                 "scores", "extra", "valid")
# event fields with a typed column of their own, per type; anything else goes to 'extra'
_TYPED = {k: set(v) | {"type", "game", "hand", "t"} | ({"seat"} if k in SEATED else set())
          for k, v in FIELDS.items()}
HEADER_FIELDS = {"type", "game", "variant", "rules", "players", "hands", "started", "site"}


@dataclass
class GameRows:
    """Everything one game writes, table by table, as lists of column-ordered tuples."""

    game: str
    checksum: str
    valid: bool
    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    import_id: int | None = None

    @property
    def events(self) -> int:
        return len(self.rows.get("events", ()))


def game_rows(g: GameLog, res: GameResult, checksum: str) -> GameRows:
    """The rows of every table for one replayed game (pure: runs in import workers)."""
    h = g.header
    players = list(res.players) + [""] * (4 - len(res.players))
    rules = json.dumps(res.rules.to_dict()) if res.rules is not None else None
    err = res.error
    if err is None:
        err = next((hr.error for hr in res.hands if hr.error), None)
    totals = res.totals
    winner = players[min(range(4), key=lambda s: totals[s])] if res.hands else None
    extra = {k: v for k, v in h.items() if k not in HEADER_FIELDS}
    mp = res.match_points if res.error is None else None
    games = [(g.id, checksum, h.get("variant"), rules,
              json.dumps(h["rules"], ensure_ascii=False) if "rules" in h else None,
              h.get("site"), _parse_started(h.get("started")), h.get("started"), h.get("hands"),
              len(res.hands), res.valid, res.agrees,
              err["line"] if err else None, err.get("rule") if err else None, err["message"] if err else None,
              totals, mp, winner, g.file, g.line,
              json.dumps(extra, ensure_ascii=False) if extra else None, players,
              sum(1 for hr in res.hands if hr.result != "void"))]
    seats = [(g.id, s, players[s]) for s in range(4)]
    hands, hand_seats, pens, opens, mism = [], [], [], [], []
    starts: list[tuple[int, int]] = []  # (line, ord)
    hand_events = {ln: ev for ln, ev in g.events if ev["type"] == "hand"}
    for i, hr in enumerate(res.hands, 1):
        starts.append((hr.line, i))
        hev = hand_events.get(hr.line, {})
        pen_tot = [0, 0, 0, 0]
        for p in hr.penalties:
            pen_tot[p.seat] += p.points
            pens.append((g.id, i, hr.hand, p.seat, players[p.seat], p.points, p.rule, p.line))
        e = hr.error or {}
        rec = hr.recorded_end or {}
        hands.append((g.id, i, hr.hand, hr.line, hev.get("starter"), hev.get("indicator"), hr.result,
                      hr.finisher, list(hr.finish_kinds), list(hr.scores), pen_tot, hr.totals(),
                      e.get("line"), e.get("rule"), e.get("message"), rec.get("reason"), rec.get("scores")))
        opened = {o["seat"] for o in hr.openings}
        for s in range(4):
            hand_seats.append((g.id, i, hr.hand, s, players[s], hr.scores[s], pen_tot[s],
                               hr.scores[s] + pen_tot[s], s in opened, hr.finisher == s))
        for o in hr.openings:
            opens.append((g.id, i, hr.hand, o["seat"], players[o["seat"]], o["kind"], o["value"],
                          o["threshold"], o["line"]))
        for m in hr.mismatches:
            mism.append((g.id, i, hr.hand, m["kind"], m.get("seat"), m.get("line"),
                         json.dumps(m.get("recorded")), json.dumps(m.get("computed"))))
    events = []
    k = 0
    cur_ord: int | None = None
    bad_from: int | None = None  # line of the current hand's first illegal move
    err_by_ord = {i: (hr.error or {}).get("line") for i, hr in enumerate(res.hands, 1)}
    game_bad = res.error is not None
    for seq, (ln, ev) in enumerate(g.events, 1):
        while k < len(starts) and starts[k][0] <= ln:
            cur_ord = starts[k][1]
            bad_from = err_by_ord[cur_ord]
            k += 1
        kind = ev["type"]
        typed = _TYPED[kind]
        ex = {f: v for f, v in ev.items() if f not in typed}
        t = ev.get("t")
        events.append((
            g.id, seq, ln, cur_ord, ev.get("hand"), kind, ev.get("seat") if "seat" in typed else None,
            ev.get("tile") if "tile" in typed else None, ev.get("tiles") if "tiles" in typed else None,
            ev.get("melds") if "melds" in typed else None, ev.get("pairs") if "pairs" in typed else None,
            ev.get("meld") if "meld" in typed else None, float(t) if t is not None else None,
            ev.get("what") if "what" in typed else None, ev.get("points") if "points" in typed else None,
            ev.get("reason") if "reason" in typed else None, ev.get("starter") if "starter" in typed else None,
            ev.get("indicator") if "indicator" in typed else None, ev.get("racks") if "racks" in typed else None,
            ev.get("deck") if "deck" in typed else None, ev.get("scores") if "scores" in typed else None,
            json.dumps(ex, ensure_ascii=False) if ex else None,
            not game_bad and cur_ord is not None and (bad_from is None or ln < bad_from)))
    return GameRows(g.id, checksum, res.valid, {
        "games": games, "seats": seats, "hands": hands, "hand_seats": hand_seats, "penalties": pens,
        "openings": opens, "mismatches": mism, "events": events})


# column names per table, in the tuple order game_rows uses
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("game", "checksum", "variant", "rules", "rule_overrides", "site", "started", "started_text",
              "hands_planned", "hands_played", "valid", "agrees", "error_line", "error_rule",
              "error_message", "totals", "match_points", "winner", "file", "line", "header_extra", "players",
              "hands_counted"),
    "seats": ("game", "seat", "player"),
    "hands": ("game", "ord", "hand", "line", "starter", "indicator", "result", "finisher", "finish_kinds",
              "scores", "penalty_totals", "totals", "error_line", "error_rule", "error_message",
              "recorded_result", "recorded_scores"),
    "hand_seats": ("game", "ord", "hand", "seat", "player", "score", "penalties", "total", "opened", "finished"),
    "penalties": ("game", "ord", "hand", "seat", "player", "points", "rule", "line"),
    "openings": ("game", "ord", "hand", "seat", "player", "kind", "value", "threshold", "line"),
    "mismatches": ("game", "ord", "hand", "kind", "seat", "line", "recorded", "computed"),
    "events": EVENT_COLUMNS,
}


# ---- writing ------------------------------------------------------------------------------

def _arrow_types() -> dict[str, Any]:
    import pyarrow as pa

    s, i, b = pa.string(), pa.int64(), pa.bool_()
    ls, li = pa.list_(pa.string()), pa.list_(pa.int64())
    lls = pa.list_(ls)
    kinds: dict[Any, tuple[str, ...]] = {
        i: ("seq", "line", "ord", "hand", "seat", "starter", "finisher", "points", "value", "threshold",
            "meld", "hands_planned", "hands_played", "hands_counted", "error_line", "score", "penalties", "total"),
        b: ("valid", "agrees", "opened", "finished"),
        pa.float64(): ("t",),
        pa.timestamp("us"): ("started",),
        ls: ("finish_kinds", "tiles", "deck", "players"),
        li: ("totals", "match_points", "scores", "penalty_totals", "recorded_scores"),
        lls: ("melds", "pairs", "racks"),
    }
    out = {c: t for t, cs in kinds.items() for c in cs}
    return {c: out.get(c, s) for cols in COLUMNS.values() for c in cols}


_TYPES: dict[str, Any] = {}

Tables = dict[str, Any]  # table name -> pyarrow.Table in COLUMNS order


def to_tables(games: Sequence[GameRows]) -> tuple[Tables, list[dict[str, tuple[int, int]]]]:
    """Column tables for many games at once, and each game's (offset, length) in each table."""
    import pyarrow as pa

    if not _TYPES:
        _TYPES.update(_arrow_types())
    spans: list[dict[str, tuple[int, int]]] = [{} for _ in games]
    tables: Tables = {}
    for table, cols in COLUMNS.items():
        rows: list[tuple[Any, ...]] = []
        for k, g in enumerate(games):
            r = g.rows[table]
            spans[k][table] = (len(rows), len(r))
            rows.extend(r)
        # column by column: zip(*rows) over ~100k rows is several times slower
        tables[table] = pa.table({c: pa.array(list(map(itemgetter(n), rows)), type=_TYPES[c])
                                  for n, c in enumerate(cols)})
    return tables, spans


def _take(tables: Tables, spans: Sequence[dict[str, tuple[int, int]]], gids: Sequence[int]) -> Tables:
    """The rows of some games (zero-copy slices of a file's tables), each table with its gid column."""
    import numpy as np
    import pyarrow as pa

    out: Tables = {}
    for table, tbl in tables.items():
        parts = [tbl.slice(*sp[table]) for sp in spans if sp[table][1]]
        t = pa.concat_tables(parts) if parts else tbl.slice(0, 0)
        if table in GID_TABLES:
            counts = [sp[table][1] for sp in spans]
            t = t.append_column("gid", pa.array(np.repeat(np.asarray(gids, dtype=np.int64), counts), pa.int64()))
        out[table] = t
    return out


def next_gid(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute("SELECT coalesce(max(gid), 0) + 1 FROM games").fetchall()[0][0]


def _delete_games(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> None:
    for table in GAME_TABLES:  # constant names
        con.execute(f"DELETE FROM {table} WHERE game IN (SELECT unnest(?::VARCHAR[]))", [list(ids)])


def write_tables(con: duckdb.DuckDBPyConnection, tables: Tables, import_id: int | None = None,
                 replace_ids: Sequence[str] = (),
                 extra: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> None:
    """Write whole games (their rows in every table) in one transaction; all or nothing."""
    con.execute("BEGIN TRANSACTION")
    try:
        if replace_ids:
            _delete_games(con, replace_ids)
        for table, tbl in tables.items():
            if tbl.num_rows == 0:
                continue
            con.register("_istaka_batch", tbl)
            try:
                if table == "games":
                    con.execute("INSERT INTO games BY NAME SELECT *, ?::INTEGER AS import_id, "
                                "now()::TIMESTAMP AS imported_at FROM _istaka_batch", [import_id])
                else:
                    con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _istaka_batch")  # constant name
                if table == "seats":
                    con.execute("INSERT OR IGNORE INTO players SELECT DISTINCT player FROM _istaka_batch")
            finally:
                con.unregister("_istaka_batch")
        if extra is not None:
            extra(con)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def store_games(con: duckdb.DuckDBPyConnection, games: Sequence[GameRows], import_id: int | None = None,
                replace_ids: Sequence[str] = ()) -> None:
    """Write replayed games (from :func:`game_rows`) in one transaction."""
    tables, spans = to_tables(games)
    first = next_gid(con)
    write_tables(con, _take(tables, spans, range(first, first + len(games))), import_id, replace_ids)


# ---- import -------------------------------------------------------------------------------

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


def expand_paths(paths: Iterable[str]) -> list[Path]:
    """Files, directories (searched recursively for .jsonl/.jsonl.gz) and globs, in a stable order."""
    out: list[Path] = []
    for raw in paths:
        matches = [Path(m) for m in sorted(globmod.glob(raw, recursive=True))] if globmod.has_magic(raw) else [Path(raw)]
        if not matches or not all(m.exists() for m in matches):
            raise StoreError(f"no such file or directory: {raw}")
        for m in matches:
            if m.is_dir():
                out.extend(sorted(f for f in m.rglob("*") if f.is_file() and f.name.endswith(LOG_SUFFIXES)))
            else:
                out.append(m)
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            unique.append(p)
    return unique


@dataclass
class Entry:
    """One game of a file: ``status`` new (replayed, rows in the file's tables), unchanged or conflict."""

    game: str
    checksum: str
    line: int
    status: str
    valid: bool = True
    gid: int = 0
    span: dict[str, tuple[int, int]] = field(default_factory=dict)


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


_KNOWN: dict[str, str] = {}


def _init_worker(known: dict[str, str]) -> None:
    global _KNOWN
    _KNOWN = known


def prepare_file(path: str | Path, known: dict[str, str] | None = None, replace: bool = False) -> FilePrep:
    """Read a file and replay every game the database does not hold yet (``known``: id -> checksum)."""
    known = _KNOWN if known is None else known
    p = Path(path)
    try:
        raw = p.read_bytes()
        rr = read_file(p)
    except OSError as e:  # the file, not a game: reported, and the other files still go in
        err = ReadError(str(path), None, None, f"cannot read the file: {e.strerror or e}")
        return FilePrep(str(path), "", 0, [err], [], to_tables([])[0], 0)
    entries: list[Entry] = []
    new: list[GameRows] = []
    events = 0
    for g in rr.games:
        events += len(g.events) + 1
        cs = game_checksum(g)
        have = known.get(g.id)
        if have == cs:
            entries.append(Entry(g.id, cs, g.line, "unchanged"))
        elif have is not None and not replace:
            entries.append(Entry(g.id, cs, g.line, "conflict"))
        else:
            rows = game_rows(g, replay_game(g, keep_steps=False), cs)
            entries.append(Entry(g.id, cs, g.line, "new", rows.valid))
            new.append(rows)
    tables, spans = to_tables(new)
    for e, sp in zip((e for e in entries if e.status == "new"), spans):
        e.span = sp
    return FilePrep(str(path), hashlib.sha256(raw).hexdigest(), len(raw), rr.errors, entries, tables, events)


def _prepare_remote(args: tuple[str, bool]) -> FilePrep:
    return prepare_file(args[0], None, args[1])


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


def _preps(files: list[Path], known: dict[str, str], replace: bool, workers: int) -> Iterator[FilePrep]:
    if workers <= 1 or len(files) < 2:
        for f in files:
            yield prepare_file(f, known, replace)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: never fork a process that has DuckDB's threads running
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(known,)) as ex:
        yield from ex.map(_prepare_remote, [(str(f), replace) for f in files], chunksize=1)


def default_workers(files: Sequence[Path]) -> int:
    """Replay in worker processes only when there is enough to gain over their start-up."""
    # ~8 MB of JSON Lines is some 80,000 events, a few seconds of replay; gzip packs ~8x
    size = sum(f.stat().st_size * (8 if f.name.endswith(".gz") else 1) for f in files)
    if len(files) < 2 or size < 8_000_000:
        return 1
    return max(1, min(os.cpu_count() or 1, len(files), 8))


def import_paths(con: duckdb.DuckDBPyConnection, paths: Iterable[str], *, replace: bool = False,
                 batch_games: int = 500, workers: int | None = None, progress: bool = False) -> ImportSummary:
    """Import log files into the store; see the module docstring for the guarantees.

    A transaction holds up to ``batch_games`` whole games of one file (1: a transaction per
    game), and the file's import record goes with its last games. A transaction that fails is
    rolled back and its games retried one per transaction, so a bad game never takes good ones
    along; a game that still cannot be written is reported (kind ``store``), not half-written.
    """
    t0 = time.perf_counter()
    files = expand_paths(paths)
    summary = ImportSummary(files=len(files))
    known: dict[str, str] = dict(con.execute("SELECT game, checksum FROM games").fetchall())
    gids = [next_gid(con)]  # the next game number, shared by the files of this import
    if workers is None:
        workers = default_workers(files)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=sum(f.stat().st_size for f in files), unit="B", unit_scale=True, desc="import",
                   leave=False)
    try:
        for prep in _preps(files, known, replace, workers):
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
    n["failed"] = len({e.game if e.game is not None else ("", e.line) for e in prep.errors})
    pending: list[Entry] = []
    replacing: set[str] = set()

    def flush(extra: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> None:
        batch = list(pending)
        pending.clear()
        rep = [e.game for e in batch if e.game in replacing]
        try:
            write_tables(con, _take(prep.tables, [e.span for e in batch], [e.gid for e in batch]), import_id, rep,
                         extra)
            return
        except duckdb.Error as err:
            if len(batch) == 1:
                fail(batch[0], str(err))
                batch = []
        for e in batch:  # one game per transaction now
            try:
                write_tables(con, _take(prep.tables, [e.span], [e.gid]), import_id,
                             [e.game] if e.game in replacing else [])
            except duckdb.Error as err:
                fail(e, str(err))
        if extra is not None:
            write_tables(con, {}, import_id, (), extra)

    def fail(e: Entry, msg: str) -> None:
        n["stored"] -= 1
        n["invalid"] -= not e.valid
        n["failed"] += 1
        known.pop(e.game, None)
        errs.append((import_id, prep.file, e.line, e.game, "store", None, None, f"could not be stored: {msg}"))

    for e in prep.games:
        n["games"] += 1
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
        if errs:
            c.executemany("INSERT INTO import_errors VALUES (?, ?, ?, ?, ?, ?, ?, ?)", errs)

    flush(record)
    for k, v in n.items():
        setattr(summary, k, getattr(summary, k) + v)
    summary.events += prep.events


# ---- export -------------------------------------------------------------------------------

EXPORT_TABLES = ("games", "seats", "players", "hands", "hand_seats", "events", "penalties", "openings",
                 "mismatches", "imports", "import_errors")


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
