"""A coach's notes on the dashboard: the Replay panel of the current step (a
note shown; added, edited and deleted by a writer), the move list's marks, and the Review page's
list of a game's notes, each opening its step in Replay.

Notes are read through :func:`dashboard.state.data.reading_db` and cached by the database's version
like every other read; writes go through :func:`dashboard.state.data.writing_db`, the write gate, and
are offered only when :func:`dashboard.state.access.can_write` (in read-only mode a note is shown, the
editor is not). The library (:mod:`analysis.store.notes`) checks every value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from analysis import store
from analysis.store.notes import MARKS, MAX_TEXT, Note, NoteError

from dashboard.state import access, data, url_state
from dashboard.words.i18n import fmt_date
from dashboard.words.notes_words import t
from dashboard.board.tiles_view import md_text

NO_MARK = "✎"  # a note without a mark, in the move list (a DejaVu glyph: no emoji font needed)
_FLASH = "_nt_flash"  # (kind, text) shown once in the panel after a save or a delete
_AT = "_nt_at"  # the step (and note version) the editor's widgets were filled for


@st.cache_data(show_spinner=False, max_entries=64)
def _notes(v: int, path: str, game: str) -> list[Note]:
    with data.reading_db() as con:
        return store.list_notes(con, game)


def game_notes(game: str) -> list[Note]:
    """The game's notes in hand and step order (read again whenever the database was written)."""
    return _notes(data.version(), data.db_file(), game)


def note_at(game: str, hand: int, step: int) -> Note | None:
    return next((n for n in game_notes(game) if n.hand == hand and n.step == step), None)


def move_marks(game: str, hand: int, lo: int, n: int) -> list[str]:
    """A note's mark per move-list row lo..lo+n-1 (``✎`` for a note without a mark), else empty."""
    at = {x.step: x.mark or NO_MARK for x in game_notes(game) if x.hand == hand}
    return [f" {at[i]}" if i in at else "" for i in range(lo, lo + n)]


def author() -> str:
    """The writer's name when logged in (an account's e-mail or name), else empty (local mode, a passphrase)."""
    who = access.writer()
    return "" if who in (None, "local", "passphrase") else str(who)


def error_text(e: NoteError, lang: str) -> str:
    """A NoteError in the page's language, one line."""
    f = dict(e.fields)
    if "n" in f:
        f["count"] = f.pop("n")
    try:
        return t(f"nt_err_{e.kind}", lang, **f)
    except (KeyError, IndexError):
        return str(e)


def writable() -> bool:
    """Whether this session may write a note here (not read-only, a writer, not a Parquet lake)."""
    return access.can_write() and not store.is_lake(Path(data.db_file()))


def _write(fn: Any, lang: str, done: str) -> bool:
    """Run ``fn(con)`` through the write gate; one line saying what happened, shown once."""
    try:
        with data.writing_db() as con:
            fn(con)
    except NoteError as e:
        st.session_state[_FLASH] = ("error", error_text(e, lang))
        return False
    except PermissionError:
        st.session_state[_FLASH] = ("error", t("nt_denied", lang))
        return False
    except store.DatabaseBusy:
        st.session_state[_FLASH] = ("error", t("nt_busy", lang))
        return False
    except store.StoreError as e:  # a store that cannot be written (its message names it)
        st.session_state[_FLASH] = ("error", md_text(str(e)))
        return False
    _notes.clear()  # this session reads its own note at once, whatever the file's clock says
    st.session_state[_FLASH] = ("success", t(done, lang))
    return True


def _save(game: str, hand: int, step: int, lang: str) -> None:
    mark = st.session_state.get("nt_mark") or ""
    text = st.session_state.get("nt_text") or ""
    if _write(lambda con: store.save_note(con, game, hand, step, mark, text, author()), lang, "nt_saved"):
        st.session_state.pop(_AT, None)  # fill the editor again with the note as stored


def _delete(game: str, hand: int, step: int, lang: str) -> None:
    if _write(lambda con: store.delete_note(con, game, hand, step), lang, "nt_deleted"):
        st.session_state.pop(_AT, None)


def _text_md(text: str) -> str:
    return "  \n".join(md_text(line) for line in text.split("\n"))


def _mark_label(lang: str) -> Any:
    return lambda m: m if m else t("nt_mark_none", lang)


def replay_panel(game: str, hand: int, step: int, lang: str) -> None:
    """The note of this step, compact: shown to everyone, with an editor (mark, comment, save,
    delete) for a writer."""
    note = note_at(game, hand, step)
    with st.container(border=True, key="nt_panel"):
        head = f"**{t('nt_panel', lang)}**"
        if note is not None and note.mark:
            head += f" · **{md_text(note.mark)}**"
        st.markdown(head)
        if note is None:
            st.caption(t("nt_none", lang))
        else:
            if note.text:
                st.markdown(_text_md(note.text))
            when = fmt_date(note.updated, lang) + " UTC"
            st.caption(md_text(t("nt_by", lang, who=note.author, when=when)) if note.author else when)
        flash = st.session_state.pop(_FLASH, None)
        if flash:
            getattr(st, flash[0])(flash[1])
        if not writable():
            st.caption(t("nt_read_only", lang))
            return
        at = (game, hand, step, None if note is None else note.updated)
        if st.session_state.get(_AT) != at:  # a new step (or the note changed): the editor shows what is stored
            st.session_state["nt_mark"] = note.mark if note else ""
            st.session_state["nt_text"] = note.text if note else ""
            st.session_state[_AT] = at
        with st.expander(t("nt_edit" if note else "nt_add", lang), icon=":material/edit_note:"):
            with st.form("nt_form", border=False):
                st.radio(t("nt_mark", lang), list(MARKS), key="nt_mark", horizontal=True,
                         format_func=_mark_label(lang))
                st.text_area(t("nt_text", lang), key="nt_text", max_chars=MAX_TEXT, height=100,
                             help=t("nt_text_help", lang, limit=f"{MAX_TEXT:,}"))
                st.form_submit_button(t("nt_save", lang), icon=":material/save:", on_click=_save,
                                      args=(game, hand, step, lang))
            if note is not None:
                st.button(t("nt_delete", lang), key="nt_delete", icon=":material/delete:", on_click=_delete,
                          args=(game, hand, step, lang))


def review_list(game: str, lang: str) -> None:
    """The game's notes on the Review page: one row each; a click (or ▶) opens its Replay step."""
    notes = game_notes(game)
    st.subheader(t("nt_list", lang))
    if not notes:
        st.caption(t("nt_list_none", lang))
        return
    st.caption(t("nt_count", lang, n=len(notes)))
    view = pd.DataFrame({
        t("nt_col_hand", lang): [n.hand for n in notes],
        t("nt_col_step", lang): [n.step for n in notes],
        t("nt_col_mark", lang): [n.mark for n in notes],
        t("nt_col_text", lang): [n.text.replace("\n", " / ") for n in notes],
        t("nt_col_author", lang): [n.author for n in notes],
        t("nt_col_updated", lang): [fmt_date(n.updated, lang) for n in notes],
        "▶": [url_state.link("replay", game=game, hand=n.hand, step=n.step) for n in notes],
    })
    sel = st.dataframe(view, key="nt_review", on_select="rerun", selection_mode=["single-row", "single-cell"],
                       hide_index=True, column_config={"▶": st.column_config.LinkColumn("▶", display_text="▶")})
    row = url_state.clicked_row(sel)
    if row is not None:
        n = notes[row]
        url_state.goto("replay", game=game, hand=n.hand, step=n.step)


__all__ = ["author", "error_text", "game_notes", "move_marks", "note_at", "replay_panel", "review_list", "writable"]
