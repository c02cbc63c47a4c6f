"""The panel "Ellerinde ne var / What they hold": the belief's reading of the table from one seat's
view (:func:`analysis.evaluate.panel.read_table`), drawn on Replay, the Play page's hints and
Studies.

Per other seat: its chance to open on its next turn (or that it opened), the tiles it most likely
holds (each chance beside a uniform deal's) and needs; per tile of the viewer's rack, its danger if
thrown: the next seat opens with it (X5 where the preset charges it), finishes with it, or it fits a
table meld (X4); a dangerous tile framed in red, a small danger dashed. Under it, how sure the reading is: the worlds
sampled, their effective size and the ± points of a chance.

It sits in an expander that computes only while open (a phone's page stays short, the page load is
never held up). Not a fragment: a fragment's first run at page load swallowed a key pressed on
Replay at that moment (M, the next mistake), so opening the panel reruns the page. Every number is
also an attribute of its element (``data-p`` …), for tests and the browser check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from analysis.game import Rules, Tile
from dashboard.state import table_read
from dashboard.words.rule_links import link_rules_html
from dashboard.words.table_words import pct, t
from dashboard.board.tiles_view import esc, md_text, tile_html

CSS = """<style>
.ist-th{font-size:13px;line-height:1.3}
.ist-th .th-seats{display:grid;grid-template-columns:repeat(auto-fit,minmax(215px,1fr));gap:6px;margin-bottom:6px}
.ist-th .th-seat{border:1px solid rgba(128,128,128,.35);border-radius:8px;padding:5px 7px;min-width:0}
.ist-th .th-head{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:3px}
.ist-th .th-row{display:flex;flex-wrap:wrap;gap:4px;align-items:flex-start;margin:2px 0}
.ist-th .th-lbl{font-size:12px;opacity:.85;flex-basis:100%}
.ist-th .th-cell{display:inline-flex;flex-direction:column;align-items:center;padding:2px 3px;border-radius:6px;
  border:2px solid transparent;min-width:34px}
.ist-th .th-cell .th-num{font-weight:700;font-size:12px;white-space:nowrap}
.ist-th .th-cell .th-u{font-size:10px;opacity:.8;white-space:nowrap}
.ist-th .th-cell.th-up{background:rgba(46,157,68,.16)}
.ist-th .th-cell.th-hot{border-color:#c62828;background:rgba(198,40,40,.08)}
.ist-th .th-cell.th-warm{border:2px dashed #ef8a00}
.ist-th .th-cell.th-safe{opacity:.7}
.ist-th .th-cell .th-d{font-size:10px;white-space:nowrap}
.ist-th .th-sure{font-size:12px;opacity:.85;margin-top:4px}
.ist-th a.ist-rule{color:inherit;text-decoration:underline}
</style>"""

HOT = 0.10  # a discard that adds at least this chance that the next seat opens or finishes: a red frame
WARM = 0.03  # ... at least this: a dashed frame


def _tile(text: str, okey: Tile | None) -> str:
    try:
        return tile_html(Tile.parse(text), okey, small=True)
    except ValueError:
        return f"<code>{esc(text)}</code>"


def _seat_html(s: dict[str, Any], players: Sequence[str], okey: Tile | None, lang: str, se: float) -> str:
    seat = int(s["seat"])
    name = t("th_seat", lang, name=players[seat], seat=seat)
    if s["opened"]:
        badge = f'<span class="ist-badge open">{esc(t("th_opened", lang))}</span>'
        opens = ""
    else:
        p = float(s["opens_next"])
        badge = f'<span class="ist-badge closed">{esc(t("th_opens_next", lang, p=pct(p, lang)))}</span>'
        opens = f' data-opens="{p}"'
    held = "".join(
        f'<span class="th-cell{" th-up" if p - u > se else ""}" data-held="{esc(x)}" data-p="{p}" data-u="{u}" '
        f'title="{esc(t("th_uniform", lang, u=pct(u, lang)))}">{_tile(x, okey)}'
        f'<span class="th-num">{esc(pct(p, lang))}</span><span class="th-u">({esc(pct(u, lang))})</span></span>'
        for x, p, u in s["held"])
    needs = "".join(
        f'<span class="th-cell" data-need="{esc(x)}" data-p="{p}">{_tile(x, okey)}'
        f'<span class="th-num">{esc(pct(p, lang))}</span></span>' for x, p in s["needs"]
    ) or f'<span class="th-none">{esc(t("th_nothing", lang))}</span>'
    return (f'<div class="th-seat" data-testid="th-seat" data-seat="{seat}" data-opened="{int(bool(s["opened"]))}"'
            f'{opens}><div class="th-head"><b>{esc(name)}</b>{badge}</div>'
            f'<div class="th-row"><span class="th-lbl">{esc(t("th_holds", lang))}</span>{held}</div>'
            f'<div class="th-row"><span class="th-lbl">{esc(t("th_needs", lang))}</span>{needs}</div></div>')


def danger_grade(d: dict[str, Any], base: float) -> str:
    """``hot`` (framed in red): it fits a table meld (X4), or the chance that the next seat finishes
    with it plus the chance it opens with it beyond ``base`` (the chance it opens on its next turn
    anyway) is at least :data:`HOT`; ``warm`` (a dashed frame): at least :data:`WARM`; else ``safe``."""
    risk = float(d["finish"]) + max(0.0, float(d["opening"]) - base)
    if d["layoff"] or risk >= HOT:
        return "hot"
    return "warm" if risk >= WARM else "safe"


def _danger_html(d: dict[str, Any], base: float, x5: bool, okey: Tile | None, lang: str) -> str:
    o, f, lay = float(d["opening"]), float(d["finish"]), bool(d["layoff"])
    lines = []
    if o > 0:
        lines.append(esc(t("th_opening_x5" if x5 else "th_opening", lang, p=pct(o, lang))))
    if f > 0:
        lines.append(esc(t("th_finish", lang, p=pct(f, lang))))
    if lay:
        lines.append(esc(t("th_layoff", lang)))
    grade = danger_grade(d, base)
    if not lines:
        lines.append(esc(t("th_safe", lang)))
    body = "".join(f'<span class="th-d">{link_rules_html(x, lang)}</span>' for x in lines)
    return (f'<span class="th-cell th-{grade}" data-testid="th-danger" data-grade="{grade}" '
            f'data-tile="{esc(d["tile"])}" data-opening="{o}" data-finish="{f}" data-layoff="{int(lay)}">'
            f'{_tile(str(d["tile"]), okey)}{body}</span>')


def panel_html(r: dict[str, Any], players: Sequence[str], okey: Tile | None, lang: str, *, x5: bool) -> str:
    """The reading ``r`` (:meth:`analysis.evaluate.panel.TableRead.to_dict`) of seat ``r["seat"]``
    drawn: the other seats, the viewer's discards' dangers, how sure it is. ``x5``: the preset
    charges X5 (an opening fed by a discard)."""
    me = int(r["seat"])
    nxt = (me + 1) % 4
    se = float(r["se"])
    seats = "".join(_seat_html(s, players, okey, lang, se) for s in r["seats"])
    after = next((s for s in r["seats"] if s["seat"] == nxt), None)
    base = float(after["opens_next"]) if after is not None and after["opens_next"] is not None else 0.0
    dangers = "".join(_danger_html(d, base, x5, okey, lang) for d in r["dangers"])
    if after is not None and after["opens_next"] is not None:
        head = t("th_danger_base", lang, name=players[me], next=players[nxt], p=pct(base, lang))
    else:
        head = t("th_danger", lang, name=players[me], next=players[nxt])
    ess, n = float(r["ess"]), int(r["proposals"])
    sure = esc(t("th_sure", lang, n=n, ess=round(ess), se=round(100 * float(r["se"]))))
    if round(ess) >= n:
        sure += " " + esc(t("th_flat", lang))
    return (f'<div class="ist-th" data-testid="th-panel" data-seat="{me}" data-ess="{r["ess"]}" '
            f'data-proposals="{n}" data-se="{r["se"]}"><div class="th-seats">{seats}</div>'
            f'<div class="th-row th-dangers"><span class="th-lbl">'
            f'{esc(head)}</span></div>'
            f'<div class="th-row">{dangers}</div>'
            f'<div class="th-sure" data-testid="th-sure">{sure}</div>'
            f'<div class="th-sure">{esc(t("th_legend", lang, p=pct(HOT, lang), w=pct(WARM, lang)))}</div></div>')


def charges_x5(rules: Rules) -> bool:
    """The preset charges a discard that lets the next seat open (X5)."""
    return bool(rules.cezali and rules.x5)


def _section(key: str, seat: int, players: Sequence[str], okey: Tile | None, x5: bool, lang: str,
             get: Callable[[], dict[str, Any] | None], note: str | None) -> None:
    box = st.expander(t("th_title", lang), key=key, on_change="rerun", icon=":material/visibility:")
    with box:
        if not box.open:  # closed: nothing computed (the panel costs a few tenths of a second)
            return
        st.caption(md_text(t("th_intro", lang, name=players[seat])))  # a name from a log: escaped
        if note is not None:
            st.caption(md_text(note))
            return
        r = get()
        if r is None:
            st.caption(md_text(t("th_over", lang)))
            return
        st.html(CSS)
        st.markdown(panel_html(r, players, okey, lang, x5=x5), unsafe_allow_html=True)


def section(key: str, seat: int, players: Sequence[str], okey: Tile | None, lang: str,
            get: Callable[[], dict[str, Any] | None], *, x5: bool, note: str | None = None) -> None:
    """The panel of ``seat`` in an expander ``key`` that reads (``get()``, cached by the caller's
    state module) only while open. ``note``: said instead of a reading (a seat whose view the log
    does not hold)."""
    _section(key, int(seat), list(players), okey, bool(x5), lang, get, note)


def replay_section(game: str, hand: int, step: int, seat: int, players: Sequence[str], okey: Tile | None,
                   lang: str, *, x5: bool, log_view: int | None, key: str = "th_replay") -> None:
    """The panel of a stored game's position (Replay, a study) from ``seat``'s view; a seat-view
    log only for its own seat."""
    note = None
    if log_view is not None and log_view != seat:
        note = t("th_only_view", lang, name=players[log_view])
    section(key, seat, players, okey, lang, lambda: table_read.logged(game, hand, step, seat), x5=x5, note=note)


__all__ = ["CSS", "HOT", "WARM", "charges_x5", "danger_grade", "panel_html", "replay_section", "section"]
