"""The words of the "Puan tablosu / Score sheet" page, Turkish first, then English.

Its own table, like :mod:`dashboard.state.review_data`'s, so that the page's words stay together and
tests/test_i18n.py checks them. The game's own words (per, çift, okey, elden, siler) stay
Turkish in English.
"""

from __future__ import annotations

from dashboard.words.i18n import lookup
from dashboard.words.locale import table

STRINGS: dict[str, tuple[str, str]] = table("sheet_strings")


def t(key: str, lang: str, **fields: object) -> str:
    """The score sheet's string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)
