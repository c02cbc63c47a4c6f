"""Players: per player and variant, cumulative totals hand by hand and over dates, per-game
totals and ranks, opening values against the threshold, finish kinds, penalties by rule, and a
table of per-player statistics."""

from __future__ import annotations

import streamlit as st

from dashboard.board import charts
from dashboard.state import data, url_state
from dashboard.words.i18n import t
from dashboard.words.rule_links import guide_link, legend
from dashboard.words.sheet_strings import t as sh_t

lang = data.lang()
st.title(t("players_title", lang))
st.caption(guide_link("players", lang))  # its guide on the Rules page (docs/players*.md)

ch = data.choices()
if not ch["variants"]:
    st.info(t("no_data", lang))
    st.stop()
c1, c2 = st.columns([1, 4])
variants = ch["variants"]
url_state.seed("p_variant", url_state.one_of(variants))
if st.session_state.get("p_variant") not in variants:
    st.session_state.p_variant = "101" if "101" in variants else variants[0]
variant = c1.selectbox(t("filter_variant", lang), variants, key="p_variant")
url_state.seed("p_source", url_state.one_of(["sheets", "recorded"]))  # score sheets beside recorded games
source = c1.segmented_control(sh_t("src_label", lang), ["sheets", "recorded"], key="p_source",
                              format_func=lambda s: sh_t(f"src_{s}", lang), help=sh_t("src_help", lang))
frames = data.player_frames(variant, source)
scores = frames["player_hand_scores"]
names = sorted(scores["player"].unique().tolist()) if len(scores) else []
default = (scores.groupby("player").size().sort_values(ascending=False).index[:4].tolist()
           if len(scores) else [])
url_state.seed("p_players", lambda raw: [x for x in raw if x in names] or None, multi=True)
if "p_players" not in st.session_state:
    st.session_state.p_players = sorted(default)
st.session_state.p_players = [x for x in st.session_state.p_players if x in names]
chosen = c2.multiselect(t("players_pick", lang), names, key="p_players", placeholder=t("players_placeholder", lang))
url_state.keep(p_variant=variant, p_players=list(chosen), p_source=source)
st.caption(t("games_lower_better", lang))
if not chosen:
    st.info(t("no_data", lang))
    st.stop()

figs = charts.player_figures(data.version(), data.db_file(), variant, tuple(sorted(chosen)), lang, source)
a, b = st.columns(2)
charts.draw(a, figs["cumulative"], "ch_cumulative", lang)
charts.draw(b, figs["over_dates"], "ch_over_dates", lang)
a, b = st.columns(2)
charts.draw(a, figs["game_totals"], "ch_game_totals", lang)
charts.draw(b, figs["ranks"], "ch_ranks", lang)
a, b, c = st.columns(3)
charts.draw(a, figs["openings"], "ch_openings", lang)
charts.draw(b, figs["finishes"], "ch_finishes", lang)
charts.draw(c, figs["penalties"], "ch_penalties", lang)
if _rules := legend([tr.name for tr in figs["penalties"].data], lang):
    c.caption(_rules)  # the chart's rule IDs named, each linked to its rule on the Rules page

from dashboard.board import review_charts# noqa: E402  (the move review: accuracy and mistake trends)

review_charts.show(variant, chosen, lang)

st.subheader(t("stats_table", lang))
stats = frames["player_stats"]
mine = stats[stats["player"].isin(chosen)].round(1)
st.dataframe(mine.rename(columns={c: t(f"stat_{c}", lang) for c in mine.columns}), hide_index=True, key="stats")
