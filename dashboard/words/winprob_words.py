"""The words of the chance to win (the score sheet, Replay and Review), Turkish first, then English."""

from __future__ import annotations

from dashboard.words.i18n import lookup
from dashboard.words.locale import table

STRINGS: dict[str, tuple[str, str]] = table("winprob_words")


def t(key: str, lang: str, **fields: object) -> str:
    """The chance to win's string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)


def item(name: str, p: float, lang: str) -> str:
    """``Ali %42`` / ``Ali 42%``: a chance in whole percent; under 1% and over 99% said so, unless it is
    exactly 0 or 1 (the end of a game, or a lead no hand can overturn)."""
    if 0 < p < 0.005:
        return t("wp_item_less", lang, name=name)
    if 0.995 < p < 1:
        return t("wp_item_more", lang, name=name)
    return t("wp_item", lang, name=name, p=round(100 * p))


__all__ = ["STRINGS", "item", "t"]
