"""The recorder in a real browser: Debian's Chromium driven by Playwright records a hand
by clicks (tests/record_driver.py), reloads the page mid-hand and goes on where it was, finishes,
saves, and opens the hand in Review."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import record_driver as RD
import seatview_cases as SC
from browser_helpers import ARGS, CHROMIUM, needs_chromium, streamlit_server

from analysis import store

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    d = tmp_path_factory.mktemp("recweb")
    db = d / "rec.duckdb"
    store.connect(db, seed=False).close()
    with streamlit_server(db, d / "server.log") as url:
        yield url, db


def test_record_a_hand_by_clicks_reload_mid_hand_finish_and_open_in_review(server: tuple[str, Path]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, db = server
    c = SC._viewer_finishes(SC._seat1_opens(SC.Case("web")))  # the hand of tests/seatview_cases.py
    hand = {"starter": 0, "indicator": "K3", "racks": [SC.RACK_A, None, None, None]}
    moves = [{k: v for k, v in e.items() if k not in ("game", "hand")} for e in c.events[2:]]
    run = RD.Run()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            RD.start(page, url, run, hand, 0, ["Ben", "P2", "P3", "P4"], typed_rack=True)
            n = RD.play(page, run, moves, 0, upto=6)
            page.reload(wait_until="domcontentloaded")  # the hand in progress is stored, not in the session
            expect(page.locator('[data-testid="rec-turn"]')).to_have_attribute("data-events", str(n), timeout=60_000)
            RD.play(page, run, moves, 0, first=n)
            page.locator(".st-key-rec_score_1 input").fill("45")
            page.locator(".st-key-rec_score_1 input").press("Enter")
            RD._idle(page)
            page.locator(".st-key-rec_save button").click()
            review = page.get_by_role("link", name="İncelemede aç")
            expect(review).to_be_visible(timeout=60_000)
            review.click()
            expect(page).to_have_url(f"{url}/review?game={run.rec_id}&lang=tr", timeout=30_000)
            # reviewed at save: the page lists the seats' grades, not "not analysed yet"
            expect(page.get_by_text("Oyuncular: en iyi hamleye uyum ve maliyet")).to_be_visible(timeout=30_000)
        finally:
            browser.close()
    assert run.clicks <= 40
    with store.reading(db) as con:
        assert con.execute("SELECT view_seat, valid, agrees FROM games WHERE game = ?", [run.rec_id]).fetchall() == [
            (0, True, True)]
