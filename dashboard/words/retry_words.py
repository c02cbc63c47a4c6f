"""Words of "Retry this position" and of one player's view on the dashboard, Turkish
first, English second; game terms (per, çift, okey) stay Turkish in both."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("retry_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Retry / one player's view string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)
