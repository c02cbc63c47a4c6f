"""Strings of the loss graph, the key moments and the on-board marks, in
Turkish and English, with their own ``t`` (as :mod:`dashboard.words.pricing_words` has)."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("graph_words")


def t(key: str, lang: str, **fields: object) -> str:
    """A loss graph / key moments / board marks string."""
    return lookup(STRINGS, key, lang, **fields)


__all__ = ["STRINGS", "t"]
