"""Words of the recorder page "Kayıt / Record". Turkish first, English second; game
terms (per, çift, okey, gösterge, işlemek, elden) stay Turkish in both."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("record_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Recorder string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
