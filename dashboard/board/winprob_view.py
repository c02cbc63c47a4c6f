"""The chance to win the game (:mod:`analysis.review.winprob`): a line of each player's (or team's)
chance under the score sheet's totals, and a Plotly line chart of the chance hand by hand in Replay
and Review (the hand on the board marked)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from analysis.game import GameResult, Rules, resolve
from analysis.review import winprob

from dashboard.board.charts import draw
from dashboard.board.tiles_view import esc, md_text
from dashboard.words.rule_links import guide_link
from dashboard.words.winprob_words import item, t

SEAT_COLOURS = ("#d0281f", "#1560bd", "#2e9d44", "#8e44ad")  # the loss graph's, seat by seat
TEAM_COLOURS = ("#d0281f", "#1560bd")


@lru_cache(maxsize=256)
def _course(rules: Rules, planned: int, hands: tuple[tuple[int, str, tuple[int, ...]], ...]) -> list[winprob.Point]:
    return winprob.course_from(rules, planned, hands)


def course(res: GameResult) -> list[winprob.Point] | None:
    """The game's chance at every hand boundary (cached by the game's scores), None without a model."""
    if res.rules is None:
        return None
    hands = tuple((h.hand, h.result, tuple(h.totals())) for h in res.hands)
    try:
        return _course(res.rules, res.planned_hands, hands)
    except winprob.ModelMissing:
        return None


def side_names(rules: Rules, players: Sequence[str], lang: str) -> list[str]:
    """A side's name: the player's, or the team's (``takım A: Ali + Mehmet``), G4."""
    if rules.esli:
        return [f"{t('wp_team', lang, team='AB'[i])}: {players[a]} + {players[b]}"
                for i, (a, b) in enumerate(winprob.TEAMS)]
    return list(players)


def model_name(rules: Rules) -> str:
    return rules.variant + (" eşli" if rules.esli else "")


def _overridden(rules: Rules) -> bool:
    """The game's rules differ from its preset's (partners aside): the model is the preset's."""
    return rules != resolve(rules.variant, {"esli": True} if rules.esli else None)


def sheet_lines(res: GameResult, players: Sequence[str], lang: str) -> list[str]:
    """Markdown lines under the sheet's totals: each side's chance with the hands left, and the
    expected G3 match points where the preset has them; nothing once the game is over."""
    pts = course(res)
    if res.rules is None:
        return []
    if pts is None:
        return [t("wp_missing", lang, model=model_name(res.rules))]
    ch = pts[-1].chance
    if ch.exact:
        return []
    shown = [md_text(p) for p in players]  # names from the sheet: never Markdown
    names = side_names(res.rules, shown, lang)
    out = [t("wp_now", lang, n=ch.hands_left, items=" · ".join(item(nm, p, lang) for nm, p in zip(names, ch.win)))]
    if ch.match_points is not None:
        out.append(t("wp_mp", lang, items=" · ".join(f"{shown[s]} {_signed(x, lang)}"
                                                     for s, x in enumerate(ch.match_points))))
    return out


def _signed(x: float, lang: str) -> str:
    s = f"{x:+.1f}"
    return s.replace(".", ",") if lang == "tr" else s


def figure(res: GameResult, players: Sequence[str], lang: str, at_done: int | None = None) -> go.Figure | None:
    """Each side's chance (in %) after 0, 1, … hands; ``at_done`` marks the hands played before the
    hand on the board."""
    pts = course(res)
    if pts is None or res.rules is None:
        return None
    names = side_names(res.rules, players, lang)
    colours = TEAM_COLOURS if res.rules.esli else SEAT_COLOURS
    x = [p.done for p in pts]
    when = [t("wp_hover_start", lang) if p.done == 0 else t("wp_hover", lang, hand=p.hand) for p in pts]
    fig = go.Figure()
    for i, nm in enumerate(names):
        y = [round(100 * p.chance.win[i], 1) for p in pts]
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines+markers", name=esc(nm), line={"color": colours[i], "width": 2},
            marker={"size": 6}, customdata=when,
            hovertemplate=f"{esc(nm)}: %{{y:.0f}}%<br>%{{customdata}}<extra></extra>" if lang == "en" else
            f"{esc(nm)}: %%{{y:.0f}}<br>%{{customdata}}<extra></extra>"))
    if at_done is not None:
        fig.add_vrect(x0=at_done, x1=at_done + 1, fillcolor="#999", opacity=0.15, line_width=0,
                      annotation_text=esc(t("wp_this_hand", lang)), annotation_position="top left")
    fig.update_layout(title=esc(t("wp_chart_title", lang)), height=300, margin={"l": 40, "r": 10, "t": 40, "b": 40},
                      legend={"orientation": "h", "y": -0.3}, xaxis_title=esc(t("wp_axis_hand", lang)),
                      yaxis_title=esc(t("wp_axis_chance", lang)))
    fig.update_xaxes(range=[-0.3, res.planned_hands + 0.3], dtick=1 if res.planned_hands <= 12 else 2)
    fig.update_yaxes(range=[-2, 102], **({"tickprefix": "%"} if lang == "tr" else {"ticksuffix": "%"}))
    return fig


def section(res: GameResult, players: Sequence[str], lang: str, key: str, at_done: int | None = None,
            where: Any = None) -> None:
    """The chart with a line on how it is computed (and on a game whose rules the model lacks)."""
    box = where if where is not None else st
    fig = figure(res, players, lang, at_done)
    if fig is None:
        if res.rules is not None:
            box.caption(t("wp_missing", lang, model=model_name(res.rules)))
        return
    draw(box, fig, key, lang)
    assert res.rules is not None
    note = t("wp_about", lang, model=model_name(res.rules))
    if _overridden(res.rules):
        note += " " + t("wp_overridden", lang, model=model_name(res.rules))
    box.caption(md_text(note) + " " + guide_link("winprob", lang))


def done_before(res: GameResult, hand: int) -> int:
    """How many hands were played to their end before hand number ``hand`` (the chart's x)."""
    n = 0
    for h in res.hands:
        if h.hand >= hand:
            break
        if h.result in winprob.DONE:
            n += 1
    return n
