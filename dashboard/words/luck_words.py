"""The words of the luck and skill split (Replay, Review), Turkish first, then English."""

from __future__ import annotations

from dashboard.words.i18n import lookup
from dashboard.words.locale import table

STRINGS: dict[str, tuple[str, str]] = table("luck_words")


def t(key: str, lang: str, **fields: object) -> str:
    """The luck split's string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)


def points(x: float, lang: str) -> str:
    """A signed number of points with one decimal, a comma in Turkish."""
    s = f"{x:+.1f}"
    return s.replace(".", ",") if lang == "tr" else s


__all__ = ["STRINGS", "points", "t"]
