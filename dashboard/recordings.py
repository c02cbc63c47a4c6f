"""Where the recorder keeps its hands: one JSON file per recording in ``recordings/`` beside the
database (a reload picks it up, ``?rec=ID``), and a finished hand imported into the store as a log
and reviewed (issue 22). No Streamlit here."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis import store
from analysis.game import dumps
from analysis.game.record import Recording

_ID = re.compile(r"^kayit-[0-9]{8}-[0-9]{6}(-[0-9]+)?$")


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
    d = folder(db)
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{rec.id}.json.tmp"
    tmp.write_text(json.dumps(rec.to_dict(), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, d / f"{rec.id}.json")


def load(db: str, rid: str) -> Recording | None:
    if not valid_id(rid):
        return None
    p = folder(db) / f"{rid}.json"
    try:
        return Recording.from_dict(json.loads(p.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def in_progress(db: str) -> list[str]:
    d = folder(db)
    if not d.is_dir():
        return []
    return sorted((p.stem for p in d.glob("kayit-*.json") if valid_id(p.stem)), reverse=True)


def remove(db: str, rid: str) -> None:
    if valid_id(rid):
        (folder(db) / f"{rid}.json").unlink(missing_ok=True)


def log_text(rec: Recording) -> str:
    return "".join(dumps(e) + "\n" for e in rec.log_events())


def finish(db: str, rec: Recording) -> dict[str, Any]:
    """Import the finished hand into the store (a seat-view log, or a full one for "all racks")
    and review it; the log file stays in ``recordings/`` beside its JSON."""
    d = folder(db)
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{rec.id}.jsonl"
    path.write_text(log_text(rec), encoding="utf-8")
    con = store.connect(db)
    try:
        s = store.import_paths(con, [str(path)], workers=1, replace=True)
        a = store.analyze(con, games=[rec.id], jobs=1)
    finally:
        con.close()
    return {"stored": s.stored + s.unchanged, "invalid": s.invalid, "annotated": a.annotated, "file": str(path)}
