"""Why the recommended move is better, read off the recommended line itself.

A lesson's reason must name what the best line actually does, so it is derived here from the
position and the two lines (recommended, played), never from a quick-pass label found on another
line: the recommended placing finishes the hand, opens, opens higher, opens with the other kind
(per or çift), places more tiles, takes the okey from the table (S1, S2) or waits; the
recommended discard keeps the okey (X3) or avoids a tile a table per takes (X4); the recommended
take opens or finishes. ``None`` when the line does nothing the position can name: the lesson
then says only that it scored lower on the same worlds.

The codes and their words are in :data:`REASON_TEXT` (Turkish and English).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.evaluate.plans import state_after
from analysis.game import HandState, Tile

from .options import finishing, openings, turn_plan

Event = dict[str, Any]

REASON_TEXT: dict[str, tuple[str, str]] = {
    "finishes": ("o dizi eli bitiriyor", "that line finishes the hand"),
    "opens": ("o dizi eli bu sırada açıyor", "that line opens this turn"),
    "opens_higher": ("o dizi daha yüksek açıyor ({v}, oynanan {p})", "that line opens higher ({v} against {p})"),
    "opens_pairs": ("çiftle açılış ıstakada daha az bırakıyor", "opening with çift leaves less in the rack"),
    "opens_melds": ("perle açılış ıstakada daha az bırakıyor", "opening with per leaves less in the rack"),
    "places_more": ("o dizi {n} taş daha koyuyor", "that line places {n} more tiles"),
    "takes_okey": ("o dizi masadaki okeyi alıyor (S1, S2)", "that line takes the okey from the table (S1, S2)"),
    "waits": ("beklemek taşları sonraki, daha iyi bir sıraya saklıyor",
              "waiting keeps the tiles for a later, better turn"),
    "keeps_okey": ("okey ıstakada kalıyor (X3 cezası yok)", "the okey stays in the rack (no X3)"),
    "avoids_x4": ("atılan taş masadaki bir pere işlenemiyor (X4 yok)", "the tile thrown fits no table per (no X4)"),
    "take_opens": ("yerdeki taşla bu sırada açılıyor", "the previous discard opens this turn"),
    "take_finishes": ("yerdeki taşla el bitiyor", "the previous discard finishes the hand"),
    "draw_better": ("alınan taş ıstakada tutulamıyor ya da işe yaramıyor; desteden çekmek daha iyi",
                    "the taken tile does not help; drawing is better"),
    # from the parts of the cost (parts_reason): the largest part, in words
    "p_finishes": ("o dizide oyuncunun eli bitirme oranı yüzde {b}, oynananda yüzde {p} (el sonu puanı {d} puan "
                   "daha iyi)", "with that line the seat finishes in {b}% of the worlds against {p}% (the hand-end "
                   "score {d} points better)"),
    "p_blocks_finish": ("o dizi sonraki oyuncunun bitirmesini zorlaştırıyor: bitirme oranı yüzde {p} yerine yüzde {b} (el "
                        "sonu puanı {d} puan daha iyi)", "that line keeps the next player from finishing: {b}% of the worlds "
                        "against {p}% (the hand-end score {d} points better)"),
    "p_blocks_opening": ("o dizi sonraki oyuncunun açmasını zorlaştırıyor: açma oranı yüzde {p} yerine yüzde {b} (el sonu "
                         "puanı {d} puan daha iyi)", "that line keeps the next player from opening: {b}% of the worlds "
                         "against {p}% (the hand-end score {d} points better)"),
    "p_hand": ("o dizide el sonunda ıstakada kalan puan daha az: {b} yerine {p}",
               "that line leaves fewer points in the rack at the hand's end: {b} against {p}"),
    "p_X5": ("oynanan hamle sonraki oyuncunun açmasını besliyor: X5 cezası {p} yerine {b} puan",
             "the move played feeds the next player's opening: X5 penalties {p} against {b} points"),
    "p_X4": ("oynanan dizide masadaki perlere işlenen taş atılıyor: X4 cezası {p} yerine {b} puan",
             "the line played throws tiles a table meld takes: X4 penalties {p} against {b} points"),
    "p_X3": ("oynanan dizide okey atılıyor: X3 cezası {p} yerine {b} puan",
             "the line played throws an okey: X3 penalties {p} against {b} points"),
    "p_X6": ("oynanan dizi okeyi masada alınabilir bırakıyor: X6 cezası {p} yerine {b} puan",
             "the line played leaves an okey on the table to be taken: X6 penalties {p} against {b} points"),
    "p_X2": ("oynanan dizide açılış geri alınıyor: X2 cezası {p} yerine {b} puan",
             "the line played takes an opening back: X2 penalties {p} against {b} points"),
    "p_X7": ("oynanan dizide işlenen taşlar geri alınıyor: X7 cezası {p} yerine {b} puan",
             "the line played takes lay-offs back: X7 penalties {p} against {b} points"),
    "p_O8": ("o dizi siler yazıyor (O8): {b} yerine {p}", "that line earns the siler (O8): {b} against {p}"),
}

# a rate's difference under which it does not explain a hand-end part (five worlds in a hundred)
RATE_GAP = 0.05


def _placed(events: Sequence[Event]) -> int:
    n = 0
    for e in events:
        k = e.get("type")
        if k in ("open", "meld"):
            n += sum(len(g) for g in (e.get("melds") or []) + (e.get("pairs") or []))
        elif k in ("layoff", "swap"):
            n += len(e.get("tiles") or ([e["tile"]] if e.get("tile") else []))
    return n


def reason(state: HandState, seat: int, kind: str, best: Sequence[Event],
           played: Sequence[Event]) -> tuple[str | None, dict[str, Any]]:
    """(reason code, its fields) for recommending ``best`` over ``played`` in ``state``."""
    if kind == "discard":
        return _discard_reason(state, best, played)
    if kind == "take":
        return _take_reason(state, seat, best)
    if kind == "place":
        return _place_reason(state, seat, best, played)
    return None, {}


def _discard_reason(state: HandState, best: Sequence[Event], played: Sequence[Event]) -> tuple[str | None, dict]:
    if not best or not played:
        return None, {}
    b, p = Tile.parse(best[0]["tile"]), Tile.parse(played[0]["tile"])
    if p == state.okey and b != state.okey:
        return "keeps_okey", {}
    if state.fits_table(p) is not None and state.fits_table(b) is None:
        return "avoids_x4", {}
    return None, {}


def _take_reason(state: HandState, seat: int, best: Sequence[Event]) -> tuple[str | None, dict]:
    if not best:
        return None, {}
    if best[0].get("type") != "take":
        return "draw_better", {}
    tile = Tile.parse(best[0]["tile"])
    if state.opened[seat] is None:
        if any(o.reaches for o in openings(state, seat, take=tile)):
            return "take_opens", {}
        return None, {}
    st = state_after(state, best)
    if st is not None and finishing(turn_plan(st, seat)):
        return "take_finishes", {}
    return None, {}


def _place_reason(state: HandState, seat: int, best: Sequence[Event], played: Sequence[Event]) -> tuple[str | None, dict]:
    if not best:
        return "waits", {}
    after_b = state_after(state, best)
    if after_b is None:
        return None, {}
    if (after_b.over and after_b.finisher == seat) or len(after_b.racks[seat]) <= 1:
        return "finishes", {}
    after_p = state_after(state, played)
    ob = after_b.opened[seat]
    op = after_p.opened[seat] if after_p is not None else None
    if state.opened[seat] is None and ob is not None:
        if op is None:
            return "opens", {}
        if op.kind != ob.kind:
            return ("opens_pairs" if ob.kind == "pairs" else "opens_melds"), {}
        if ob.value > op.value:
            return "opens_higher", {"v": ob.value, "p": op.value}
    if any(e.get("type") == "swap" for e in best) and not any(e.get("type") == "swap" for e in played):
        return "takes_okey", {}
    more = _placed(best) - _placed(played)
    if more > 0:
        return "places_more", {"n": more}
    return None, {}


def cost_parts(played: Any, best: Any) -> dict[str, float]:
    """The cost split by part: played minus best, part by part, on the same worlds (Evaluation or
    a candidate row's ``parts``); it adds up to the cost's difference exactly."""
    pp = played.part_means() if hasattr(played, "part_means") else dict(played)
    bp = best.part_means() if hasattr(best, "part_means") else dict(best)
    return {k: pp.get(k, 0.0) - bp.get(k, 0.0) for k in pp}


def parts_reason(state: HandState, seat: int, kind: str, played: Any, best: Any, best_events: Sequence[Event],
                 played_events: Sequence[Event]) -> tuple[str | None, dict[str, Any]]:
    """(reason code, fields) for recommending ``best`` over ``played`` (two priced Evaluations with
    their parts): the largest part of the cost, in words, with the rates that explain a hand-end
    part; ``fact``: what the recommended line itself does, read off the position (:func:`reason`),
    kept for the quick pass's labels. ``(None, {})`` without parts (the Python model)."""
    fact, ffields = reason(state, seat, kind, best_events, played_events)
    extra = {"fact": fact, **{f"fact_{k}": v for k, v in ffields.items()}} if fact else {}
    split = cost_parts(played, best)
    if not split:
        return None, extra
    part = max((k for k in split if k != "paid"), key=lambda k: split[k])
    if split[part] <= 0:
        return None, extra
    pp, bp = played.part_means(), best.part_means()
    fields: dict[str, Any] = {"part": part, "d": round(split[part], 1), "p": round(pp[part], 1), "b": round(bp[part], 1)}
    if part != "hand":
        return f"p_{part}", {**fields, **extra}
    pr, br = played.rate_means(), best.rate_means()
    for rate, code, better in (("finish", "p_finishes", 1), ("next_finishes", "p_blocks_finish", -1),
                               ("next_opens", "p_blocks_opening", -1)):
        gap = (br[rate] - pr[rate]) * better
        if gap >= RATE_GAP:
            return code, {**fields, "b": round(100 * br[rate]), "p": round(100 * pr[rate]), **extra}
    return "p_hand", {**fields, **extra}


def reason_text(code: str | None, fields: dict[str, Any] | None, lang: str) -> str | None:
    """The reason in words, or None."""
    pair = REASON_TEXT.get(code or "")
    if pair is None:
        return None
    text = pair[0] if lang == "tr" else pair[1]
    if lang == "tr":  # Turkish writes a decimal comma: "X5 cezası 38,6 yerine 15,5 puan"
        fields = {k: (str(v).replace(".", ",") if isinstance(v, float) else v) for k, v in (fields or {}).items()}
    try:
        return text.format(**(fields or {}))
    except (KeyError, IndexError):
        return None


__all__ = ["RATE_GAP", "REASON_TEXT", "cost_parts", "parts_reason", "reason", "reason_text"]
