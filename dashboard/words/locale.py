"""The dashboard's words, one file per language (``locale/tr.toml``, ``locale/en.toml``), read once.

Each section is one table of the dashboard (``i18n``, ``review_data``, ``review_data.CATEGORY``
…); :func:`table` gives it as the pages look words up: ``{key: (turkish, english)}``, in the
file's order. A key missing from one language reads as an empty string there, which the
completeness tests of tests/test_i18n.py report by name. Translators edit the TOML files only.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("tr", "en")


@cache
def _load(lang: str) -> dict[str, dict[str, str]]:
    with open(LOCALE / f"{lang}.toml", "rb") as fh:
        return tomllib.load(fh)


def table(section: str) -> dict[str, tuple[str, str]]:
    """One table, ``{key: (tr, en)}``: the keys of either language, Turkish's order first."""
    tr, en = _load("tr").get(section, {}), _load("en").get(section, {})
    keys = list(tr) + [k for k in en if k not in tr]
    return {k: (str(tr.get(k, "")), str(en.get(k, ""))) for k in keys}
