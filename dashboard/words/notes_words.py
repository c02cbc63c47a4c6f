"""Words of the coach's notes: the Replay panel, the move list's marks and the
Review page's list. Turkish first, English second."""

from __future__ import annotations

from dashboard.words.locale import table
from dashboard.words.i18n import lookup

STRINGS: dict[str, tuple[str, str]] = table("notes_words")


def t(key: str, lang: str, **fields: object) -> str:
    """A string of the notes' table in ``lang`` (tr or en)."""
    return lookup(STRINGS, key, lang, **fields)


__all__ = ["STRINGS", "t"]
