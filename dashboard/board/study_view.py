"""Studies on the dashboard: cached reads of the stored studies, the writes
(each through :func:`dashboard.state.data.writing_db`, so the write gate decides), and Replay's
"Add to study" control. The Studies page itself is ``views/study.py``.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd
import streamlit as st

from analysis.store import StoreError
from analysis.store import studies as S

from dashboard.state import access, data
from dashboard.words.study_words import t
from dashboard.board.tiles_view import md_text

NEW = 0  # the "new study" choice of Replay's control (study ids start at 1)


@st.cache_data(show_spinner=False, max_entries=8)
def _studies(v: int, path: str) -> pd.DataFrame:
    def run(con: Any) -> pd.DataFrame:
        try:
            return S.list_studies(con)
        except duckdb.CatalogException:  # a Parquet lake (ISTAKA_DB=DIR) holds no studies
            return pd.DataFrame(columns=["study", "name", "items", "created_at", "updated_at"])
    with data.reading_db() as con:
        return run(con)


def studies() -> pd.DataFrame:
    """Every stored study (study, name, items, created_at, updated_at), by name."""
    return _studies(data.version(), data.db_file())


@st.cache_data(show_spinner=False, max_entries=32)
def _study(v: int, path: str, sid: int) -> S.Study | None:
    with data.reading_db() as con:
        try:
            return S.get(con, sid)
        except duckdb.CatalogException:
            return None


def study(sid: int) -> S.Study | None:
    return _study(data.version(), data.db_file(), int(sid))


def missing_games(st_: S.Study) -> list[str]:
    """The games a study refers to that this database does not hold (its file cannot be made)."""
    have = set(data.game_ids())
    return sorted({i.game for i in st_.items if i.game not in have})


def export_bytes(sid: int) -> bytes:
    """The study's file, made when the download is clicked (not on every run: a study of many
    games takes seconds to write)."""
    with data.reading_db() as con:
        return S.export_text(con, int(sid)).encode("utf-8")


def write(fn: Any, *args: Any, **kw: Any) -> tuple[Any, str | None]:
    """``fn(con, *args)`` through the write gate: its result and None, or None and one line saying
    why not (read-only, a bound passed, the database busy)."""
    if not access.can_write():
        return None, access.t("ac_read_only", data.lang())
    try:
        with data.writing_db() as con:
            return fn(con, *args, **kw), None
    except (StoreError, PermissionError) as e:  # a StudyError, DatabaseBusy, the gate
        return None, str(e)
    except duckdb.Error as e:  # the store refused: one line, never a traceback
        return None, str(e).splitlines()[0] if str(e) else type(e).__name__


def name_of(row_name: str, n: int, lang: str) -> str:
    return t("sw_option", lang, name=row_name, n=int(n))


# ---- Replay's control ---------------------------------------------------------------------

def _add(game: str, hand: int, step: int, seat: int, lang: str) -> None:
    sid = int(st.session_state.get("sw_add_study") or NEW)
    note = str(st.session_state.get("sw_add_note") or "")
    name = str(st.session_state.get("sw_add_name") or "")

    def run(con: Any) -> tuple[int, int, str]:
        target = sid
        if target == NEW:
            target = S.create(con, name)
        k = S.add_item(con, target, S.Item(game, hand, step, seat, note))
        s = S.get(con, target)
        return target, k, s.name if s else ""
    out, err = write(run)
    if err is not None:
        st.session_state["sw_add_msg"] = ("error", t("sw_error", lang, why=md_text(err)), None)
        return
    target, k, sname = out
    st.session_state["sw_add_study"] = target
    st.session_state["sw_add_note"] = ""
    st.session_state["sw_add_name"] = ""
    st.session_state["sw_add_msg"] = ("success", t("sw_added", lang, name=md_text(sname), k=k),
                                      {"study": str(target), "item": str(k), "lang": lang})


def add_control(game: str, hand: int, step: int, seat: int, players: list[str], lang: str) -> None:
    """Replay's "Add to study": this step of this hand, about ``seat``, with a note, into a
    stored study or a new one. Shown only to a writer (read-only: studies are viewed, not made)."""
    if not access.can_write():
        return
    with st.popover(t("sw_add", lang), icon=":material/bookmark_add:", key="sw_add_pop"):
        listed = studies()
        ids = [int(x) for x in listed["study"]]
        label = {int(r.study): name_of(str(r.name), int(r.items), lang) for r in listed.itertuples(index=False)}
        if st.session_state.get("sw_add_study") not in [NEW, *ids]:
            st.session_state["sw_add_study"] = ids[0] if ids else NEW
        st.caption(md_text(t("sw_add_what", lang, hand=hand, step=step, name=players[seat])))
        pick = st.selectbox(t("sw_add_to", lang), [*ids, NEW], key="sw_add_study",
                            format_func=lambda s: t("sw_add_new", lang) if s == NEW else label.get(s, str(s)))
        if pick == NEW:
            st.text_input(t("sw_new_name", lang), max_chars=S.MAX_NAME, key="sw_add_name")
        st.text_area(t("sw_note", lang), max_chars=S.MAX_NOTE, key="sw_add_note", height=90)
        st.button(t("sw_add_button", lang), key="sw_add_go", icon=":material/add:", on_click=_add,
                  args=(game, hand, step, seat, lang))
        msg = st.session_state.pop("sw_add_msg", None)
        if msg is not None:
            kind, text, link = msg
            (st.success if kind == "success" else st.error)(text)  # its fields escaped
            if link:
                st.page_link(data.PAGE_REF.get("study", "views/study.py"), label=t("sw_open_study", lang),
                             icon=":material/bookmarks:", query_params=link)


__all__ = ["NEW", "add_control", "export_bytes", "missing_games", "name_of", "studies", "study", "write"]
