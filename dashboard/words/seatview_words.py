"""Words of seat-view games on the dashboard: hidden racks, the viewing seat. Turkish
first, English second; game terms stay Turkish in both."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("seatview_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Seat-view string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
