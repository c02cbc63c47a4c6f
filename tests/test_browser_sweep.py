"""Every page of the app's navigation in a real browser (Debian's Chromium through Playwright), at
1280×800 and at 390×844 (a phone), in Turkish and in English: one `streamlit run`, one browser,
one tab per size and language that opens every page in turn.

Checked on each page: no error box and no traceback; no cut label (a segmented control that
scrolls sideways, a button, tab or option label wider than its box or shown with an ellipsis, a
date field too narrow for its gg.aa.yyyy, a badge broken over two lines); no horizontal overflow
(the page no wider than the screen, nothing drawn past its right edge outside a box that scrolls
on its own); on a Turkish page no English word from a short list in the visible text or in what
is read aloud (aria labels, tooltips, placeholders; Streamlit's own chrome included: "Deploy", a
date field's "dd", "Choose date") and no number with a decimal point; the page's ``lang`` is its
language; no request leaves 127.0.0.1 (the page icon was fetched from a font host). The pages
are read from dashboard/app.py, so a new page is swept as soon as it is in the navigation. The
Opening lab's Random button leaves no Session State warning in the server log; the loss graph's
legend and labels do not overlap on a phone.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from browser_helpers import needs_chromium
from test_browser_board import IDLE, NAV, browser, site  # noqa: F401  (the shared module fixtures)

pytestmark = needs_chromium

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
# a board mid-hand (its graph), a rule open, a rack whose openings fall short of the threshold (badges)
EXTRA = {"replay": "&hand=1&step=20", "rules": "&rule=X4",
         "lab": "&rack=" + quote("R1 R2 R3 Y5 Y6 B7 K9 K10 R12 Y1 B2 B4 K4 Y8 R8 B11 K13 Y13 R5 B9 K1")}
# English words a Turkish page must not show: the AppTests' list (tests/test_i18n.py) and the words
# of Streamlit's own chrome and widgets seen on Turkish pages ("Deploy", "Source", a date's "dd")
CHROME = ("and", "deploy", "source", "choose", "select", "selected", "browse", "drag", "drop", "files", "limit",
          "press", "enter", "apply", "search", "download", "fullscreen", "dd", "mm", "no", "results", "clear",
          "remove", "help", "sidebar", "pages", "columns", "date", "empty", "increment", "decrement", "upload")
DECIMAL = re.compile(r"(?<![\d.,])\d+\.\d+(?![\d.])")  # 0.0 or 12.5, not a date (16.10.2026)

_MEASURE = """() => {
  const vw = window.innerWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  const block = document.querySelector('[data-testid="stMainBlockContainer"]');
  const shown = (el) => { if (el.offsetParent === null || !el.getClientRects().length) return false;
    const b = el.getBoundingClientRect(); return b.right > 0 && b.width > 0; };  // not in a closed sidebar
  const text = (el) => (el.innerText || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const cut = [];
  for (const g of document.querySelectorAll('[data-testid="stButtonGroup"] > div'))
    if (shown(g) && g.scrollWidth > g.clientWidth + 1) cut.push('options: ' + text(g));
  for (const g of document.querySelectorAll('[data-testid="stDateInputFieldsScroller"]'))  // a date's gg.aa.yyyy
    if (shown(g) && g.scrollWidth > g.clientWidth + 1) cut.push('date: ' + text(g));
  for (const el of document.querySelectorAll('button p, button span, [role="tab"] p, [data-baseweb="tab"] p')) {
    if (!shown(el) || !text(el)) continue;
    const s = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && (s.overflow !== 'visible' || s.textOverflow === 'ellipsis'))
      cut.push(text(el));
  }
  for (const b of document.querySelectorAll('.ist-badge'))  // a badge is one piece, never broken over two lines
    if (shown(b) && b.getClientRects().length > 1) cut.push('badge: ' + text(b));
  const scrolls = (el) => { for (let e = el.parentElement; e && e !== main; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; }
    return false; };
  const wide = [...block.querySelectorAll('*')].filter((el) => shown(el) && el.getBoundingClientRect().right > vw + 1
      && !scrolls(el)).slice(0, 5).map((el) => (el.className && el.className.toString().slice(0, 60)) || el.tagName);
  const words = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || !shown(el) || el.closest('code, pre, script, style, [data-testid="stIconMaterial"]')
        || parseFloat(getComputedStyle(el).fontSize) === 0) continue;  // a label replaced by ours (::after)
    words.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [aria-valuetext]'))  // read aloud
    if (shown(el)) for (const a of ['aria-label', 'title', 'placeholder', 'aria-valuetext'])
      if (el.getAttribute(a)) words.push(el.getAttribute(a));
  for (const el of document.querySelectorAll('*')) {  // a label drawn by CSS (::after) is read too
    const a = getComputedStyle(el, '::after').content;
    if (a && a !== 'none' && a !== 'normal' && a.startsWith('"') && shown(el)) words.push(a.slice(1, -1));
  }
  return {lang: document.documentElement.lang, over: document.scrollingElement.scrollWidth - vw, main: main.scrollWidth - main.clientWidth, wide, cut,
          errors: [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlertContentError"]')]
            .map(text), text: words.join(' | ')};
}"""


def _english() -> frozenset[str]:
    from test_i18n import ENGLISH  # the AppTests' deny-list of English UI words on a Turkish page

    return (frozenset(ENGLISH) | frozenset(CHROME)) - {"her"}  # "her" is also Turkish ("every")


def _problems(g: dict[str, Any], lang: str) -> list[str]:
    out = [f"error box: {e}" for e in g["errors"]]
    if g["lang"] != lang:
        out.append(f"the page says it is in {g['lang']!r}")
    if "Traceback" in g["text"]:
        out.append("a traceback in the page")
    if g["cut"]:
        out.append(f"cut labels: {g['cut']}")
    if g["over"] > 0 or g["main"] > 0 or g["wide"]:
        out.append(f"wider than the screen by {g['over']} px (main {g['main']}): {g['wide']}")
    if lang == "tr":
        text = g["text"]
        for w in sorted(set(re.findall(r"[A-Za-z]+", text.lower())) & _english()):
            out.append("English: " + "; ".join(m.group(0) for m in re.finditer(rf"(?i).{{0,30}}\b{w}\b.{{0,30}}", text))[:200])
        for m in list(DECIMAL.finditer(text))[:3]:
            out.append(f"decimal point: {text[max(0, m.start() - 30):m.end() + 10]}")
    return out


@pytest.fixture(scope="module")
def timing() -> Iterator[dict[str, float]]:
    took: dict[str, float] = {}
    yield took
    print(f"\nsweep: {len(took)} page loads, {sum(took.values()):.1f} s")


@pytest.mark.parametrize("lang", ["tr", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_at_both_sizes_has_no_error_cut_label_overflow_or_foreign_word(
        site: dict[str, Any], browser: Any, timing: dict[str, float], size: str, lang: str) -> None:
    w, h = SIZES[size]
    pg = browser.new_page(viewport={"width": w, "height": h})
    outside: list[str] = []
    host = urlparse(site["url"]).netloc
    pg.on("request", lambda r: outside.append(r.url) if urlparse(r.url).scheme in ("http", "https", "ws", "wss")
          and urlparse(r.url).netloc != host else None)
    found: dict[str, list[str]] = {}
    try:
        for path in NAV:
            t0 = time.monotonic()
            pg.goto(f"{site['url']}/{path}?lang={lang}{EXTRA.get(path, '')}", wait_until="domcontentloaded")
            pg.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
            pg.wait_for_selector(IDLE, timeout=90_000)
            pg.evaluate("() => document.fonts.ready.then(() => true)")  # an icon before its font is its name
            for _ in range(8):  # a late component or chart still moves things once the script is idle
                pg.wait_for_timeout(250)
                problems = _problems(pg.evaluate(_MEASURE), lang)
                if not problems:
                    break
            timing[f"{size} {lang} {path}"] = time.monotonic() - t0
            if problems:
                found[path] = problems
        assert not found and not outside, (f"{size} {lang}: {found}",
                                           f"requests that left the server: {sorted(set(outside))[:5]}")
        assert "Traceback" not in site["log"].read_text(errors="replace")
    finally:
        pg.close()


def test_the_labs_random_rack_leaves_no_session_state_warning(site: dict[str, Any], browser: Any) -> None:
    """Random sets the gösterge through Session State; a default on the same widget made Streamlit
    warn in the server log ('created with a default value but also had its value set')."""
    from playwright.sync_api import expect

    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.goto(f"{site['url']}/lab?lang=en", wait_until="domcontentloaded")
        pg.wait_for_selector(IDLE, timeout=90_000)
        rack = pg.locator('[data-testid="stTextInput"] input').first
        for _ in range(2):
            before = rack.input_value()
            pg.locator(".st-key-lab_random button").click()
            expect(rack).not_to_have_value(before, timeout=60_000)
            pg.wait_for_selector(IDLE, timeout=60_000)
        log = site["log"].read_text(errors="replace")
        assert "created with a default value" not in log and "Traceback" not in log
    finally:
        pg.close()


_CHART_BOXES = """(key) => {
  const gd = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  if (!gd) return null;
  const box = (el) => { const b = el.getBoundingClientRect(); return {x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  return {legend: gd.querySelector('.legend') ? box(gd.querySelector('.legend')) : null,
          xtitle: gd.querySelector('.g-xtitle text') ? box(gd.querySelector('.g-xtitle text')) : null,
          notes: [...gd.querySelectorAll('.annotation-text-g')].map((el) => ({...box(el), text: el.textContent}))};
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_loss_graphs_legend_and_labels_do_not_overlap_on_a_phone(site: dict[str, Any], browser: Any,
                                                                     lang: str) -> None:
    """At 390 px the legend's rows ran into the x axis title ("adım"), and the hands' labels into
    each other ("El 3El 4"): the Review's graph (the whole game) and the Replay's (one hand)."""
    pg = browser.new_page(viewport={"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    game = quote(site["ids"][-1])
    try:
        for path, key in ((f"review?game={game}", "lg_review"), (f"replay?game={game}&hand=1&step=20", "lg_replay")):
            pg.goto(f"{site['url']}/{path}&lang={lang}", wait_until="domcontentloaded")
            pg.wait_for_selector(f".st-key-{key} .js-plotly-plot .legend", timeout=90_000)
            pg.wait_for_selector(IDLE, timeout=90_000)
            pg.wait_for_timeout(500)
            g = pg.evaluate(_CHART_BOXES, key)
            assert g and g["legend"] and g["xtitle"], (key, g)
            assert not _overlap(g["legend"], g["xtitle"]), (key, "the legend runs into the axis title", g)
            notes = g["notes"]
            for i, a in enumerate(notes):
                for b in notes[i + 1:]:
                    assert not _overlap(a, b), (key, f"labels run together: {a['text']!r} {b['text']!r}")
                assert not _overlap(a, g["legend"]), (key, f"{a['text']!r} under the legend")
    finally:
        pg.close()
