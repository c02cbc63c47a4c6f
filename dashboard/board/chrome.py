"""Streamlit's own words in the page's language. What its widgets write themselves in English is
replaced: a date field's empty "dd.mm.yyyy" by style (:func:`css`), and the labels it gives
screen readers and tooltips ("Choose date", "Download as CSV", "Remove Ali") by a small script
(:func:`labels`) that rewrites them as they appear, from the ``aria_*`` words of the locale files
(the English one holds Streamlit's own text); the same script sets the page's ``lang``."""

from __future__ import annotations

import json
import re

import streamlit as st

from dashboard.words.i18n import STRINGS, t


def css(lang: str) -> str:
    """The style that writes an empty date field's parts as ``lang`` abbreviates them (gg.aa.yyyy)."""
    field = '[data-testid="stDateInput"] [data-placeholder="true"]'
    out = []
    for part in ("day", "month", "year"):
        word = t(f"date_{part}", lang).replace("\\", "").replace('"', "")
        out.append(f'{field}[data-type="{part}"]{{font-size:0}}'
                   f'{field}[data-type="{part}"]::after{{content:"{word}";font-size:14px}}')
    return "<style>" + "".join(out) + "</style>"


def _pairs(lang: str) -> tuple[dict[str, str], list[list[str]]]:
    """Streamlit's English label -> ours: exact ones, and patterns ("Remove {x}") as [regex, text]."""
    exact: dict[str, str] = {}
    patterns: list[list[str]] = []
    for key in (k for k in STRINGS if k.startswith("aria_")):
        en, ours = t(key, "en"), t(key, lang)
        if "{x}" in en:
            patterns.append(["^" + re.escape(en).replace(r"\{x\}", "(.+)") + "$", ours.replace("{x}", "$1")])
        else:
            exact[en] = ours
    return exact, patterns


_SCRIPT = """
(() => {
  const W = window.__istakaLabels = window.__istakaLabels || {};
  Object.assign(W, WORDS);
  W.res = W.patterns.map(([re, to]) => [new RegExp(re), to]);
  document.documentElement.setAttribute('lang', W.lang);  // a screen reader reads the page in its language
  const ATTRS = ['aria-label', 'title', 'placeholder', 'aria-valuetext'];
  const fix = (el) => {
    for (const a of ATTRS) {
      const v = el.getAttribute(a);
      if (!v) continue;
      const en = el.getAttribute('data-ist-en-' + a);
      const base = en !== null && (v === en || v === el.getAttribute('data-ist-to-' + a)) ? en : v;
      let to = W.exact[base];
      if (to === undefined) for (const [re, s] of W.res) if (re.test(base)) { to = base.replace(re, s); break; }
      if (to === undefined || to === v) continue;
      el.setAttribute('data-ist-en-' + a, base);
      el.setAttribute('data-ist-to-' + a, to);
      el.setAttribute(a, to);
    }
  };
  const all = (root) => { fix(root); root.querySelectorAll('*').forEach(fix); };
  if (!W.observer) {
    W.observer = new MutationObserver((changes) => {
      for (const m of changes) {
        if (m.type === 'attributes') fix(m.target);
        else m.addedNodes.forEach((n) => { if (n.nodeType === 1) all(n); });
      }
    });
    W.observer.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ATTRS});
  }
  all(document.body);
})();
"""


def labels(lang: str) -> None:
    """Draw (in the sidebar, taking no room) the script that writes Streamlit's labels in ``lang``;
    in English it puts back any it changed on a Turkish page before."""
    exact, patterns = _pairs(lang)
    words = json.dumps({"lang": lang, "exact": exact, "patterns": patterns},
                       ensure_ascii=False).replace("</", "<\\/")
    st.html('<div class="ist-labels"></div><style>[data-testid="stElementContainer"]:has(.ist-labels){display:none}'
            "</style><script>" + _SCRIPT.replace("WORDS", words) + "</script>", unsafe_allow_javascript=True)
