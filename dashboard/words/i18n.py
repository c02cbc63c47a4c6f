"""Turkish and English strings of the dashboard (Turkish is the default).

Turkish game terms (per, çift, işlemek, okey, gösterge, elden, ...) stay in both languages:
that is what players say at the table. ``t(key, lang, **fields)`` formats one string.
"""

from __future__ import annotations

from dashboard.words.locale import table

LANGS = ("tr", "en")
DEFAULT = "tr"

STRINGS: dict[str, tuple[str, str]] = table("i18n")


def t(key: str, lang: str = DEFAULT, **fields: object) -> str:
    """The string ``key`` in ``lang`` (an unknown key shows itself, so gaps are visible); with
    ``n=1`` the key's ``<key>_one`` form is used where there is one (English singulars)."""
    return lookup(STRINGS, key, lang, **fields)


def lookup(table: dict[str, tuple[str, str]], key: str, lang: str, **fields: object) -> str:
    """``key`` of a (Turkish, English) string table in ``lang``, formatted with ``fields``; an
    unknown key shows itself; with ``n=1`` the ``<key>_one`` form is used where there is one.
    Every page's string table (review_data, pricing_words, record_words, ...) looks up through it."""
    if fields.get("n") == 1 and key + "_one" in table:
        key += "_one"
    pair = table.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    if fields and lang != "en":  # Turkish numbers: 12,5 and 1.250, whatever a field's format
        fields = {k: _tr_number(v) for k, v in fields.items()}
    return text.format(**fields) if fields else text


_TR_SEPARATORS = str.maketrans({".": ",", ",": "."})


def _tr_number(v: object) -> object:
    if isinstance(v, float):
        return TrNumber(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return _TrInt(v)
    return v


class _TrInt(int):
    """An int in a Turkish string: as it is, but ``{:.1f}`` gives ``3,0`` and ``{:,}`` ``1.250``."""

    def __format__(self, spec: str) -> str:
        return format(int(self), spec).translate(_TR_SEPARATORS)


class TrNumber(float):
    """A float written as Turkish writes it: a decimal comma and a dot between thousands
    (``f"{TrNumber(1234.5):,.1f}"`` is ``1.234,5``; ``str`` gives ``0,5``)."""

    def __format__(self, spec: str) -> str:
        return format(float(self), spec).translate(_TR_SEPARATORS)

    def __str__(self) -> str:
        return float.__repr__(self).translate(_TR_SEPARATORS)


MONTHS = {"tr": ("Oca", "Şub", "Mar", "Nis", "May", "Haz", "Tem", "Ağu", "Eyl", "Eki", "Kas", "Ara"),
          "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")}


def fmt_date(value: object, lang: str = DEFAULT) -> str:
    """A date or time as a reader of ``lang`` writes it ("16 Eki 2026 20:30"); empty for none."""
    import datetime as dt

    import pandas as pd

    if value is None or (not isinstance(value, str) and bool(pd.isna(value))):  # None, NaN, NaT
        return ""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    if hasattr(value, "to_pydatetime"):
        value = value.to_pydatetime()
    if not isinstance(value, dt.date):
        return str(value)
    text = f"{value.day} {MONTHS['en' if lang == 'en' else 'tr'][value.month - 1]} {value.year}"
    if isinstance(value, dt.datetime):
        text += f" {value:%H:%M}"
    return text


_MD = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~:$"})


def md_plain(text: object) -> str:
    """Text shown literally where Streamlit reads Markdown (button labels, captions): every
    Markdown character is escaped, so a name from a log cannot format or link anything."""
    return str(text).translate(_MD)
