"""The Player page in a real browser (Debian's Chromium driven by Playwright), one `streamlit run`
for the whole module on the Player page's test store (tests/profile_games.py): at a phone's size
(390x844) and a laptop's (1280x800), in Turkish and English, two players side by side: both
kinds tables, the style table and the trend charts drawn, nothing wider than the screen; a kind's
Practise link opens Practice on that kind."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from browser_helpers import chromium, needs_chromium, streamlit_server

import profile_games as pg

pytestmark = needs_chromium
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("bp")
    db = pg.build(d)
    with streamlit_server(db, d / "server.log") as url:
        yield {"url": url, "log": d / "server.log", "db": db}


@pytest.fixture(scope="module")
def browser(site: dict[str, Any]) -> Iterator[Any]:
    with chromium() as b:
        yield b


_LAYOUT = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const tables = [...document.querySelectorAll('table.ist-pp')].map((t) => {
    const b = t.getBoundingClientRect(); return {right: b.right, width: b.width, scroll: t.scrollWidth};
  });
  return {width: window.innerWidth, main: main.scrollWidth - main.clientWidth,
          doc: document.scrollingElement.scrollWidth - window.innerWidth, tables,
          kinds: document.querySelectorAll('[data-testid="pp-kinds"]').length,
          style: document.querySelectorAll('[data-testid="pp-style"] tr[data-metric]').length,
          heads: [...document.querySelectorAll('[data-testid="pp-style"] th')].map((x) => x.innerText)};
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_page_fits_the_screen_with_two_players_side_by_side(site: dict[str, Any], browser: Any,
                                                                 size: tuple[int, int], lang: str) -> None:
    w, h = size
    page = browser.new_page(viewport={"width": w, "height": h})
    try:
        page.goto(f"{site['url']}/player?pp_player=Mehmet&pp_other=Zeynep&pp_variant=101&lang={lang}",
                  wait_until="domcontentloaded")
        page.wait_for_selector('[data-testid="pp-style"]', timeout=90_000)
        page.wait_for_selector(IDLE, timeout=90_000)
        got = page.evaluate(_LAYOUT)
        assert got["kinds"] == 2 and got["style"] >= 7, got
        assert got["heads"][1:] == ["Mehmet", "Zeynep", "Uzman" if lang == "tr" else "Expert"], got
        assert got["main"] <= 1 and got["doc"] <= 1, got  # nothing scrolls sideways
        for t in got["tables"]:
            assert t["right"] <= w + 1 and t["scroll"] <= t["width"] + 1, (t, w)
        charts = page.locator(".js-plotly-plot")
        for _ in range(20):  # a chart below the screen is mounted once scrolled near (a phone's are far down)
            if charts.count() >= 2:
                break
            page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollBy(0, 500)")
            page.wait_for_timeout(300)
        assert charts.count() == 2
        for i in range(2):  # drawn once scrolled into view (a phone reaches them below the tables)
            charts.nth(i).scroll_into_view_if_needed()
            page.wait_for_function("(i) => document.querySelectorAll('.js-plotly-plot')[i].querySelector('.main-svg')",
                                   arg=i, timeout=30_000)
        body = page.locator('[data-testid="stMain"]').inner_text()
        if lang == "tr":
            assert "Hatalar türlerine göre" in body and not re.search(r"\b(the|hand|player|points)\b", body), body[:500]
            assert not re.search(r"\d\.\d", page.locator('[data-testid="pp-style"]').inner_text())
        else:
            assert "Mistakes by kind" in body and not re.search(r"\b(oyuncu|ceza|el|ve)\b", body, re.I), body[:500]
    finally:
        page.close()
    assert "Traceback" not in site["log"].read_text(errors="replace")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_a_practise_link_opens_practice_on_its_kind(site: dict[str, Any], browser: Any, size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    from analysis import store
    from analysis.review.taxonomy import BY_KEY
    from analysis.store import mistake_kinds as mk

    with store.reading(site["db"]) as con:
        want = len(mk.kind_positions(con, "Mehmet", "penalty_discards"))
    assert want >= 1
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(f"{site['url']}/player?pp_player=Mehmet&pp_variant=101&lang=en", wait_until="domcontentloaded")
        page.wait_for_selector(IDLE, timeout=90_000)
        link = page.locator('[data-testid="pp-kinds"] tr[data-kind="penalty_discards"] a[target="_self"]')
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_url(re.compile(r"/practice\?"), timeout=60_000)
        q = parse_qs(urlparse(page.url).query)
        assert q["pr_player"] == ["Mehmet"] and q["pr_kind"] == ["penalty_discards"], page.url
        expect(page.get_by_role("combobox", name="Kind of mistake")).to_have_value(BY_KEY["penalty_discards"].en,
                                                                                  timeout=60_000)
        expect(page.locator('[data-testid="stMain"]')).to_contain_text(f"Position 1 / {want}", timeout=60_000)
        page.wait_for_selector(IDLE, timeout=90_000)
    finally:
        page.close()
    assert "Traceback" not in site["log"].read_text(errors="replace")
