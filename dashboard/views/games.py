"""Games: the imported games with filters and counts, upload of logs, the import errors, and
one click from a game to its replay. The filters live in the URL (a shareable list)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from analysis.store.queries import GAME_RESULTS
from dashboard.board import game_rules, uploader
from dashboard.state import access, data, uploads, url_state
from dashboard.words.i18n import fmt_date, md_plain, t
from dashboard.words.rule_links import guide_link
from dashboard.words.sheet_strings import t as sh_t

lang = data.lang()
st.title(t("games_title", lang))
st.caption(guide_link("import", lang))  # its guide on the Rules page (docs/import*.md)
st.caption(t("games_lower_better", lang))

ch = data.choices()
f = st.columns([1.3, 1, 1, 1, 2.4])  # the two dates side by side, each wide enough for gg.aa.yyyy


def _all(x: object) -> str:
    return t("all", lang) if x is None else str(x)


def _filter(col: st.delta_generator.DeltaGenerator, key: str, label: str, options: list[object],
            fmt=_all) -> object:  # type: ignore[no-untyped-def]
    """A select box whose first option (None) means every value; its choice kept in the URL."""
    opts = [None] + list(options)
    url_state.seed(key, url_state.one_of(options))
    if st.session_state.get(key) not in opts:
        st.session_state[key] = None
    return col.selectbox(label, opts, key=key, format_func=fmt)


player = _filter(f[0], "f_player", t("filter_player", lang), ch["players"])
variant = _filter(f[1], "f_variant", t("filter_variant", lang), ch["variants"])
site = _filter(f[2], "f_site", t("filter_site", lang), ch["sites"])
results = [r for r in GAME_RESULTS if r not in ("won", "lost") or player is not None]
result = _filter(f[3], "f_result", t("filter_result", lang), results,
                 lambda r: t("all", lang) if r is None else t(f"result_{r}_f", lang))


def _day(raw: object) -> dt.date | None:
    return dt.date.fromisoformat(str(raw))


d1, d2 = f[4].columns(2)
url_state.seed("f_from", _day)
url_state.seed("f_to", _day)
day_from = d1.date_input(t("filter_from", lang), value=None, key="f_from", format="DD.MM.YYYY")
day_to = d2.date_input(t("filter_to", lang), value=None, key="f_to", format="DD.MM.YYYY")
url_state.keep(f_player=player, f_variant=variant, f_site=site, f_result=result,
               f_from=day_from.isoformat() if day_from else None, f_to=day_to.isoformat() if day_to else None)

kw: dict[str, object] = {"player": player, "variant": variant, "site": site, "result": result,
                         "date_from": day_from.isoformat() if day_from else None,
                         "date_to": day_to.isoformat() if day_to else None}

df = data.games(**kw)
total = len(data.games())
st.markdown(f"**{t('games_count', lang, n=len(df), total=total)}**")

if len(df):
    view = pd.DataFrame({
        t("col_game", lang): df["game"],
        t("col_date", lang): [fmt_date(x, lang) for x in df["started"]],
        **game_rules.rules_column(df, lang),  # the preset and the log's overrides
        t("col_site", lang): df["site"],
        t("col_players", lang): [", ".join(map(str, p)) if p is not None else "" for p in df["players"]],
        t("col_hands", lang): df["hands"],
        t("col_valid", lang): df["valid"],
        t("col_totals", lang): [" ".join(str(x) for x in v) if v is not None else "" for v in df["totals"]],
        **game_rules.teams_column(df, lang),  # eşli games: 0+2 · 1+3
        t("col_winner", lang): df["winner"],
        sh_t("src_col", lang): [sh_t("src_is_sheet" if s else "src_is_log", lang) for s in df["sheet"]],
        "▶": [url_state.link("sheet", sheet=g) if s else url_state.link("replay", game=g)  # a sheet has no moves
              for g, s in zip(df["game"], df["sheet"])],
    })
    st.caption(t("games_click", lang))
    pick = st.dataframe(view, key="games_table", on_select="rerun", selection_mode=["single-row", "single-cell"],
                        hide_index=True, column_config={"▶": st.column_config.LinkColumn("▶", display_text="▶")})
    row = url_state.clicked_row(pick)
    if row is not None and bool(df["sheet"].iloc[row]):  # a score sheet opens on its own page
        st.switch_page(data.PAGE_REF.get("sheet", "views/sheet.py"),
                       query_params={"sheet": str(df["game"].iloc[row]), "lang": lang})
    elif row is not None:
        url_state.goto("replay", game=str(df["game"].iloc[row]), hand=None, step=0)
else:
    st.info(t("no_games", lang))

st.divider()
if access.can_write():
    uploader.localise("upload", lang)  # Streamlit's own English words on the drop zone, replaced
    # imported in the callback, before this page runs again: the counts above are then already fresh
    files = st.file_uploader(t("upload", lang), type=["jsonl", "gz"], accept_multiple_files=True, key="upload",
                             on_change=uploads.on_upload, args=(lang,))
    st.caption(uploads.limits_hint(lang))
    if files:
        for msg in st.session_state.get("_upload_msgs", []):
            getattr(st, msg.level)(msg.text)
        outcome = st.session_state.get("_last_import")
        if outcome:
            st.subheader(t("import_summary", lang))
            new = st.session_state.get("_new_games") or []
            if new:  # the uploaded games, linked (the list above is by date, so they may be far down)
                st.markdown(t("new_games", lang, n=len(new)) + " " + ", ".join(
                    f"[{md_plain(g)}]({url_state.link('replay', game=g)})" for g in new[:20]))
            st.dataframe(uploads.summary_frame(outcome["summary"], lang), hide_index=True, key="import_summary")
            if len(outcome["errors"]):  # whole sentences, wrapped: a table cell would cut them
                with st.container(key="upload_errors"):
                    st.markdown("\n".join(f"- {x}" for x in uploads.error_lines(outcome["errors"], lang)))
else:
    access.read_only_note(lang)

st.subheader(t("import_errors", lang))
errs = data.import_errors()
if len(errs):
    st.dataframe(uploads.errors_frame(errs, lang), hide_index=True, key="import_errors",
                 column_config=uploads.errors_config(lang))
else:
    st.caption(t("no_import_errors", lang))
