"""Rule IDs as links to the Rules page, and the rules documents the page renders.

The rules reference lives in the repository (``docs/rules.md``, ``docs/rules.tr.md``; the log
format in ``docs/log-format*.md``; how to read the deep review in ``docs/review*.md``). Every
rule there is a block that starts with an anchor line ``<a id="X4"></a>``; :func:`rule_ids`
reads the known IDs from those anchors, so only real rules are ever linked.

One helper turns the rule IDs in a text shown on any page ("[X4]", "O8", "E7", "M1–M4") into
links to ``rules?rule=X4&lang=…``: :func:`link_rules` for Markdown, :func:`link_rules_html` for
HTML the page escaped itself, :func:`rule_url` / :func:`rule_column` for table cells.
"""

from __future__ import annotations

from dashboard.words.i18n import lookup
from dashboard.words.locale import table
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = "rules"  # the Rules page's url_path

ANCHOR = re.compile(r'^<a id="([^"]+)"></a>\s*$', re.MULTILINE)
_ID = r"[TDPMOLSXEG](?:1[0-9]|[1-9])"
# An ID, or a range of two ("M1–M4", "L1-L3"; the dash may be Markdown-escaped). Not inside a
# word, a URL ("rule=X4"), a fragment ("#X4") or a name ("GAME-G1"); not when already linked.
RULE_RE = re.compile(rf"(?<![\w=#/&?.\\-])({_ID})(?:(\\?[-–])({_ID}))?(?!\w)")
_MD_SKIP = re.compile(r"(\[[^\]]*\]\([^)]*\)|<[^>]+>)")  # a Markdown link, an HTML tag
_HTML_SKIP = re.compile(r"(<a\b[^>]*>.*?</a>|<[^>]+>)", re.DOTALL)  # a link with its text, any tag

STRINGS: dict[str, tuple[str, str]] = table("rule_links")


def t(key: str, lang: str, **fields: object) -> str:
    """The Rules page's string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)


# The guides a user reads, in both languages (docs/<stem>.md and docs/<stem>.tr.md), in the order
# the Rules page lists them: the same guides the README's "How do I…" table points to.
GUIDES = ("reviewing", "review", "replay", "belief", "lab", "play", "recording", "sheet", "winprob", "studies",
          "notes", "practice", "players", "luck", "import", "serving", "cli", "options", "limits")
# doc -> file stem in docs/
DOC_STEMS = {"rules": "rules", "log": "log-format", **{g: g for g in GUIDES}}
_DOC_OF_STEM = {v: k for k, v in DOC_STEMS.items()}


def doc_path(doc: str, lang: str) -> Path:
    """``docs/rules.md`` / ``docs/rules.tr.md`` (doc ``rules``), ``docs/log-format*.md`` (``log``),
    ``docs/review*.md`` (``review``: reading the deep review), ``docs/<guide>*.md`` for each of
    :data:`GUIDES`; any other doc is the log format."""
    stem = DOC_STEMS.get(doc, "log-format")
    return DOCS / (f"{stem}.md" if lang == "en" else f"{stem}.tr.md")


@lru_cache(maxsize=64)
def doc_text(doc: str, lang: str) -> str:
    return doc_path(doc, lang).read_text(encoding="utf-8")


def blocks(text: str) -> list[tuple[str | None, str]]:
    """The document cut at its anchor lines: ``(anchor id or None, Markdown of the block)``."""
    out: list[tuple[str | None, str]] = []
    pos, name = 0, None
    for m in ANCHOR.finditer(text):
        out.append((name, text[pos:m.start()]))
        pos, name = m.end(), m.group(1)
    out.append((name, text[pos:]))
    return [(n, b.strip("\n")) for n, b in out if n is not None or b.strip()]


def _is_rule(name: str | None) -> bool:
    return name is not None and re.fullmatch(_ID, name) is not None


@lru_cache(maxsize=2)
def rule_ids(lang: str = "en") -> tuple[str, ...]:
    """Every rule ID of the rules document, in its order (T1 … G4)."""
    return tuple(n for n, _ in blocks(doc_text("rules", lang)) if _is_rule(n))  # type: ignore[misc]


def rule_block(rule: str, lang: str) -> str | None:
    """The Markdown of one rule (its block, up to the next anchor), or None for an unknown ID."""
    for name, body in blocks(doc_text("rules", lang)):
        if name == rule and _is_rule(name):
            return body
    return None


_TITLE = re.compile(r"^\*\*(?:\[[^\]]+\]\([^)]*\)|[^*])*?\s—\s(.+?)[.:]?\*\*", re.DOTALL)


def rule_title(rule: str, lang: str) -> str:
    """A rule's short title ("Discarding an işler taş"), from its bold lead."""
    body = rule_block(rule, lang) or ""
    m = _TITLE.match(body)
    return m.group(1).strip() if m else ""


def rule_url(rule: str, lang: str) -> str:
    """The Rules page at ``rule``: ``rules?rule=X4&lang=en`` (relative, like every page link)."""
    return f"{PAGE}?{urlencode({'rule': rule, 'lang': 'en' if lang == 'en' else 'tr'})}"


def _known() -> frozenset[str]:
    return frozenset(rule_ids("en"))


def link_rules(text: str, lang: str) -> str:
    """Markdown ``text`` with each known rule ID made a link to the Rules page. Unknown IDs and
    text that is already a link are left alone, so calling it twice changes nothing."""
    known = _known()

    def one(rule: str) -> str:
        return f"[{rule}]({rule_url(rule, lang)})" if rule in known else rule

    def sub(m: re.Match[str]) -> str:
        a, dash, b = m.group(1), m.group(2), m.group(3)
        return one(a) + (dash + one(b) if b else "")

    return _outside(_MD_SKIP, str(text), lambda part: RULE_RE.sub(sub, part))


def _outside(skip: re.Pattern[str], text: str, fn: Any) -> str:
    """``fn`` applied to the parts of ``text`` that ``skip`` does not match."""
    parts = skip.split(text)
    return "".join(p if i % 2 else fn(p) for i, p in enumerate(parts))


def link_rules_html(html: str, lang: str) -> str:
    """The same for HTML the caller has already escaped: ``<a href=…>X4</a>``, opening the rules
    in a new tab (the page being read keeps its state)."""
    known = _known()

    def one(rule: str) -> str:
        if rule not in known:
            return rule
        href = rule_url(rule, lang).replace("&", "&amp;")
        return f'<a class="ist-rule" href="{href}" target="_blank">{rule}</a>'

    def sub(m: re.Match[str]) -> str:
        a, dash, b = m.group(1), m.group(2), m.group(3)
        return one(a) + (dash + one(b) if b else "")

    return _outside(_HTML_SKIP, str(html), lambda part: RULE_RE.sub(sub, part))


def cited(texts: Any) -> list[str]:
    """The known rule IDs the ``texts`` mention (a range names both ends), in the rules' order."""
    found = {g for x in texts for m in RULE_RE.finditer(str(x)) for g in (m.group(1), m.group(3)) if g}
    return [r for r in rule_ids("en") if r in found]


def legend(texts: Any, lang: str) -> str:
    """A caption for a chart or a table whose labels cite rules (which a chart cannot link):
    ``X3: Discarding an okey · X4: …``, each ID linked to the Rules page; empty when none."""
    return link_rules(" · ".join(f"{r}: {rule_title(r, lang)}" for r in cited(texts)), lang)


def rule_cell(value: Any, lang: str) -> str:
    """A table cell holding one rule ID as the Rules page's URL (for :func:`rule_column`); empty
    for no rule, the text itself when it is not a known ID."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or str(value) == "":
        return ""
    s = str(value)
    return rule_url(s, lang) if s in _known() else s


def rule_column(label: str) -> Any:
    """A dataframe column of :func:`rule_cell` values: shows the ID, links to the rule."""
    import streamlit as st

    return st.column_config.LinkColumn(label, display_text=r"rule=([A-Z][0-9]+)")


def app_text(doc: str, lang: str) -> str:
    """A document as the Rules page shows it: without its line of links to the other language and
    document (the app has its own switches), its links made to work in the app."""
    text = re.sub(r"^\[(?:English|Türkçe)\]\([^)]*\).*\n", "", doc_text(doc, lang), count=1, flags=re.MULTILINE)
    return app_links(text, lang)


def app_links(text: str, lang: str) -> str:
    """A rules document's links made to work inside the app: links to the other document or
    language become Rules page links (``rules?doc=log&lang=en``, ``rules?doc=review&lang=tr``, a
    guide as ``rules?doc=lab&lang=tr``, a rule as ``rule=X4``); links within the same document
    (``#X4``) stay as they are; a design document, which the app does not show, is named by its
    path (``docs/figures.md``), the README by its label alone."""
    def sub(m: re.Match[str]) -> str:
        label, target = m.group(1), m.group(2)
        file, _, frag = target.partition("#")
        doc = _DOC_OF_STEM[file.removesuffix(".md").removesuffix(".tr")]
        lng = "tr" if file.endswith(".tr.md") else "en"
        params = {"doc": doc} if doc != "rules" else {}
        if frag and re.fullmatch(_ID, frag):
            return f"[{label}]({rule_url(frag, lng)})"
        params["lang"] = lng
        url = f"{PAGE}?{urlencode(params)}" + (f"#{quote(frag)}" if frag else "")
        return f"[{label}]({url})"

    def other(m: re.Match[str]) -> str:  # a design document or the README: not in the app
        label, file = m.group(1), m.group(2)
        return label if file.startswith("..") else f"{label} (`docs/{file}`)"

    known = "|".join(_DOC_OF_STEM)
    text = re.sub(r"\[([^\]]+)\]\(((?:%s)(?:\.tr)?\.md(?:#[^)]*)?)\)" % known, sub, text)
    return re.sub(r"\[([^\]]+)\]\(((?:\.\./)?[\w./-]+\.(?:md|png))(?:#[^)]*)?\)", other, text)


def guide_title(doc: str, lang: str) -> str:
    """A guide's title: the first heading of its document in ``lang``."""
    m = re.search(r"^# (.+)$", doc_text(doc, lang), re.MULTILINE)
    return m.group(1).strip() if m else doc


def guide_url(doc: str, lang: str) -> str:
    """The Rules page showing a guide: ``rules?doc=lab&lang=en``; relative, as every link."""
    return f"{PAGE}?{urlencode({'doc': doc, 'lang': 'en' if lang == 'en' else 'tr'})}"


def guide_list(lang: str) -> str:
    """The guides as a Markdown list of Rules page links in ``lang``."""
    return "\n".join(f"- [{guide_title(g, lang)}]({guide_url(g, lang)})" for g in GUIDES)


def guide_link(doc: str, lang: str) -> str:
    """A page's link to its guide, a caption under its title: ``[Guide: …](rules?doc=…)``."""
    return f"[{t('guide_link', lang, title=guide_title(doc, lang))}]({guide_url(doc, lang)})"
