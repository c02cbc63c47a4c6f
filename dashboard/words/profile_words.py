"""Words of the Player page (a player's mistakes by kind and style beside the expert) and of the
Practice page's kind filter, Turkish first, English second. The kinds' own names are the
library's (analysis/review/taxonomy.py)."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("profile_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Player page string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)
