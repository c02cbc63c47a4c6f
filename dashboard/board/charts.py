"""The Players page's plotly figures, built from ``analysis.queries`` frames (cached)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.state import data
from dashboard.words.i18n import t
from dashboard.board.tiles_view import esc  # plotly reads tags in trace names: names from logs are escaped

PALETTE = ["#d0281f", "#1560bd", "#e08600", "#1b1b1b", "#2e9d44", "#8e44ad", "#16a085", "#7f8c8d",
           "#c2185b", "#5d4037", "#0097a7", "#afb42b", "#3949ab", "#f06292", "#00796b", "#ff7043"]
FINISH_COLOUR = {"normal": "#607d8b", "okey": "#d4a017", "elden": "#2e9d44", "pairs": "#8e44ad"}


def player_colours() -> dict[str, str]:
    """One colour per player name, the same on every chart and whatever the selection: by the
    name's place among all the database's players."""
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(sorted(map(str, data.choices()["players"])))}


def _layout(fig: go.Figure, title: str, x: str, y: str, *, dates: bool = False) -> go.Figure:
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=340, margin={"l": 40, "r": 10, "t": 40, "b": 40},
                      legend={"orientation": "h", "y": -0.25}, showlegend=True)
    if dates:  # numbers only: plotly's month names would be English on the Turkish page
        fig.update_xaxes(tickformat="%d.%m.%Y", hoverformat="%d.%m.%Y %H:%M")
    return fig


def draw(where: Any, fig: go.Figure, key: str, lang: str) -> None:
    """A chart in the page's language: its axes write Turkish numbers on a Turkish page (1,5 and
    1.250), and it has no plotly toolbar (its tooltips, "Download plot as a PNG", are English)."""
    fig.update_layout(separators=",." if lang == "tr" else ".,")
    where.plotly_chart(fig, key=key, config={"displayModeBar": False})


def finish_label(kind: str, lang: str) -> str:
    """A finish kind (``okey+elden``) in words."""
    return " + ".join(t(f"fk_{k}", lang) for k in str(kind).split("+"))


def game_ranks(scores: pd.DataFrame) -> pd.DataFrame:
    """Per game and player: the game total and the rank by it (lowest total first, G1; ties share)."""
    if not len(scores):
        return pd.DataFrame(columns=["game", "player", "started", "total", "rank"])
    g = scores.groupby(["game", "player"], as_index=False).agg(total=("total", "sum"), started=("started", "first"))
    g["rank"] = g.groupby("game")["total"].rank(method="min").astype(int)
    return g


MAX_POINTS = 1500  # per line: more points than a chart is wide in pixels only cost time


def thin(n: int) -> slice | list[int]:
    """Indexes of at most MAX_POINTS evenly spread points, always keeping the last one."""
    if n <= MAX_POINTS:
        return slice(None)
    step = -(-n // MAX_POINTS)
    idx = list(range(0, n, step))
    if idx[-1] != n - 1:
        idx.append(n - 1)
    return idx


@st.cache_resource(show_spinner=False, max_entries=32)  # figures are only read: no copy per rerun
def player_figures(v: int, path: str, variant: str, players: tuple[str, ...], lang: str,
                   source: str | None = None) -> dict[str, Any]:
    frames = data.player_frames(variant, source)
    scores = frames["player_hand_scores"]
    mine = scores[scores["player"].isin(players)]
    every = player_colours()
    colour = {p: every.get(p, PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}
    figs: dict[str, Any] = {}

    fig = go.Figure()
    for p in players:
        y = mine.loc[mine["player"] == p, "cumulative"].to_numpy()
        x = np.arange(1, len(y) + 1)
        keep = thin(len(y))
        fig.add_trace(go.Scatter(x=x[keep], y=y[keep], mode="lines", name=esc(p), line={"color": colour[p]}))
    figs["cumulative"] = _layout(fig, t("chart_cumulative", lang), t("axis_hand", lang), t("axis_total", lang))

    per_game = mine.groupby(["player", "game"], as_index=False, sort=False).agg(
        started=("started", "first"), cumulative=("cumulative", "last"), total=("total", "sum"))
    fig = go.Figure()
    for p in players:
        s = per_game[per_game["player"] == p].sort_values("started")
        keep = thin(len(s))
        fig.add_trace(go.Scatter(x=s["started"].to_numpy()[keep], y=s["cumulative"].to_numpy()[keep],
                                   mode="lines", name=esc(p), line={"color": colour[p]}))
    figs["over_dates"] = _layout(fig, t("chart_over_dates", lang), t("axis_date", lang), t("axis_total", lang),
                                 dates=True)

    fig = go.Figure()
    for p in players:
        s = per_game[per_game["player"] == p]
        fig.add_trace(go.Box(y=s["total"].to_numpy(), name=esc(p), marker_color=colour[p], boxpoints="outliers"))
    figs["game_totals"] = _layout(fig, t("chart_game_totals", lang), "", t("axis_total", lang))

    ranks = game_ranks(scores)
    ranks = ranks[ranks["player"].isin(players)]
    fig = go.Figure()
    for p in players:
        counts = ranks[ranks["player"] == p]["rank"].value_counts()
        fig.add_trace(go.Bar(x=[1, 2, 3, 4], y=[int(counts.get(r, 0)) for r in (1, 2, 3, 4)], name=esc(p),
                             marker_color=colour[p]))
    fig.update_layout(barmode="group")
    figs["ranks"] = _layout(fig, t("chart_ranks", lang), t("axis_rank", lang), t("axis_count", lang))

    op = frames["opening_values"]
    op = op[op["player"].isin(players) & (op["kind"] == "points")]
    fig = go.Figure()
    for p in players:
        s = op[op["player"] == p]
        fig.add_trace(go.Scatter(x=s["threshold"].to_numpy(), y=s["value"].to_numpy(), mode="markers", name=esc(p),
                                 marker={"color": colour[p], "size": 7, "opacity": .7}))
    if len(op):
        lo, hi = int(op["threshold"].min()), int(max(op["threshold"].max(), op["value"].max()))
        fig.add_trace(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", name=t("axis_threshold", lang),
                                 line={"color": "#999", "dash": "dash"}))
    figs["openings"] = _layout(fig, t("chart_openings", lang), t("axis_threshold", lang), t("axis_value", lang))

    fk = frames["finish_kinds"]
    fk = fk[fk["player"].isin(players)]
    fig = go.Figure()
    for kind in sorted(fk["kind"].unique()) if len(fk) else []:
        s = fk[fk["kind"] == kind].set_index("player")["finishes"]
        first = str(kind).split("+")[0]
        fig.add_trace(go.Bar(x=[esc(p) for p in players], y=[int(s.get(p, 0)) for p in players],
                             name=esc(finish_label(kind, lang)),
                             marker_color=FINISH_COLOUR.get(first, "#999"),
                             marker_pattern_shape="/" if "+" in str(kind) else ""))
    fig.update_layout(barmode="stack")
    figs["finishes"] = _layout(fig, t("chart_finishes", lang), "", t("axis_count", lang))

    pe = frames["penalties"]
    pe = pe[pe["player"].isin(players)]
    fig = go.Figure()
    for rule in sorted(pe["rule"].unique()) if len(pe) else []:
        s = pe[pe["rule"] == rule].groupby("player").size()
        fig.add_trace(go.Bar(x=[esc(p) for p in players], y=[int(s.get(p, 0)) for p in players], name=rule))
    fig.update_layout(barmode="stack")
    figs["penalties"] = _layout(fig, t("chart_penalties", lang), "", t("axis_count", lang))
    return figs
