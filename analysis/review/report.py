"""A game's review as one standalone HTML file: tiles drawn with inline CSS, no scripts, no links
to fetch, so it can be saved and shared. Every text that comes from a log (ids, names, notation)
is escaped; tiles are drawn from parsed values.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from analysis.game import GameResult
from analysis.game import HandState
from analysis.game import COLOURS, NotationError, Placed, Tile, parse_placed

from .model import CATEGORIES, SOLVER_VERSION, GameReview, Mistake

COLOUR = {"R": "#d0281f", "Y": "#e08600", "B": "#1560bd", "K": "#1b1b1b"}
SEVERITY_COLOUR = {"blunder": "#c62828", "mistake": "#ef6c00", "inaccuracy": "#f9a825", "note": "#607d8b"}

CSS = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fafaf7;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
.t{display:inline-flex;flex-direction:column;align-items:center;width:22px;height:31px;margin:1px;
 border-radius:4px;background:linear-gradient(#fffdf4,#f3e9cc);border:1px solid #c8b68a;
 box-shadow:0 2px 0 #b09a66;font-family:Georgia,serif;vertical-align:top;box-sizing:border-box}
.t b{font-size:13px;line-height:17px;margin-top:2px}.t i{font-size:7px;font-style:normal;font-weight:700}
.t.ok{border:2px solid #d4a017}.rack{display:inline-block;padding:3px;border-radius:4px;background:#a0703f}
.meld{display:inline-block;margin:2px 6px 2px 0;padding:2px;border-radius:4px;background:#2f7d4d}
.sev{color:#fff;border-radius:8px;padding:1px 7px;font-size:11px;font-weight:700}
.m{border:1px solid #ddd;border-radius:6px;padding:8px;margin:8px 0;background:#fff}
.lbl{font-size:12px;color:#555}
"""


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def tile(t: Tile, okey: Tile, stands_for: Tile | None = None) -> str:
    if t.is_joker:
        return f'<span class="t" title="sahte okey = {okey}"><b style="color:#1d6b3a">&#9827;</b><i>{okey}</i></span>'
    cls = "t ok" if t == okey else "t"
    sub = f'<i style="color:{COLOUR[stands_for.colour]}">={stands_for}</i>' if stands_for is not None else ""
    return f'<span class="{cls}" title="{t}"><b style="color:{COLOUR[t.colour]}">{t.number}</b>{sub}</span>'


def placed(p: Placed, okey: Tile) -> str:
    return tile(p.physical, okey, p.face if p.wild else None)


def rack(tiles: Iterable[Tile], okey: Tile) -> str:
    ts = sorted(tiles, key=lambda x: (4, 0) if x.is_joker else (COLOURS.index(x.colour), x.number))
    return f'<span class="rack">{"".join(tile(x, okey) for x in ts)}</span>'


def notation(items: Sequence[Any], okey: Tile) -> str:
    """Tiles in log notation (``R6>K9``, ``J``) as the solver's plans give them."""
    out = []
    for x in items:
        try:
            out.append(placed(parse_placed(str(x), okey), okey))
        except NotationError:
            try:
                out.append(tile(Tile.parse(str(x)), okey))
            except NotationError:
                out.append(f"<code>{esc(x)}</code>")
    return "".join(out)


def table(state: HandState, players: Sequence[str]) -> str:
    melds = [m for m in state.table if m is not None]
    if not melds:
        return '<span class="lbl">no melds on the table</span>'
    return "".join(f'<span class="meld" title="#{m.index} {esc(players[m.owner])}">'
                   f'{"".join(placed(p, state.okey) for p in m.tiles)}</span>' for m in melds)


def _best_html(best: dict[str, Any], okey: Tile) -> str:
    parts = []
    for key, label in (("points", "best melds opening"), ("pairs", "best pairs opening")):
        plan = best.get(key) or {}
        groups = plan.get("melds") or plan.get("pairs") or []
        if groups and plan.get("reaches"):
            val = plan.get("value", plan.get("count"))
            parts.append(f'<div>{esc(label)} ({esc(val)}): '
                         + "".join(f'<span class="meld">{notation(g, okey)}</span>' for g in groups) + "</div>")
    if "take" in best:
        tk = best["take"]
        groups = (tk.get("plan") or {}).get("melds") or (tk.get("plan") or {}).get("pairs") or []
        parts.append(f'<div>taking {notation([tk.get("tile")], okey)} opens ({esc(tk.get("kind"))} '
                     f'{esc(tk.get("value"))}): ' + "".join(f'<span class="meld">{notation(g, okey)}</span>'
                                                          for g in groups) + "</div>")
    turn = best.get("turn")
    if turn:
        rows = [f'<span class="meld">{notation(g, okey)}</span>' for g in turn.get("melds", []) + turn.get("pairs", [])]
        rows += [f'<span class="meld">→#{esc(x.get("meld"))} {notation(x.get("tiles", []), okey)}</span>'
                 for x in turn.get("layoffs", [])]
        rows += [f'<span class="meld">⇄#{esc(x.get("meld"))} {notation(x.get("tiles", []), okey)}</span>'
                 for x in turn.get("swaps", [])]
        parts.append(f'<div>best turn: {"".join(rows) or "nothing to place"} · left '
                     f'{notation(turn.get("left", []), okey)} ({esc(turn.get("penalty"))})'
                     + (" · finishes" if turn.get("finishes") else "") + "</div>")
    return "".join(parts)


def _events_text(events: Sequence[dict[str, Any]]) -> str:
    out = []
    for e in events:
        kind = e.get("type")
        what = e.get("tile") or e.get("tiles") or e.get("melds") or e.get("pairs") or ""
        out.append(f"{kind} {what}".strip())
    return "; ".join(out)


def _mistake_html(m: Mistake, state: HandState, players: Sequence[str], d: Any) -> str:
    colour = SEVERITY_COLOUR[m.severity]
    detail = ", ".join(f"{k}: {v}" for k, v in m.detail.items())
    return (f'<div class="m" data-category="{esc(m.category)}"><span class="sev" style="background:{colour}">'
            f'{esc(m.severity)}</span> <b>{esc(m.category)}</b> — {esc(players[m.seat])} · cost '
            f'<b>{m.cost}</b> · step {m.step}, line {m.line}'
            f'<div class="lbl">{esc(CATEGORIES.get(m.category, ""))}{" · " + esc(detail) if detail else ""}</div>'
            f'<div>rack: {rack(state.racks[m.seat], state.okey)}</div>'
            f'<div>table: {table(state, players)}</div>'
            f'<div class="lbl">played: {esc(_events_text(d.played.get("events", [])))}</div>'
            f'{_best_html(d.best, state.okey)}</div>')


def render(res: GameResult, gr: GameReview) -> str:
    """The review report of one game (``res`` replayed with its steps) as a standalone HTML page."""
    players = gr.players
    out = [(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Istaka review: {esc(gr.game)}</title>'
           f'<style>{CSS}</style></head><body>'),
           f'<h1>Istaka review — {esc(gr.game)}</h1>',
           (f'<p class="lbl">variant {esc(gr.variant)} · {esc(res.header.get("started", ""))} · '
           f'{esc(res.header.get("site", ""))} · solver {esc(SOLVER_VERSION)}</p>'),
           ("<table><tr><th>seat</th><th>player</th><th>decisions</th><th>agreement</th><th>cost</th>"
           "<th>cost / hand</th><th>mistakes by category</th></tr>")]
    for row in gr.summary():
        cats = ", ".join(f"{esc(k)} {v}" for k, v in sorted(row["by_category"].items()))
        agree = "—" if row["agreement"] is None else f'{row["agreement"]:.0f}%'
        out.append(f'<tr><td>{row["seat"]}</td><td>{esc(row["player"])}</td><td>{row["decisions"]}</td>'
                   f'<td>{agree}</td><td>{row["cost"]}</td><td>{row["cost_per_hand"]:.1f}</td><td>{cats}</td></tr>')
    out.append("</table>")
    by_ord = {i: h for i, h in enumerate(res.hands, 1)}
    for hrv in gr.hands:
        hr = by_ord.get(hrv.ord)
        if hr is None:
            continue
        ms = sorted(((m, d) for d in hrv.decisions for m in d.mistakes), key=lambda x: (-x[0].cost, x[0].step))
        scores = " ".join(esc(x) for x in hr.totals())
        out.append(f'<h2>Hand {hrv.hand} — {esc(hrv.result)} · scores {scores} · {len(ms)} mistakes</h2>')
        if not ms:
            out.append('<p class="lbl">no mistakes found</p>')
        for m, d in ms:
            step = min(max(m.step, 0), len(hr.steps) - 1)
            out.append(_mistake_html(m, hr.steps[step].state, players, d))
    out.append("<h2>Categories</h2><table>")
    out += [f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in CATEGORIES.items()]
    out.append("</table></body></html>")
    return "\n".join(out)


__all__ = ["render"]
