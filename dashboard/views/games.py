"""Games: the imported games with filters and counts, upload of logs, the import errors, and
one click from a game to its replay."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from analysis.store.queries import GAME_RESULTS
from dashboard import data, uploads
from dashboard.i18n import t

lang = data.lang()
st.title(t("games_title", lang))

ch = data.choices()
ALL = t("all", lang)
f = st.columns([1.3, 1, 1, 1, 1.6])
player = f[0].selectbox(t("filter_player", lang), [ALL] + ch["players"], key="f_player", bind="query-params")
variant = f[1].selectbox(t("filter_variant", lang), [ALL] + ch["variants"], key="f_variant", bind="query-params")
site = f[2].selectbox(t("filter_site", lang), [ALL] + ch["sites"], key="f_site", bind="query-params")
results = [r for r in GAME_RESULTS if r not in ("won", "lost") or player != ALL]
result = f[3].selectbox(t("filter_result", lang), [ALL] + results, key="f_result")
dates = f[4].date_input(t("filter_dates", lang), value=(), key="f_dates")

kw: dict[str, object] = {}
if player != ALL:
    kw["player"] = player
if variant != ALL:
    kw["variant"] = variant
if site != ALL:
    kw["site"] = site
if result != ALL:
    kw["result"] = result
if isinstance(dates, (tuple, list)) and len(dates) >= 1:
    kw["date_from"] = dates[0].isoformat()
    kw["date_to"] = (dates[1] if len(dates) > 1 else dates[0]).isoformat()
elif isinstance(dates, dt.date):
    kw["date_from"] = kw["date_to"] = dates.isoformat()

df = data.games(**kw)
total = len(data.games())
st.markdown(f"**{t('games_count', lang, n=len(df), total=total)}**")

if len(df):
    view = pd.DataFrame({
        t("col_game", lang): df["game"],
        t("col_date", lang): df["started"],
        t("col_variant", lang): df["variant"],
        t("col_site", lang): df["site"],
        t("col_players", lang): [", ".join(map(str, p)) if p is not None else "" for p in df["players"]],
        t("col_hands", lang): df["hands"],
        t("col_valid", lang): df["valid"],
        t("col_totals", lang): [" ".join(str(x) for x in v) if v is not None else "" for v in df["totals"]],
        t("col_winner", lang): df["winner"],
        "▶": [f"replay?game={g}" for g in df["game"]],
    })
    st.caption(t("replay_game", lang) + ": ▶ / " + t("col_game", lang))
    pick = st.dataframe(view, key="games_table", on_select="rerun", selection_mode="single-row", hide_index=True,
                        column_config={"▶": st.column_config.LinkColumn("▶", display_text="▶")})
    rows = pick.selection.rows if pick is not None else []
    if rows:
        gid = str(df["game"].iloc[rows[0]])
        for k in ("hand", "step"):
            st.session_state.pop(k, None)
        st.switch_page(data.PAGE_REF.get("replay", "views/replay.py"), query_params={"game": gid})
else:
    st.info(t("no_games", lang))

st.divider()
files = st.file_uploader(t("upload", lang), type=["jsonl", "gz"], accept_multiple_files=True, key="upload")
if files:
    for msg in uploads.import_uploaded(files, lang):
        getattr(st, msg.level)(msg.text)
    outcome = st.session_state.get("_last_import")
    if outcome:
        st.subheader(t("import_summary", lang))
        st.json(outcome["summary"])
        if len(outcome["errors"]):
            st.dataframe(outcome["errors"], hide_index=True)

st.subheader(t("import_errors", lang))
errs = data.import_errors()
if len(errs):
    st.dataframe(errs, hide_index=True)
else:
    st.caption(t("no_import_errors", lang))
