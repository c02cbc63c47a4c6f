"""The Players page's move-review section: agreement with the best move and cost per hand per
game over dates, mistakes by category, and the bad-move rates (% of graded decisions costing
more than 10 / 30 / 100 points) (from ``istaka analyze``'s annotations)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.words import pricing_words as pw
from dashboard.state import review_data as rv
from dashboard.board.charts import PALETTE, _layout, draw, player_colours
from dashboard.words.i18n import t as tm
from dashboard.words.rule_links import legend
from dashboard.board.tiles_view import esc


def figures(variant: str | None, players: Sequence[str], lang: str) -> dict[str, go.Figure] | None:
    frames = rv.player_frames(variant)
    trend, cats = frames["trend"], frames["categories"]
    trend = trend[trend["player"].isin(players)]
    cats = cats[cats["player"].isin(players)]
    if not len(trend):
        return None
    t = rv.t
    out = {}
    colour = player_colours()
    for key, col, title in (("agreement", "agreement", "chart_agreement"), ("cost", "cost_per_hand", "chart_cost")):
        fig = go.Figure()
        dated = bool(trend["started"].notna().all())
        for i, (name, df) in enumerate(trend.groupby("player", sort=True)):
            x = df["started"] if dated else list(range(1, len(df) + 1))
            fig.add_trace(go.Scatter(x=x, y=df[col], mode="lines+markers", name=esc(name),
                                     line={"color": colour.get(name, PALETTE[i % len(PALETTE)])},
                                     text=df["game"].map(esc)))
        out[key] = _layout(fig, t(title, lang), tm("axis_date" if dated else "axis_game", lang),
                           "%" if key == "agreement" else t("axis_cost", lang), dates=dated)
    fig = go.Figure()
    for i, (name, df) in enumerate(cats.groupby("player", sort=True)):
        per_game = df["mistakes"] / df["games"].clip(lower=1)
        fig.add_trace(go.Bar(y=[rv.category(c, lang) for c in df["category"]], x=per_game, name=esc(name),
                             orientation="h", marker_color=colour.get(name, PALETTE[i % len(PALETTE)])))
    fig.update_layout(barmode="group")  # horizontal bars: the kinds' names are read, not stacked on each other
    out["categories"] = _layout(fig, t("chart_categories", lang), t("axis_per_game", lang), "")
    out["rates"] = rates_figure(frames["rates"], players, lang)
    out["categories"].update_layout(height=max(340, 90 + 30 * len(set(cats["category"]))), yaxis={"automargin": True})
    return out


def rates_figure(rates: pd.DataFrame, players: Sequence[str], lang: str) -> go.Figure:
    """Per player, the bad-move rate: % of its graded decisions costing more than 10 / 30 / 100
    points, one bar per threshold."""
    from analysis.store.review_rates import RATE_OVER, overall

    mine = overall(rates[rates["player"].isin(players)]) if len(rates) else {}
    colour = player_colours()
    fig = go.Figure()
    for i, (name, by) in enumerate(mine.items()):
        fig.add_trace(go.Bar(x=[pw.t("pw_rate_name", lang, x=n) for n in RATE_OVER], y=[by[n] for n in RATE_OVER],
                             name=esc(name), marker_color=colour.get(name, PALETTE[i % len(PALETTE)])))
    fig.update_layout(barmode="group")
    return _layout(fig, pw.t("pw_chart_rates", lang), "", pw.t("pw_axis_rate", lang))


def show(variant: str | None, players: Sequence[str], lang: str) -> None:
    """Draw the section (a note when nothing is annotated yet)."""
    st.subheader(rv.t("trends", lang))
    figs = figures(variant, players, lang)
    if figs is None:
        st.caption(rv.t("no_review", lang))
        rv.analyze_buttons(lang, key="pl")
        return
    a, b = st.columns(2)
    draw(a, figs["agreement"], "ch_rv_agreement", lang)
    draw(b, figs["cost"], "ch_rv_cost", lang)
    draw(st, figs["categories"], "ch_rv_categories", lang)
    draw(st, figs["rates"], "ch_rv_rates", lang)
    if cites := legend([y for tr in figs["categories"].data for y in (tr.y if tr.y is not None else ())], lang):
        st.caption(cites)  # the categories' rule IDs, named and linked to the Rules page
