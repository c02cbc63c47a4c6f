"""Strings of studies on the dashboard: the Studies page and Replay's "Add to
study", in Turkish and English, looked up with :func:`dashboard.words.i18n.lookup`."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("study_words")


def t(key: str, lang: str, **fields: object) -> str:
    """Study string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
