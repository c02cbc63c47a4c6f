"""The dashboard's reads: cached calls into ``analysis.queries`` and the replayer.

The server process holds one read-only connection and gives each burst of reads its own cursor
(:class:`_Reader`): opening the file costs about 30 ms, a cursor nothing. The connection is let go
when this process writes, when no one has read for :data:`READER_IDLE` seconds, and at the end of
a burst once it is :data:`READER_AGE` seconds old, so ``istaka import`` in another process finds the
file free between the dashboard's reads.
Every cached loader is keyed by the database file's modification time as well as by its
inputs: after an import, a rerun (or a refresh) sees the new games. Replays are kept as
objects (``st.cache_resource``) keyed by game id: stepping through a hand is then indexing.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from analysis.store import queries

from analysis import store
from analysis.game import GameLog
from analysis.game import GameResult, HandResult, replay_game

from dashboard.words.i18n import DEFAULT, LANGS

PAGE_REF: dict[str, Any] = {}  # url_path -> st.Page, filled by app.py for st.switch_page


def lang() -> str:
    v = st.session_state.get("lang")
    return v if v in LANGS else DEFAULT


def db_file() -> str:
    return str(store.db_path())


def version() -> int:
    """Changes whenever the database file is written (the cache key for fresh reads)."""
    try:
        return os.stat(db_file()).st_mtime_ns
    except OSError:
        return 0


def frame(x: Any) -> pd.DataFrame:
    """A query result as a DataFrame (queries may return frames, rows as dicts, or relations)."""
    if isinstance(x, pd.DataFrame):
        return x
    if hasattr(x, "df"):
        return x.df()
    return pd.DataFrame(list(x))


class _Gate:
    """Readers together, a writer alone, across every session of this server process. DuckDB
    refuses a read-only connection to a file this process holds read-write ("different
    configuration"): without the gate a reader on another page got that as a traceback while an
    upload was being imported."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing)
            self._writing = True  # new readers wait from now on; those reading finish first
            self._cond.wait_for(lambda: self._readers == 0)
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


GATE = _Gate()
READER_IDLE = 1.0  # seconds without a read after which the held connection is closed
READER_AGE = 5.0  # seconds after which a burst's end closes it (the next burst opens it again)


class _Reader:
    """The process's read-only connection, shared by the bursts of reads of every session (each on
    its own cursor) and closed when idle, when old, or before a write (under the gate's exclusive
    side, when no burst is reading)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._con: Any = None
        self._path = ""
        self._opened = 0.0
        self._users = 0
        self._last = 0.0  # when the last burst ended
        self._timer: threading.Timer | None = None
        self.opens = 0  # connections opened (tests and the load bench count them)

    @contextlib.contextmanager
    def cursor(self, path: str) -> Iterator[Any]:
        with self._lock:
            if self._con is not None and self._path != path and self._users == 0:
                self._close()  # nobody reads the held file: follow the one asked for
            held = self._con is None or self._path == path
            if self._con is None:
                self._con, self._path, self._opened = store.connect(path, read_only=True), path, time.monotonic()
                self.opens += 1
            if held:
                self._users += 1
                con = self._con
        if not held:  # another file while the held one is being read: its own burst, as before
            with store.reading(path) as own:
                yield own
            return
        try:
            cur = con.cursor()
        except BaseException:
            self._release()
            raise
        try:
            yield cur
        finally:
            try:
                cur.close()
            finally:
                self._release()

    def _release(self) -> None:
        with self._lock:
            self._users -= 1
            self._last = time.monotonic()
            if self._users == 0 and self._con is not None:
                if self._last - self._opened > READER_AGE:
                    self._close()
                elif self._timer is None:
                    self._timer = threading.Timer(READER_IDLE, self._idle)
                    self._timer.daemon = True
                    self._timer.start()

    def _idle(self) -> None:
        with self._lock:
            self._timer = None
            if self._con is None or self._users:
                return
            left = READER_IDLE - (time.monotonic() - self._last)
            if left <= 0:
                self._close()
            else:
                self._timer = threading.Timer(left, self._idle)
                self._timer.daemon = True
                self._timer.start()

    def _close(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            con.close()

    def close(self) -> None:
        """Let the file go (no burst may be reading: called under the gate's exclusive side)."""
        with self._lock:
            if self._users == 0:
                self._close()


READER = _Reader()


@contextlib.contextmanager
def reading_db() -> Iterator[Any]:
    """A cursor on the process's read-only connection for one burst of reads, never beside a write."""
    with GATE.shared(), READER.cursor(db_file()) as con:
        yield con


@contextlib.contextmanager
def writing_db(authorized: bool = False) -> Iterator[Any]:
    """The dashboard's writing connection: refused (:class:`dashboard.state.access.WriteRefused`,
    a PermissionError) unless this session may write (read-only mode, a club reader), and alone in
    this process while it writes. ``authorized``: a queued job (dashboard/state/jobs.py), whose
    session was checked when it was queued."""
    from dashboard.state import access

    if not authorized:
        access.require_write()
    with GATE.exclusive():
        READER.close()  # the read-only connection goes first (DuckDB: one configuration per file)
        con = store.connect(db_file())
        try:
            yield con
        finally:
            con.close()


def _read(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    with reading_db() as con:
        return fn(con, *args, **kw)


@st.cache_data(show_spinner=False, max_entries=64)
def _games(v: int, path: str, filters: tuple[tuple[str, Any], ...]) -> pd.DataFrame:
    return frame(_read(queries.list_games, **dict(filters)))


def games(**filters: Any) -> pd.DataFrame:
    clean = tuple(sorted((k, v) for k, v in filters.items() if v not in (None, "", [])))
    return _games(version(), db_file(), clean)


@st.cache_resource(show_spinner=False, max_entries=8)
def _game_ids(v: int, path: str) -> tuple[str, ...]:
    return tuple(str(x) for x in _read(queries.list_games)["game"])


def game_ids() -> tuple[str, ...]:
    """Every stored game id (newest first), shared between sessions without copying."""
    return _game_ids(version(), db_file())


@st.cache_data(show_spinner=False, max_entries=8)
def _choices(v: int, path: str) -> dict[str, list[Any]]:
    def run(con: Any) -> dict[str, list[Any]]:
        return {"players": list(queries.players(con)), "variants": list(queries.variants(con)),
                "sites": list(queries.sites(con))}
    return _read(run)


def choices() -> dict[str, list[Any]]:
    """The filter options: player names, variants and sites in the database."""
    return _choices(version(), db_file())


@st.cache_data(show_spinner=False, max_entries=64)
def _query(v: int, path: str, name: str, kw: tuple[tuple[str, Any], ...]) -> pd.DataFrame:
    return frame(_read(getattr(queries, name), **dict(kw)))


def query(name: str, **kw: Any) -> pd.DataFrame:
    """A cached read of ``analysis.queries.<name>(con, **kw)`` as a DataFrame."""
    return _query(version(), db_file(), name, tuple(sorted(kw.items())))


PLAYER_QUERIES = ("player_hand_scores", "opening_values", "finish_kinds", "penalties", "player_stats")


@st.cache_resource(show_spinner=False, max_entries=16)
def _player_frames(v: int, path: str, variant: str | None, source: str | None = None) -> dict[str, pd.DataFrame]:
    def run(con: Any) -> dict[str, pd.DataFrame]:
        from analysis.store import sheets  # score sheets or recorded games only, and wins

        return {name: frame(df) for name, df in sheets.trend_frames(con, variant, source).items()}
    return _read(run)


def player_frames(variant: str | None, source: str | None = None) -> dict[str, pd.DataFrame]:
    """Everything the Players page shows for one variant, read in one burst (one connection);
    ``source``: only score sheets (``sheets``) or only recorded games (``recorded``).
    Shared between sessions without copying: callers must not modify the frames."""
    return _player_frames(version(), db_file(), variant, source)


@st.cache_data(show_spinner=False, max_entries=8)
def _import_errors(v: int, path: str) -> pd.DataFrame:
    return frame(_read(queries.import_errors))


def import_errors() -> pd.DataFrame:
    return _import_errors(version(), db_file())


# 16 replays at most: with the reader's 100 hands a game, a few hundred MB in all
@st.cache_resource(show_spinner=False, max_entries=16)
def _replay(v: int, path: str, game: str) -> Replay | None:
    gl = _read(queries.load_gamelog, game)
    if gl is None:
        return None
    return Replay(gl, replay_game(gl, keep_steps=True))


def replay(game: str) -> Replay | None:
    """The replayed game (every state of every hand), cached by game id."""
    return _replay(version(), db_file(), game)


@dataclass
class Turn:
    seat: int
    start: int  # step index where the seat holds its drawn tile (0 for the starter's first turn)
    end: int  # step index of its discard (or the hand's last step)


class Replay:
    """A game log and its replay, with per-hand turn boundaries and running totals."""

    def __init__(self, log: GameLog, result: GameResult) -> None:
        self.log = log
        self.result = result
        self._turns: dict[int, list[Turn]] = {}
        self._moves: dict[tuple[int, str], pd.DataFrame] = {}

    @property
    def players(self) -> list[str]:
        names = [str(p) for p in self.result.players]
        return names + [f"#{i}" for i in range(len(names), 4)]

    def hand_numbers(self) -> list[int]:
        return [h.hand for h in self.result.hands]

    def hand(self, n: int) -> HandResult | None:
        for h in self.result.hands:
            if h.hand == n:
                return h
        return None

    def hand_index(self, n: int) -> int:
        return next(i for i, h in enumerate(self.result.hands) if h.hand == n)

    def totals_before(self, n: int) -> list[int]:
        """Every seat's game total before hand ``n`` (hand scores and in-game penalties)."""
        t = [0, 0, 0, 0]
        for h in self.result.hands[: self.hand_index(n)]:
            for s, v in enumerate(h.totals()):
                t[s] += v
        return t

    def moves(self, n: int, lang: str, describe: Callable[..., str]) -> pd.DataFrame:
        """The hand's move list (one row per step), built once per hand and language."""
        key = (n, lang)
        if key not in self._moves:
            h = self.hand(n)
            rows = []
            for i, step in enumerate(h.steps if h else []):
                seat = step.event.get("seat")
                rows.append({"#": i, "": self.players[seat] if isinstance(seat, int) and 0 <= seat < 4 else "",
                             " ": describe(step.event, self.players, lang)})
            self._moves[key] = pd.DataFrame(rows)
        return self._moves[key]

    def turns(self, n: int) -> list[Turn]:
        """The hand's turns: from a seat's draw or take (or the deal) to its discard."""
        if n in self._turns:
            return self._turns[n]
        h = self.hand(n)
        out: list[Turn] = []
        if h is not None and h.steps:
            seat = h.steps[0].state.turn
            start = 0
            for i, step in enumerate(h.steps[1:], 1):
                ev = step.event
                kind = ev.get("type")
                if kind in ("draw", "take") and start < 0:
                    seat, start = ev.get("seat", seat), i
                elif kind == "discard":
                    if start < 0:
                        start = i
                    out.append(Turn(ev.get("seat", seat), start, i))
                    start = -1
            if start >= 0 and start < len(h.steps) - 1:
                out.append(Turn(seat, start, len(h.steps) - 1))
        self._turns[n] = out
        return out

    def turn_at(self, n: int, step: int) -> Turn | None:
        """The turn a step belongs to: the first whose discard is at or after it."""
        for tn in self.turns(n):
            if tn.end >= step:
                return tn
        return None


def db_exists() -> bool:
    return Path(db_file()).exists()
