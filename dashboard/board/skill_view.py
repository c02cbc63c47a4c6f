"""The Player page's skill line: per player, the luck-adjusted points a hand with its 95% interval
beside the raw points (:func:`analysis.review.luck.skill_summary`), and the running mean game by
game with its band, over the splits ``istaka profile`` has made (a page never splits a hand: a
split costs as much as a deep review)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from dashboard.board import charts
from dashboard.board.profile_view import band, num
from dashboard.state import profile_data
from dashboard.words.profile_words import t
from dashboard.words.text import md_text


def _ci(x: dict[str, Any], lang: str) -> str:
    if x.get("low") is None or x.get("high") is None:
        return ""
    return band(num(x["low"], lang), num(x["high"], lang), lang)


def figure(line: Sequence[dict[str, Any]], lang: str) -> go.Figure:
    """The running luck-adjusted mean by game, its 95% band shaded."""
    x = list(range(1, len(line) + 1))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x + x[::-1], y=[p["high"] for p in line] + [p["low"] for p in line][::-1],
                             fill="toself", line={"width": 0}, opacity=0.25, name=t("pp_skill_band", lang),
                             hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=x, y=[p["mean"] for p in line], mode="lines+markers", name=t("pp_skill_running", lang)))
    fig.update_layout(height=300, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
                      xaxis_title=t("pp_skill_x", lang), yaxis_title=t("pp_skill_y", lang))
    return fig


def draw(players: Sequence[str], variant: str, sources: Sequence[str], date_from: Any, date_to: Any,
         lang: str) -> None:
    cols = st.columns(len(players))
    for i, (col, who) in enumerate(zip(cols, players)):
        sk = profile_data.skill(who, variant, list(sources), date_from, date_to)
        with col:
            if sk is None or not sk.get("hands"):
                st.caption(t("pp_skill_none", lang, name=md_text(who), n=int((sk or {}).get("missing", 0))))
                continue
            adj, raw = sk["adjusted"], sk["raw"]
            st.markdown(t("pp_skill_line", lang, name=md_text(who), m=num(adj["mean"], lang),
                          ci=md_text(_ci(adj, lang)), r=num(raw["mean"], lang), rci=md_text(_ci(raw, lang)),
                          n=int(sk["hands"]), g=int(sk["games"])))
            if sk.get("missing"):
                st.caption(t("pp_skill_missing", lang, n=int(sk["missing"])))
            line = [p for p in sk.get("line", []) if p.get("low") is not None]
            if len(line) > 1:
                charts.draw(col, figure(line, lang), f"pp_skill_{i}", lang)


__all__ = ["draw", "figure"]
