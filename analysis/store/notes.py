"""A coach's notes: a comment and a mark on any step of any game, kept in the
store's ``notes`` table (migration 10) next to the games they speak of.

A note is keyed by its game, hand number and step (an index into the hand's replay steps, the
Replay page's ``?hand=…&step=…``): one note per step, added, edited and deleted in place. Its
mark is one of :data:`MARKS` (``""`` for none), its text at most :data:`MAX_TEXT` characters.
Every value is checked by :func:`validate` before it is written, and a bad one raises
:class:`NoteError` naming what was wrong (its ``kind`` and ``fields`` let a page say it in its
own language). Times are UTC. Notes stay when their game is imported again (``--replace``).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from .db import StoreError

Con = duckdb.DuckDBPyConnection

MARKS = ("", "!!", "!", "?!", "?", "??")  # none, brilliant, good, dubious, mistake, blunder
MAX_TEXT = 2_000  # characters of a note's text
MAX_AUTHOR = 200  # characters of an author's name (an e-mail address from a login)
MAX_STEP = 1_000_000  # far past any hand's steps: a bound, not a rule
# Unicode's control characters (category Cc) but a line break and a tab, and lone surrogates (Cs,
# which UTF-8 cannot hold): refused, never stored
REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
COLUMNS = ("game", "hand", "step", "mark", "text", "author", "created", "updated")


class NoteError(StoreError, ValueError):
    """A note that cannot be written: ``kind`` says why (too_long, bad_mark, empty, bad_char,
    bad_position, no_game, no_hand, exists, missing, bad_author) and ``fields`` give the details."""

    def __init__(self, message: str, kind: str, **fields: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields


@dataclass(frozen=True)
class Note:
    """One note as stored: where it is, its mark and text, who wrote it and when (UTC)."""

    game: str
    hand: int
    step: int
    mark: str
    text: str
    author: str
    created: dt.datetime
    updated: dt.datetime

    def as_dict(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in COLUMNS}

    def as_json(self) -> dict[str, Any]:
        """:meth:`as_dict` with its times as ISO 8601 text (``istaka notes --json``, report JSON)."""
        return {**self.as_dict(), "created": self.created.isoformat(), "updated": self.updated.isoformat()}


def clean_text(text: object, what: str = "note text", limit: int = MAX_TEXT) -> str:
    """The text as it is stored: line breaks made ``\\n``, outer white space removed. Refuses a
    value that is not a string, a lone surrogate or a control character (other than a line break
    or a tab), and a text over ``limit`` characters."""
    if not isinstance(text, str):
        raise NoteError(f"{what} must be a string, not {type(text).__name__}", "bad_char", what=what, at=0,
                        code="type")
    out = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    bad = REFUSED.search(out)
    if bad is not None:
        ch, i = bad.group(), bad.start() + 1
        name = "a lone surrogate" if unicodedata.category(ch) == "Cs" else "a control character"
        raise NoteError(f"{what}: {name} (U+{ord(ch):04X}) at character {i} cannot be stored", "bad_char",
                        what=what, at=i, code=f"U+{ord(ch):04X}")
    if len(out) > limit:
        raise NoteError(f"{what} is {len(out):,} characters long; at most {limit:,} are kept", "too_long",
                        what=what, n=len(out), limit=limit)
    return out


def clean_mark(mark: object) -> str:
    m = "" if mark is None else mark
    if not isinstance(m, str) or m.strip() not in MARKS:
        shown = repr(m)[:20]
        raise NoteError(f"mark {shown} is not one of {', '.join(repr(x) for x in MARKS)} ('' for none)",
                        "bad_mark", mark=shown)
    return m.strip()


def clean_position(hand: object, step: object) -> tuple[int, int]:
    ok = all(isinstance(x, int) and not isinstance(x, bool) for x in (hand, step))
    if not ok or not (0 < int(hand) < 10_000 and 0 <= int(step) <= MAX_STEP):  # type: ignore[call-overload]
        raise NoteError(f"hand {hand!r}, step {step!r}: a hand number from 1 and a step from 0 are needed",
                        "bad_position", hand=str(hand)[:20], step=str(step)[:20])
    return int(hand), int(step)  # type: ignore[call-overload]


def validate(mark: object, text: object, author: object = "") -> tuple[str, str, str]:
    """The (mark, text, author) a note stores, or a :class:`NoteError`; a note needs a mark or a text."""
    m, tx = clean_mark(mark), clean_text(text)
    a = clean_text(author or "", "author", MAX_AUTHOR).replace("\n", " ")
    if not m and not tx:
        raise NoteError("a note needs a mark or a text (delete a note to remove it)", "empty")
    return m, tx, a


def _now(now: dt.datetime | None) -> dt.datetime:
    t = now or dt.datetime.now(dt.UTC)
    return t.astimezone(dt.UTC).replace(tzinfo=None) if t.tzinfo else t


def _check_place(con: Con, game: object, hand: object, step: object) -> tuple[str, int, int]:
    if not isinstance(game, str) or not game or len(game) > 500:
        raise NoteError(f"game {str(game)[:40]!r}: a stored game's id is needed", "no_game", game=str(game)[:40])
    h, s = clean_position(hand, step)
    if not con.execute("SELECT count(*) FROM games WHERE game = ?", [game]).fetchall()[0][0]:
        raise NoteError(f"no game {game[:80]!r} in the store", "no_game", game=game[:80])
    if not con.execute("SELECT count(*) FROM hands WHERE game = ? AND hand = ?", [game, h]).fetchall()[0][0]:
        raise NoteError(f"game {game[:80]!r} has no hand {h}", "no_hand", game=game[:80], hand=h)
    return game, h, s


def _row(r: Sequence[Any]) -> Note:
    return Note(str(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), str(r[5]), r[6], r[7])


def _select(con: Con, where: str, args: list[Any]) -> list[Note]:
    try:
        rows = con.execute(f"SELECT {', '.join(COLUMNS)} FROM notes WHERE {where} ORDER BY hand, step", args).fetchall()
    except duckdb.CatalogException:  # no notes table: a Parquet lake exported before migration 10
        return []
    return [_row(r) for r in rows]


def get_note(con: Con, game: str, hand: int, step: int) -> Note | None:
    """The note at this step, or None."""
    got = _select(con, "game = ? AND hand = ? AND step = ?", [game, int(hand), int(step)])
    return got[0] if got else None


def add_note(con: Con, game: str, hand: int, step: int, mark: str = "", text: str = "", author: str = "",
             now: dt.datetime | None = None) -> Note:
    """Write a new note at a step of a stored game; a step holding one already is an error (edit it)."""
    g, h, s = _check_place(con, game, hand, step)
    m, tx, a = validate(mark, text, author)
    t = _now(now)
    try:
        con.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [g, h, s, m, tx, a, t, t])
    except duckdb.ConstraintException:  # the primary key: one note per step
        raise NoteError(f"hand {h}, step {s} of {g[:80]!r} has a note already: edit it", "exists",
                        hand=h, step=s) from None
    return Note(g, h, s, m, tx, a, t, t)


def update_note(con: Con, game: str, hand: int, step: int, mark: str = "", text: str = "",
                author: str | None = None, now: dt.datetime | None = None) -> Note:
    """Replace the mark and text of the note at this step (``author``: the editor, None keeps the
    writer's); a step without a note is an error."""
    h, s = clean_position(hand, step)
    old = get_note(con, game, h, s)
    if old is None:
        raise NoteError(f"hand {h}, step {s} of {str(game)[:80]!r} has no note to edit", "missing", hand=h, step=s)
    m, tx, a = validate(mark, text, old.author if author is None else author)
    t = _now(now)
    con.execute("UPDATE notes SET mark = ?, text = ?, author = ?, updated = ? WHERE game = ? AND hand = ? AND step = ?",
                [m, tx, a, t, old.game, h, s])
    return Note(old.game, h, s, m, tx, a, old.created, t)


def save_note(con: Con, game: str, hand: int, step: int, mark: str = "", text: str = "", author: str = "",
              now: dt.datetime | None = None) -> Note:
    """Add the note, or edit the one at this step (what the Replay panel's Save does); an edit by
    a writer without a name (``author`` empty) keeps the note's author."""
    h, s = clean_position(hand, step)
    if get_note(con, game, h, s) is None:
        return add_note(con, game, h, s, mark, text, author, now)
    return update_note(con, game, h, s, mark, text, author or None, now)


def delete_note(con: Con, game: str, hand: int, step: int) -> bool:
    """Delete the note at this step; whether there was one."""
    if get_note(con, game, hand, step) is None:
        return False
    con.execute("DELETE FROM notes WHERE game = ? AND hand = ? AND step = ?", [game, int(hand), int(step)])
    return True


def has_notes(con: Con) -> bool:
    """Whether this store has the notes table (a Parquet lake exported before migration 10 has not)."""
    return bool(con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'notes'"
                            ).fetchall()[0][0])


def list_notes(con: Con, game: str, hand: int | None = None) -> list[Note]:
    """A game's notes (of one hand when ``hand`` is given) in hand and step order."""
    if hand is None:
        return _select(con, "game = ?", [game])
    return _select(con, "game = ? AND hand = ?", [game, int(hand)])


def count_notes(con: Con) -> dict[str, int]:
    """The number of notes per game (the games that have any)."""
    try:
        rows = con.execute("SELECT game, count(*) FROM notes GROUP BY game").fetchall()
    except duckdb.CatalogException:
        return {}
    return {str(g): int(n) for g, n in rows}


__all__ = ["MARKS", "MAX_AUTHOR", "MAX_TEXT", "Note", "NoteError", "add_note", "clean_text", "count_notes",
           "delete_note", "get_note", "has_notes", "list_notes", "save_note", "update_note", "validate"]
