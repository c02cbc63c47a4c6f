"""Uploaded log files into the store, through the same import as ``istaka import``."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from analysis import store
from analysis.store import queries

from . import data
from .i18n import t
from .rule_links import rule_cell, rule_column
from .tiles_view import md_text

LIMIT_MB = 50  # per file; a site's export is split into files well below this


@dataclass
class Message:
    level: str  # error, warning, success, info
    text: str


def check(name: str, size: int, lang: str) -> str | None:
    """Why an upload is refused (wrong name or too big), or None."""
    if not name.endswith((".jsonl", ".jsonl.gz")):
        return t("upload_bad_name", lang, name=md_text(name))
    if size > LIMIT_MB * 1024 * 1024:
        return t("upload_too_big", lang, name=md_text(name), size=round(size / 1024 / 1024, 1), limit=LIMIT_MB)
    return None


def import_uploaded(files: Sequence[Any], lang: str) -> list[Message]:
    """Import the files not imported yet in this session; the outcome goes to session state."""
    done: set[str] = st.session_state.setdefault("_imported_ids", set())
    out: list[Message] = []
    todo = []
    for f in files:
        fid = getattr(f, "file_id", None) or f"{f.name}:{f.size}"
        if fid in done:
            continue
        why = check(f.name, f.size, lang)
        if why:
            out.append(Message("error", why))
            done.add(fid)
            continue
        todo.append((fid, f))
    if not todo:
        return out
    with tempfile.TemporaryDirectory(prefix="istaka-upload-") as tmp:
        paths = []
        for i, (_, f) in enumerate(todo):
            d = Path(tmp) / str(i)  # one folder per file: the stored file name is the uploaded one
            d.mkdir()
            p = d / Path(f.name).name
            p.write_bytes(f.getvalue())
            paths.append(str(p))
        try:
            con = store.connect(data.db_file())
        except store.StoreError as e:
            return out + [Message("error", str(e))]
        try:
            before = set(queries.list_games(con)["game"])
            summary = store.import_paths(con, paths, workers=1)
            errs = queries.import_errors(con)
            new = [str(g) for g in queries.list_games(con)["game"] if g not in before]
        finally:
            con.close()
    errs = errs[errs["file"].isin(paths)].copy() if len(errs) else errs
    if len(errs):
        errs["file"] = [Path(x).name for x in errs["file"]]
        errs = errs.drop(columns=[c for c in ("import_id",) if c in errs.columns])
    for fid, _ in todo:
        done.add(fid)
    st.session_state["_last_import"] = {"summary": summary.to_dict(), "errors": errs}
    st.session_state["_new_games"] = new
    out.append(Message("success" if not summary.failed and not summary.invalid else "warning",
                       t("import_line", lang, **summary.to_dict())))
    return out


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
        else:
            col = col.map(lambda x: "" if _blank(x) else str(x))
        out[t(f"err_col_{c}", lang)] = col.to_numpy()
    return out


def errors_config(lang: str) -> dict[str, Any]:
    """The error table's column settings: the rule column shows its ID and links to the rule."""
    return {t("err_col_rule", lang): rule_column(t("err_col_rule", lang))}


def _blank(x: Any) -> bool:
    return x is None or (not isinstance(x, (str, list, tuple)) and bool(pd.isna(x)))
