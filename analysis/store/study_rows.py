"""Studies in the store: a study and its positions, their bounds, and every
read and write of the ``studies`` and ``study_items`` tables (migration 11). The public API is
:mod:`analysis.store.studies`; the study file is :mod:`.study_file`.

Positions are numbered 1, 2, … (``pos``); a move or a removal rewrites the study's items in one
transaction. ``hand`` is the log's hand number and ``step`` the index into that hand's replay
steps, as the Replay page's URL has them (``replay?game=…&hand=…&step=…&seat=…``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import duckdb
import pandas as pd

from analysis.game.log import MAX_EVENTS, MAX_HANDS

from .db import StoreError

Con = duckdb.DuckDBPyConnection

MAX_NAME = 200  # characters of a study's name
MAX_NOTE = 2_000  # characters of one item's note
MAX_ITEMS = 500  # items of one study
MAX_GAME_ID = 300  # characters of a game id an item names (the dashboard's URL bound)


class StudyError(StoreError):
    """A study operation the store refuses (a name too long, no such study, a full study)."""


@dataclass(frozen=True)
class Item:
    """One position of a study: a step of a hand of a stored game, the seat it is about, a note."""

    game: str
    hand: int
    step: int
    seat: int
    note: str = ""


@dataclass
class Study:
    id: int
    name: str
    items: list[Item] = field(default_factory=list)
    created: datetime | None = None
    updated: datetime | None = None


# ---- checks -------------------------------------------------------------------------------

def is_int(x: Any) -> bool:
    """A whole number, not a bool (JSON's true is no count)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_text(x: str) -> bool:
    """Text the store can hold: no lone surrogate (a \\ud800 escape in JSON, a file name that
    is not UTF-8), which DuckDB refuses with an exception."""
    try:
        x.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_name(name: Any) -> str:
    """A study's name, stripped: 1-200 characters of one line."""
    if not isinstance(name, str):
        raise StudyError(f"a study's name is text, not {type(name).__name__}")
    name = name.strip()
    if not name:
        raise StudyError("a study needs a name")
    if len(name) > MAX_NAME:
        raise StudyError(f"a study's name is at most {MAX_NAME} characters, this one has {len(name):,}")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise StudyError("a study's name is one line, without control characters")
    if not is_text(name):
        raise StudyError("a study's name is not UTF-8 text (it holds a lone surrogate)")
    return name


def check_note(note: Any) -> str:
    if note is None:
        return ""
    if not isinstance(note, str):
        raise StudyError(f"a note is text, not {type(note).__name__}")
    if len(note) > MAX_NOTE:
        raise StudyError(f"a note is at most {MAX_NOTE:,} characters, this one has {len(note):,}")
    if any((ord(c) < 32 and c not in "\n\r\t") or ord(c) == 127 for c in note):
        raise StudyError("a note holds no control characters (line breaks and tabs only)")
    if not is_text(note):
        raise StudyError("a note is not UTF-8 text (it holds a lone surrogate)")
    return note


def check_item(item: Item) -> Item:
    """The item with its note checked, or a StudyError naming the field that is out of bounds."""
    if not isinstance(item.game, str) or not 1 <= len(item.game) <= MAX_GAME_ID or not is_text(item.game):
        raise StudyError(f"an item's game is an id of 1-{MAX_GAME_ID} characters of UTF-8 text")
    for name, value, lo, hi in (("hand", item.hand, 1, MAX_HANDS), ("step", item.step, 0, MAX_EVENTS),
                                ("seat", item.seat, 0, 3)):
        if not is_int(value) or not lo <= value <= hi:
            raise StudyError(f"an item's {name} is a whole number from {lo} to {hi}, not {value!r}")
    return Item(item.game, item.hand, item.step, item.seat, check_note(item.note))


# ---- reads --------------------------------------------------------------------------------

def list_studies(con: Con) -> pd.DataFrame:
    """Every study, by name: study (its id), name, items, created_at, updated_at."""
    rows = con.execute("""
        SELECT s.study, s.name, count(i.pos) AS items, s.created_at, s.updated_at
        FROM studies s LEFT JOIN study_items i USING (study)
        GROUP BY s.study, s.name, s.created_at, s.updated_at ORDER BY lower(s.name), s.study""").fetchall()
    return pd.DataFrame(rows, columns=["study", "name", "items", "created_at", "updated_at"])


def get(con: Con, study: int) -> Study | None:
    """The study with its items in order, or None."""
    head = con.execute("SELECT study, name, created_at, updated_at FROM studies WHERE study = ?",
                       [int(study)]).fetchall()
    if not head:
        return None
    items = [Item(g, int(h), int(s), int(x), n or "") for g, h, s, x, n in con.execute(
        "SELECT game, hand, step, seat, note FROM study_items WHERE study = ? ORDER BY pos", [int(study)]).fetchall()]
    sid, name, created, updated = head[0]
    return Study(int(sid), str(name), items, created, updated)


def find(con: Con, name: str) -> int | None:
    """The id of the study with this name (as given, stripped), or None."""
    rows = con.execute("SELECT study FROM studies WHERE name = ? ORDER BY study", [name.strip()]).fetchall()
    return int(rows[0][0]) if rows else None


def need(con: Con, study: int) -> Study:
    """The study, or a StudyError saying there is none."""
    s = get(con, study)
    if s is None:
        raise StudyError(f"no study {study} in this database")
    return s


def hand_steps(con: Con, game: str, hand: int) -> int | None:
    """How many replay steps hand ``hand`` of ``game`` has (the Replay page's 0 … n-1), None when
    the game has no such hand: its ``hand`` event and every legal move after it, penalties and
    ends apart (they change no state). A void hand played again keeps its number (E3): the first
    is the one Replay shows."""
    ords = con.execute("SELECT min(ord) FROM hands WHERE game = ? AND hand = ?", [game, int(hand)]).fetchall()
    if not ords or ords[0][0] is None:
        return None
    return int(con.execute("SELECT count(*) FROM events WHERE game = ? AND ord = ? AND valid "
                           "AND type NOT IN ('penalty', 'end')", [game, ords[0][0]]).fetchall()[0][0])


# ---- writes -------------------------------------------------------------------------------

@contextlib.contextmanager
def _transaction(con: Con) -> Iterator[None]:
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _write_items(con: Con, study: int, items: Sequence[Item]) -> None:
    con.execute("DELETE FROM study_items WHERE study = ?", [study])
    for k in range(0, len(items), 100):  # one statement per hundred rows (executemany: a row a millisecond)
        chunk = items[k:k + 100]
        params: list[Any] = []
        for j, it in enumerate(chunk, k + 1):
            params += [study, j, it.game, it.hand, it.step, it.seat, it.note]
        con.execute("INSERT INTO study_items VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk)), params)
    con.execute("UPDATE studies SET updated_at = now() WHERE study = ?", [study])


def _name_free(con: Con, name: str, but: int | None = None) -> None:
    other = find(con, name)
    if other is not None and other != but:
        raise StudyError(f"a study named {name!r} already exists")


def create(con: Con, name: str, items: Sequence[Item] = ()) -> int:
    """A new study (its name unused so far), with ``items``; its id."""
    name = check_name(name)
    items = [check_item(i) for i in items]
    if len(items) > MAX_ITEMS:
        raise StudyError(f"a study holds at most {MAX_ITEMS} items, not {len(items):,}")
    with _transaction(con):
        _name_free(con, name)
        sid = int(con.execute("SELECT nextval('study_ids')").fetchall()[0][0])
        con.execute("INSERT INTO studies VALUES (?, ?, now(), now())", [sid, name])
        _write_items(con, sid, items)
    return sid


def rename(con: Con, study: int, name: str) -> None:
    name = check_name(name)
    with _transaction(con):
        need(con, study)
        _name_free(con, name, but=study)
        con.execute("UPDATE studies SET name = ?, updated_at = now() WHERE study = ?", [name, study])


def delete(con: Con, study: int) -> None:
    with _transaction(con):
        need(con, study)
        con.execute("DELETE FROM study_items WHERE study = ?", [study])
        con.execute("DELETE FROM studies WHERE study = ?", [study])


def _edit(con: Con, study: int, change: Any) -> list[Item]:
    with _transaction(con):
        items = list(need(con, study).items)
        out = change(items)
        _write_items(con, study, out)
    return out


def _index(items: Sequence[Item], k: int) -> int:
    if not is_int(k) or not 1 <= k <= len(items):
        raise StudyError(f"no item {k} in this study (it has {len(items)})")
    return k - 1


def add_item(con: Con, study: int, item: Item, at: int | None = None) -> int:
    """Add ``item`` at position ``at`` (1-based; None: at the end); its position."""
    item = check_item(item)
    where: list[int] = []

    def change(items: list[Item]) -> list[Item]:
        if len(items) >= MAX_ITEMS:
            raise StudyError(f"a study holds at most {MAX_ITEMS} items; this one is full")
        k = len(items) + 1 if at is None else max(1, min(len(items) + 1, int(at)))
        where.append(k)
        return items[:k - 1] + [item] + items[k - 1:]
    _edit(con, study, change)
    return where[0]


def move_item(con: Con, study: int, k: int, to: int) -> None:
    """Move item ``k`` to position ``to`` (both 1-based; ``to`` is kept within the study)."""
    def change(items: list[Item]) -> list[Item]:
        it = items.pop(_index(items, k))
        dest = max(1, min(len(items) + 1, int(to)))
        return items[:dest - 1] + [it] + items[dest - 1:]
    _edit(con, study, change)


def remove_item(con: Con, study: int, k: int) -> None:
    def change(items: list[Item]) -> list[Item]:
        items.pop(_index(items, k))
        return items
    _edit(con, study, change)


def set_note(con: Con, study: int, k: int, note: str) -> None:
    note = check_note(note)

    def change(items: list[Item]) -> list[Item]:
        i = _index(items, k)
        old = items[i]
        items[i] = Item(old.game, old.hand, old.step, old.seat, note)
        return items
    _edit(con, study, change)


__all__ = ["MAX_GAME_ID", "MAX_ITEMS", "MAX_NAME", "MAX_NOTE", "Item", "Study", "StudyError", "add_item", "check_item",
           "check_name", "check_note", "create", "delete", "find", "get", "hand_steps", "is_int", "is_text", "list_studies",
           "move_item", "need", "remove_item", "rename", "set_note"]
