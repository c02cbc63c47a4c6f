"""The words of "What they hold" (Replay, the Play page's hints, Studies), Turkish first, then English."""

from __future__ import annotations

from dashboard.words.i18n import lookup
from dashboard.words.locale import table

STRINGS: dict[str, tuple[str, str]] = table("table_words")


def t(key: str, lang: str, **fields: object) -> str:
    """The panel's string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)


def pct(p: float, lang: str) -> str:
    """A chance in whole percent: ``%34`` / ``34%``."""
    return t("th_pct", lang, p=round(100 * p))


__all__ = ["STRINGS", "pct", "t"]
