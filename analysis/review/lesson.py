"""A review in words a player can use: each graded decision as one plain sentence in Turkish or
English, and a whole review as JSON (``istaka report GAME --json``).

Turkish sentences use the passive ("R9 atılsaydı": "had R9 been discarded") so that a tile's
name never needs a case ending, which would depend on how the tile is read aloud.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.evaluate import expected as calibrated
from analysis.game import GameResult, Rules

from .model import CATEGORIES, CONFIRM, Choice, Decision, GameReview, HandReview
from .reasons import cost_parts, reason_text

LANGS = ("tr", "en")

# why a labelled decision cost points, when an exact check found the reason
REASONS: dict[str, dict[str, str]] = {
    "missed_opening": {"en": "the rack could open this turn", "tr": "el bu tur açılabiliyordu"},
    "weaker_opening": {"en": "a stronger opening of the same kind was there", "tr": "aynı türden daha güçlü bir açılış vardı"},
    "missed_take": {"en": "the previous discard would have opened", "tr": "yerdeki taşla açılabiliyordu"},
    "missed_layoff": {"en": "more tiles could be laid off or melded", "tr": "daha fazla taş işlenebilir ya da per yapılabilirdi"},
    "missed_swap": {"en": "the okey on the table could be taken (S1, S2)", "tr": "yerdeki okey alınabilirdi (S1, S2)"},
    "missed_finish": {"en": "the hand could be finished", "tr": "el bitirilebilirdi"},
    "okey_discard": {"en": "an okey was thrown though another tile was free (X3)",
                     "tr": "cezasız bir taş varken okey atıldı (X3)"},
    "layoff_discard": {"en": "the thrown tile could be laid off on the table (X4)",
                       "tr": "atılan taş yerdeki bir pere işlenebilirdi (X4)"},
    "fed_opening": {"en": "the next player opened with this discard (X5)", "tr": "sonraki oyuncu bu taşla açtı (X5)"},
    "okey_kept": {"en": "an okey stayed in the rack to the end (E5)", "tr": "okey el sonuna kadar ıstakada kaldı (E5)"},
    "pairs_over_melds": {"en": "a melds opening left less in the rack", "tr": "perle açılış ıstakada daha az bırakırdı"},
    "melds_over_pairs": {"en": "a pairs opening left less in the rack", "tr": "çiftle açılış ıstakada daha az bırakırdı"},
    "missed_take_finish": {"en": "the previous discard would have finished the hand", "tr": "yerdeki taşla el bitebiliyordu"},
    "last_discard": {"en": "the deck was running out: the highest dead tile should go",
                     "tr": "deste bitiyordu: en yüksek ölü taş atılmalıydı"},
    "broke_opening": {"en": "the discard broke the best opening near its threshold",
                      "tr": "atılan taş eşiğe yakın en iyi açılışı bozdu"},
    "fed_finish": {"en": "the next player finished with this discard", "tr": "sonraki oyuncu bu taşla bitirdi"},
    "failed_opening": {"en": "an opening was taken back and charged (X2, X7)", "tr": "açılış geri alındı ve ceza yazıldı (X2, X7)"},
}


def _tiles(items: Any) -> str:
    if isinstance(items, (list, tuple)):
        return " ".join(_tiles(x) for x in items)
    return str(items)


def describe(events: Sequence[dict[str, Any]], label: str, lang: str) -> str:
    """A move (the events a candidate plays) in words."""
    tr = lang == "tr"
    if not events:
        return {"wait": "beklemek" if tr else "waiting", "nothing": "hiçbir şey koymamak" if tr else "placing nothing",
                "no show": "göstergeyi göstermemek" if tr else "not showing the gösterge",
                }.get(label, "hiçbir şey koymamak" if tr else "placing nothing")
    e0 = events[0]
    kind = e0.get("type")
    if kind == "draw":
        return "desteden çekmek" if tr else "drawing from the deck"
    if kind == "take":
        return f"yerdeki {e0.get('tile')} taşını almak" if tr else f"taking {e0.get('tile')}"
    if kind == "discard":
        return f"{e0.get('tile')} atmak" if tr else f"discarding {e0.get('tile')}"
    parts = []
    for e in events:
        k = e.get("type")
        if k == "open" and e.get("pairs"):
            n = len(e["pairs"])
            parts.append(f"{n} çiftle açmak ({_tiles(e['pairs'])})" if tr else f"opening with {n} pairs ({_tiles(e['pairs'])})")
        elif k == "open":
            ms = "; ".join(_tiles(m) for m in e.get("melds", []))
            parts.append(f"perlerle açmak ({ms})" if tr else f"opening with melds ({ms})")
        elif k == "meld":
            ms = "; ".join(_tiles(m) for m in e.get("melds", []) or e.get("pairs", []))
            parts.append(f"per koymak ({ms})" if tr else f"melding {ms}")
        elif k == "layoff":
            parts.append(f"{_tiles(e.get('tiles', e.get('tile', '')))} işlemek" if tr
                         else f"laying off {_tiles(e.get('tiles', e.get('tile', '')))}")
        elif k == "swap":
            given = _tiles(e.get("tiles", e.get("tile", "")))  # a swap event gives "tiles" (S1, S2)
            parts.append(f"okeyi {given} ile değiştirmek" if tr else f"swapping {given} for the okey")
        elif k == "takeback":
            parts.append("geri almak" if tr else "taking back")
        elif k == "show":
            parts.append(f"göstergeyi ({e.get('tile', '')}) göstermek" if tr else f"showing the gösterge {e.get('tile', '')}")
        elif k == "declare":
            parts.append("çifte gideceğini söylemek" if tr else "declaring pairs")
    if parts:
        return ", ".join(parts)
    return describe((), label, lang)  # nothing placed: never the candidate's internal label


FORCED_WORDS: dict[str, tuple[str, str]] = {
    "single": ("tek yasal hamle vardı", "it was the only legal move"),
    "take_returned": ("yerdeki taş tutulamazdı: onunla açamayan oyuncu onu geri verir (P2)",
                      "the discard could not be kept: a seat that cannot open with it gives it back (P2)"),
    "identical": ("adayların hepsi bütün dünyalarda aynı puanı aldı", "every candidate scored the same in every world"),
}

# quick-pass categories that may label a costed decision, by the reason the best line gives
# (reasons.py): a label never names what the recommended line does not do
CATEGORY_REASONS: dict[str, frozenset[str | None]] = {
    "missed_opening": frozenset({"opens", "finishes", "opens_higher"}),
    "weaker_opening": frozenset({"opens_higher"}),
    "pairs_over_melds": frozenset({"opens_melds"}),
    "melds_over_pairs": frozenset({"opens_pairs"}),
    "missed_finish": frozenset({"finishes"}),
    "missed_layoff": frozenset({"places_more", "finishes"}),
    "missed_swap": frozenset({"takes_okey"}),
    "missed_take": frozenset({"take_opens"}),
    "missed_take_finish": frozenset({"take_finishes"}),
    "okey_discard": frozenset({"keeps_okey"}),
    "layoff_discard": frozenset({"avoids_x4"}),
}


def label_fits(category: str, c: Choice) -> bool:
    """May the quick-pass ``category`` label the costed decision ``c``? Only when the reason its
    recommended line gives is one the category names (an old review without reasons: always)."""
    allowed = CATEGORY_REASONS.get(category)
    if allowed is None or (c.reason is None and c.worlds == 0):
        return True
    why = c.reason or {}
    return why.get("fact", why.get("code")) in allowed  # what the recommended line does


def _pm(c: Choice, x: float) -> str:
    """``24 ± 6``: a number with the interval it was priced with, when it has one."""
    return f"{x:.0f} ± {c.ci:.0f}" if c.ci is not None and c.worlds else f"{x:.0f}"


SHOWN = 3  # candidates a surface lists first (the played one added when it is not among them)
PART_WORDS: dict[str, tuple[str, str]] = {
    "hand": ("el sonu puanı", "hand-end score"), "paid": ("önceden yazılan ceza", "penalties already written"),
    "X2": ("X2 cezası", "X2 penalties"), "X3": ("X3 cezası", "X3 penalties"), "X4": ("X4 cezası", "X4 penalties"),
    "X5": ("X5 cezası", "X5 penalties"), "X6": ("X6 cezası", "X6 penalties"), "X7": ("X7 cezası", "X7 penalties"),
    "O8": ("siler (O8)", "siler (O8)"),
}


def shown(c: Choice) -> list[dict[str, Any]]:
    """The candidates a surface lists: the first :data:`SHOWN` (best first) and the played one."""
    return c.candidates[:SHOWN] + [x for x in c.candidates[SHOWN:] if x.get("played")]


def cost_split(c: Choice) -> dict[str, float]:
    """The decision's cost split by part (played minus best on the same worlds): adds up to the
    played-minus-best difference; empty for a review priced without parts."""
    mine = next((x for x in c.candidates if x.get("played")), None)
    top = c.candidates[0] if c.candidates else None
    if mine is None or top is None or not mine.get("parts") or not top.get("parts"):
        return {}
    return cost_parts(mine["parts"], top["parts"])


def parts_line(c: Choice, lang: str) -> str | None:
    """The cost's parts in words, largest first (a part under half a point left out)."""
    split = cost_split(c)
    if not split or c.cost <= 0:
        return None
    tr = lang == "tr"
    bits = [f"{PART_WORDS.get(k, (k, k))[0 if tr else 1]} {f'{v:+.1f}'.replace('.', ',' if tr else '.')}" for k, v in
            sorted(split.items(), key=lambda kv: -abs(kv[1])) if abs(v) >= 0.5]
    return (("Kaybın parçaları: " if tr else "The cost's parts: ") + ", ".join(bits)) if bits else None


def _ties(c: Choice, lang: str) -> str:
    tied = [describe(x.get("events") or [], str(x.get("move", "")), lang) for x in c.candidates[1:]
            if x.get("tie") and not x.get("played")]
    if not tied:
        return ""
    more = len(tied) - SHOWN
    tied = tied[:SHOWN]
    if more > 0:
        tied.append(f"{more} hamle daha" if lang == "tr" else f"{more} more")
    text = " / ".join(tied)
    text = text[0].upper() + text[1:]
    return f" {text} de aynı derecede iyiydi." if lang == "tr" else f" {text} was as good."


def why(c: Choice, lang: str) -> str | None:
    """The reason the recommended line is better, from that line (reasons.py); an old review's
    category reason only where it fits the line; else what the pricing worlds say."""
    text = reason_text((c.reason or {}).get("code"), c.reason, lang)
    if text:
        return text
    if c.worlds == 0 and c.reason is None:  # a review made before reasons were derived
        opening_words = c.category in ("weaker_opening", "missed_opening", "pairs_over_melds", "melds_over_pairs")
        if not (opening_words and not c.best_events):
            return REASONS.get(c.category or "", {}).get(lang)
        return None
    if not c.worlds:
        return None
    return (f"aynı {c.worlds} dünyada daha düşük puan aldı" if lang == "tr"
            else f"it scored lower on the same {c.worlds} worlds")


def sentence(c: Choice, lang: str = "en") -> str:
    """One plain sentence: what would have been better, by how many expected points (with the
    interval), and why; a forced decision says it was forced; a move within the interval of the
    best-looking one is "as good as" it."""
    tr = lang == "tr"
    played = describe(c.played_events, c.played, lang)
    if c.forced:
        w = FORCED_WORDS.get(c.forced, (c.forced, c.forced))[0 if tr else 1]
        return f"Zorunlu karar: {played}; {w}." if tr else f"A forced decision: {played}; {w}."
    best = describe(c.best_events, c.best, lang)
    gap = c.expected_played - c.expected_best
    if c.cost <= 0 and c.played != c.best:  # within the interval: as good as, never a loss
        if c.worlds:
            return (f"{played}, {best} kadar iyiydi: fark {_pm(c, gap)} puan, aynı {c.worlds} dünyada sıfırdan "
                    f"ayırt edilemiyor." if tr
                    else f"{played[0].upper() + played[1:]} was as good as {best}: the difference, {_pm(c, gap)} "
                         f"points on the same {c.worlds} worlds, is not distinguishable from zero.")
        return (f"Belirgin bir kayıp yok: {played} (beklenen {c.expected_played:.0f} puan) ile en iyi görünen "
                f"{best} (beklenen {c.expected_best:.0f} puan) arasındaki fark örnekleme gürültüsünden küçük." if tr
                else f"No clear loss: {played} (expected {c.expected_played:.0f} points) is within the sampling "
                     f"noise of the best-looking move, {best} (expected {c.expected_best:.0f} points).")
    if c.cost <= 0:
        return (f"En iyi hamle oynandı: {played} (beklenen {c.expected_played:.0f} puan)." if tr
                else f"The best move was played: {played} (expected {c.expected_played:.0f} points).") + _ties(c, lang)
    pts = _pm(c, c.cost)
    reason = why(c, lang)
    team = bool(c.candidates and c.candidates[0].get("team"))  # partners: the cost is the team's (G4)
    if tr:
        whose = "takımının beklenen puanı" if team else "beklenen puanın"
        s = f"{played} yerine {best} seçilseydi, {whose} {pts} daha düşük olurdu"
    else:
        whose = "your team's expected score" if team else "your expected score"
        s = f"{best[0].upper() + best[1:]} instead of {played} would have lowered {whose} by {pts} points"
    return s + (f": {reason}." if reason else ".") + _ties(c, lang)


def hand_expected(h: HandReview, rules: Rules | None) -> list[float | None]:
    """Per seat, the hand score the evaluator expected at the seat's first graded decision of the
    hand, through the preset's calibration curve where one is fitted (``101`` and ``51``: the
    model's value is too pessimistic in one bin each; :mod:`analysis.evaluate.calibration`)."""
    out: list[float | None] = [None] * 4
    for d in h.decisions:
        graded = [c for c in d.choices if c.graded]
        if out[d.seat] is None and graded:
            mine = next((x for x in graded[0].candidates if x.get("played")), {})
            # partners: the seat's own expected score beside its own actual one, not its team's (G4)
            x = float(mine["own"]) if mine.get("team") and mine.get("own") is not None else graded[0].expected_played
            out[d.seat] = calibrated(rules, x) if rules is not None else x
    return out


def pricing_worlds(gr: GameReview) -> int:
    """The worlds a deep review priced every graded decision on (the screen; a cost that passed
    was priced again on CONFIRM times as many)."""
    return min((c.worlds for d in gr.decisions for c in d.choices if c.graded), default=0)


def to_json(gr: GameReview, res: GameResult | None = None) -> dict[str, Any]:
    """The review as ``istaka report GAME --json`` prints it (docs/review-design.md)."""
    seats = [{k: row[k] for k in ("seat", "player", "hands", "decisions", "graded", "forced", "cost", "accuracy",
                                   "cost_per_hand", "mistakes", "rates")} for row in gr.summary()]
    for s in seats:
        s["cost"] = round(float(s["cost"]), 2)
        s["cost_per_hand"] = round(float(s["cost_per_hand"]), 2)
        if s["accuracy"] is not None:
            s["accuracy"] = round(float(s["accuracy"]), 1)
        s["rates"] = {k: None if v is None else round(float(v), 1) for k, v in s["rates"].items()}
    decisions: list[dict[str, Any]] = []
    hands = []
    actual = {i: hr for i, hr in enumerate(res.hands, 1)} if res is not None else {}
    rules = res.rules if res is not None else None
    for h in gr.hands:
        rows = []
        for d in h.decisions:
            if gr.depth == "deep":
                rows.extend(_choice_row(h.ord, d, c) for c in d.choices)
            else:
                rows.append(_quick_row(h.ord, d))
        # in play order: an O7 decision at the deal comes before the turns, though a seat's first
        # turn holds it
        decisions += sorted(rows, key=lambda x: x.get("step", 0))
        expected = [None if x is None else round(x, 1) for x in hand_expected(h, rules)]
        hr = actual.get(h.ord)
        hands.append({"ord": h.ord, "hand": h.hand, "result": h.result,
                      "actual": list(hr.totals()) if hr is not None else None, "expected": expected})
    out = {"game": gr.game, "variant": gr.variant, "depth": gr.depth, "version": gr.version, "seats": seats,
           "hands": hands, "decisions": decisions}
    if gr.depth == "deep":
        chs = [c for d in gr.decisions for c in d.choices]
        forced: dict[str, int] = {}
        for c in chs:
            if c.forced:
                forced[c.forced] = forced.get(c.forced, 0) + 1
        out["pricing_worlds"] = pricing_worlds(gr)
        out["charging_worlds"] = (CONFIRM - 1) * out["pricing_worlds"]  # the worlds after the screen's a cost is charged on
        out["forced"] = {"total": sum(forced.values()), "by_reason": forced}
    return out


def _choice_row(ord: int, d: Decision, c: Choice) -> dict[str, Any]:
    return {"ord": ord, "hand": d.hand, "seat": d.seat, "turn": d.turn, "kind": c.kind, "step": c.step,
            "line": c.line, "played": c.played, "best": c.best, "cost": round(c.cost, 2),
            "expected_played": round(c.expected_played, 2), "expected_best": round(c.expected_best, 2),
            "se": round(c.se, 2), "ci": None if c.ci is None else round(c.ci, 2), "worlds": c.worlds,
            "forced": c.forced, "category": c.category, "reason": c.reason,
            "candidates": [{"move": x["move"], "expected": x["expected"], "se": x.get("se"), "n": x.get("n"),
                            "played": x.get("played", False), "diff": x.get("diff"), "ci": x.get("ci"),
                            "tie": bool(x.get("tie"))} for x in c.candidates],
            "best_line": c.best_events, "played_line": c.played_events,
            "lesson": {lang: sentence(c, lang) for lang in LANGS}}


def _quick_row(ord: int, d: Decision) -> dict[str, Any]:
    return {"ord": ord, "hand": d.hand, "seat": d.seat, "turn": d.turn, "kind": "turn", "step": d.start,
            "line": d.line, "played": d.played, "best": d.best, "cost": float(d.cost),
            "exposure_played": d.exposure_played, "exposure_best": d.exposure_best,
            "candidates": [], "mistakes": [{"category": m.category, "cost": m.cost, "severity": m.severity,
                                            "definition": CATEGORIES.get(m.category, "")} for m in d.mistakes]}


__all__ = ["CATEGORY_REASONS", "FORCED_WORDS", "LANGS", "PART_WORDS", "SHOWN", "cost_split", "parts_line", "shown", "REASONS", "describe", "hand_expected", "label_fits", "pricing_worlds",
           "sentence", "to_json", "why"]
