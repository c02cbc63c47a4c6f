"""The chance to win in a real browser (Debian's Chromium driven by Playwright, one `streamlit
run`): on a phone (390x844) the score sheet and its spectator link show each player's chance under
the totals and draw its chart (four lines) without sideways overflow; on a laptop the Review page
draws the chart of a stored game. No error box, no traceback in the server's log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, needs_chromium, streamlit_server
from store_logs import make_game, stored, write_log

from analysis import store
from analysis.store import sheets

pytestmark = needs_chromium
NAMES = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
ROUNDS = [{"finisher": 1, "kind": "normal", "opened": ["points", "points", "points", None],
           "left": [20, None, 30, None], "penalties": []},
          {"finisher": None, "kind": "exhausted", "opened": ["points", None, "pairs", None],
           "left": [11, None, 4, None], "penalties": []}]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("wpweb")
    db = stored(d / "wp.duckdb", write_log(d / "g.jsonl", [make_game("wp-web", seed=4, hands=3)]))
    con = store.connect(db, seed=False)
    try:
        sheets.save_sheet(con, {"type": "game", "game": "wp-sheet", "variant": "101", "players": NAMES, "hands": 7,
                                "started": "2026-12-05T10:00:00", "site": "istaka-sheet", "sheet": True}, ROUNDS)
    finally:
        con.close()
    log = d / "server.log"
    with streamlit_server(db, log) as url:
        yield {"url": url, "log": log}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def _chart_lines(pg: Any, scope: str) -> int:
    pg.wait_for_selector(f"{scope} .js-plotly-plot .scatterlayer .trace", timeout=60_000)
    return int(pg.locator(f"{scope} .js-plotly-plot .scatterlayer .trace").count())


def _clean(pg: Any, server: dict[str, Any]) -> None:
    assert pg.locator('[data-testid="stException"]').count() == 0
    assert "Traceback" not in server["log"].read_text(errors="replace")


def test_the_sheet_and_its_spectator_link_show_the_chance_on_a_phone(server: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    from dashboard.state import tokens

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        pg = ctx.new_page()
        for query in ("sheet=wp-sheet", f"sheet=wp-sheet&watch={tokens.watch_token('wp-sheet')}"):
            pg.goto(f"{server['url']}/sheet?{query}&lang=tr", wait_until="domcontentloaded")
            expect(pg.get_by_text("Kazanma şansı (5 el kaldı)")).to_be_visible(timeout=60_000)
            pg.wait_for_selector(IDLE, timeout=60_000)
            pg.get_by_text("Kazanma şansı, el el").first.click()  # the folded chart
            assert _chart_lines(pg, '[data-testid="stExpander"]') == 4
            over = pg.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert over <= 1, f"the page scrolls sideways by {over} px"
            _clean(pg, server)
        pg.locator('[data-testid="stExpander"]').first.scroll_into_view_if_needed()
        pg.screenshot(path=str(ARTIFACTS / "winprob-sheet.png"))
    finally:
        ctx.close()


def test_review_draws_the_chance_of_a_stored_game(server: dict[str, Any], browser: Any) -> None:
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.goto(f"{server['url']}/review?game=wp-web&lang=en", wait_until="domcontentloaded")
        assert _chart_lines(pg, ".st-key-wp_review") == 4
        pg.wait_for_selector(IDLE, timeout=60_000)
        assert pg.get_by_text("Chance to win, hand by hand").count() >= 1
        _clean(pg, server)
    finally:
        pg.close()
