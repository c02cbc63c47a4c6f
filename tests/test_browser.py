"""One real-browser test: Debian's Chromium driven by Playwright against `streamlit run`.

Opens a replay link, presses → several times, checks the step label, the URL and the rendered
tiles, and saves a screenshot (tests/artifacts/replay.png, or $ISTAKA_SCREENSHOT).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM, ROOT, needs_chromium, streamlit_server
from dashboard_logs import make_game, write_log
from store_logs import stored

pytestmark = needs_chromium


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    log = write_log(tmp_path / "g.jsonl", [make_game("web-1", hands=2, seed=5,
                                                     players=["Ali", "Ayşe", "Mehmet", "Zeynep"])])
    db = stored(tmp_path / "web.duckdb", log)
    with streamlit_server(db, tmp_path / "server.log") as url:
        yield url


def _idle(page) -> None:  # type: ignore[no-untyped-def]
    """Waits until no rerun is running, seen twice 250 ms apart (a rerun that is about to start
    shows its status widget only after a moment)."""
    from playwright.sync_api import expect

    running = page.locator('[data-testid="stStatusWidget"]')
    for _ in range(2):
        expect(running).to_have_count(0, timeout=30_000)
        page.wait_for_timeout(250)


def _press_to_step(page, step, key: str, want: int) -> None:  # type: ignore[no-untyped-def]
    """Presses ``key`` once the page is idle and expects the step to become ``want``. On a loaded
    machine a key pressed while the page re-renders its buttons can reach none of them; then the
    step has not moved at all, and the key is pressed again (at most three times). A step that
    moved anywhere but to ``want`` fails at once."""
    from playwright.sync_api import expect

    for attempt in range(3):
        _idle(page)
        page.keyboard.press(key)
        try:
            expect(step).not_to_have_attribute("data-step", str(want - 1), timeout=10_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    expect(step).to_have_attribute("data-step", str(want), timeout=15_000)


def test_replay_link_steps_with_the_arrow_key_and_draws_tiles(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    shot = Path(os.environ.get("ISTAKA_SCREENSHOT", ROOT / "tests" / "artifacts" / "replay.png"))
    shot.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1300})
            page.goto(f"{server}/replay?game=web-1&hand=1&step=2", wait_until="domcontentloaded")
            step = page.locator('[data-testid="ist-step"]')
            expect(step).to_have_attribute("data-step", "2", timeout=30_000)
            # the dealt seat 1 rack holds the opening per: its tiles are drawn as tiles
            seat1 = page.locator('.ist-seat[data-seat="1"]')
            expect(seat1.locator('[data-tile="K9"]').first).to_be_visible()
            step.click()  # focus the page, not a widget: the arrow keys go to the shortcuts
            for i in range(3, 9):
                _press_to_step(page, step, "ArrowRight", i)
            expect(page).to_have_url(re.compile(r"step=8"))
            # step 8: seat 3 opened with five çift (pairs) on the table
            table = page.locator(".ist-center")
            expect(table.locator(".ist-meld")).to_have_count(8)
            expect(page.locator('.ist-seat[data-seat="3"] .ist-badge.open')).to_have_text(re.compile("5 çift"))
            expect(page.locator(".ist-tile.okey").first).to_be_visible()
            page.wait_for_timeout(300)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
