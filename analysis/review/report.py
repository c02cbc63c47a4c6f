"""A game's review as one standalone HTML file: tiles drawn with inline CSS, no scripts, no links
to fetch, so it can be saved and shared. Every text that comes from a log (ids, names, notation)
is escaped; tiles are drawn from parsed values; every fixed word is in Turkish and English
(:mod:`.words`, ``lang``).

A quick review lists each hand's findings in turn order, each step's findings one closed line
(``<details>``, no script) that opens on their words and one drawing of the rack, the table, what
was played and the best line whole (an opening with its lay-offs and swaps). A deep review lists
every graded decision: its top three candidates with expected points, what was played, the
lesson sentence, the best line, and per hand the actual result next to what the evaluator
expected. The page fits a 390 px phone (a viewport, narrow CSS, tables one column per player)
and opens a few screens tall (bench/report_height.py).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from analysis.game import COLOURS, GameResult, HandState, NotationError, Placed, Tile, parse_placed

from . import report_notes
from .lesson import describe, hand_expected, parts_line, pricing_worlds, sentence, shown
from .moments import Moment, key_moments
from .model import CATEGORIES, CATEGORY_KIND, CONFIRM, Choice, Decision, GameReview, HandReview, Mistake, severity
from .report_stats import stats_html
from .words import WORDS, category_name, definition, word

COLOUR = {"R": "#d0281f", "Y": "#e08600", "B": "#1560bd", "K": "#1b1b1b"}
SEVERITY_COLOUR = {"blunder": "#c62828", "mistake": "#ef6c00", "inaccuracy": "#f9a825", "note": "#607d8b"}
SEVERITY_WORD = {"blunder": ("büyük hata", "blunder"), "mistake": ("hata", "mistake"),
                 "inaccuracy": ("küçük hata", "inaccuracy"), "note": ("not", "note")}

CSS = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fafaf7;max-width:1100px;
 overflow-wrap:break-word}
h1{font-size:22px;overflow-wrap:anywhere}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
.t{display:inline-flex;flex-direction:column;align-items:center;width:22px;height:31px;margin:1px;
 border-radius:4px;background:linear-gradient(#fffdf4,#f3e9cc);border:1px solid #c8b68a;
 box-shadow:0 2px 0 #b09a66;font-family:Georgia,serif;vertical-align:top;box-sizing:border-box}
.t b{font-size:13px;line-height:17px;margin-top:2px}.t i{font-size:7px;font-style:normal;font-weight:700}
.t.ok{border:2px solid #d4a017}.rack{display:inline-block;padding:3px;border-radius:4px;background:#a0703f}
.meld{display:inline-block;margin:2px 6px 2px 0;padding:2px;border-radius:4px;background:#2f7d4d}
.sev{color:#fff;border-radius:8px;padding:1px 7px;font-size:11px;font-weight:700}
.m{border:1px solid #ddd;border-radius:6px;padding:8px;margin:8px 0;background:#fff}
.d{border:1px solid #ccc;border-radius:6px;padding:8px;margin:10px 0;background:#fff}
.ev{display:inline-block;margin:2px 10px 2px 0}
.lbl{font-size:12px;color:#555}.lesson{font-style:italic;margin:4px 0}
tr.pl td{background:#fff3d6}
.km{border:2px solid #333;border-radius:6px;padding:2px 10px 4px 10px;margin:8px 0;background:#fff}
.km h2{margin-top:4px;font-size:16px}.km .kmg{display:grid;grid-template-columns:1fr 1fr;gap:0 16px}
.km h3{font-size:13px;margin:2px 0 0 0}.km ol{margin:0 0 2px 0;padding-left:18px;font-size:12px;line-height:1.3}
.km li{margin:1px 0}
details.dd{margin:3px 0}details.dd summary{cursor:pointer;font-size:13px}details.z,details.g{margin:6px 0;color:#555}
.wide{overflow-x:auto;max-width:100%}.wide td{text-align:right}tr.sub th{background:#f0ede4}
details.f{border:1px solid #ddd;border-radius:6px;margin:6px 0;background:#fff}
details.f>summary{cursor:pointer;padding:5px 8px;font-size:14px}details.f[open]>summary{border-bottom:1px solid #eee}
details.f .m{border:0;border-bottom:1px dashed #ddd;border-radius:0;margin:0}.dw{padding:8px}
@media (max-width:600px){body{margin:10px}.km .kmg{grid-template-columns:1fr}td,th{padding:2px 5px}
 .m,.d,.dw{padding:6px}}
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


def _groups(groups: Iterable[Sequence[Any]], okey: Tile) -> str:
    return "".join(f'<span class="meld">{notation(list(g), okey)}</span>' for g in groups)


def _tiles_of(x: Any) -> list[Any]:
    if isinstance(x, (list, tuple)):
        return list(x)
    return str(x).split() if x not in (None, "") else []


def table(state: HandState, players: Sequence[str], lang: str = "en") -> str:
    melds = [m for m in state.table if m is not None]
    if not melds:
        return f'<span class="lbl">{esc(word("no_table", lang))}</span>'
    return "".join(f'<span class="meld" title="#{m.index} {esc(players[m.owner])}">'
                   f'{"".join(placed(p, state.okey) for p in m.tiles)}</span>' for m in melds)


def events_html(events: Sequence[dict[str, Any]], okey: Tile, lang: str = "en") -> str:
    """Log events as words and drawn tiles (draws, takes, openings, melds, lay-offs, swaps,
    discards)."""
    out = []
    for e in events:
        kind = e.get("type")
        if kind in ("draw", "take", "return", "discard", "show"):
            t = e.get("tile")
            out.append(f'{esc(word("ev_" + kind, lang))} {notation([t], okey) if t else ""}')
        elif kind == "open" and e.get("pairs"):
            out.append(f'{esc(word("ev_open_pairs", lang))} {_groups(e["pairs"], okey)}')
        elif kind == "open":
            out.append(f'{esc(word("ev_open", lang))} {_groups(e.get("melds", []), okey)}')
        elif kind == "meld":
            out.append(f'{esc(word("ev_meld", lang))} {_groups(e.get("melds") or e.get("pairs") or [], okey)}')
        elif kind in ("layoff", "swap"):
            m = e.get("meld")
            out.append(f'{esc(word("ev_" + kind, lang, m=m))} {notation(_tiles_of(e.get("tiles", e.get("tile"))), okey)}')
        elif kind in ("takeback", "declare"):
            out.append(esc(word("ev_" + kind, lang)))
    return "".join(f'<span class="ev">{x}</span>' for x in out) or esc(word("nothing_played", lang))


def _left_html(left: Sequence[Any], penalty: Any, okey: Tile, lang: str) -> str:
    return esc(word("leaves", lang, tiles="\x00", n=penalty)).replace("\x00", notation(list(left), okey))


def _opening_html(plan: dict[str, Any], key: str, okey: Tile, lang: str) -> str:
    """A best opening drawn whole: the line's events when the review has them (melds or pairs,
    lay-offs, okey swaps and what follows), else its groups and lay-offs."""
    val = plan.get("value", plan.get("count"))
    head = esc(word("best_melds" if key == "points" else "best_pairs", lang, v=val))
    if plan.get("events"):
        body = events_html([e for e in plan["events"] if e.get("type") != "take"], okey, lang)
    else:
        groups = plan.get("melds") or plan.get("pairs") or []
        body = _groups(groups, okey) + "".join(
            f'<span class="ev">{esc(word("ev_layoff", lang, m=x.get("meld")))} {notation(x.get("tiles", []), okey)}</span>'
            for x in plan.get("layoffs", []))
    left = plan.get("left")
    tail = f' · {_left_html(left, plan.get("penalty", "?"), okey, lang)}' if left and "events" not in plan else ""
    if left and "events" in plan:
        tail = f' · {esc(word("rack", lang))}: {notation(list(left), okey)}'
    return f"<div>{head}: {body}{tail}</div>"


def best_html(best: dict[str, Any], okey: Tile, lang: str = "en") -> str:
    """What the review found best for the turn, drawn."""
    parts = []
    for key in ("points", "pairs"):
        plan = best.get(key) or {}
        if plan.get("reaches") and (plan.get("melds") or plan.get("pairs")):
            parts.append(_opening_html(plan, key, okey, lang))
    tk = best.get("take")
    if tk:
        if "turn" in tk:  # an opened seat's take that finishes
            head = esc(word("best_take_finish", lang, t="\x00")).replace("\x00", notation([tk.get("tile")], okey))
            parts.append(f'<div>{head}: {_turn_rows(tk["turn"], okey, lang)}</div>')
        else:
            plan = tk.get("plan") or {}
            what = f'{_kind(tk.get("kind"), lang)} {tk.get("value")}' if tk.get("kind") else ""
            head = esc(word("best_take", lang, t="\x00", v=what)).replace("\x00", notation([tk.get("tile")], okey))
            body = events_html([e for e in plan["events"] if e.get("type") != "take"], okey, lang) if plan.get("events") else \
                _groups(plan.get("melds") or plan.get("pairs") or [], okey)
            parts.append(f"<div>{head}: {body}</div>")
    turn = best.get("turn")
    if turn:
        fin = ""
        if turn.get("finishes"):
            fin = " · " + esc(word("finishes", lang))
        elif turn.get("other_line_finishes"):
            fin = " · " + esc(word("other_finishes", lang))
        parts.append(f'<div>{esc(word("best_turn", lang))}: {_turn_rows(turn, okey, lang)}{fin}</div>')
    kept = best.get("kept_opening")
    if kept:
        parts.append(f'<div class="lbl">{esc(word("kept_opening", lang, v=kept.get("value"), th=kept.get("threshold")))}</div>')
    return "".join(parts)


def _turn_rows(turn: dict[str, Any], okey: Tile, lang: str) -> str:
    rows = [f'<span class="ev">{esc(word("ev_swap", lang, m=x.get("meld")))} {notation(x.get("tiles", []), okey)}</span>'
            for x in turn.get("swaps", [])]
    if turn.get("melds") or turn.get("pairs"):
        rows.append(f'<span class="ev">{esc(word("ev_meld", lang))} '
                    f'{_groups(turn.get("melds", []) + turn.get("pairs", []), okey)}</span>')
    rows += [f'<span class="ev">{esc(word("ev_layoff", lang, m=x.get("meld")))} {notation(x.get("tiles", []), okey)}</span>'
             for x in turn.get("layoffs", [])]
    body = "".join(rows) or esc(word("nothing_to_place", lang))
    return f'{body} · {_left_html(turn.get("left", []), turn.get("penalty", "?"), okey, lang)}'


def _kind(k: Any, lang: str) -> str:
    """An opening's kind (points, pairs) or a decision's (take, place, discard) in words."""
    for key in (f"kind_{k}", f"k_{k}"):
        if key in WORDS:
            return word(key, lang)
    return str(k or "")


def detail_html(m: Mistake, okey: Tile, lang: str = "en") -> str:
    """A finding's numbers in plain words, tiles drawn: no raw dumps."""
    d = m.detail
    out: list[str] = []

    def tiles(key: str, items: Any) -> None:
        out.append(esc(word(key, lang, tiles="\x00")).replace("\x00", notation(_tiles_of(items), okey)))

    if d.get("tile"):
        tiles("d_tile", d["tile"])
    if d.get("best_tile"):
        tiles("d_best_tile", d["best_tile"])
    if d.get("free"):
        tiles("d_free", d["free"])
    if "played_exposure" in d and "exposure" in d:
        kind = _kind(d.get("kind"), lang)
        out.append(esc(word("d_exposure", lang, n=d["played_exposure"], b=d["exposure"])) + " · "
                   + esc(f'{kind} {d.get("value")}'))
    elif "exposure" in d and "best_exposure" in d:
        out.append(esc(word("d_exposure", lang, n=d["exposure"], b=d["best_exposure"])))
    elif "exposure" in d and "value" in d:
        kind = _kind(d.get("kind"), lang)
        out.append(esc(word("d_option", lang, kind=kind, v=d["value"], b=d["exposure"])))
    if "best_value" in d:
        out.append(esc(word("d_played_value", lang, v=d.get("value"))))
    if "after" in d:
        kind = _kind(d.get("kind"), lang)
        out.append(esc(f'{kind} {d.get("value")} → {d["after"]}') + " · " + esc(word("d_after", lang, n=d["after"])))
    if "threshold" in d:
        out.append(esc(word("d_threshold", lang, n=d["threshold"])))
    for key in ("carried", "bonus", "okeys", "charged_before", "deck", "written"):
        if d.get(key):
            out.append(esc(word("d_" + key, lang, n=d[key])))
    if d.get("rule"):
        out.append(esc(word("d_rule", lang, r=d["rule"])))
    if d.get("hindsight"):
        out.append(esc(word("d_hindsight", lang)))
    if "expected_played" in d and "expected_best" in d:
        out.append(esc(word("d_expected", lang, p=d["expected_played"], b=d["expected_best"])))
    if d.get("note"):
        out.append(esc(word("d_note", lang)))
    return " · ".join(out)


def _badge(m: Mistake, lang: str) -> str:
    sev = SEVERITY_WORD[m.severity][0 if lang == "tr" else 1]
    return f'<span class="sev" style="background:{SEVERITY_COLOUR[m.severity]}">{esc(sev)}</span>'


def _same_step(ms: Sequence[tuple[Mistake, Decision]], n_steps: int) -> list[list[tuple[Mistake, Decision]]]:
    """The findings (in turn order) grouped by decision and step: one drawing of the position each."""
    groups: list[list[tuple[Mistake, Decision]]] = []
    for m, d in ms:
        step = min(max(m.step, 0), n_steps - 1)
        if groups and groups[-1][0][1] is d and min(max(groups[-1][0][0].step, 0), n_steps - 1) == step:
            groups[-1].append((m, d))
        else:
            groups.append([(m, d)])
    return groups


def _findings_html(group: Sequence[tuple[Mistake, Decision]], state: HandState, players: Sequence[str],
                   lang: str, anchor: str = "") -> str:
    """The findings of one step, closed: a line each in the summary (how bad, what, who, when,
    the cost); opened, each finding in words, then the rack, the table, what was played and the
    best line, drawn once for them all."""
    d = group[0][1]
    heads = " · ".join(f'{_badge(m, lang)} <b>{esc(category_name(m.category, lang))}</b> '
                       f'{esc(word("points", lang, n=m.cost))}' for m, _ in group)
    who = group[0][0].seat
    cards = "".join(
        f'<div class="m" data-category="{esc(m.category)}"><b>{esc(category_name(m.category, lang))}</b>'
        f'{"" if m.seat == who else " — " + esc(players[m.seat])} · {esc(word("turn", lang, n=d.turn + 1))} · '
        f'<span class="lbl">{esc(word("step", lang, step=m.step, line=m.line))}</span>'
        f'<div class="lbl">{esc(definition(m.category, lang))}</div>'
        f'<div>{detail_html(m, state.okey, lang)}</div></div>' for m, _ in group)
    extra = f'<div>{esc(word("d_okeys_kept", lang))}</div>' if d.played.get("okeys_kept") else ""
    return (f'<details class="f"{anchor}><summary>{heads} — {esc(players[who])} · '
            f'{esc(word("turn", lang, n=d.turn + 1))}</summary>{cards}<div class="dw">{extra}'
            f'<div>{esc(word("rack", lang))}: {rack(state.racks[who], state.okey)}</div>'
            f'<div>{esc(word("table", lang))}: {table(state, players, lang)}</div>'
            f'<div>{esc(word("played", lang))}: {events_html(d.played.get("events", []), state.okey, lang)}</div>'
            f'{best_html(d.best, state.okey, lang)}</div></details>')


def _pm(c: Choice, x: float) -> str:
    return f"{x:.0f} ± {c.ci:.0f}" if c.ci is not None and c.worlds else f"{x:.0f}"


def _choice_html(c: Choice, d: Decision, okey: Tile, players: Sequence[str], lang: str) -> str:
    rows = []
    for i, x in enumerate(shown(c), 1):
        cls = ' class="pl"' if x.get("played") else ""
        mark = f' ({esc(word("played", lang))})' if x.get("played") else ""
        tie = f' <span class="lbl">= {esc(word("as_good", lang))}</span>' if x.get("tie") else ""
        exp = "—" if x.get("expected") is None else f'{float(x["expected"]):.1f} ± {2 * float(x.get("se") or 0):.1f}'
        rows.append(f'<tr{cls}><td>{i}</td><td>{esc(describe(x.get("events") or [], x.get("move", ""), lang))}{mark}'
                    f'{tie}</td><td>{exp}</td></tr>')
    labels = [m for m in d.mistakes if CATEGORY_KIND.get(m.category) == c.kind]
    cost = (f' · {esc(word("cost", lang))} <b>{esc(word("points", lang, n=_pm(c, c.cost)))}</b>' if c.cost > 0 else "")
    worlds = f' · <span class="lbl">{esc(word("worlds", lang, n=c.worlds))}</span>' if c.worlds else ""
    return (f'<div class="d" data-kind="{esc(c.kind)}"><b>{esc(word("turn", lang, n=d.turn + 1))}</b> · '
            f'{esc(players[d.seat])} · {esc(word("k_" + c.kind, lang))}{cost}{worlds}'
            f'<div>{esc(word("played", lang))}: {events_html(c.played_events, okey, lang)}</div>'
            f'<table><tr><th>#</th><th>{esc(word("move", lang))}</th><th>{esc(word("expected", lang))}</th></tr>'
            f'{"".join(rows)}</table>'
            f'<div class="lesson">{esc(sentence(c, lang))}</div>'
            + (f'<div class="lbl">{esc(split)}</div>' if (split := parts_line(c, lang)) else "") +
            f'<div>{esc(word("best_line", lang))}: {events_html(c.best_events, okey, lang)}</div>'
            + "".join(_mistake_line(m, okey, players, d, lang) for m in labels) + "</div>")


def _quiet_line(c: Choice, d: Decision, players: Sequence[str], lang: str) -> str:
    """A decision without a cost (or under the report's floor) in one line, inside the hand's
    collapsed list: who, which decision, what was played, its cost, forced or not."""
    what = describe(c.played_events, c.played, lang)
    tag = esc(word("forced", lang)) if c.forced else esc(word("points", lang, n=_pm(c, c.cost) if c.cost > 0 else 0))
    return (f'<li data-kind="{esc(c.kind)}" id="{anchor_id(d.ord, d.turn, c.kind)}">'
            f'{esc(word("turn", lang, n=d.turn + 1))} · {esc(players[d.seat])} · '
            f'{esc(word("k_" + c.kind, lang))}: {esc(what)} · {tag}</li>')


def _mistake_line(m: Mistake, okey: Tile, players: Sequence[str], d: Decision, lang: str) -> str:
    return (f'<div class="m" data-category="{esc(m.category)}">{_badge(m, lang)} '
            f'<b>{esc(category_name(m.category, lang))}</b> · {esc(word("points", lang, n=m.cost))}'
            f'<div class="lbl">{esc(definition(m.category, lang))} · {detail_html(m, okey, lang)}</div></div>')


def _hand_deep(h: HandReview, hr: Any, players: Sequence[str], lang: str, min_cost: float = 0,
               keep: frozenset[str] = frozenset()) -> list[str]:
    """One deep-reviewed hand: the seats' actual and expected scores, each decision that costs more
    than ``min_cost`` written out (its lesson, the whole decision a click away), the rest collapsed
    into one closed list. A key moment's decision (its anchor in ``keep``) is written out whatever
    its cost, so the moment's link never lands inside the closed list."""
    exp = hand_expected(h, hr.steps[0].state.rules if hr.steps else None)
    actual = hr.totals()
    # one column per player (as the statistics table): three short rows fit a phone
    out = [f'<div class="wide"><table><tr><th></th>{"".join(f"<th>{esc(players[s])}</th>" for s in range(4))}</tr>'
           f'<tr><th>{esc(word("actual", lang))}</th>{"".join(f"<td>{actual[s]}</td>" for s in range(4))}</tr>'
           f'<tr><th>{esc(word("evaluator", lang))}</th>'
           + "".join(f'<td>{"—" if exp[s] is None else f"{exp[s]:.1f}"}</td>' for s in range(4))
           + "</tr></table></div>"]
    okey = hr.steps[0].state.okey if hr.steps else None
    quiet: list[str] = []
    forced = 0
    for d in h.decisions:
        if okey is None:
            break
        for c in d.choices:
            if _written(c, d, min_cost, keep):  # one line (the lesson), the whole decision a click away
                sev = severity(round(c.cost))
                badge = (f'<span class="sev" style="background:{SEVERITY_COLOUR[sev]}">'
                         f'{esc(SEVERITY_WORD[sev][0 if lang == "tr" else 1])}</span>')
                out.append(f'<details class="dd" id="{anchor_id(d.ord, d.turn, c.kind)}"><summary>{badge} '
                           f'{esc(word("turn", lang, n=d.turn + 1))} · '
                           f'{esc(players[d.seat])} · <b>{esc(word("points", lang, n=_pm(c, c.cost)))}</b> — '
                           f'{esc(sentence(c, lang))}</summary>{_choice_html(c, d, okey, players, lang)}</details>')
            else:  # collapsed: an 11-hand report stays a few screens long
                quiet.append(_quiet_line(c, d, players, lang))
                forced += bool(c.forced)
        kinds = {c.kind for c in d.choices if _written(c, d, min_cost, keep)}
        for m in d.mistakes:  # the findings of the collapsed decisions go with them, one line each
            if CATEGORY_KIND.get(m.category) not in kinds:
                pts = f" · {esc(word('points', lang, n=m.cost))}" if m.cost else ""
                quiet.append(f'<li data-category="{esc(m.category)}">{esc(category_name(m.category, lang))} · '
                             f'{esc(players[m.seat])}{pts}</li>')
    if quiet:
        head = (word("collapsed", lang, n=len(quiet), f=forced, floor=f"{min_cost:g}") if min_cost
                else word("collapsed_zero", lang, n=len(quiet), f=forced))
        out.append(f'<details class="z"><summary>{esc(head)}</summary><ul>{"".join(quiet)}</ul></details>')
    return out


def _written(c: Choice, d: Decision, min_cost: float, keep: frozenset[str]) -> bool:
    """Is the decision written out, not collapsed: a cost over the floor, or a key moment's."""
    return c.cost > 0 and (c.cost > min_cost or anchor_id(d.ord, d.turn, c.kind) in keep)


def anchor_id(ord: int, turn: int, kind: str) -> str:
    """The id of a decision written in the report, that a key moment links to."""
    return f"d-{ord}-{turn}-{kind}"


def moments_html(per_seat: Sequence[Sequence[Moment]], lang: str = "en") -> str:
    """The report's opening section: each player's key moments (:mod:`.moments`), costliest first,
    each with its cost, where it was, its lesson and a link down to the decision written out."""
    parts = [f'<section class="km" id="key-moments"><h2>{esc(word("key_moments", lang))} '
             f'<span class="lbl">{esc(word("km_note", lang))}</span></h2><div class="kmg">']
    for seat, ms in enumerate(per_seat):
        if not ms:
            continue
        parts.append(f'<div><h3>{esc(ms[0].player)}</h3><ol data-seat="{seat}">')
        for m in ms:
            sev = m.severity
            badge = (f'<span class="sev" style="background:{SEVERITY_COLOUR[sev]}">'
                     f'{esc(SEVERITY_WORD[sev][0 if lang == "tr" else 1])}</span>')
            where = word("km_where", lang, hand=m.hand, turn=m.turn + 1, step=m.step)
            parts.append(f'<li data-step="{m.step}" data-hand="{m.hand}">{badge} '
                         f'<b>{esc(word("points", lang, n=f"{m.cost:.0f}"))}</b> · {esc(where)} — '
                         f'{esc(m.lesson)} <a href="#{anchor_id(m.ord, m.turn, m.kind)}">'
                         f'{esc(word("km_open", lang))}</a></li>')
        parts.append("</ol></div>")
    if len(parts) == 1:
        parts.append(f'<p>{esc(word("km_none", lang))}</p>')
    return "".join(parts) + "</div></section>"


def luck_html(splits: Sequence[Any], lang: str = "en") -> str:
    """The luck and skill split of each hand of the reviewed seats (:class:`analysis.review.luck.HandSplit`)
    as a small table: hand, player, the deal's expected score, the luck, the decisions' cost, the
    noise, the actual and the luck-adjusted score."""
    if not splits:
        return ""

    def n(x: float) -> str:
        s = f"{x:.1f}"
        return s.replace(".", ",") if lang == "tr" else s

    head = "".join(f"<th>{esc(word(k, lang))}</th>" for k in ("hand", "luck_player", "luck_deal", "luck_luck",
                                                               "luck_cost", "luck_noise", "luck_actual",
                                                               "luck_adjusted"))
    rows = [f'<tr data-hand="{s.hand}" data-seat="{s.seat}"><td>{s.hand}</td><td>{esc(s.player)}</td>'
            f"<td>{n(s.deal)}</td><td>{n(s.luck_total - s.deal_luck)}</td><td>{n(s.cost)}</td>"
            f"<td>{n(s.noise)}</td><td>{n(s.actual)}</td><td><b>{n(s.adjusted)}</b></td></tr>" for s in splits]
    return (f'<h2 id="luck">{esc(word("luck_title", lang))}</h2><p class="lbl">{esc(word("luck_note", lang))}</p>'
            f'<table class="luck"><tr>{head}</tr>{"".join(rows)}</table>')


def render(res: GameResult, gr: GameReview, lang: str = "en", min_cost: float = 0, notes: Sequence[Any] = (),
           luck: Sequence[Any] = ()) -> str:
    """The review report of one game (``res`` replayed with its steps) as a standalone HTML page,
    in Turkish (``lang="tr"``) or English. A deep review's decisions costing ``min_cost`` or less
    (those without a cost, forced ones) are collapsed into one closed list per hand. ``notes``: the
    coach's notes on the game (:mod:`analysis.store.notes`), each under its hand's heading. ``luck``:
    the hands' luck and skill splits (:func:`analysis.review.luck.split_game`), shown as a table
    after the summary."""
    if lang not in ("tr", "en"):
        raise ValueError(f"lang must be 'tr' or 'en', not {lang!r}")
    noted: set[int] = set()  # hand numbers whose notes are written (a void hand's number comes again, E3)
    players = gr.players
    depth = word("deep" if gr.depth == "deep" else "quick", lang)
    moments = key_moments(gr, lang)
    keep = frozenset(anchor_id(m.ord, m.turn, m.kind) for ms in moments for m in ms)
    out = [(f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(word("title", lang))}: '
            f'{esc(gr.game)}</title><style>{CSS}{report_notes.CSS}</style></head><body>'),
           f'<h1>{esc(word("title", lang))} — {esc(gr.game)}</h1>',
           (f'<p class="lbl">{esc(word("variant", lang))} {esc(gr.variant)} · {esc(res.header.get("started", ""))} · '
            f'{esc(res.header.get("site", ""))} · {esc(depth)} · {esc(gr.version)}</p>'),
           moments_html(moments, lang)]
    rows = gr.summary()
    out.append(stats_html(rows, lang, gr.depth == "deep"))
    out.append(luck_html(luck, lang))
    total_forced = sum(row["forced"] for row in rows)
    if gr.depth == "deep":
        w = pricing_worlds(gr)
        out.append(f'<p class="lbl">{esc(word("pricing_note", lang, w=w, c=(CONFIRM - 1) * w, f=total_forced))} '
                   f'{esc(word("evaluator", lang)).capitalize()}: {esc(word("expected_note", lang))}.'
                   + (f' · {esc(word("floor_note", lang, n=f"{min_cost:g}"))}' if min_cost else "") + "</p>")
    by_ord = {i: h for i, h in enumerate(res.hands, 1)}
    for hrv in gr.hands:
        hr = by_ord.get(hrv.ord)
        if hr is None:
            continue
        # findings in turn order within the hand
        ms = sorted(((m, d) for d in hrv.decisions for m in d.mistakes), key=lambda x: (x[1].turn, x[0].step))
        scores = " ".join(esc(x) for x in hr.totals())
        result = word("result_" + hrv.result, lang) if "result_" + hrv.result in WORDS else hrv.result
        out.append(f'<h2>{esc(word("hand", lang))} {hrv.hand} — {esc(result)} · {esc(word("scores", lang))} '
                   f'{scores} · {esc(word("n_mistakes", lang, n=len(ms)))}</h2>')
        if hrv.hand not in noted:
            noted.add(hrv.hand)
            out += report_notes.hand_notes(notes, hrv.hand, hr, players, lang,
                                           lambda ev, okey: events_html([ev], okey, lang))
        if gr.depth == "deep":
            out += _hand_deep(hrv, hr, players, lang, min_cost, keep)
            continue
        if not ms:
            out.append(f'<p class="lbl">{esc(word("no_mistakes", lang))}</p>')
        seen: set[tuple[int, int]] = set()
        for group in _same_step(ms, len(hr.steps)):
            d = group[0][1]
            first = (d.ord, d.turn) not in seen  # a key moment links to its turn's first finding
            seen.add((d.ord, d.turn))
            step = min(max(group[0][0].step, 0), len(hr.steps) - 1)
            out.append(_findings_html(group, hr.steps[step].state, players, lang,
                                      f' id="{anchor_id(d.ord, d.turn, "turn")}"' if first else ""))
    out += report_notes.other_notes(notes, noted, players, lang)
    out.append(f'<h2>{esc(word("categories", lang))}</h2><details class="g"><summary>'
               f'{esc(word("categories_open", lang, n=len(CATEGORIES)))}</summary><table>')
    out += [f"<tr><td>{esc(category_name(k, lang))}</td><td>{esc(definition(k, lang))}</td></tr>" for k in CATEGORIES]
    out.append("</table></details></body></html>")
    return "\n".join(out)


__all__ = ["anchor_id", "best_html", "detail_html", "events_html", "luck_html", "moments_html", "render"]
