"""Studies in a real browser (Debian's Chromium driven by Playwright), one `streamlit run` for the
module: in Turkish and English, a study is made from Replay ("Add to study"
at a step, with a note), its link is opened in a new browser context (no shared session, as a
student's browser) and shows that position: the same board the Replay drew at that step, and
the note; its download is the study file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urljoin, urlparse

import pytest
from browser_helpers import chromium, needs_chromium, streamlit_server
from store_logs import make_game, stored, write_log

pytestmark = needs_chromium
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
GAME = "ders-b1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("study")
    log = write_log(d / "g.jsonl", [make_game(GAME, seed=7, hands=2, players=["Ali", "Ayşe", "Mehmet", "Zeynep"]),
                                    make_game("ders-b2", seed=8, hands=1)])
    db = stored(d / "study.duckdb", log)
    with streamlit_server(db, d / "server.log") as url:
        yield {"url": url, "db": db, "log": d / "server.log"}


@pytest.fixture(scope="module")
def browser(site: dict[str, Any]) -> Iterator[Any]:
    with chromium() as b:
        yield b


WORDS = {"tr": {"add": "Çalışmaya ekle", "new": "Yeni çalışma…", "open": "Çalışmada aç", "title": "Çalışmalar",
               "download": "Çalışma dosyasını indir", "go": "Ekle"},
         "en": {"add": "Add to study", "new": "New study…", "open": "Open in the study", "title": "Studies",
                "download": "Download the study file", "go": "Add"}}


def _idle(pg: Any) -> None:
    pg.wait_for_selector(IDLE, timeout=60_000)
    pg.wait_for_timeout(300)


def _add_to_new_study(site: dict[str, Any], browser: Any, lang: str, step: int, name: str, note: str,
                      seen: list[str]) -> tuple[str, str] | None:
    """Replay at ``step`` in ``lang``: "Add to study", a new study named ``name`` with ``note``.
    Returns the board drawn and the study link, or None (noted in ``seen``) when the form's
    button is no longer in ``lang`` before it is clicked."""
    from playwright.sync_api import expect

    w = WORDS[lang]
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.goto(f"{site['url']}/replay?game={quote(GAME)}&hand=2&step={step}&seat=1&lang={lang}",
                wait_until="domcontentloaded")
        expect(pg.locator('[data-testid="ist-step"]')).to_have_attribute("data-step", str(step), timeout=60_000)
        _idle(pg)
        board = pg.locator(".ist-table").first.inner_html()
        pg.get_by_role("button", name=w["add"]).click()
        pick = pg.locator(".st-key-sw_add_study")
        expect(pick).to_be_visible(timeout=30_000)
        if pick.locator("input").input_value() != w["new"]:  # the first study made: "new" is the only choice
            pick.click()
            pg.get_by_role("option", name=w["new"]).click()
            _idle(pg)
        pg.locator(".st-key-sw_add_name input").fill(name)
        pg.locator(".st-key-sw_add_name input").press("Enter")
        _idle(pg)
        pg.locator(".st-key-sw_add_note textarea").fill(note)
        pg.locator(".st-key-sw_add_note textarea").press("Tab")
        _idle(pg)
        go = pg.locator(".st-key-sw_add_go button")
        try:
            expect(go.locator("p")).to_have_text(w["go"], timeout=10_000)  # still this language's page?
        except AssertionError:
            label = go.locator("p").inner_text(timeout=5_000)
            side = pg.locator('[data-testid="stSidebar"] [aria-checked="true"], '
                              '[data-testid="stSidebar"] [aria-pressed="true"]').all_inner_texts()
            seen.append(f"button {label!r}, url {pg.url}, sidebar {side}, title {pg.title()!r}")
            return None
        expect(pick.locator("input")).to_have_value(w["new"])  # "new study" still picked
        go.click()
        link = pg.locator('[data-testid="stPopoverBody"] a', has_text=w["open"])
        expect(link).to_be_visible(timeout=60_000)
        return board, urljoin(pg.url, link.get_attribute("href"))
    finally:
        pg.close()


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_study_made_from_replay_opens_by_its_link_in_a_new_browser(site: dict[str, Any], browser: Any,
                                                                     lang: str) -> None:
    from playwright.sync_api import expect

    w = WORDS[lang]
    step = 14 if lang == "tr" else 23
    name, note = f"Ders {lang}", f"{lang}: burada K13 atılmamalıydı"
    # On a loaded CI box (2 cores, two test workers, a server and Chromium each) the page once
    # came back in Turkish halfway through the English form, not reproduced in 8 + 5 runs here:
    # the form is filled again once on a fresh page, and what was seen goes in the failure.
    seen: list[str] = []
    for _ in range(2):
        got = _add_to_new_study(site, browser, lang, step, name, note, seen)
        if got is not None:
            board, href = got
            break
    else:
        pytest.fail("the Add form did not stay in the page's language: " + " | ".join(seen))
    q = parse_qs(urlparse(href).query)
    assert urlparse(href).path.endswith("/study") and q["item"] == ["1"] and q["lang"] == [lang], href

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})  # a student's browser: nothing shared
    try:
        pg = ctx.new_page()
        pg.goto(href, wait_until="domcontentloaded")
        item = pg.locator('[data-testid="ist-study-item"]')
        expect(item).to_have_attribute("data-step", str(step), timeout=60_000)
        _idle(pg)
        expect(pg.locator("h1").first).to_have_text(w["title"])
        assert item.get_attribute("data-game") == GAME and item.get_attribute("data-hand") == "2"
        assert pg.locator(".ist-table").first.inner_html() == board  # the position the Replay showed
        expect(pg.locator(".st-key-sw_note_text")).to_contain_text(note)
        picked = pg.locator(".st-key-study input").input_value()
        assert picked.startswith(name), picked
        with pg.expect_download(timeout=60_000) as dl:  # the file is made when asked for
            pg.get_by_role("button", name=w["download"]).click()
        got = Path(dl.value.path()).read_text(encoding="utf-8").splitlines()
        head, item = json.loads(got[0]), json.loads(got[1])
        assert head["name"] == name and [g["game"] for g in head["games"]] == [GAME], head
        assert (item["game"], item["hand"], item["step"], item["seat"], item["note"]) == (GAME, 2, step, 1, note)
        assert json.loads(got[-1]) == {"type": "study_end", "lines": len(got)}
        assert dl.value.suggested_filename == f"Ders-{lang}.istaka-study"
        assert "Traceback" not in site["log"].read_text(errors="replace")
    finally:
        ctx.close()
