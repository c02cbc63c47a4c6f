"""Studies: walk through a study's positions (the board at that step of that hand, the note, a
link to the step in Replay), edit notes, reorder or remove positions, download the study file
and upload one.

The study and the position live in the URL (``study?study=ID&item=K``, K from 1) through
:mod:`dashboard.state.url_state`, so a copied link opens the same position. Every change goes through
the write gate (:func:`dashboard.board.study_view.write`); a reader sees the studies, not the controls.
"""

from __future__ import annotations

import zlib

import pandas as pd
import streamlit as st

from analysis.store import studies as S
from dashboard.board import board_marks, player_view, study_view, table_view, uploader
from dashboard.state import access, data, url_state
from dashboard.words.i18n import md_plain
from dashboard.board.replay_view import describe, running_totals
from dashboard.words.retry_words import t as rt
from dashboard.words.rule_links import guide_link
from dashboard.words.study_words import t
from dashboard.board.tiles_view import esc, md_text, table_html
from dashboard.state.uploads import short_name

lang = data.lang()
st.title(t("sw_title", lang))
st.caption(guide_link("studies", lang))  # its guide on the Rules page (docs/studies*.md)
st.caption(t("sw_intro", lang))
can = access.can_write()
if not can:
    access.read_only_note(lang)

listed = study_view.studies()
ids = [int(x) for x in listed["study"]]
labels = {int(r.study): study_view.name_of(str(r.name), int(r.items), lang) for r in listed.itertuples(index=False)}


def _say(kind: str, text: str) -> None:
    """A message for the page's next run (Markdown: what came from a user or a file is escaped)."""
    st.session_state["sw_msg"] = (kind, text)


def _switch(sid: int | None, item: int = 1) -> None:
    if sid is not None:
        st.session_state["study"] = sid
    st.session_state["item"] = item


# ---- writes (callbacks: the page then runs with the new state) ------------------------------

def _create() -> None:
    out, err = study_view.write(S.create, str(st.session_state.get("sw_new") or ""))
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))
        return
    st.session_state["sw_new"] = ""
    _switch(int(out))


def _upload() -> None:
    f = st.session_state.get("sw_file")
    if f is None:
        return
    raw = f.getvalue()
    name = short_name(f.name)
    res, err = study_view.write(S.import_study, raw, label=f"upload/{name}")
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))
        return
    assert res is not None
    g = res.games
    stored, unchanged = (g.stored, g.unchanged) if g is not None else (0, 0)
    if res.status == "stored":
        _say("success", t("sw_imported", lang, name=md_text(res.name), n=res.items, stored=stored, unchanged=unchanged)
             + (" " + t("sw_renamed", lang) if res.renamed else ""))
        _switch(res.study)
    elif res.status == "unchanged":
        _say("info", t("sw_unchanged", lang, name=md_text(res.name)))
        _switch(res.study)
    else:
        _say("error", t("sw_refused", lang, why=md_text(res.error or ""))
             + (" " + t("sw_games_kept", lang, stored=stored) if stored else ""))


def _rename(sid: int) -> None:
    _, err = study_view.write(S.rename, sid, str(st.session_state.get(f"sw_rename_{sid}") or ""))
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))


def _delete(sid: int, name: str) -> None:
    _, err = study_view.write(S.delete, sid)
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))
        return
    _say("success", t("sw_deleted", lang, name=md_text(name)))
    st.session_state.pop("study", None)
    st.session_state["item"] = 1


def _save_note(sid: int, k: int, key: str) -> None:
    _, err = study_view.write(S.set_note, sid, k, str(st.session_state.get(key) or ""))
    _say("error", t("sw_error", lang, why=md_text(err))) if err else _say("success", t("sw_saved", lang))


def _move(sid: int, k: int, to: int) -> None:
    _, err = study_view.write(S.move_item, sid, k, to)
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))
    else:
        st.session_state["item"] = to


def _remove(sid: int, k: int) -> None:
    _, err = study_view.write(S.remove_item, sid, k)
    if err:
        _say("error", t("sw_error", lang, why=md_text(err)))
    else:
        st.session_state["item"] = max(1, k - 1) if k > 1 else 1


def _go(k: int) -> None:
    st.session_state["item"] = k


msg = st.session_state.pop("sw_msg", None)
if msg is not None:
    getattr(st, msg[0])(msg[1])


def _manage(current: S.Study | None) -> None:
    """Create a study, upload a study file; rename or delete the current one (writers only)."""
    if not can:
        return
    with st.expander(t("sw_manage", lang), expanded=not ids, icon=":material/settings:"):
        c = st.columns([3, 1], vertical_alignment="bottom")
        c[0].text_input(t("sw_new_name", lang), max_chars=S.MAX_NAME, key="sw_new")
        c[1].button(t("sw_create", lang), key="sw_create", on_click=_create, icon=":material/add:")
        uploader.localise("sw_file", lang)
        st.file_uploader(t("sw_upload", lang), key="sw_file", on_change=_upload, help=t("sw_upload_help", lang),
                         max_upload_size=max(1, S.MAX_FILE_BYTES // 1_000_000))
        if current is None:
            return
        c = st.columns([3, 1], vertical_alignment="bottom")
        c[0].text_input(t("sw_rename_to", lang), value=current.name, max_chars=S.MAX_NAME,
                        key=f"sw_rename_{current.id}")
        c[1].button(t("sw_rename", lang), key="sw_rename", on_click=_rename, args=(current.id,))
        with st.popover(t("sw_delete", lang), icon=":material/delete:"):
            st.button(t("sw_delete_sure", lang, name=md_plain(current.name), n=len(current.items)), key="sw_delete_yes",
                      type="primary", on_click=_delete, args=(current.id, current.name))


if not ids:
    st.info(t("sw_none" if can else "sw_none_reader", lang))
    _manage(None)
    url_state.keep(study=None, item=None)
    st.stop()

asked = st.query_params.get("study")
if asked is not None and url_state.bounded(asked) is not None and asked not in {str(i) for i in ids}:
    st.warning(t("sw_not_found", lang, study=md_text(asked)))
url_state.seed("study", url_state.one_of(ids))
if st.session_state.get("study") not in ids:
    st.session_state["study"] = ids[0]
sid = int(st.selectbox(t("sw_pick", lang), ids, key="study", format_func=lambda s: labels.get(s, str(s)),
                       on_change=_switch, args=(None,)))
cur = study_view.study(sid)
if cur is None:  # deleted by another session since the list was read
    st.stop()
n = len(cur.items)
url_state.seed("item", url_state.int_in(1, max(n, 1)))
k = st.session_state.get("item")
k = max(1, min(n, k if isinstance(k, int) else 1)) if n else 1
st.session_state["item"] = k
url_state.keep(study=sid, item=k if n else None)

if not n:
    st.info(t("sw_empty", lang))
    _manage(cur)
    st.stop()

it = cur.items[k - 1]
# ---- the walk -------------------------------------------------------------------------------
with st.container(horizontal=True, gap="small", key="sw_nav", vertical_alignment="center"):
    st.button(t("sw_prev", lang), key="sw_prev", icon=":material/chevron_left:", disabled=k <= 1,
              on_click=_go, args=(k - 1,))
    st.markdown(f'<div data-testid="ist-study-item" data-item="{k}" data-game="{esc(it.game)}" '
                f'data-hand="{it.hand}" data-step="{it.step}"><b>{esc(t("sw_item_of", lang, k=k, n=n))}</b></div>',
                unsafe_allow_html=True)
    st.button(t("sw_next", lang), key="sw_next", icon=":material/chevron_right:", disabled=k >= n,
              on_click=_go, args=(k + 1,))

rp = data.replay(it.game)
hr = rp.hand(it.hand) if rp is not None and rp.result.error is None else None
replay_params = {"game": it.game, "hand": str(it.hand), "step": str(it.step), "seat": str(it.seat), "lang": lang}
board, side = st.columns([3.3, 1.4], gap="small")
with board:
    if rp is None or hr is None and rp.result.error is not None:
        st.warning(t("sw_game_missing", lang, game=md_text(it.game)))
    elif hr is None or not 0 <= it.step < len(hr.steps):
        st.warning(t("sw_step_missing", lang, game=md_text(it.game), hand=it.hand, step=it.step))
    else:
        players = rp.players
        step = hr.steps[it.step]
        state = step.state
        who = step.event.get("seat")
        st.markdown(f'<div data-testid="ist-step" data-step="{it.step}">'
                    f'{esc(t("sw_where", lang, game=it.game, hand=it.hand, step=it.step, name=players[it.seat]))}'
                    f' — {esc(players[who]) + ": " if isinstance(who, int) and 0 <= who < 4 else ""}'
                    f'{esc(describe(step.event, players, lang))}</div>', unsafe_allow_html=True)
        before = rp.totals_before(it.hand)
        totals = running_totals(state, before)
        # one player's view: the item's seat sees its own rack, the others as tile backs
        if st.toggle(rt("pov_toggle", lang), key="sw_pov", help=t("sw_pov_help", lang, name=players[it.seat])):
            st.markdown(player_view.board_html(hr.steps, it.step, players, lang, it.seat, totals=totals),
                        unsafe_allow_html=True)
        else:  # as Replay draws it, with the review's marks
            st.markdown(table_html(state, players, lang, totals=totals,
                                   marks=board_marks.replay_marks(it.game, it.hand, it.step)), unsafe_allow_html=True)
        # what the other seats likely hold, read from the studied seat's view
        table_view.replay_section(it.game, it.hand, it.step, it.seat, players, state.okey, lang,
                                  x5=table_view.charges_x5(state.rules), log_view=rp.result.view, key="th_study")
    with st.container(horizontal=True, gap="medium"):
        st.page_link(data.PAGE_REF.get("replay", "views/replay.py"), label=t("sw_open_replay", lang),
                     icon=":material/play_arrow:", query_params=replay_params)
        st.page_link(data.PAGE_REF.get("study", "views/study.py"), label=t("sw_share", lang),
                     icon=":material/link:", query_params={"study": str(sid), "item": str(k), "lang": lang})
with side:
    st.markdown(f"**{esc(t('sw_note', lang))}**")
    with st.container(key="sw_note_text"):
        st.markdown("  \n".join(md_text(x) for x in it.note.splitlines()) if it.note.strip()  # its own lines
                    else f"*{esc(t('sw_no_note', lang))}*")
    if can:
        key = f"sw_note_{sid}_{k}_{zlib.crc32(it.note.encode('utf-8'))}"  # a moved item gets its own box
        st.text_area(t("sw_edit_note", lang), value=it.note, max_chars=S.MAX_NOTE, key=key, height=140)
        st.button(t("sw_save_note", lang), key="sw_save", icon=":material/save:", on_click=_save_note,
                  args=(sid, k, key))
        with st.container(horizontal=True, gap="small"):
            st.button(t("sw_up", lang), key="sw_up", icon=":material/arrow_upward:", disabled=k <= 1,
                      on_click=_move, args=(sid, k, k - 1))
            st.button(t("sw_down", lang), key="sw_down", icon=":material/arrow_downward:", disabled=k >= n,
                      on_click=_move, args=(sid, k, k + 1))
            st.button(t("sw_remove", lang), key="sw_remove", icon=":material/close:", on_click=_remove,
                      args=(sid, k))

# ---- every position, one click to go there -------------------------------------------------
st.subheader(t("sw_positions", lang))
listed = data.games()  # each item's game names its players: the column shows the player, not the seat
seats = dict(zip(listed["game"], listed["players"])) if len(listed) else {}


def _who(game: str, seat: int) -> str:
    names = seats.get(game)
    return str(names[seat]) if names is not None and 0 <= seat < len(names) else f"#{seat}"


rows = pd.DataFrame({
    t("sw_col_k", lang): list(range(1, n + 1)),
    t("sw_col_game", lang): [i.game for i in cur.items],
    t("sw_col_hand", lang): [i.hand for i in cur.items],
    t("sw_col_step", lang): [i.step for i in cur.items],
    t("sw_col_seat", lang): [_who(i.game, i.seat) for i in cur.items],
    t("sw_col_note", lang): [i.note if len(i.note) <= 80 else i.note[:79] + "…" for i in cur.items],
})
sel = st.dataframe(rows, key=f"sw_items_{sid}_{k}",  # a new position: a fresh selection
                   on_select="rerun", selection_mode=["single-row", "single-cell"],
                  hide_index=True)
row = url_state.clicked_row(sel)
if row is not None and row + 1 != k:
    st.session_state["item"] = row + 1
    st.rerun()

gone = study_view.missing_games(cur)
if not gone:
    st.download_button(t("sw_download", lang), lambda: study_view.export_bytes(sid), file_name=S.file_name(cur.name),
                       mime="application/x-ndjson", key="sw_download", icon=":material/download:",
                       help=t("sw_download_help", lang), on_click="ignore")
else:
    st.caption(t("sw_no_download", lang, why=md_text(t("sw_game_missing", lang, game=", ".join(gone[:5])))))
_manage(cur)
