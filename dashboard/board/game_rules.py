"""A game's rules as a reader sees them: its preset and the options its log overrides, team
totals for partner games, and a hand's score explained seat by seat ("0: partner finished, E8").

The numbers come from the engine (``analysis.game.explain_state``: the parts it summed into the
hand's scores); this module only words them, in Turkish and English, with rule IDs linked to the
Rules page.
"""

from __future__ import annotations

from dashboard.words.locale import table
import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from analysis.game import (
    HIDDEN,
    PRESETS,
    HandState,
    Rules,
    RulesError,
    ScoreLine,
    explain_state,
    resolve,
    team_totals,
)

from dashboard.words.i18n import lookup, md_plain
from dashboard.words.rule_links import link_rules
from dashboard.words.seatview_words import t as sv
from dashboard.board.tiles_view import esc

# option -> (Turkish, English, rule); the option names of docs/rules.md "Presets and options"
OPTIONS: dict[str, tuple[str, str, str]] = {
    "deal": ("dağıtılan taş", "tiles dealt", "D1"),
    "open_points": ("açar (sayı)", "points to open", "O1"),
    "katlamali": ("katlamalı", "katlamalı (escalating)", "O2"),
    "open_pairs": ("açmak için çift", "çift to open", "O3"),
    "pairs_escalating": ("çiftler katlanır", "çift openings escalate", "O3"),
    "gosterge": ("gösterge gösterilir", "gösterge can be shown", "O7"),
    "layoff_opening_turn": ("açılan sırada işlemek", "lay off in the opening turn", "L6"),
    "run_end_cap": ("uç başına iki taş", "two tiles per run end", "L3"),
    "declare_pairs": ("çifte gidiyorum demek", "declare çift", "O10"),
    "open_below_finishing": ("bitirirken eşik altı açmak", "open under the threshold to finish", "O9"),
    "siler": ("siler", "siler", "O8"),
    "siler_points": ("siler sayısı", "siler points", "O8"),
    "siler_pairs": ("siler çifti", "siler çift", "O8"),
    "cezali": ("cezalı", "cezalı (penalties)", "X1"),
    "penalty_unit": ("ceza birimi", "penalty unit", "X1"),
    "x5": ("attığı taşla açtırma cezası", "penalty for a discard that opens the next player", "X5"),
    "x5_factor": ("açtıran taş katı", "opening-discard factor", "X5"),
    "x6": ("okeyi alınma cezası", "penalty for your okey taken", "X6"),
    "x7": ("işlenenleri geri alma cezası", "penalty for taking lay-offs back", "X7"),
    "pairs_discard_takeable": ("çift açanın taşı alınır", "a çift opener's discard may be taken", "P4"),
    "unopened_penalty": ("açmayana", "unopened player gets", "E5"),
    "okey_in_rack": ("elde kalan okey", "okey left in the rack", "E5"),
    "finisher_bonus": ("bitirene", "finisher gets minus", "E5"),
    "multipliers": ("çarpanlar", "multipliers", "E6"),
    "void_all_pairs": ("dört çift açan eli bozar", "four çift openers void the hand", "E3"),
    "hands": ("el sayısı", "hands", "G1"),
    "match_points": ("maç puanı", "match points", "G3"),
    "esli": ("eşli", "eşli (partners)", "G4"),
}

STRINGS: dict[str, tuple[str, str]] = table("game_rules")


def t(key: str, lang: str, **fields_: object) -> str:
    return lookup(STRINGS, key, lang, **fields_)


def _name(text: object) -> str:
    """A name from a log, shown literally in Markdown: no HTML, no formatting, no link."""
    return md_plain(esc(str(text)))


def overrides(rules: Rules) -> dict[str, Any]:
    """The options where ``rules`` differs from its own preset."""
    base = PRESETS.get(rules.variant)
    if base is None:
        return {}
    return {f.name: getattr(rules, f.name) for f in fields(Rules)
            if f.name != "variant" and getattr(rules, f.name) != getattr(base, f.name)}


def _value(v: Any, lang: str) -> str:
    if isinstance(v, bool):
        return t("on" if v else "off", lang)
    return str(v)


def _option(name: str, v: Any, lang: str) -> tuple[str, str]:
    tr_label, en_label, rule = OPTIONS.get(name, (name, name, ""))
    label = en_label if lang == "en" else tr_label
    if name == "esli" and v is True:
        return label, rule
    return f"{label}: {_value(v, lang)}", rule


def rules_markdown(rules: Rules | None, lang: str) -> str:
    """``Rules: `101` · katlamalı: off (O2) · unopened player gets: 101 (E5)``, IDs linked."""
    if rules is None:
        return ""
    parts = [f"{label} ({rule})" if rule else label
             for label, rule in (_option(k, v, lang) for k, v in overrides(rules).items())]
    text = t("rules_line", lang, preset=f"`{rules.variant}`") + " · " + (" · ".join(parts) or t("rules_none", lang))
    return link_rules(text, lang)


def rules_of(variant: Any, overrides_json: Any) -> Rules | None:
    """A stored game's rules from its variant and its log's ``rules`` object (JSON text)."""
    try:
        extra = json.loads(overrides_json) if isinstance(overrides_json, str) and overrides_json else None
        return resolve(str(variant or "101"), extra)
    except (RulesError, ValueError, TypeError):
        return None


def rules_brief(variant: Any, overrides_json: Any, lang: str) -> str:
    """The Games table's cell: the preset and its overrides in words, without links."""
    rules = rules_of(variant, overrides_json)
    if rules is None:
        return str(variant or "")
    parts = [label for label, _ in (_option(k, v, lang) for k, v in overrides(rules).items())]
    return " · ".join([rules.variant, *parts])


def teams_text(totals: Sequence[int] | None, players: Sequence[str], lang: str) -> str:
    """``Team 0+2 (Ali, Mehmet): 120 · Team 1+3 (Ayşe, Zeynep): −30`` (names escaped for Markdown)."""
    if totals is None or len(totals) != 4:
        return ""
    a, b = team_totals(totals)
    return " · ".join(t("team", lang, a=x, b=x + 2, names=_name(f"{players[x]}, {players[x + 2]}"), total=v)
                      for x, v in ((0, a), (1, b)))


def _overrides_column(df: Any) -> list[Any]:
    return list(df["rule_overrides"]) if "rule_overrides" in df else [None] * len(df)


def rules_column(df: Any, lang: str) -> dict[str, list[str]]:
    """The Games table's rules column: each game's preset and its log's overrides in words."""
    return {t("col_rules", lang): [rules_brief(v, o, lang) for v, o in zip(df["variant"], _overrides_column(df))]}


def teams_column(df: Any, lang: str) -> dict[str, list[str]]:
    """The Games table's team totals (0+2 · 1+3) of eşli games; no column when none is listed."""
    rules = [rules_of(v, o) for v, o in zip(df["variant"], _overrides_column(df))]
    if not any(r is not None and r.esli for r in rules):
        return {}
    return {t("col_teams", lang): [
        " · ".join(str(x) for x in team_totals(list(tot)))
        if r is not None and r.esli and tot is not None and len(tot) == 4 else ""
        for r, tot in zip(rules, df["totals"])]}


def _line(ln: ScoreLine, name: str, rules: Rules, lang: str) -> str:
    """One seat's line: the score, how it was made, and the rules that made it."""
    mult = t("why_mult", lang, m=ln.mult) if ln.mult != 1 else ""
    cite = f" (E5, {rules.multipliers})" if ln.mult != 1 else " (E5)"
    if ln.why == "finisher":
        return t("why_finisher", lang, name=name, score=ln.score, bonus=rules.finisher_bonus) + mult + cite
    if ln.why == "partner":
        return t("why_partner", lang, name=name)
    if ln.why == "nobody_opened":
        return t("why_nobody", lang, name=name)
    if ln.why == "unopened":
        return t("why_unopened", lang, name=name, score=ln.score, base=rules.unopened_penalty) + mult + cite
    text = t("why_rack", lang, name=name, score=ln.score, tiles=ln.tiles)
    if ln.doubled:
        text += t("why_doubled", lang)
    text += mult
    if ln.okeys:
        text += t("why_okeys", lang, n=ln.okeys, points=ln.okey_points)
    return text + cite


def score_explanation_lines(lines: Sequence[ScoreLine], players: Sequence[str], rules: Rules,
                            lang: str) -> list[str]:
    """The engine's score lines in words, one per seat (names escaped, IDs not yet linked)."""
    return [_line(ln, _name(players[ln.seat]), rules, lang) for ln in lines]


def score_explanation(state: HandState, players: Sequence[str], lang: str,
                      result: str | None = None) -> list[str]:
    """Markdown lines, one per seat, saying how its hand-end score was made, then the in-game
    penalties; names escaped, rule IDs linked. ``result`` is the hand's result when the state
    alone does not tell it (invalid, unfinished)."""
    res = state.result or result
    out: list[str] = []
    lines = explain_state(state)
    if lines is not None:
        if res == "exhausted":
            out.append(t("why_exhausted", lang))
        out += score_explanation_lines(lines, players, state.rules, lang)
        for ln in lines:  # a seat-view log: a rack never shown is scored as the log wrote it
            if ln.why == "rack" and HIDDEN in state.racks[ln.seat] and state.scores is not None:
                out[out.index(_line(ln, _name(players[ln.seat]), state.rules, lang))] = sv(
                    "score_from_log", lang, name=_name(players[ln.seat]), score=state.scores[ln.seat])
    elif res in ("void", "invalid", "unfinished"):
        out.append(t(f"why_{res}", lang))
    for s in range(4):
        pens = [p for p in state.penalties if p.seat == s]
        if pens:
            items = ", ".join(f"{p.points:+d} ({p.rule})" for p in pens)
            out.append(t("why_penalties", lang, name=_name(players[s]), items=items))
    return [link_rules(x, lang) for x in out]
