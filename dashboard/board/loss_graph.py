"""The loss graph: per game, each seat's expected hand score decision by
decision (a deep review: the evaluator's expectation of the move played) or its cost so far turn
by turn (a quick review), as a Plotly chart; a click on a point opens that step.

The points come from the stored review (:func:`analysis.store.load_review`, the review tables),
read once per database version. The Review page draws the whole game (the hands one after
another) or one hand; the Replay draws the hand on the board with the current step marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from analysis import store
from analysis.review import GameReview

from dashboard.state import data, url_state
from dashboard.words.graph_words import t
from dashboard.board.tiles_view import esc

SYMBOLS = ("circle", "square", "diamond", "triangle-up")  # one per seat: told apart without colour
DASHES = ("solid", "dash", "dot", "dashdot")
SEAT_COLOURS = ("#d0281f", "#1560bd", "#2e9d44", "#8e44ad")  # when a name has no colour of its own
COLUMNS = ["seat", "player", "ord", "hand", "turn", "step", "target", "y", "cost", "move"]


def points(gr: GameReview) -> pd.DataFrame:
    """One row per point of the graph: ``seat``, ``player``, ``ord`` (the hand's place in the
    game), ``hand``, ``turn``, ``step`` (where it is drawn), ``target`` (the step a click opens),
    ``y`` (deep: the expected hand score of the move played; quick: the seat's cost so far in the
    game, :func:`within_hand` for one hand), ``cost`` (what this decision or turn lost) and
    ``move`` (what was played, as stored)."""
    rows: list[dict[str, Any]] = []
    so_far = [0.0] * 4
    for h in gr.hands:
        for d in sorted(h.decisions, key=lambda d: d.turn):
            name = gr.players[d.seat] if d.seat < len(gr.players) else f"#{d.seat}"
            if gr.depth == "deep":
                for c in sorted(d.choices, key=lambda c: c.step):
                    rows.append({"seat": d.seat, "player": name, "ord": h.ord, "hand": h.hand, "turn": d.turn,
                                 "step": c.step, "target": c.step, "y": float(c.expected_played),
                                 "cost": float(c.cost), "move": str(c.played)})
            else:
                so_far[d.seat] += float(d.cost)
                worst = max(d.mistakes, key=lambda m: m.cost, default=None)
                target = worst.step if worst is not None and worst.cost > 0 else d.start
                rows.append({"seat": d.seat, "player": name, "ord": h.ord, "hand": h.hand, "turn": d.turn,
                             "step": d.start, "target": target, "y": so_far[d.seat], "cost": float(d.cost),
                             "move": str(d.choice)})
    return pd.DataFrame(rows, columns=COLUMNS)


def within_hand(depth: str, pts: pd.DataFrame) -> pd.DataFrame:
    """One hand's points with a quick review's cost counted from the hand's start."""
    if depth == "deep" or not len(pts):
        return pts
    out = pts.copy()
    out["y"] = out.groupby("seat")["cost"].cumsum()
    return out


def _read(game: str) -> GameReview | None:
    with data.reading_db() as con:
        return store.load_review(con, game)


@st.cache_data(show_spinner=False, max_entries=32)
def _points(v: int, path: str, game: str) -> tuple[str, pd.DataFrame] | None:
    gr = _read(game)
    return None if gr is None else (gr.depth, points(gr))


def game_points(game: str) -> tuple[str, pd.DataFrame] | None:
    """(depth, points) of the game's stored review, or None when it has none."""
    return _points(data.version(), data.db_file(), game)


def _colours(players: Sequence[str]) -> list[str]:
    from dashboard.board.charts import player_colours

    known = player_colours()
    return [known.get(str(p), SEAT_COLOURS[i]) for i, p in enumerate(players)]


def _vline(x: float, colour: str, width: float, dash: str, text: str, *,
           top: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A vertical line over the whole plot (plotly's add_vline, as data) and its label written up
    along it, inside the plot at its top (``top``) or bottom: labels side by side never run into
    each other ("El 3El 4" on a phone, where hands are a few pixels apart), and none sits where
    the legend is."""
    shape = {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
             "line": {"color": colour, "width": width, "dash": dash}}
    note = {"x": x, "xref": "x", "y": 1 if top else 0, "yref": "paper", "text": text, "showarrow": False,
            "textangle": -90, "xanchor": "left", "yanchor": "top" if top else "bottom", "font": {"size": 10},
            "bgcolor": "rgba(255,255,255,0.6)"}
    return shape, note


def figure(depth: str, pts: pd.DataFrame, players: Sequence[str], lang: str, *,
           offsets: dict[int, int] | None = None, now: int | None = None) -> dict[str, Any]:
    """The chart as a plotly figure dict: a line per seat (its own colour, marker and dash),
    markers sized by the cost. ``offsets``: ord -> the step the hand starts at on the x axis (the
    whole game; hand starts are marked); ``now``: the current step, marked with a vertical line.
    Each point carries ``customdata`` = [hand, target step, seat] for a click. A dict, not a
    ``go.Figure``: building and validating one took ~0.1 s a Replay step."""
    colours = _colours(players)
    key = "lg_hover_deep" if depth == "deep" else "lg_hover_quick"
    traces: list[dict[str, Any]] = []
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for r in pts.to_dict("records"):  # plain rows: pandas' per-seat selections cost more than the chart
        by_seat.setdefault(int(r["seat"]), []).append(r)
    for seat in range(4):
        rows = by_seat.get(seat, [])
        if not rows:
            continue
        name = esc(players[seat])
        traces.append({
            "type": "scatter", "mode": "lines+markers", "name": name,
            "x": [int(r["step"]) + (offsets or {}).get(int(r["ord"]), 0) for r in rows],
            "y": [float(r["y"]) for r in rows],
            "line": {"color": colours[seat], "dash": DASHES[seat], "width": 1.5,
                     "shape": "linear" if depth == "deep" else "hv"},
            "marker": {"symbol": SYMBOLS[seat], "color": colours[seat], "line": {"width": 1, "color": "#222"},
                       "size": [7 + min(float(r["cost"]), 150.0) / 10 for r in rows]},
            "customdata": [[int(r["hand"]), int(r["target"]), seat] for r in rows],
            "hovertext": [t(key, lang, player=name, hand=int(r["hand"]), step=int(r["target"]), y=f'{r["y"]:.0f}',
                            cost=f'{r["cost"]:.0f}', move=esc(r["move"])) for r in rows],
            "hoverinfo": "text"})
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    if offsets and len(offsets) > 1:
        hands = dict(zip(pts["ord"], pts["hand"]))
        for o, x0 in sorted(offsets.items()):
            if o in hands:
                sh, an = _vline(x0, "#999", 1, "dot", t("lg_hand", lang, n=int(hands[o])), top=True)
                shapes.append(sh)
                notes.append(an)
    if now is not None:
        sh, an = _vline(now, "#ffb300", 2, "solid", t("lg_now", lang), top=False)
        shapes.append(sh)
        notes.append(an)
    axis_x = t("lg_axis_game" if offsets and len(offsets) > 1 else "lg_axis_step", lang)
    axis_y = t("lg_axis_deep" if depth == "deep" else "lg_axis_quick", lang)
    layout = {"height": 300, "margin": {"l": 50, "r": 10, "t": 30, "b": 40}, "clickmode": "event+select",
              "xaxis": {"title": {"text": axis_x}}, "yaxis": {"title": {"text": axis_y}},
              # the legend above the plot: below it, a phone's two rows of names ran into the x axis title
              "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"},
              "hovermode": "closest", "dragmode": False, "separators": ",." if lang == "tr" else ".,",
              "shapes": shapes, "annotations": notes}
    return {"data": traces, "layout": layout}


def clicked(event: Any) -> tuple[int, int, int] | None:
    """(hand, step, seat) of the point a click picked on the chart, or None."""
    try:
        pts = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for p in pts or []:
        cd = p.get("customdata") if hasattr(p, "get") else None
        if isinstance(cd, (list, tuple)) and len(cd) >= 3:
            try:
                return int(cd[0]), int(cd[1]), int(cd[2])
            except (TypeError, ValueError):
                continue
    return None


def _offsets(game: str, pts: pd.DataFrame) -> dict[int, int]:
    """ord -> the x where the hand starts: the steps of the hands before it (from the replay)."""
    rp = data.replay(game)
    out, x = {}, 0
    for o, hr in enumerate(rp.result.hands if rp is not None else [], 1):
        out[o] = x
        x += max(len(hr.steps), 1)
    if not out:  # no replay: the review's own last steps
        for o in sorted({int(v) for v in pts["ord"]}):
            out[o] = x
            x += int(pts[pts["ord"] == o]["step"].max()) + 1
    return out


def review_chart(game: str, players: Sequence[str], lang: str, hand: int | None = None) -> None:
    """The Review page's graph: the whole game, or ``hand`` only; a click opens the Replay there."""
    got = game_points(game)
    if got is None:
        return
    depth, pts = got
    if hand:
        pts = within_hand(depth, pts[pts["hand"] == hand])
    st.subheader(t("lg_title_deep" if depth == "deep" else "lg_title_quick", lang))
    if not len(pts):
        st.caption(t("lg_none_hand" if hand else "lg_none", lang))
        return
    st.caption(t("lg_help", lang))
    offsets = None if hand else _offsets(game, pts)
    fig = figure(depth, pts, players, lang, offsets=offsets)
    event = st.plotly_chart(fig, key="lg_review", on_select="rerun", selection_mode="points",
                            config={"displayModeBar": False})
    pick = clicked(event)
    if pick is not None:
        h, step, seat = pick
        url_state.goto("replay", game=game, hand=h, step=step, seat=seat)


GOTO = "_lg_goto"  # a step the Replay's graph asked for, taken before the step slider is drawn


def pending_step() -> int | None:
    """The step a click on the Replay's graph asked for (once), or None: called before the step
    widget is drawn, as the autoplay's next frame is."""
    return st.session_state.pop(GOTO, None)


def replay_chart(game: str, hand: int, step: int, players: Sequence[str], lang: str) -> None:
    """The Replay's graph of this hand, the current step marked; a click goes to that step (on the
    next run, through :func:`pending_step`)."""
    got = game_points(game)
    if got is None:
        return
    depth, pts = got
    pts = within_hand(depth, pts[pts["hand"] == hand])
    if not len(pts):
        return
    with st.expander(t("lg_replay_title", lang), expanded=True):
        st.caption(t("lg_help_replay", lang))
        fig = figure(depth, pts, players, lang, now=step)
        fig["layout"]["height"] = 240
        event = st.plotly_chart(fig, key="lg_replay", on_select="rerun", selection_mode="points",
                                config={"displayModeBar": False})
    # the chart's figure marks the current step, so a new step draws a new chart with no point
    # picked: a pick seen here is a new click (one at the current step changes nothing)
    pick = clicked(event)
    if pick is None:
        return
    h, target, _ = pick
    if h == hand and target != step:
        st.session_state[GOTO] = target
        st.rerun()


__all__ = ["clicked", "figure", "game_points", "pending_step", "points", "replay_chart", "review_chart", "within_hand"]
