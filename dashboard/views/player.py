"""Player: a coach's page for one player, or two side by side, filtered by preset, source
(played, recorded, score sheet, self-play) and days: the skill line (where the luck split is
installed), the mistakes by kind with a link to practise each, their trend over weeks or games,
and the style beside the expert's on the same preset, with 95% intervals."""

from __future__ import annotations

import datetime as dt

import streamlit as st

from analysis.store.style import SOURCES

from dashboard.board import charts, profile_view
from dashboard.state import data, profile_data, url_state
from dashboard.words.profile_words import t
from dashboard.words.rule_links import guide_link
from dashboard.words.text import md_text

lang = data.lang()
st.title(t("pp_title", lang))
st.caption(guide_link("players", lang))  # the page's guide: docs/players*.md on the Rules page
st.caption(t("pp_intro", lang))

ch = data.choices()
names, variants = list(ch["players"]), list(ch["variants"])
if not names or not variants:
    st.info(t("pp_kinds_none", lang, name="–"))
    st.stop()


def _day(raw: object) -> dt.date | None:
    return dt.date.fromisoformat(str(raw))


url_state.seed("pp_player", url_state.one_of(names))
st.session_state.setdefault("pp_player", names[0])
url_state.seed("pp_other", url_state.one_of(["", *names]))
url_state.seed("pp_variant", url_state.one_of(variants))
if st.session_state.get("pp_variant") not in variants:
    st.session_state.pp_variant = "101" if "101" in variants else variants[0]
url_state.seed("pp_sources", lambda raw: [x for x in raw if x in SOURCES] or None, multi=True)
st.session_state.setdefault("pp_sources", list(SOURCES))
url_state.seed("pp_from", _day)
url_state.seed("pp_to", _day)

a, b = st.columns(2)
player = a.selectbox(t("pp_player", lang), names, key="pp_player")
other = b.selectbox(t("pp_other", lang), ["", *[n for n in names if n != player]], key="pp_other",
                    format_func=lambda x: x or t("pp_none", lang))
a, b = st.columns(2)
variant = a.selectbox(t("pp_variant", lang), variants, key="pp_variant")
sources = b.pills(t("pp_sources", lang), list(SOURCES), selection_mode="multi", key="pp_sources",
                  format_func=lambda s: t(f"pp_src_{s}", lang))
a, b = st.columns(2)
date_from = a.date_input(t("pp_from", lang), value=None, key="pp_from", format="DD.MM.YYYY")
date_to = b.date_input(t("pp_to", lang), value=None, key="pp_to", format="DD.MM.YYYY")
url_state.keep(pp_player=player, pp_other=other or None, pp_variant=variant, pp_sources=list(sources),
               pp_from=date_from.isoformat() if date_from else None, pp_to=date_to.isoformat() if date_to else None)

players = [player] + ([other] if other and other != player else [])
filters = (players, variant, list(sources), date_from, date_to)
st.html(profile_view.CSS)

# ---- the skill line (the luck split, where installed) -------------------------------------------
if profile_data.has_skill_line():
    from dashboard.board import skill_view  # noqa: PLC0415  (drawn only where the luck split is)

    st.subheader(t("pp_skill_title", lang))
    skill_view.draw(players, variant, list(sources), date_from, date_to, lang)

# ---- mistakes by kind ---------------------------------------------------------------------------
st.subheader(t("pp_kinds_title", lang))
st.caption(t("pp_kinds_help", lang))
kinds = profile_data.kinds(*filters)
cols = st.columns(len(players))
for col, who in zip(cols, players):
    mine = kinds[kinds.player == who]
    with col:
        if not len(mine):
            st.info(md_text(t("pp_kinds_none", lang, name=who)))
            continue
        hands = int(mine.hands.iloc[0])
        st.markdown(md_text(t("pp_kinds_total", lang, name=who, n=hands, c=round(float(mine.cost.sum()) / hands, 1))))
        st.markdown(profile_view.kinds_html(kinds, who, lang), unsafe_allow_html=True)

if len(kinds):
    st.subheader(t("pp_trend_title", lang))
    url_state.seed("pp_by", url_state.one_of(["week", "game"]))
    by = st.segmented_control(t("pp_trend_title", lang), ["week", "game"], key="pp_by", required=True,
                              default="week", label_visibility="collapsed",
                              format_func=lambda x: t(f"pp_by_{x}", lang)) or "week"
    url_state.keep(pp_by=by)
    trend = profile_data.trend(*filters, by=by)
    cols = st.columns(len(players))
    for col, who in zip(cols, players):
        if who not in set(kinds.player):
            continue
        if not len(trend[trend.player == who]):
            col.caption(t("pp_trend_none", lang))
            continue
        if len(players) > 1:
            col.markdown(f"**{md_text(who)}**")
        charts.draw(col, profile_view.trend_figure(trend, who, lang, by), f"pp_trend_{players.index(who)}", lang)

# ---- style beside the expert --------------------------------------------------------------------
st.subheader(t("pp_style_title", lang))
st.caption(t("pp_style_help", lang))
table = profile_data.style_table(*filters)
for who in players:
    if not len(table[(table.who == who)]):
        st.info(md_text(t("pp_no_hands", lang, name=who)))
st.markdown(profile_view.style_html(table, players, lang), unsafe_allow_html=True)
exp = table[(table.who == "expert") & (table.metric == "opening_rate")]
if not len(exp):
    st.caption(t("pp_expert_missing", lang))
elif exp.source.iloc[0] == "reference":
    meta = profile_data.reference_meta()
    st.caption(t("pp_expert_reference", lang, n=int(exp.n.iloc[0]), date=str(meta.get("date", ""))))
else:
    st.caption(t("pp_expert_store", lang, n=int(exp.n.iloc[0])))
