"""Text from a log or a user made safe for the pages: HTML-escaped (:func:`esc`) or, where
Streamlit reads Markdown, Markdown-escaped too (:func:`md_text`)."""

from __future__ import annotations

import html
import re

_LINES = str.maketrans({"\n": " ", "\r": " "})


def esc(text: object) -> str:
    """HTML-escape any value taken from a log or a user (names, ids, reasons), for HTML blocks.
    Line breaks become spaces (as HTML shows them), so a value cannot end the HTML block and be
    read as Markdown after it. Text going into Markdown takes :func:`md_text`."""
    return html.escape(str(text), quote=True).translate(_LINES)


_MD_INLINE = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()!|~:$@"})  # ':', '@': no autolinks
_MD_START = re.compile(r"^(\s*)(\d*)([-+#>=.)])")
_WWW = re.compile(r"(?i)(www)\.")


def md_text(text: object) -> str:
    """Text from a log or a user where Streamlit reads Markdown (st.markdown, st.error, captions,
    headings): HTML-escaped, every inline Markdown character escaped, and a list or heading
    marker at its start too (esc has made line breaks spaces, so nothing else starts a line). A
    player named ``![x](http://...)`` or ``[click](http://...)`` shows as those characters, never
    an image or a link; ``no-such-game`` stays as it is. The one function for such text on every
    page."""
    out = _WWW.sub(r"\1\\.", esc(text).translate(_MD_INLINE))
    return _MD_START.sub(lambda m: m.group(1) + m.group(2) + "\\" + m.group(3), out, count=1)
