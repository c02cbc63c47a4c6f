"""Why the recommended move is better, read off the recommended line itself (issue 21, item 4).

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
}


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


def reason_text(code: str | None, fields: dict[str, Any] | None, lang: str) -> str | None:
    """The reason in words, or None."""
    pair = REASON_TEXT.get(code or "")
    if pair is None:
        return None
    text = pair[0] if lang == "tr" else pair[1]
    try:
        return text.format(**(fields or {}))
    except (KeyError, IndexError):
        return None


__all__ = ["REASON_TEXT", "reason", "reason_text"]
