"""Where the Play page keeps its games: one JSON file per game in ``played/`` beside the database,
written at every move (a reload or a closed browser picks it up, ``?play=ID``), and each finished
hand imported into the store as a full log naming its people, then reviewed. No Streamlit here;
every write is behind the dashboard's write gate (the page checks ``access.can_write`` before it
offers a game; the store is written through ``data.writing_db``).

A game read is kept in memory keyed by its file's stamp, as the recorder keeps its recordings, so
a tap applies one event instead of replaying the hand."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis import store
from analysis.game import dumps
from analysis.game.record import RecordError, load_json
from analysis.selfplay.sets import played_dir
from analysis.selfplay.table import PlayGame
from dashboard.state import access, json_files

_ID = re.compile(r"^oyun-[0-9]{8}-[0-9]{6}(-[0-9]+)?$")
_LIVE: dict[str, tuple[tuple[int, int], PlayGame]] = {}
_LOCK = threading.RLock()  # one change at a time (sessions run in threads of one process)


def folder(db: str) -> Path:
    return played_dir(db)


def new_id(db: str, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    base = f"oyun-{now:%Y%m%d-%H%M%S}"
    gid, k = base, 1
    while (folder(db) / f"{gid}.json").exists():
        k += 1
        gid = f"{base}-{k}"
    return gid


def valid_id(gid: object) -> bool:
    """Only ids this page makes name a file (a URL parameter never reaches another path)."""
    return isinstance(gid, str) and bool(_ID.match(gid))


def save(db: str, g: PlayGame) -> None:
    """Write the game at once (atomically: a reload never reads half a file), as a writer only."""
    access.require_write()
    json_files.write(folder(db), g.id, g.to_dict(), _LIVE, g)


def load(db: str, gid: str) -> PlayGame | None:
    if not valid_id(gid):
        return None
    # bounded: size, nesting (a RecordError)
    return json_files.read(folder(db) / f"{gid}.json", lambda b: PlayGame.from_dict(load_json(b)), _LIVE)


def change(db: str, gid: str, fn: Any, *args: Any) -> Any:
    """Load the game, apply ``fn(game, *args)`` and store it at once; what ``fn`` returned. A
    refusal (:class:`RecordError`) is raised with nothing stored and the copy in memory dropped
    (the next load reads the file). None when there is no such game."""
    with _LOCK:
        g = load(db, gid)
        if g is None:
            return None
        try:
            out = fn(g, *args)
        except RecordError:
            _LIVE.pop(str(folder(db) / f"{gid}.json"), None)
            raise
        save(db, g)
        return out


def in_progress(db: str) -> list[str]:
    d = folder(db)
    if not d.is_dir():
        return []
    return sorted((p.stem for p in d.glob("oyun-*.json") if valid_id(p.stem)), reverse=True)


def log_text(g: PlayGame) -> str:
    return "".join(dumps(e) + "\n" for e in g.log_events(unfinished=False))


def store_hands(db: str, g: PlayGame, con: Any) -> dict[str, Any]:
    """Import the game's finished hands into the store (``con``: a connection opened through the
    write gate) as one full log, and review them; the log stays in ``played/`` beside its JSON."""
    hands = len(g.finished_hands())
    if not hands:
        raise RecordError("no hand is over yet: nothing to save", "E1")
    d = folder(db)
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{g.id}.jsonl"
    path.write_text(log_text(g), encoding="utf-8")
    s = store.import_paths(con, [str(path)], workers=1, replace=True)
    a = store.analyze(con, games=[g.id], jobs=1)
    g.stored = hands
    save(db, g)
    return {"hands": hands, "stored": s.stored + s.unchanged, "invalid": s.invalid, "annotated": a.annotated}


__all__ = ["change", "folder", "in_progress", "load", "log_text", "new_id", "save", "store_hands", "valid_id"]
