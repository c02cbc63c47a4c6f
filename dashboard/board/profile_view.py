"""The Player page's drawings: the mistakes-by-kind table (each kind's rules linked to the Rules
page, a link opening Practice on that kind), the trend of points lost by kind, and the style
table beside the expert, numbers written as the page's language writes them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go

from analysis.review.taxonomy import BY_KEY, KINDS
from analysis.store.style import EXPERT, METRICS

from dashboard.words.profile_words import t
from dashboard.words.rule_links import link_rules_html
from dashboard.words.text import esc

CSS = """<style>
.ist-pp {width: 100%; border-collapse: collapse; font-size: 0.9rem; margin-bottom: 0.5rem}
.ist-pp th, .ist-pp td {padding: 0.2rem 0.4rem; border-bottom: 1px solid rgba(128,128,128,0.3); vertical-align: top}
.ist-pp th {text-align: left; font-weight: 600}
.ist-pp td.n {text-align: right; white-space: nowrap}
.ist-pp td.v {text-align: right}
.ist-pp .v1, .ist-pp .ci {display: inline-block; white-space: nowrap}
.ist-pp .ci {font-size: 0.8rem; opacity: 0.75; margin-left: 0.25rem}
.ist-pp .r {display: block; font-size: 0.78rem; opacity: 0.8}
</style>"""


def num(x: float, lang: str, digits: int = 1) -> str:
    """A number as the page's language writes it (12,5 in Turkish); a dash for none."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    s = f"{x:,.{digits}f}"
    return s.translate(str.maketrans({".": ",", ",": "."})) if lang == "tr" else s


def pct(x: float, lang: str) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return f"%{num(100 * x, lang, 0)}" if lang == "tr" else f"{num(100 * x, lang, 0)}%"


def practice_url(player: str, kind: str, lang: str) -> str:
    """Practice on one kind of one player's mistakes (relative, like every page link)."""
    return "practice?" + urlencode({"pr_player": player, "pr_kind": kind, "lang": lang})


def kinds_html(frame: pd.DataFrame, player: str, lang: str) -> str:
    """One player's kinds with a cost, costliest first: kind (its rules below it, linked), count,
    points lost a hand, share of the whole loss, and a link to practise it."""
    mine = frame[(frame.player == player) & (frame.mistakes > 0)].sort_values("cost", ascending=False)
    head = "".join(f"<th>{esc(t(k, lang))}</th>" for k in ("pp_col_kind", "pp_col_count", "pp_col_per_hand",
                                                            "pp_col_share", "pp_col_practice"))
    rows = []
    for r in mine.itertuples(index=False):
        k = BY_KEY[r.kind]
        rules = link_rules_html(esc(", ".join(k.rules)), lang) if k.rules else ""
        link = f'<a href="{esc(practice_url(player, k.key, lang))}" target="_self">{esc(t("pp_practice_link", lang))}</a>'
        rows.append(f'<tr data-kind="{k.key}"><td>{esc(k.name(lang))}<span class="r">{rules}</span></td>'
                    f'<td class="n">{r.mistakes}</td><td class="n">{num(r.per_hand, lang)}</td>'
                    f'<td class="n">{pct(r.share, lang)}</td><td>{link}</td></tr>')
    return f'<table class="ist-pp" data-testid="pp-kinds"><tr>{head}</tr>{"".join(rows)}</table>'


TOP = 4  # kinds drawn over time beside the whole


def trend_figure(frame: pd.DataFrame, player: str, lang: str, by: str) -> go.Figure:
    """Points lost a hand over weeks or games: the whole, and the player's costliest kinds."""
    mine = frame[frame.player == player]
    fig = go.Figure()
    if not len(mine):
        return fig
    def x_of(d: pd.DataFrame) -> list[str] | list[int]:  # weeks as the page's language writes a day
        if by != "week":
            return [int(x) for x in d.n]
        return [".".join(reversed(str(p).split("-"))) if lang == "tr" else str(p) for p in d.period]

    total = mine.groupby(["n", "period"], as_index=False).agg(cost=("cost", "sum"), hands=("hands", "first"))
    total = total.sort_values("n")
    fig.add_trace(go.Scatter(x=x_of(total), y=total.cost / total.hands, name=t("pp_trend_total", lang),
                             mode="lines+markers", line={"width": 3}))
    top = mine.groupby("kind").cost.sum().sort_values(ascending=False)
    for kind in [k for k, c in top.items() if c > 0][:TOP]:
        d = mine[mine.kind == kind].sort_values("n")
        fig.add_trace(go.Scatter(x=x_of(d), y=d.per_hand, name=BY_KEY[kind].name(lang), mode="lines+markers"))
    fig.update_layout(height=340, margin={"l": 10, "r": 10, "t": 10, "b": 10}, title=None,
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
                      xaxis_title=t("pp_trend_week" if by == "week" else "pp_trend_game", lang),
                      yaxis_title=t("pp_trend_y", lang))
    fig.update_xaxes(type="category")  # a week or a game each, never a time axis of their own
    return fig


def metric_name(metric: str, lang: str) -> str:
    if metric.startswith("penalty:"):
        return t("pp_m_penalty", lang, rule=metric.split(":", 1)[1])
    return t(f"pp_m_{metric}", lang)


def band(lo: str, hi: str, lang: str) -> str:
    """An interval: ``[1.9, 2.6]``; Turkish writes ``[1,9; 2,6]`` (its comma is the decimal one)."""
    return f"[{lo}; {hi}]" if lang == "tr" else f"[{lo}, {hi}]"


def cell(row: dict | None, lang: str) -> str:
    """``62% [55, 68]`` for a rate, ``2.3 [1.9, 2.6]`` for a mean (95%); a dash without hands."""
    if row is None or not row["n"]:
        return "–"
    if row["kind"] == "rate":
        v, lo, hi = (num(100 * row[c], lang, 0) if math.isfinite(row[c]) else "–" for c in ("value", "low", "high"))
        return f'<span class="v1">{"%" + v if lang == "tr" else v + "%"}</span> <span class="ci">{band(lo, hi, lang)}</span>'
    digits = 1 if str(row["metric"]).startswith("penalty:") else 2
    lo, hi = row["low"], row["high"]
    within = f' <span class="ci">{band(num(lo, lang, digits), num(hi, lang, digits), lang)}</span>' \
        if math.isfinite(lo) and math.isfinite(hi) else ""
    return f'<span class="v1">{num(row["value"], lang, digits)}</span>{within}'


def style_html(frame: pd.DataFrame, players: Sequence[str], lang: str) -> str:
    """The style table: one row per measure, a column per player and the expert's last."""
    whos = list(players) + [EXPERT]
    names = [esc(p) for p in players] + [esc(t("pp_expert", lang))]
    head = f"<th>{esc(t('pp_col_metric', lang))}</th>" + "".join(f"<th>{n}</th>" for n in names)
    metrics = [m for m, _ in METRICS] + sorted({m for m in frame.metric if m.startswith("penalty:")})
    by = {(r["who"], r["metric"]): r for r in frame.to_dict("records")}
    rows = []
    for m in metrics:
        label = link_rules_html(esc(metric_name(m, lang)), lang)
        cells = "".join(f'<td class="v">{cell(by.get((w, m)), lang)}</td>' for w in whos)
        rows.append(f'<tr data-metric="{esc(m)}"><td>{label}</td>{cells}</tr>')
    return f'<table class="ist-pp" data-testid="pp-style"><tr>{head}</tr>{"".join(rows)}</table>'


def kind_names(lang: str) -> dict[str, str]:
    return {k.key: k.name(lang) for k in KINDS}


__all__ = ["CSS", "kind_names", "kinds_html", "num", "pct", "practice_url", "style_html", "trend_figure"]
