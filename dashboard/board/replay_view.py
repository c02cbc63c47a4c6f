"""What the replayer says about a step: move descriptions, the hand-end score table, and the
comparison of the solver's best play with what the player did. No Streamlit here; the HTML
built here escapes every text from a log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analysis.game import HandState
from analysis.game import Rules
from analysis.game import FinishInfo, multiplier
from analysis.game import Tile

from dashboard.words.i18n import STRINGS, t
from dashboard.words.rule_links import link_rules_html
from dashboard.words.seatview_words import t as sv
from dashboard.board.tiles_view import esc, notation_row, tile_html


def _tiles_text(items: Any) -> str:
    if isinstance(items, list):
        return " ".join(_tiles_text(x) for x in items) if items and isinstance(items[0], list) \
            else "-".join(str(x) for x in items)
    return str(items)


def describe(ev: Mapping[str, Any], players: Sequence[str], lang: str) -> str:
    """One event as a line of the move list (plain text: the list is a data frame)."""
    kind = str(ev.get("type"))
    if kind == "hand":
        s = ev.get("starter", 0)
        return t("ev_hand", lang, name=players[s] if isinstance(s, int) and 0 <= s < 4 else s)
    if kind == "draw" and "tile" not in ev:  # a hidden seat's draw in a seat-view log
        return sv("ev_hidden_draw", lang)
    if kind in ("draw", "take", "return", "show", "discard"):
        return t(f"ev_{kind}", lang, tile=ev.get("tile", ""))
    if kind in ("open", "meld"):
        if "pairs" in ev:
            what = f"{len(ev['pairs'])} çift: " + " ".join(_tiles_text(p) for p in ev["pairs"])
        else:
            what = " · ".join(_tiles_text(m) for m in ev.get("melds", []))
        return t(f"ev_{kind}", lang, what=what)
    if kind in ("layoff", "swap"):
        return t(f"ev_{kind}", lang, tiles=_tiles_text(ev.get("tiles", [])), meld=ev.get("meld"))
    if kind == "penalty":
        return t("ev_penalty", lang, points=ev.get("points"))
    if kind == "end":
        reason = str(ev.get("reason"))
        return t("ev_end", lang, reason=t(f"end_{reason}", lang) if f"end_{reason}" in STRINGS else reason)
    return t(f"ev_{kind}", lang)


def finish_explanation(rules: Rules, state: HandState, lang: str) -> list[str]:
    """The finish kinds and the multipliers they give (E6 / E7), one line each."""
    if state.result != "finish":
        return []
    kinds = list(state.finish_kinds)
    lines = [t(f"kind_{k}", lang) for k in kinds] or [t("kind_normal", lang)]
    others_open = any(state.opened[s] is not None for s in range(4) if s != state.finisher)
    f, o = multiplier(rules, FinishInfo("finish", state.finisher, tuple(kinds), others_open))
    lines.append(t("multiplier_note", lang, f=f, o=o, rule=rules.multipliers))
    return lines


def score_rows(state: HandState, players: Sequence[str], before: Sequence[int], lang: str) -> list[dict[str, Any]]:
    """Per seat: this hand's score, its in-game penalties and the game total after it."""
    rows = []
    scores = state.scores or (0, 0, 0, 0)
    for s in range(4):
        pens = sum(p.points for p in state.penalties if p.seat == s)
        rows.append({t("col_player", lang): players[s], t("col_hand_score", lang): scores[s],
                     t("col_penalties", lang): pens, t("col_total", lang): before[s] + scores[s] + pens})
    return rows


def running_totals(state: HandState, before: Sequence[int]) -> list[int]:
    """Game totals as they stand at this step: earlier hands, penalties so far, and the hand's
    scores once it is over."""
    out = list(before)
    for p in state.penalties:
        out[p.seat] += p.points
    if state.over and state.scores:
        for s in range(4):
            out[s] += state.scores[s]
    return out


# ---- the solver's suggestion against what was played -------------------------------------

def _get(d: Any, *keys: str, default: Any = None) -> Any:
    """A field of a solver result, whether it is a dict or an object."""
    for k in keys:
        if isinstance(d, Mapping):
            if k in d:
                return d[k]
        elif d is not None and hasattr(d, k):
            return getattr(d, k)
    return default


def opening_html(res: Any, okey: Tile, lang: str, *, kind: str) -> str:
    """A best points (per) or pairs (çift) opening drawn as tiles: value, threshold, tiles left."""
    if not res:
        return ""
    ok = _get(res, "reaches", default=False)
    if kind == "points":
        title = t("best_points", lang, v=_get(res, "value", default=0), t=_get(res, "threshold", default="?"))
        melds = _get(res, "melds", default=[]) or []
    else:
        title = t("best_pairs", lang, v=_get(res, "count", "value", default=0), t=_get(res, "threshold", default="?"))
        melds = _get(res, "pairs", default=[]) or []
    badge = (f'<span class="ist-badge {"open" if ok else "closed"}">'
             f'{esc(t("reaches" if ok else "not_reaches", lang))}</span>')
    rows = "".join(f'<span class="ist-meld">{notation_row([str(x) for x in m], okey, small=True)}</span>'
                   for m in melds if isinstance(m, (list, tuple)))
    left = [str(x) for x in (_get(res, "left", default=[]) or [])]
    return (f'<div class="ist-plain" data-kind="{kind}"><div><b>{esc(title)}</b> {badge}</div>'
            f'<div>{rows or esc(t("none", lang))}</div>'
            f'<div class="lbl">{esc(t("left", lang))}: {notation_row(left, okey, small=True)}</div></div>')


def played(before: HandState, after: HandState, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What ``seat`` did in one turn: its opening, what it placed, swaps, the rack it kept."""
    kinds = [str(e.get("type")) for e in events]
    op_before, op_after = before.opened[seat], after.opened[seat]
    opened = op_before is None and op_after is not None
    placed = sum(len(e.get("tiles", [])) for e in events if e.get("type") == "layoff")
    for e in events:
        if e.get("type") in ("open", "meld"):
            placed += sum(len(m) for m in e.get("melds", e.get("pairs", [])))
    return {
        "opened": opened, "kind": op_after.kind if opened and op_after else None,
        "value": op_after.value if opened and op_after else None,
        "placed": placed, "swapped": "swap" in kinds, "events": list(events),
        "rack": after.racks[seat],
    }


def compare(sol: Mapping[str, Any] | None, before: HandState, did: Mapping[str, Any], seat: int,
            lang: str) -> list[str]:
    """Lines saying what the player did against the best play, and what it cost."""
    if not sol:
        return []
    out: list[str] = []
    if before.opened[seat] is None:
        pts = _get(sol, "points") or {}
        prs = _get(sol, "pairs") or {}
        best_v = _get(pts, "value", default=0) or 0
        best_p = _get(prs, "count", "value", default=0) or 0
        p_ok = bool(_get(pts, "reaches", default=False))
        c_ok = bool(_get(prs, "reaches", default=False))
        if did["opened"] and did["kind"] == "points":
            out.append(t("cmp_opened_less", lang, v=did["value"], best=best_v) if did["value"] < best_v
                       else t("cmp_opened_best", lang, v=did["value"]))
        elif did["opened"] and did["kind"] == "pairs":
            out.append(t("cmp_pairs_less", lang, v=did["value"], best=best_p) if did["value"] < best_p
                       else t("cmp_opened_best", lang, v=f"{did['value']} çift"))
        elif p_ok or c_ok:
            best = f"{best_v}" if p_ok else f"{best_p} çift"
            out.append(t("cmp_not_opened", lang, best=best))
        else:  # nothing reached a threshold: say so, never an empty heading
            out.append(t("cmp_could_not_open", lang, v=best_v, tv=_get(pts, "threshold", default="?"),
                         c=best_p, tc=_get(prs, "threshold", default="?")))
        return out
    plan = _get(sol, "plan") or {}
    if _get(plan, "swaps") and not did["swapped"]:
        out.append(t("cmp_kept_okey", lang))
    best_pen = _get(plan, "penalty")
    if isinstance(best_pen, int):
        from analysis.solver import rack_penalty as solver_penalty

        op = before.opened[seat]
        mine = solver_penalty(list(did["rack"]), before.okey, before.rules, op is not None and op.kind == "pairs")
        if mine > best_pen:
            out.append(t("cmp_left_more", lang, v=mine, best=best_pen))
    if not out:
        out.append(t("cmp_ok", lang))
    return out


def suggestion_html(sol: Mapping[str, Any], state: HandState, seat: int, lang: str) -> str:
    """The solver's best play for ``seat`` drawn as tiles."""
    okey = state.okey
    parts: list[str] = []

    def melds_block(title: str, melds: Sequence[Any]) -> None:
        rows = "".join(f'<span class="ist-meld">{notation_row(m, okey, small=True)}</span>'
                       for m in melds if isinstance(m, (list, tuple)))
        parts.append(f'<div><b>{esc(title)}</b><br>{rows or esc(t("none", lang))}</div>')

    def left_block(items: Sequence[Any]) -> None:
        parts.append(f'<div class="lbl">{esc(t("left", lang))}: {notation_row([str(x) for x in items], okey, small=True)}</div>')

    if state.opened[seat] is None:
        parts.append(opening_html(_get(sol, "points"), okey, lang, kind="points"))
        parts.append(opening_html(_get(sol, "pairs"), okey, lang, kind="pairs"))
    else:
        plan = _get(sol, "plan") or {}
        parts.append(f'<div><b>{esc(t("plan", lang, p=_get(plan, "penalty", default="?")))}</b></div>')
        melds_block(t("plan_melds", lang), _get(plan, "melds", default=[]))
        def onto_melds(key: str, title: str, arrow: str) -> None:
            """The plan's lay-offs or swaps: tiles drawn under the table meld they go to."""
            rows = []
            for x in _get(plan, key, default=[]) or []:
                tiles = _get(x, "tiles", default=x if isinstance(x, list) else [])
                meld = _get(x, "meld", default="?")
                rows.append(f'<span class="ist-meld"><div class="own">{arrow} #{esc(meld)}</div>'
                            f'{notation_row([str(y) for y in tiles], okey, small=True)}</span>')
            parts.append(f'<div><b>{esc(t(title, lang))}</b><br>{"".join(rows) or esc(t("none", lang))}</div>')

        onto_melds("layoffs", "plan_layoffs", "→")
        onto_melds("swaps", "plan_swaps", "⇄")
        left_block(_get(plan, "left", default=[]))
        fin = _get(plan, "finishes")
        if fin:
            parts.append(f'<div class="ist-badge open">{esc(t("plan_finishes", lang))}</div>')
    parts.append(danger_html(_get(sol, "dangerous", default=None), state, lang))
    return f'<div class="ist-plain">{"".join(parts)}</div>'


def danger_cost(rule: str, tile: Tile, state: HandState) -> int:
    """What discarding ``tile`` would cost under ``rule`` (X4: one penalty unit where the preset
    is cezalı; X5: the preset's factor times the tile's value, a sahte okey counting as the okey)."""
    r = state.rules
    if not r.cezali:
        return 0
    if rule == "X5":
        return r.x5_factor * (state.okey.number if tile.is_joker else tile.number)
    return r.penalty_unit


def danger_html(danger: Mapping[str, Sequence[str]] | None, state: HandState, lang: str) -> str:
    """The dangerous discards (the solver's ``{"x4": [...], "x5": [...]}``), each tile drawn with
    its rule and what it would cost."""
    if danger is None:
        return ""
    items = []
    for rule in ("X4", "X5"):
        for text in danger.get(rule.lower(), []) or []:
            try:
                tile = Tile.parse(str(text))
            except ValueError:
                continue
            cost = danger_cost(rule, tile, state)
            items.append(f'<span class="ist-meld" data-danger="{rule}"><div class="own">{link_rules_html(rule, lang)} · '
                         f'{esc(t("danger_" + rule.lower(), lang))}</div>{tile_html(tile, state.okey, small=True)}'
                         f'<div class="own">{esc(t("danger_cost", lang, p=cost))}</div></span>')
    body = "".join(items) or esc(t("none", lang))
    return f'<div data-testid="ist-danger"><b>{esc(t("dangerous", lang))}</b><br>{body}</div>'
