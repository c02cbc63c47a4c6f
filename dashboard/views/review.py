"""Review: one game's annotations (``istaka analyze``): per player agreement and cost, the
mistakes worst first with severity colours, one click to the step in the Replay page, and the
shareable HTML report."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.board import deep_view, loss_graph, luck_view, moments_view, notes_view, winprob_view
from dashboard.state import data, url_state
from dashboard.state import review_data as rv
from dashboard.words.i18n import t as tm
from dashboard.words.rule_links import guide_link, link_rules_html
from dashboard.words.winprob_words import t as wt
from dashboard.board.tiles_view import esc

lang = data.lang()
tr = rv.t
st.title(tr("review_title", lang))
st.caption(guide_link("reviewing", lang))  # its guide on the Rules page (docs/reviewing*.md)
rv.analyze_message()

ids = list(data.game_ids())
if not ids:
    st.info(tm("no_games", lang))
    st.stop()

top = st.columns([3, 1, 1])
url_state.seed("game", url_state.one_of(ids))
game = str(top[0].selectbox(tm("pick_game", lang), ids, key="game"))
info = rv.game(game)


def _chance() -> None:
    """Each player's chance to win, hand by hand."""
    rp = data.replay(game)
    if rp is not None and rp.result.hands:
        st.subheader(wt("wp_title", lang))
        winprob_view.section(rp.result, rp.players, lang, key="wp_review")


if not rv.analyzed(game):
    url_state.keep(game=game)
    st.info(tr("not_analyzed", lang))
    rv.analyze_buttons(lang, game)
    deep_view.review_section(game, lang)  # or the deep pass at once
    _chance()  # from the scores alone: no review needed
    luck_view.review_section(game, lang)  # a hand's score split into luck and skill, when asked
    notes_view.review_list(game, lang)  # the coach's notes, each opening its Replay step
    st.stop()

seats = info["seats"]
_rp = data.replay(game)
names = _rp.players if _rp is not None else [f"#{i}" for i in range(4)]
moments_view.section(game, names, lang)  # the page opens on each player's costliest decisions
st.subheader(tr("seats", lang))
st.dataframe(pd.DataFrame({
    "#": seats["seat"], tm("col_player", lang): seats["player"], tr("col_decisions", lang): seats["decisions"],
    tr("col_agreement", lang): seats["agreement"].round(1), tr("col_cost", lang): seats["cost"],
    tr("col_cost_hand", lang): seats["cost_per_hand"].round(1), tr("col_mistakes", lang): seats["mistakes"],
}), hide_index=True, key="rv_seats")

ms = info["mistakes"]
hands = sorted({int(h) for h in ms["hand"]}) if len(ms) else []
url_state.seed("rv_hand", url_state.one_of([0] + hands))
pick = top[1].selectbox(tm("hand", lang), [0] + hands, key="rv_hand",
                        format_func=lambda h: tr("all_hands", lang) if h == 0 else str(h))
floor = deep_view.min_cost_filter(top[2], lang)  # only mistakes over N points
url_state.keep(game=game, rv_hand=pick or None)
if pick:
    ms = ms[ms["hand"] == pick]
if floor:
    ms = ms[ms["cost"] > floor]
ms = ms.reset_index(drop=True)
loss_graph.review_chart(game, names, lang, pick or None)  # a click opens the Replay there
_chance()
luck_view.review_section(game, lang, pick or None)  # a hand's score split into luck and skill, when asked

st.subheader(tr("mistakes", lang))
st.caption(tr("legend", lang) + " — " + tr("cost_scale", lang))  # docs/calibration.md: costs against real play
if not len(ms):
    st.caption(tr("no_mistakes", lang))
else:
    view = pd.DataFrame({
        tr("col_severity", lang): [f"{rv.SEV_ICON[s]} {rv.severity(s, lang)}" for s in ms["severity"]],
        tm("hand", lang): ms["hand"],
        tm("col_player", lang): ms["player"],
        tr("col_category", lang): [rv.category(c, lang) for c in ms["category"]],
        tr("col_cost", lang): ms["cost"],
        tr("col_step", lang): ms["step"],
        "▶": [url_state.link("replay", game=game, hand=int(h), step=int(s))
              for h, s in zip(ms["hand"], ms["step"])],
    })
    sel = st.dataframe(view, key="rv_mistakes", on_select="rerun", selection_mode=["single-row", "single-cell"],
                       hide_index=True,
                       column_config={"▶": st.column_config.LinkColumn("▶", display_text="▶"),
                                      tr("col_cost", lang): st.column_config.ProgressColumn(
                           tr("col_cost", lang), format="%d", min_value=0,
                           max_value=int(max(ms["cost"].max(), 1)))})
    row = url_state.clicked_row(sel)
    if row is not None:  # a click anywhere in a row opens the Replay at that step
        r = ms.iloc[row]
        url_state.goto("replay", game=game, hand=int(r["hand"]), step=int(r["step"]), seat=int(r["seat"]))
    cats = sorted(set(ms["category"]))
    st.markdown("".join(
        f'<div><span style="color:{rv.SEV_COLOUR["mistake"]}">■</span> '
        f'<b>{link_rules_html(esc(rv.category(c, lang)), lang)}</b>: '
        f'{link_rules_html(esc(rv.definition(c, lang)), lang)}</div>' for c in cats), unsafe_allow_html=True)

st.download_button(tr("report", lang), rv.report_html(game, lang, floor),
                   file_name=f"istaka-review-{game}.html", mime="text/html", key="rv_report")
notes_view.review_list(game, lang)  # the coach's notes, each opening its Replay step
deep_view.review_section(game, lang, pick or None, floor)  # every decision in expected points
