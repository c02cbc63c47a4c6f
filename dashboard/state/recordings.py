"""Where the recorder keeps its games: one JSON file per recording in ``recordings/`` beside the
database (a reload picks it up, ``?rec=ID``), and a finished game imported into the store as a log
and reviewed. Every write asks the dashboard's write gate first
(:func:`dashboard.state.access.require_write`: nothing is written in read-only mode nor by a
club reader); nothing else here touches Streamlit.

A recording read is kept in memory, keyed by its file's stamp (modification time and size): the
next tap finds it there with its engine states, instead of reading the file and replaying the
hand; a file changed by anyone else is read again."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis import store
from analysis.game import dumps
from analysis.game.record import Recording, RecordError
from dashboard.state import access, data, json_files

_ID = re.compile(r"^kayit-[0-9]{8}-[0-9]{6}(-[0-9]+)?$")
_LIVE: dict[str, tuple[tuple[int, int], Recording]] = {}  # file -> (its stamp, the recording read)
_LOCK = threading.Lock()  # one change at a time (sessions run in threads of one process)


def folder(db: str) -> Path:
    return Path(db).resolve().parent / "recordings"


def new_id(db: str, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    base = f"kayit-{now:%Y%m%d-%H%M%S}"
    rid, k = base, 1
    while (folder(db) / f"{rid}.json").exists():
        k += 1
        rid = f"{base}-{k}"
    return rid


def valid_id(rid: object) -> bool:
    """Only ids the recorder makes name a file (a URL parameter never reaches another path)."""
    return isinstance(rid, str) and bool(_ID.match(rid))


def save(db: str, rec: Recording) -> None:
    """Write the recording at once (atomically: a reload never reads half a file)."""
    access.require_write()
    json_files.write(folder(db), rec.id, rec.to_dict(), _LIVE, rec)


def load(db: str, rid: str) -> Recording | None:
    if not valid_id(rid):
        return None
    # bounded: size, nesting, shape, the engine
    return json_files.read(folder(db) / f"{rid}.json", Recording.from_json, _LIVE)


def change(db: str, rid: str, fn: Any, *args: Any) -> Recording | None:
    """Load the recording, apply ``fn(rec, *args)`` and store it at once. A refusal
    (:class:`RecordError`) is raised with nothing stored, and the copy in memory is dropped (the
    next load reads the file). None when there is no such recording."""
    access.require_write()
    with _LOCK:
        rec = load(db, rid)
        if rec is None:
            return None
        try:
            fn(rec, *args)
        except RecordError:
            _LIVE.pop(str(folder(db) / f"{rid}.json"), None)
            raise
        save(db, rec)
        return rec


def in_progress(db: str) -> list[str]:
    d = folder(db)
    if not d.is_dir():
        return []
    return sorted((p.stem for p in d.glob("kayit-*.json") if valid_id(p.stem)), reverse=True)


def remove(db: str, rid: str) -> None:
    access.require_write()
    if valid_id(rid):
        (folder(db) / f"{rid}.json").unlink(missing_ok=True)


STEP_KEYS = ("rec_mode", "rec_build_in", "rec_layoff_on")  # the play phase's widgets, new at each event


def step_key(name: str, rec: Recording) -> str:
    """The key of the play phase's widget ``name`` at the recording's present step (its hand and
    the events recorded in it). Each event gives these widgets new keys: a tap sent from a page
    still showing the step before (a slow server, a quick tap after "open") carries that page's
    build text and mode, which then belong to widgets that are gone; the tap itself still counts
    (a tile tapped after an opening is its discard, not a tile added to the old build text)."""
    return f"{name}~{rec.hand}.{len(rec.events)}"


def log_text(rec: Recording, *, unfinished: bool = True) -> str:
    return "".join(dumps(e) + "\n" for e in rec.log_events(unfinished=unfinished))


def finish(db: str, rec: Recording) -> dict[str, Any]:
    """Import the game into the store as one log (a seat-view log, or a full one for "all
    racks"), then review it: every hand played, and a hand still in progress as far as it went
    (LOG_FORMAT: a hand's ``end`` is optional; the store keeps it as unfinished). The recording
    goes on; a later save replaces the stored game. The log file stays in ``recordings/``
    beside its JSON. Refused (D1) before the first hand is dealt: there is no hand to save."""
    access.require_write()
    hands = len(rec.finished_hands())
    open_hand = rec.dealt and not rec.over  # the hand in progress, saved as far as it went
    if not hands and not rec.dealt:
        raise RecordError("no hand has been dealt yet: nothing to save", "D1")
    d = folder(db)
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{rec.id}.jsonl"
    path.write_text(log_text(rec, unfinished=True), encoding="utf-8")
    with data.writing_db(authorized=True) as con:  # alone in this server (checked just above)
        s = store.import_paths(con, [str(path)], workers=1, replace=True)
        a = store.analyze(con, games=[rec.id], jobs=1)
    return {"hands": hands, "open_hand": rec.hand if open_hand else None, "moves": len(rec.events) if open_hand else 0,
            "stored": s.stored + s.unchanged, "invalid": s.invalid, "annotated": a.annotated, "file": str(path)}
