"""Words of seat-view games on the dashboard (issue 22): hidden racks, the viewing seat. Turkish
first, English second; game terms stay Turkish in both."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "hidden_tiles": ("{n} gizli taş", "{n} hidden tiles"),
    "hidden_tiles_one": ("1 gizli taş", "1 hidden tile"),
    "hidden_rack_title": ("Gizli ıstaka: yalnızca taş sayısı bilinir", "Hidden rack: only the tile count is known"),
    "view_of": ("Kayıt {name} (yer {seat}) gözünden: diğer ıstakalar gizli, yalnızca {name} notlanır",
                "Recorded as {name} (seat {seat}) saw it: the other racks are hidden, only {name} is graded"),
    "view_badge": ("gözünden", "viewer"),
    "ev_hidden_draw": ("çeker (gizli)", "draws (hidden)"),
    "score_from_log": ("{name}: {score}, kaydın yazdığı gibi; ıstakası gösterilmedi (E5)",
                       "{name}: {score}, as the log wrote it; the rack was never shown (E5)"),
    "hidden_turn": ("{name} gizli bir yer: kararları notlanmaz, öneri yalnızca {viewer} için",
                    "{name} is a hidden seat: not graded; suggestions only for {viewer}"),
}


def t(key: str, lang: str, **fields: object) -> str:
    """Seat-view string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
