"""Uploaded log files into the store, through the same import as ``istaka import``."""

from __future__ import annotations

from dashboard.words.locale import table
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from analysis import store
from analysis.game.lines import MAX_RATIO, RATIO_FROM, FileUnreadable, inflated_size
from analysis.store import queries

from dashboard.state import access, data
from dashboard.words import read_errors
from dashboard.words.i18n import t
from dashboard.words.rule_links import link_rules, rule_cell, rule_column
from dashboard.words.text import md_text

LIMIT_MB = int(os.environ.get("ISTAKA_UPLOAD_MB", "50"))  # per file, inflated (a .gz counts what it holds)
HOUR_MB = int(os.environ.get("ISTAKA_UPLOAD_HOUR_MB", "200"))  # every upload of the last hour, inflated
DISK_MB = int(os.environ.get("ISTAKA_DB_MAX_MB", "2048"))  # no upload once the database file is this big
MAX_FILES = 20  # files taken from one drop
NAME_CHARS = 120  # an uploaded name is kept to this many characters (a 256-character name broke the import)
_HOUR: list[tuple[float, int]] = []  # (when, inflated bytes) of this server's uploads
_HOUR_LOCK = threading.Lock()


# The upload limits' words; the uploader's other words are in i18n.py
STRINGS: dict[str, tuple[str, str]] = table("uploads")


def _t(key: str, lang: str, **fields: object) -> str:
    pair = STRINGS.get(key)
    if pair is None:
        return t(key, lang, **fields)
    return (pair[1] if lang == "en" else pair[0]).format(**fields)


@dataclass
class Message:
    level: str  # error, warning, success, info
    text: str


def check(name: str, size: int, lang: str) -> str | None:
    """Why an upload is refused (wrong name or too big), or None."""
    if not name.endswith((".jsonl", ".jsonl.gz")):
        return t("upload_bad_name", lang, name=md_text(short_name(name)))
    if size > LIMIT_MB * 1024 * 1024:
        return t("upload_too_big", lang, name=md_text(short_name(name)), size=round(size / 1024 / 1024, 1),
                 limit=LIMIT_MB)
    return None


def short_name(name: str) -> str:
    """The uploaded file's own name, safe to store and show: no folders, no control characters,
    at most NAME_CHARS characters with its .jsonl / .jsonl.gz kept."""
    base = "".join(c for c in name.replace("\\", "/").rsplit("/", 1)[-1] if c.isprintable()).strip() or "upload"
    suffix = ".jsonl.gz" if base.endswith(".jsonl.gz") else ".jsonl" if base.endswith(".jsonl") else ""
    stem = base[: len(base) - len(suffix)] if suffix else base
    if len(base) > NAME_CHARS:
        stem = stem[: NAME_CHARS - len(suffix) - 1] + "…"
    return (stem or "upload") + suffix


def label(name: str) -> str:
    """The name the store keeps for an upload (its games' file, its errors): the same for the same
    file name, so a corrected file uploaded again replaces its errors, and never a temporary path."""
    return f"upload/{short_name(name)}"


def inflated_check(name: str, raw: bytes, lang: str) -> tuple[str | None, int]:
    """(why the content is refused, or None; the bytes it inflates to): a .gz is inflated a block at
    a time and stopped past the limit or the bomb ratio, before memory or disk fill up."""
    stop = LIMIT_MB * 1024 * 1024
    if not name.endswith(".gz"):
        return None, len(raw)
    try:
        size = inflated_size(raw, stop)
    except FileUnreadable:
        return None, len(raw)  # the import reports the damage with its line
    if size > stop:
        return _t("upload_too_big_inflated", lang, name=md_text(short_name(name)), limit=LIMIT_MB), size
    if size > RATIO_FROM and size > MAX_RATIO * len(raw):
        return _t("upload_bomb", lang, name=md_text(short_name(name)), ratio=MAX_RATIO), size
    return None, size


def _hour_used(now: float) -> int:
    with _HOUR_LOCK:
        _HOUR[:] = [(w, n) for w, n in _HOUR if now - w < 3600]
        return sum(n for _, n in _HOUR)


def _disk_full() -> bool:
    try:
        return os.stat(data.db_file()).st_size > DISK_MB * 1024 * 1024
    except OSError:
        return False


def clean_stale_folders(older_than: float = 3600) -> int:
    """Remove ``istaka-upload-*`` folders a killed server left in the temporary directory."""
    n = 0
    now = time.time()
    for d in Path(tempfile.gettempdir()).glob("istaka-upload-*"):
        try:
            if d.is_dir() and now - d.stat().st_mtime > older_than:
                shutil.rmtree(d, ignore_errors=True)
                n += 1
        except OSError:
            continue
    return n


def import_uploaded(files: Sequence[Any], lang: str) -> list[Message]:
    """Import the files not imported yet in this session; the outcome goes to session state."""
    done: set[str] = st.session_state.setdefault("_imported_ids", set())
    out: list[Message] = []
    if not access.can_write():  # the uploader is not shown then; a request that comes anyway is refused
        return [Message("error", access.t("ac_read_only", lang))]
    todo = []
    for f in list(files)[:MAX_FILES]:
        fid = getattr(f, "file_id", None) or f"{f.name}:{f.size}"
        if fid in done:
            continue
        done.add(fid)
        why = check(f.name, f.size, lang)
        if why:
            out.append(Message("error", why))
            continue
        todo.append((fid, f))
    if len(files) > MAX_FILES:
        out.append(Message("warning", _t("upload_too_many", lang, n=len(files), limit=MAX_FILES)))
    if not todo:
        return out
    if _disk_full():
        return out + [Message("error", _t("upload_disk_full", lang, limit=DISK_MB))]
    clean_stale_folders()
    with tempfile.TemporaryDirectory(prefix="istaka-upload-") as tmp:
        paths, labels = [], {}
        now = time.time()
        used = _hour_used(now)
        for i, (_, f) in enumerate(todo):
            raw = f.getvalue()
            why, size = inflated_check(f.name, raw, lang)
            if why is None and used + size > HOUR_MB * 1024 * 1024:
                why = _t("upload_hour_full", lang, name=md_text(short_name(f.name)), limit=HOUR_MB)
            if why:
                out.append(Message("error", why))
                continue
            used += size
            with _HOUR_LOCK:
                _HOUR.append((now, size))
            d = Path(tmp) / str(i)  # one folder per file: the stored file name is the uploaded one
            d.mkdir()
            p = d / ("upload.jsonl.gz" if f.name.endswith(".gz") else "upload.jsonl")
            p.write_bytes(raw)
            del raw
            paths.append(str(p))
            labels[str(p)] = label(f.name)
        if not paths:
            return out
        try:
            with data.writing_db() as con:
                before = set(queries.list_games(con)["game"])
                summary = store.import_paths(con, paths, workers=1, labels=labels)
                errs = queries.import_errors(con)
                new = [str(g) for g in queries.list_games(con)["game"] if g not in before]
        except (store.StoreError, PermissionError) as e:
            return out + [Message("error", str(e))]
    names = set(labels.values())
    errs = errs[errs["file"].isin(names)].copy() if len(errs) else errs
    if len(errs):
        errs["file"] = [Path(x).name for x in errs["file"]]
        errs = errs.drop(columns=[c for c in ("import_id",) if c in errs.columns])
    st.session_state["_last_import"] = {"summary": summary.to_dict(), "errors": errs}
    st.session_state["_new_games"] = new
    out.append(Message("success" if not summary.failed and not summary.invalid else "warning",
                       t("import_line", lang, **summary.to_dict())))
    return out


def on_upload(lang: str) -> None:
    """The uploader's callback: import what was dropped before the page runs again (so the game
    count at the top already holds the new games), the messages kept for the page to show."""
    files = st.session_state.get("upload") or []
    st.session_state.pop("_last_import", None)  # an earlier drop's outcome is not this one's
    st.session_state.pop("_new_games", None)
    msgs = import_uploaded(files, lang) if files else []
    if msgs or not files:
        st.session_state["_upload_msgs"] = msgs


def limits_hint(lang: str) -> str:
    return _t("upload_limits", lang, limit=LIMIT_MB, hour=HOUR_MB)


SUMMARY_FIELDS = ("files", "games", "events", "stored", "unchanged", "conflicts", "invalid", "failed", "seconds")


def summary_frame(summary: dict[str, Any], lang: str) -> pd.DataFrame:
    """An import's summary as a two-column table in the page's language (seconds rounded)."""
    rows = [(t(f"sum_{k}", lang), f"{summary[k]:.1f}" if k == "seconds" else str(summary[k]))
            for k in SUMMARY_FIELDS if k in summary]
    return pd.DataFrame(rows, columns=[t("col_what", lang), t("col_count", lang)])


ERROR_COLUMNS = ("file", "line", "game", "kind", "rule", "message")


def errors_frame(errs: pd.DataFrame, lang: str) -> pd.DataFrame:
    """Import errors as a user reads them: the uploaded file's name (never a temporary path),
    the kind in words, empty cells left empty, column headers in the page's language."""
    out = pd.DataFrame()
    for c in ERROR_COLUMNS:
        if c not in errs.columns:
            continue
        col = errs[c]
        if c == "file":
            col = col.map(lambda x: "" if _blank(x) else Path(str(x)).name)
        elif c == "kind":
            col = col.map(lambda x: "" if _blank(x) else t(f"err_{x}", lang))
        elif c == "line":
            col = col.map(lambda x: "" if _blank(x) else str(int(x)))
        elif c == "rule":  # a link to the Rules page (shown as the ID: errors_config)
            col = col.map(lambda x: "" if _blank(x) else rule_cell(x, lang))
        elif c == "message":  # the reader's words in the page's language (dashboard.words.read_errors)
            col = col.map(lambda x: "" if _blank(x) else read_errors.plain(str(x), lang))
        else:
            col = col.map(lambda x: "" if _blank(x) else str(x))
        out[t(f"err_col_{c}", lang)] = col.to_numpy()
    return out


def errors_config(lang: str) -> dict[str, Any]:
    """The error table's column settings: the rule column shows its ID and links to the rule; the
    explanation gets the room left."""
    return {t("err_col_rule", lang): rule_column(t("err_col_rule", lang)),
            t("err_col_message", lang): st.column_config.TextColumn(width="large")}


def error_lines(errs: pd.DataFrame, lang: str) -> list[str]:
    """An upload's errors as whole sentences (Markdown, wrapped on the page, never cut): where
    (line, game, field, rule) and what is wrong, in the page's language, one per bad line."""
    out = []
    for r in errs.itertuples(index=False):
        get = r._asdict().get
        vals = {k: None if _blank(get(k)) else get(k) for k in ("line", "game", "field", "rule", "message")}
        line = int(vals["line"]) if vals["line"] is not None else None
        head = read_errors.where(line, vals["game"], vals["field"], vals["rule"], lang)
        what = read_errors.plain(str(vals["message"] or ""), lang)
        out.append(link_rules(f"**{md_text(head)}** — {md_text(what)}" if head else md_text(what), lang))
    return out


def _blank(x: Any) -> bool:
    return x is None or (not isinstance(x, (str, list, tuple)) and bool(pd.isna(x)))
