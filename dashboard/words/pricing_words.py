"""Strings of the deep review's pricing on the dashboard: intervals ("24 ± 6"), forced
decisions, the bad-move rates and the severity filter, in Turkish and English, with their own
``t`` (as :mod:`dashboard.state.review_data` and :mod:`dashboard.words.rule_links` have theirs)."""

from __future__ import annotations

from dashboard.words.locale import table
from typing import Any

from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("pricing_words")


def t(key: str, lang: str, **fields: Any) -> str:
    """A pricing string in ``lang``; with ``n=1`` a ``<key>_one`` form is used where there is one."""
    return lookup(STRINGS, key, lang, **fields)


def cost_text(cost: float, ci: float | None, worlds: int, forced: str | None, lang: str) -> str:
    """A decision's cost as the tables show it: "24 ± 6", "0", or "forced"."""
    if forced:
        return t("pw_forced", lang)
    if ci is not None and worlds and cost > 0:
        return f"{cost:.0f} ± {ci:.0f}"
    return f"{cost:.0f}"


__all__ = ["STRINGS", "cost_text", "t"]
