"""From a replayed game to rows of the store's tables, and their all-or-nothing write.

:func:`game_rows` is pure (it runs in import workers); :func:`to_tables` turns many games into
Arrow column tables; :func:`write_tables` writes whole games in one transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

import duckdb

from analysis.game import GameLog

from analysis.game.log import FIELDS, SEATED
from analysis.game import GameResult

from .db import GAME_TABLES, GID_TABLES

# ---- from a replayed game to rows ---------------------------------------------------------

def game_checksum(g: GameLog) -> str:
    """SHA-256 of the game's content (events without line numbers, keys sorted, compact UTF-8
    JSON: orjson's bytes, which the standard library's sorted compact dump equals)."""
    return hashlib.sha256(_canonical_bytes(g.content())).hexdigest()


try:
    import orjson

    def _canonical_bytes(x: Any) -> bytes:
        return orjson.dumps(x, option=orjson.OPT_SORT_KEYS)
except ImportError:  # pragma: no cover
    def _canonical_bytes(x: Any) -> bytes:
        return json.dumps(x, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _parse_started(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        d = datetime.fromisoformat(text.strip())
        if d.tzinfo is not None:
            d = d.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not a date, or past year 9999 once in UTC: kept as text
        return None
    return d


EVENT_COLUMNS = ("game", "seq", "line", "ord", "hand", "type", "seat", "tile", "tiles", "melds", "pairs",
                 "meld", "t", "what", "points", "reason", "starter", "indicator", "racks", "deck",
                 "scores", "extra", "valid")
# event fields with a typed column of their own, per type; anything else goes to 'extra'
# (a score sheet's result fields but scores have no column of their own: they go to 'extra')
_TYPED = {k: (set(v) & set(EVENT_COLUMNS)) | {"type", "game", "hand", "t"} | ({"seat"} if k in SEATED else set())
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
              sum(1 for hr in res.hands if hr.result != "void"), h.get("sheet") is True, res.view)]
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
            if o["value"] is None:  # a score sheet says who opened, not with what: hand_seats.opened only
                continue
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
              "hands_counted", "sheet", "view_seat"),
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
            "meld", "hands_planned", "hands_played", "hands_counted", "error_line", "score", "penalties", "total",
            "view_seat"),
        b: ("valid", "agrees", "opened", "finished", "sheet"),
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

# the store's integer columns narrower than INTEGER (db.MIGRATIONS); every other one is INTEGER
_NARROW = {"seat": 8, "starter": 8, "finisher": 8, "ord": 16, "hand": 16, "view_seat": 8}
_INT64 = (-(2**63), 2**63 - 1)


def out_of_range_games(tables: Tables, spans: Sequence[dict[str, tuple[int, int]]]) -> dict[int, str]:
    """The games (index into ``spans``) holding an integer their column cannot hold, each with a
    message naming the column, the value and the log line. Vectorised: a few min/max per column
    when every value fits, which is the import's normal path."""
    import bisect

    import pyarrow as pa
    import pyarrow.compute as pc

    bad: dict[int, str] = {}
    for table, tbl in tables.items():
        if tbl.num_rows == 0:
            continue
        starts = [sp[table][0] for sp in spans]
        lines = tbl.column("line").combine_chunks() if "line" in tbl.column_names else None
        for col in tbl.column_names:
            arr = tbl.column(col).combine_chunks()
            parents = None
            if pa.types.is_list(arr.type):
                if not pa.types.is_integer(arr.type.value_type):
                    continue
                parents, arr = pc.list_parent_indices(arr), pc.list_flatten(arr)
            elif not pa.types.is_integer(arr.type):
                continue
            bits = _NARROW.get(col, 32)
            lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
            mm = pc.min_max(arr).as_py()
            if mm["min"] is None or (lo <= mm["min"] and mm["max"] <= hi):
                continue
            hits = pc.indices_nonzero(pc.or_(pc.less(arr, lo), pc.greater(arr, hi))).to_pylist()
            for i in hits:
                row = parents[i].as_py() if parents is not None else i
                k = bisect.bisect_right(starts, row) - 1
                if k in bad:
                    continue
                line = lines[row].as_py() if lines is not None else None
                bad[k] = (f"{f'line {line}: ' if line is not None else ''}{table}.{col} = {arr[i].as_py()} is "
                          f"past the store's range for it ({lo} to {hi}) [store limits]")
    return bad


def rows_out_of_range(rows: GameRows) -> str | None:
    """The first integer of one game's rows past Arrow's int64 (which :func:`to_tables` cannot
    take), as a message naming the column and the log line; None when every integer fits."""
    import pyarrow as pa

    if not _TYPES:
        _TYPES.update(_arrow_types())
    ints = (pa.int64(), pa.list_(pa.int64()))
    for table, cols in COLUMNS.items():
        at = [(i, c) for i, c in enumerate(cols) if _TYPES[c] in ints]
        line_at = cols.index("line") if "line" in cols else None
        for r in rows.rows.get(table, ()):
            for i, c in at:
                v = r[i]
                for x in (v if isinstance(v, list) else (v,)):
                    if type(x) is int and not _INT64[0] <= x <= _INT64[1]:
                        where = f"line {r[line_at]}: " if line_at is not None else ""
                        return (f"{where}{table}.{c} = {x} is past the store's range for it (a 64-bit "
                                f"integer) [store limits]")
    return None


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


def take_games(tables: Tables, spans: Sequence[dict[str, tuple[int, int]]], gids: Sequence[int]) -> Tables:
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
    write_tables(con, take_games(tables, spans, range(first, first + len(games))), import_id, replace_ids)
