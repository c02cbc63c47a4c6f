"""The luck and skill of one seat's hand (:mod:`analysis.review.luck`) in Replay and Review: a
Plotly waterfall from the deal's expected score through each chance event's luck and each
decision's cost to the actual score, with the estimation noise as a bar of its own, and a small
table of the parts. Computed only when asked (a button inside a fragment: the page never waits for
it), then drawn from the cache."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analysis.review.luck import HandSplit

from dashboard.board.charts import draw
from dashboard.board.tiles_view import esc, md_text
from dashboard.state import luck_data
from dashboard.words.luck_words import points, t

BAD = "#d0281f"  # a part that raised the score (lower is better)
GOOD = "#2e9d44"
TOTAL = "#1560bd"


def _num(x: float, lang: str) -> str:
    s = f"{x:.1f}"
    return s.replace(".", ",") if lang == "tr" else s


def bars(sp: HandSplit, lang: str) -> list[dict[str, Any]]:
    """The waterfall's bars in play order: the deal, then each luck event and each costed decision
    by step (a decision that cost nothing is left out), the noise, and the actual score."""
    out: list[dict[str, Any]] = [{"label": t("lk_deal", lang), "measure": "absolute", "y": sp.deal,
                                  "hover": t("lk_row_deal", lang)}]
    items: list[tuple[int, int, dict[str, Any]]] = []
    for i, e in enumerate(sp.luck):
        if e.kind == "draw":
            label = t("lk_draw", lang, tile=e.tile) if e.tile else t("lk_draw_any", lang)
        else:
            label = t("lk_play" if e.kind == "play" else "lk_end", lang)
        hover = t("lk_hover_luck", lang, p=points(e.points, lang), e=_num(e.expected, lang), o=_num(e.observed, lang))
        items.append((e.step, 0 if e.kind != "end" else 2, {"label": label, "measure": "relative", "y": e.points,
                                                            "hover": hover, "kind": "luck"}))
    for d in sp.decisions:
        if d.points <= 0:
            continue
        hover = t("lk_hover_cost", lang, p=points(d.points, lang), played=d.played, best=d.best)
        items.append((d.step, 1, {"label": t("lk_cost", lang, move=d.played), "measure": "relative", "y": d.points,
                                  "hover": hover, "kind": "cost"}))
    items.sort(key=lambda x: (x[0], x[1]))
    out += [x[2] for x in items]
    out.append({"label": t("lk_noise", lang), "measure": "relative", "y": sp.noise,
                "hover": t("lk_hover_noise", lang, p=points(sp.noise, lang)), "kind": "noise"})
    out.append({"label": t("lk_actual", lang), "measure": "total", "y": sp.actual, "hover": t("lk_row_actual", lang)})
    return out


def figure(sp: HandSplit, name: str, lang: str) -> go.Figure:
    bs = bars(sp, lang)
    # plotly draws equal category labels as one bar: number them where they repeat
    seen: dict[str, int] = {}
    xs = []
    for b in bs:
        n = seen.get(b["label"], 0) + 1
        seen[b["label"]] = n
        xs.append(esc(b["label"]) + ("" if n == 1 else f" ({n})"))
    fig = go.Figure(go.Waterfall(
        x=xs, y=[round(b["y"], 2) for b in bs], measure=[b["measure"] for b in bs],
        customdata=[esc(b["hover"]) for b in bs], hovertemplate="%{x}<br>%{customdata}<extra></extra>",
        increasing={"marker": {"color": BAD}}, decreasing={"marker": {"color": GOOD}},
        totals={"marker": {"color": TOTAL}}, connector={"line": {"color": "#999", "width": 1}}))
    fig.update_layout(title=esc(t("lk_chart_title", lang, name=name)), height=360, showlegend=False,
                      margin={"l": 40, "r": 10, "t": 40, "b": 90}, yaxis_title=esc(t("lk_axis", lang)))
    fig.update_xaxes(tickangle=-45)
    return fig


def table(sp: HandSplit, lang: str) -> pd.DataFrame:
    rows = [(t("lk_row_deal", lang), sp.deal),
            (t("lk_row_deal_luck", lang, b=_num(sp.baseline, lang)), sp.deal_luck),
            (t("lk_row_luck", lang), sum(e.points for e in sp.luck)),
            (t("lk_row_cost", lang), sp.cost),
            (t("lk_row_noise", lang), sp.noise),
            (t("lk_row_actual", lang), sp.actual),
            (t("lk_row_adjusted", lang), sp.adjusted)]
    return pd.DataFrame({t("lk_col_part", lang): [r[0] for r in rows],
                         t("lk_col_points", lang): [round(r[1], 1) for r in rows]})


@st.fragment
def section(game: str, index: int, seat: int, players: Sequence[str], lang: str, key: str) -> None:
    """The waterfall of hand ``index`` (0-based) for ``seat``: a button until asked, then the chart
    and its table (cached: drawn at once on the next visit)."""
    name = players[seat] if seat < len(players) else f"#{seat}"
    st.markdown(f"**{md_text(t('lk_title', lang))}** · {md_text(name)}")
    why = luck_data.why_not(game, index, seat)
    if why == "hidden":
        st.caption(md_text(t("lk_hidden", lang, name=name)))
        return
    if why is not None:
        st.caption(t("lk_not_ended", lang))
        return
    if not luck_data.done(game, index, seat):
        if not st.button(t("lk_button", lang), key=f"{key}_go_{index}_{seat}", help=t("lk_button_help", lang),
                         icon=":material/waterfall_chart:"):
            return
        luck_data.ask(game, index, seat)
    with st.spinner(t("lk_working", lang, name=name)):
        sp = luck_data.split(game, index, seat)
    if isinstance(sp, str):
        st.caption(t("lk_hidden" if sp == "hidden" else "lk_not_ended", lang, name=name))
        return
    draw(st, figure(sp, name, lang), f"{key}_chart_{index}_{seat}", lang)
    st.dataframe(table(sp, lang), hide_index=True, key=f"{key}_table_{index}_{seat}")
    st.caption(t("lk_about", lang))


__all__ = ["bars", "figure", "section", "table"]


def review_section(game: str, lang: str, hand: int | None = None, seat: int | None = None) -> None:
    """Review's place for the waterfall: a hand (``hand``: the page's pick, else the first) and a
    seat to split (a seat-view log: its viewer only), in an expander."""
    from dashboard.state import data

    rp = data.replay(game)
    if rp is None or not rp.result.hands:
        return
    numbers = [h.hand for h in rp.result.hands]
    viewer = rp.result.view
    with st.expander(t("lk_title", lang)):
        cols = st.columns(2)
        n = hand if hand in numbers else numbers[0]
        if hand not in numbers:
            n = cols[0].selectbox(t("lk_hand", lang), numbers, key="lk_rv_hand")
        seats = [viewer] if viewer is not None else [0, 1, 2, 3]
        s = cols[1].selectbox(t("lk_seat", lang), seats, key="lk_rv_seat",
                              index=seats.index(seat) if seat in seats else 0,
                              format_func=lambda k: f"{k}: {rp.players[k]}" if k < len(rp.players) else str(k))
        section(game, rp.hand_index(int(n)), int(s), rp.players, lang, key="lk_review")
