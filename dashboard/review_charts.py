"""The Players page's move-review section: agreement with the best move and cost per hand per
game over dates, and mistakes by category (from ``istaka analyze``'s annotations)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import streamlit as st

from . import review_data as rv
from .charts import PALETTE, _layout
from .tiles_view import esc


def figures(variant: str | None, players: Sequence[str], lang: str) -> dict[str, go.Figure] | None:
    frames = rv.player_frames(variant)
    trend, cats = frames["trend"], frames["categories"]
    trend = trend[trend["player"].isin(players)]
    cats = cats[cats["player"].isin(players)]
    if not len(trend):
        return None
    t = rv.t
    out = {}
    for key, col, title in (("agreement", "agreement", "chart_agreement"), ("cost", "cost_per_hand", "chart_cost")):
        fig = go.Figure()
        for i, (name, df) in enumerate(trend.groupby("player", sort=True)):
            x = df["started"] if df["started"].notna().all() else list(range(1, len(df) + 1))
            fig.add_trace(go.Scatter(x=x, y=df[col], mode="lines+markers", name=esc(name),
                                     line={"color": PALETTE[i % len(PALETTE)]}, text=df["game"].map(esc)))
        out[key] = _layout(fig, t(title, lang), "", "%" if key == "agreement" else "")
    fig = go.Figure()
    for i, (name, df) in enumerate(cats.groupby("player", sort=True)):
        per_game = df["mistakes"] / df["games"].clip(lower=1)
        fig.add_trace(go.Bar(x=[rv.category(c, lang) for c in df["category"]], y=per_game, name=esc(name),
                             marker_color=PALETTE[i % len(PALETTE)]))
    fig.update_layout(barmode="group")
    out["categories"] = _layout(fig, t("chart_categories", lang), "", "/ game")
    return out


def show(variant: str | None, players: Sequence[str], lang: str) -> None:
    """Draw the section (a note when nothing is annotated yet)."""
    st.subheader(rv.t("trends", lang))
    figs = figures(variant, players, lang)
    if figs is None:
        st.caption(rv.t("no_review", lang))
        return
    a, b, c = st.columns(3)
    a.plotly_chart(figs["agreement"], key="ch_rv_agreement")
    b.plotly_chart(figs["cost"], key="ch_rv_cost")
    c.plotly_chart(figs["categories"], key="ch_rv_categories")
