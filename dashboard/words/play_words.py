"""Words of the Play page "Oyna / Play". Turkish first, English second; game terms (per, çift,
okey, gösterge, işlemek) stay Turkish in both."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("play_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Play-page string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)
