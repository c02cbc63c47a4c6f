"""Rules: the project's rules reference (docs/rules*.md), log-format reference
(docs/log-format*.md), guide to reading the deep review (docs/review*.md) and the list of every
guide (docs/<guide>*.md: reviewing, replay, the lab, recording …), in the page's language.

``?rule=X4`` shows that rule first, in a box above the full text (the link every rule ID on the
other pages points to); ``?doc=log`` opens the log format, ``?doc=review`` the guide (the Review
page links to it), ``?doc=lab`` (any of ``rule_links.GUIDES``) that guide. They stay in the URL.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.state import data
from dashboard.words import rule_links as rl
from dashboard.board.tiles_view import md_text

lang = data.lang()
tr = rl.t
st.title(tr("rules_title", lang))
st.caption(tr("rules_caption", lang))

_WRITTEN = "_rules_url"  # param -> what this page last wrote into the URL


def _from_url(key: str, param: str, valid: Any, default: str | None = None) -> None:
    """Give the widget ``key`` the URL's ``param`` when the URL changed it (a link, a reload)."""
    written = st.session_state.setdefault(_WRITTEN, {})
    raw = st.query_params.get(param)
    if raw != written.get(param, "\0") or key not in st.session_state:
        st.session_state[key] = raw if raw in valid else default
        written[param] = raw


def _to_url(param: str, value: str | None) -> None:
    written = st.session_state.setdefault(_WRITTEN, {})
    written[param] = value
    if value is None:
        if param in st.query_params:
            del st.query_params[param]
    elif st.query_params.get(param) != value:
        st.query_params[param] = value


# A guide (docs/<guide>.md, .tr.md in Turkish) opens by its link, ?doc=lab; the list is on every
# view, closed (one click away), so an open guide is what the page shows.
guide = st.query_params.get("doc")
guide = guide if guide in rl.GUIDES and guide != "review" else None  # the review guide: its switch
with st.expander(tr("rules_guides", lang), expanded=False, icon=":material/menu_book:"):
    st.markdown(rl.guide_list(lang))
if guide:
    back = f"{rl.PAGE}?lang={'en' if lang == 'en' else 'tr'}"
    st.markdown(f"[← {tr('doc_rules', lang)}]({back})")
    st.markdown(rl.app_text(guide, lang), unsafe_allow_html=True)
    st.stop()

DOCS = ("rules", "log", "review")  # the first is the default, left out of the URL
_from_url("rules_doc", "doc", DOCS[1:], "rules")
doc = st.segmented_control(tr("rules_doc", lang), list(DOCS), key="rules_doc", required=True,
                           format_func=lambda d: tr(f"doc_{d}", lang))
doc = doc if doc in DOCS else "rules"
_to_url("doc", None if doc == "rules" else doc)

if doc != "rules":
    _to_url("rule", None)
    st.markdown(rl.app_text(doc, lang), unsafe_allow_html=True)
    st.stop()

ids = list(rl.rule_ids(lang))
asked = st.query_params.get("rule")
if asked and asked not in ids and asked.strip().upper() in ids:  # ?rule=x4 is X4
    asked = st.query_params["rule"] = asked.strip().upper()
_from_url("rules_pick", "rule", ids)
pick = st.selectbox(tr("rules_jump", lang), [None] + ids, key="rules_pick",
                    placeholder=tr("rules_pick_none", lang),  # shown for None: else "Choose an option"
                    format_func=lambda r: tr("rules_pick_none", lang) if r is None
                    else f"{r} — {rl.rule_title(r, lang)}")
if pick is None and asked and asked not in ids:  # a link to a rule that does not exist
    st.warning(tr("rules_unknown", lang, rule=md_text(asked[:12]), first=ids[0], last=ids[-1]))
else:
    _to_url("rule", pick)
if pick:
    with st.container(border=True, key="rule_hit"):
        st.markdown(f"**{tr('rules_selected', lang, rule=pick)}**")
        st.markdown(rl.rule_block(pick, lang) or "", unsafe_allow_html=True)
        st.markdown(f"[{tr('rules_in_text', lang)} ↓](#{pick})")

st.markdown(rl.app_text("rules", lang), unsafe_allow_html=True)
