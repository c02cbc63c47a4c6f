"""Replay's "What they hold" in a real browser (Debian's Chromium driven by Playwright), one
`streamlit run` for the module, on a phone (390x844) and a laptop (1280x800): the page loads with
the panel closed and nothing read; a click opens it and the reading comes (every other seat, a
danger per tile of the viewer's rack, how sure it is), inside the page's width, no text cut; the
next step reads again with the panel still open. The Play page's hints panel, a fragment inside
the board's fragment, opens the same way on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, needs_chromium, streamlit_server
from store_logs import make_game, stored, write_log

pytestmark = needs_chromium
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
GAME = "th-b1"
TITLE = {"tr": "Ellerinde ne var", "en": "What they hold"}
FIT = """() => {
  const p = document.querySelector('[data-testid="th-panel"]');
  const r = p.getBoundingClientRect();
  const cut = [...p.querySelectorAll('.th-num, .th-d, .th-lbl, b, .ist-badge')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.innerText);
  return {left: r.left, right: r.right, width: window.innerWidth, height: r.height,
          page: document.scrollingElement.scrollWidth, cut};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("thb")
    log = write_log(d / "g.jsonl", [make_game(GAME, seed=7, hands=1, modes=["open"],
                                              players=["Ali", "Ayşe", "Mehmet", "Zeynep"])])
    db = stored(d / "th.duckdb", log)
    with streamlit_server(db, d / "server.log") as url:
        yield {"url": url, "log": d / "server.log", "dir": d, "db": db}


@pytest.fixture(scope="module")
def browser(site: dict[str, Any]) -> Iterator[Any]:
    with chromium() as b:
        yield b


def _no_traceback_of_the_panel(site: dict[str, Any]) -> None:
    """No traceback in the server's log passes through the panel's code (another part of a page
    failing is that part's own test's business)."""
    text = site["log"].read_text(errors="replace")
    for block in text.split("Traceback")[1:]:
        assert not any(m in block for m in ("table_view", "table_read", "evaluate/panel", "evaluate/belief")), block


def _idle(pg: Any) -> None:
    pg.wait_for_selector(IDLE, timeout=90_000)
    pg.wait_for_timeout(300)


@pytest.mark.parametrize(("lang", "width", "height"), [("tr", 390, 844), ("en", 1280, 800)])
def test_replay_panel_opens_on_a_click_and_fits_the_screen(site: dict[str, Any], browser: Any, lang: str,
                                                           width: int, height: int) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        pg = ctx.new_page()
        pg.goto(f"{site['url']}/replay?game={GAME}&hand=1&step=12&seat=2&lang={lang}", wait_until="domcontentloaded")
        expect(pg.locator('[data-testid="ist-step"]')).to_have_attribute("data-step", "12", timeout=90_000)
        _idle(pg)
        box = pg.locator(".st-key-th_replay")
        expect(box).to_be_visible()
        assert pg.locator('[data-testid="th-panel"]').count() == 0  # closed: nothing read at the page's load
        closed = box.bounding_box()
        assert closed is not None and closed["height"] < 80  # one line on a phone
        box.locator("summary").click()
        panel = pg.locator('[data-testid="th-panel"]')
        expect(panel).to_be_visible(timeout=60_000)
        _idle(pg)
        assert panel.get_attribute("data-seat") == "2"
        assert pg.locator('[data-testid="th-seat"]').count() == 3
        n = pg.locator('[data-testid="th-danger"]').count()
        assert n > 0
        expect(pg.locator('[data-testid="th-sure"]')).to_contain_text("±")
        fit = panel.evaluate(f"(p) => ({FIT})()")
        assert fit["left"] >= 0 and fit["right"] <= fit["width"] + 0.5, fit  # inside the screen
        assert fit["page"] <= fit["width"], fit  # the page never scrolls sideways
        assert not fit["cut"], fit
        if width < 500:
            assert fit["height"] < 1.6 * height, fit  # compact enough to scroll past on a phone
        pg.locator('[data-testid="th-seat"]').first.scroll_into_view_if_needed()
        pg.screenshot(path=str(site["dir"] / f"replay-panel-{width}.png"))  # for a person to look at
        # the next step: read again, the panel still open
        pg.locator(".st-key-b_next button:visible").first.click()
        expect(pg.locator('[data-testid="ist-step"]')).to_have_attribute("data-step", "13", timeout=60_000)
        _idle(pg)
        expect(pg.locator('[data-testid="th-panel"]')).to_be_visible(timeout=60_000)
        _no_traceback_of_the_panel(site)
    finally:
        ctx.close()


def test_play_hints_panel_opens_inside_the_board_on_a_phone(site: dict[str, Any], browser: Any) -> None:
    """The Play page's board is a fragment and the panel one inside it: opening it on a phone
    shows the reading from the person's seat, within the screen."""
    from playwright.sync_api import expect
    from play_cases import OPENER, fixed_game

    from dashboard.state import play_games

    g = fixed_game(OPENER, seats=["person", "greedy", "greedy", "greedy"], gid="oyun-20261205-235959")
    play_games.save(str(site["db"]), g)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        pg = ctx.new_page()
        pg.goto(f"{site['url']}/play?play={g.id}&lang=en", wait_until="domcontentloaded")
        expect(pg.locator('[data-testid="pl-turn"]')).to_have_attribute("data-mine", "1", timeout=90_000)
        _idle(pg)
        assert pg.locator(".st-key-th_play").count() == 0  # training off: no panel
        pg.locator(".st-key-pl_train_in label").first.click()
        box = pg.locator(".st-key-th_play")
        expect(box).to_be_visible(timeout=60_000)
        _idle(pg)
        box.locator("summary").click()
        panel = pg.locator('[data-testid="th-panel"]')
        expect(panel).to_be_visible(timeout=60_000)
        _idle(pg)
        assert panel.get_attribute("data-seat") == "0" and pg.locator('[data-testid="th-seat"]').count() == 3
        fit = panel.evaluate(f"(p) => ({FIT})()")
        assert fit["left"] >= 0 and fit["right"] <= fit["width"] + 0.5 and fit["page"] <= fit["width"], fit
        assert not fit["cut"], fit
        pg.locator('[data-testid="th-seat"]').first.scroll_into_view_if_needed()
        pg.screenshot(path=str(site["dir"] / "play-panel-390.png"))
        _no_traceback_of_the_panel(site)
    finally:
        ctx.close()
