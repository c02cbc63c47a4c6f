"""What a user would share lives in the URL: the page's game, hand, step, seat, filters and the
language, so a reload or a copied link opens the same view.

Widgets are not bound to query parameters (``bind="query-params"``): a bound widget leaves its
default value out of the URL (so ``?game=<the newest game>`` is dropped and later opens another
game), a bound parameter cannot be set by ``st.switch_page``, and one key bound on two pages is
filtered out on the way between them. Instead a page calls :func:`seed` before drawing a widget
and :func:`keep` after; :func:`goto` opens another page at a given state.

A URL value is taken when it differs from what this session last wrote there (a link, a reload,
the browser's back button); otherwise the session's own value stands, kept across pages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from dashboard.state import data

_WRITTEN = "_url_written"  # param -> the text this session last wrote into the URL
_KEPT = "_url_kept"  # key -> the last value a page kept (so a page remembers it across pages)
_PENDING = "_url_pending"  # key -> a value set by goto() for the next page

Parse = Callable[[Any], Any]


def _store(name: str) -> dict[str, Any]:
    return st.session_state.setdefault(name, {})


def _text(value: Any) -> str | list[str] | None:
    if value is None or value == "" or value == [] or value == ():
        return None
    if isinstance(value, (list, tuple)):
        return [str(x) for x in value]
    return str(value)


def _url(key: str, multi: bool) -> str | list[str] | None:
    qp = st.query_params
    if key not in qp:
        return None
    return qp.get_all(key) if multi else qp[key]


MAX_PARAM = 300  # characters of one query parameter a page takes (a game id, a date, a rack)
MAX_VALUES = 20  # values of one repeated parameter


def bounded(raw: str | list[str] | None) -> str | list[str] | None:
    """A URL value within the bounds, else None (ignored, as a value that does not parse): a
    link of megabytes cannot make a page parse, look up or echo it."""
    if raw is None:
        return None
    if isinstance(raw, list):
        return None if len(raw) > MAX_VALUES or any(len(x) > MAX_PARAM for x in raw) else raw
    return None if len(raw) > MAX_PARAM else raw


def seed(key: str, parse: Parse = str, *, multi: bool = False) -> None:
    """Before the widget ``key`` is drawn: give it the URL's value (a link, a reload), a value
    :func:`goto` left for this page, or the value this session last had on this page.
    ``parse`` turns the URL's text into the widget's value; None (or a ValueError) refuses it."""
    pending = _store(_PENDING)
    if key in pending:
        st.session_state[key] = pending.pop(key)
        return
    raw = bounded(_url(key, multi))
    if raw is not None and raw != _store(_WRITTEN).get(key):
        try:
            value = parse(raw)
        except (ValueError, TypeError):
            value = None
        if value is not None:
            st.session_state[key] = value
            return
    kept = _store(_KEPT)
    if raw is None and kept.get(key) is not None:
        # no value in the URL (the sidebar's page links carry none): the session's own value
        # stands, given explicitly, since a widget with this key on another page does not carry
        # it over (from /replay?game=…-57 the sidebar's Review once opened the newest game)
        st.session_state[key] = kept[key]
    elif key not in st.session_state and key in kept:
        st.session_state[key] = kept[key]


def keep(**values: Any) -> None:
    """After the widgets: write the page's state into the URL (only what changed); None leaves
    the parameter out."""
    qp = st.query_params
    written = _store(_WRITTEN)
    kept = _store(_KEPT)
    for key, value in values.items():
        kept[key] = value
        text = _text(value)
        written[key] = text
        if text is None:
            if key in qp:
                del qp[key]
        elif _url(key, isinstance(text, list)) != text:
            qp[key] = text


def scoped(scope: str, *keys: str) -> None:
    """Forget the values of ``keys`` kept under another ``scope``: a hand and a step belong to the
    game they were kept with, not to the game another page picked since."""
    kept = _store(_KEPT)
    marker = "_scope:" + ",".join(keys)
    if kept.get(marker) != scope:
        for k in keys:
            kept.pop(k, None)
        kept[marker] = scope


def goto(page: str, **values: Any) -> None:
    """Open ``page`` (its url_path) with these widget values (``game=…, hand=…, step=…``)."""
    _store(_PENDING).update(values)
    _store(_KEPT).update(values)
    st.switch_page(data.PAGE_REF.get(page, f"views/{page}.py"))


def clicked_row(event: Any) -> int | None:
    """The row a click picked in a data frame drawn with ``selection_mode=["single-row",
    "single-cell"]`` (its box or any cell of it), or None."""
    if event is None:
        return None
    rows = list(event.selection.rows) or [int(c[0]) for c in event.selection.cells]
    return int(rows[0]) if rows else None


def one_of(options: Sequence[Any]) -> Parse:
    """A parser that accepts only one of ``options`` (compared as text)."""
    by_text = {str(o): o for o in options}
    return lambda raw: by_text.get(str(raw))


def int_in(lo: int, hi: int) -> Parse:
    def parse(raw: Any) -> int | None:
        v = int(str(raw))
        return v if lo <= v <= hi else None
    return parse


def link(page: str, **params: Any) -> str:
    """A relative link to ``page`` with these parameters and the current language."""
    from urllib.parse import urlencode

    params = {k: v for k, v in params.items() if v is not None}
    params.setdefault("lang", data.lang())
    return f"{page}?{urlencode(params)}"
