"""The Replay board in a real browser (Debian's Chromium driven by Playwright), one `streamlit run`
for the whole module: what only a browser shows.

Checked: at 1280×800 and 1400×900, in Turkish and English, the board starts in the first screen,
no panel overlaps it (the move list stays beside it, every seat inside the table) and no button
label is cut; five → presses 0.1 s apart, sent while the page reruns, move five steps; the
sidebar's link to another page keeps the game the Replay showed; M pressed the moment the board
shows goes to the first mistake; the one-player view's toggle is written in the URL. Every page
at a phone's size and a laptop's: tests/test_browser_sweep.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import pytest
from browser_helpers import ROOT, chromium, needs_chromium, streamlit_server
from store_logs import stored

pytestmark = needs_chromium
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two simulated `101` games (21–22 tiles a rack: the widest boards), analysed."""
    from analysis import store
    from analysis.selfplay import GameSpec, Player, play_game
    from analysis.store import analyze, queries

    d = tmp_path_factory.mktemp("board")
    lines = []
    for i, gid in enumerate(("board-a", "board-b")):
        spec = GameSpec(gid, (Player("Zeynep Nur", "solver"), Player("Ayşe", "random"), Player("Mehmet Ali", "greedy"),
                              Player("Ali", "random")), "101", None, str(i + 3), f"2026-10-1{i}T20:00:00+03:00",
                        hands=1)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    db = stored(d / "board.duckdb", log, lambda con: analyze(con))
    with store.reading(db) as con:
        ids = [str(g) for g in queries.list_games(con)["game"]]  # newest first
        ms = queries.game_mistakes(con, ids[-1])
    mistakes = sorted(int(s) for s in ms[ms["hand"] == 1]["step"])  # the older game's, for the M key
    with streamlit_server(db, d / "server.log") as url:
        yield {"url": url, "ids": ids, "log": d / "server.log", "mistakes": mistakes}


@pytest.fixture(scope="module")
def browser(site: dict[str, Any]) -> Iterator[Any]:
    with chromium() as b:
        yield b


def _replay(browser: Any, site: dict[str, Any], w: int, h: int, lang: str, step: int) -> Any:
    from playwright.sync_api import expect

    pg = browser.new_page(viewport={"width": w, "height": h})
    game = site["ids"][-1]  # the older game: not the one a page opens by default
    pg.goto(f"{site['url']}/replay?game={quote(game)}&hand=1&step={step}&lang={lang}", wait_until="domcontentloaded")
    expect(pg.locator('[data-testid="ist-step"]')).to_have_attribute("data-step", str(step), timeout=60_000)
    pg.wait_for_selector(IDLE, timeout=60_000)
    pg.evaluate("() => document.fonts.ready.then(() => true)")  # an icon before its font is its name, wide
    pg.wait_for_timeout(300)
    return pg


_GEOMETRY = """() => {
  const r = (el) => { const b = el.getBoundingClientRect(); return {x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  const table = document.querySelector('.ist-table');
  const moves = document.querySelector('.st-key-moves');
  const cut = [...document.querySelectorAll('[data-testid="stMain"] button p')]
    .filter((p) => p.offsetParent !== null && p.scrollWidth > p.clientWidth + 1).map((p) => p.innerText);
  // what stands above the board, to name in a failure: each shown element's top, height and first words
  const above = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stElementContainer"]')]
    .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().top < table.getBoundingClientRect().top)
    .map((el) => { const b = el.getBoundingClientRect();
                   return `${Math.round(b.top)}+${Math.round(b.height)} ${(el.innerText || '').slice(0, 60)}`; });
  return {table: r(table), moves: r(moves), seats: [...table.querySelectorAll('.ist-seat, .ist-center')].map(r),
          overflow: table.scrollWidth - table.clientWidth, cut, above,
          idle: document.querySelector('[data-testid="stApp"][data-test-script-state="notRunning"]') !== null};
}"""


@pytest.mark.parametrize("lang", ["tr", "en"])
@pytest.mark.parametrize("size", [(1280, 800), (1400, 900)])
def test_the_board_is_on_the_first_screen_beside_the_move_list_with_no_overlap_or_cut_label(
        site: dict[str, Any], browser: Any, size: tuple[int, int], lang: str) -> None:
    pg = _replay(browser, site, *size, lang, step=30)
    try:
        g = _settled(pg, _GEOMETRY)
        table, moves = g["table"], g["moves"]
        assert table["y"] < size[1] * 0.45, ("the board starts below the first screen's middle", table, g["above"])
        assert table["r"] <= moves["x"] + 0.5, ("the move list overlaps the board", table, moves)
        assert g["overflow"] <= 0, "the table is wider than its column"
        for box in g["seats"]:  # every seat's rack and discards, and the centre, inside the table
            assert table["x"] - 0.5 <= box["x"] and box["r"] <= table["r"] + 0.5, (box, table)
        assert g["cut"] == [], f"button labels cut: {g['cut']}"
    finally:
        pg.close()


def _settled(pg: Any, script: str, timeout_ms: int = 20_000) -> Any:
    """What ``script`` measures once the layout holds still: two readings 250 ms apart agree (and,
    where the script reads it, the page is idle in both). On a loaded box a late component or font
    still moves things after the page went idle, and a component's first value reruns the page."""
    last = pg.evaluate(script)
    for _ in range(timeout_ms // 250):
        pg.wait_for_timeout(250)
        now = pg.evaluate(script)
        if now == last and (not isinstance(now, dict) or now.get("idle", True)):
            return now
        last = now
    return last


def test_five_arrow_presses_during_reruns_move_five_steps(site: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    pg = _replay(browser, site, 1280, 800, "tr", step=10)
    try:
        step = pg.locator('[data-testid="ist-step"]')
        # the keys' component listens once its script has run: on a loaded box that can be after the
        # page is idle, and a press before it reaches nobody (as on any page not yet ready)
        pg.wait_for_function("() => !!(window.__istakaKeys && window.__istakaKeys.handler)", timeout=60_000)
        step.click()  # the page, not a widget, has the focus
        for _ in range(5):  # 0.1 s apart: most land while the page is still rerunning
            pg.keyboard.press("ArrowRight")
            pg.wait_for_timeout(100)
        try:
            expect(step).to_have_attribute("data-step", "15", timeout=60_000)
        except AssertionError:  # what the key component last asked for, tried and was drawn with
            keys = pg.evaluate("JSON.stringify({pending: window.__istakaKeys.pending, tries: window.__istakaKeys.tries,"
                               " renders: window.__istakaKeys.gen, step: window.__istakaKeys.data.step})")
            raise AssertionError(f"the page did not reach step 15: {keys}") from None
        pg.wait_for_selector(IDLE, timeout=60_000)
        pg.wait_for_timeout(500)
        assert step.get_attribute("data-step") == "15"  # and no further
        assert parse_qs(urlparse(pg.url).query)["step"] == ["15"]
        pg.keyboard.press("ArrowLeft")
        expect(step).to_have_attribute("data-step", "14", timeout=60_000)
    finally:
        pg.close()


@pytest.mark.parametrize("held", [True, False])
def test_m_pressed_as_soon_as_the_replay_shows_goes_to_the_first_mistake(site: dict[str, Any], browser: Any,
                                                                      held: bool) -> None:
    """M (the next mistake) pressed the moment the board is drawn, in a fresh tab each time. The
    keys' component mounts on its own time, often after the page looks ready: a press before it
    was lost. ``held``: its script chunk is held back until after the press (the worst case,
    every time); else the page loads as it comes (three tries)."""
    from playwright.sync_api import expect

    game, want = site["ids"][-1], site["mistakes"][0]
    assert want > 0, "the simulated hand has a mistake after its first step"
    for _ in range(1 if held else 3):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})  # nothing cached from the last try
        routes: list[Any] = []
        if held:
            ctx.route(re.compile(r"/static/js/BidiComponent\.[^/]*\.js$"), lambda route: routes.append(route))
        pg = ctx.new_page()
        try:
            pg.goto(f"{site['url']}/replay?game={quote(game)}&hand=1&step=0&lang=tr", wait_until="domcontentloaded")
            step = pg.locator('[data-testid="ist-step"]')
            expect(step).to_have_attribute("data-step", "0", timeout=60_000)
            # the page's first element is the plain listener that keeps early keys (replay_keys.early):
            # its script runs a frame after the elements are drawn, and on a quick server the step's
            # line can show within that frame; the keys' component itself is still far from mounted
            pg.wait_for_function("() => !!window.__istakaEarly", timeout=60_000)
            pg.keyboard.press("m")
            if held:
                assert routes and not pg.evaluate("() => !!window.__istakaKeys"), "the chunk was not held"
                for r in routes:
                    r.continue_()
            expect(step).to_have_attribute("data-step", str(want), timeout=60_000)
        finally:
            ctx.close()


def test_the_sidebar_keeps_the_game_the_replay_showed(site: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    old = site["ids"][-1]
    assert old != site["ids"][0]
    pg = _replay(browser, site, 1280, 800, "tr", step=3)
    try:
        pg.locator('[data-testid="stSidebarNav"] a', has_text="İnceleme").click()
        expect(pg.locator("h1").first).to_have_text("Hamle incelemesi", timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        pg.wait_for_timeout(500)
        assert parse_qs(urlparse(pg.url).query).get("game") == [old], pg.url
        assert pg.locator('[data-testid="stSelectbox"] input').first.input_value() == old
        assert "Traceback" not in site["log"].read_text(errors="replace")
    finally:
        pg.close()


@pytest.mark.parametrize("path,title", [("rules", "Kurallar ve kayıt biçimi"), ("replay", "El tekrarı"),
                                        ("review", "Hamle incelemesi")])
def test_an_empty_choice_on_a_turkish_page_says_so_in_turkish(site: dict[str, Any], browser: Any, path: str,
                                                             title: str) -> None:
    from playwright.sync_api import expect

    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.goto(f"{site['url']}/{path}?lang=tr", wait_until="domcontentloaded")
        expect(pg.locator("h1").first).to_have_text(title, timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        shown = pg.evaluate("""() => [...document.querySelectorAll('[data-testid="stMain"] input')]
            .filter((i) => i.offsetParent !== null && i.value === '').map((i) => i.placeholder)""")
        assert not [p for p in shown if "Choose" in p or "Select" in p], shown
    finally:
        pg.close()


def test_a_note_written_in_the_replay_panel_shows_its_mark_and_keys_typed_in_it_do_not_step(
        site: dict[str, Any], browser: Any) -> None:
    """A coach's note in the browser: the note's editor in the side column; arrows and M typed in
    the comment stay in it; Save shows the mark in the move list, a reload keeps it, Delete removes it."""
    from playwright.sync_api import expect

    pg = _replay(browser, site, 1280, 800, "en", step=12)
    try:
        step, panel = pg.locator('[data-testid="ist-step"]'), pg.locator(".st-key-nt_panel")
        panel.locator("summary", has_text="Write a note").click()
        panel.locator(".st-key-nt_mark label", has_text="?!").click()
        box = panel.locator(".st-key-nt_text textarea")
        box.fill("Keep the pair")
        for key in ("ArrowLeft", "ArrowRight", "End", "m"):  # the board's keys, typed in the comment
            box.press(key)
        pg.wait_for_timeout(800)
        assert step.get_attribute("data-step") == "12"
        panel.locator('[data-testid="stFormSubmitButton"] button').click()
        expect(panel).to_contain_text("Note saved.", timeout=60_000)
        expect(panel).to_contain_text("Keep the pairm")
        expect(pg.locator(".st-key-mv_12")).to_contain_text("?!", timeout=30_000)
        assert step.get_attribute("data-step") == "12"
        pg.reload(wait_until="domcontentloaded")
        expect(pg.locator(".st-key-nt_panel")).to_contain_text("Keep the pairm", timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        panel = pg.locator(".st-key-nt_panel")
        _delete_note(pg, panel)
        expect(pg.locator(".st-key-mv_12")).not_to_contain_text("?!", timeout=30_000)
        assert "Traceback" not in site["log"].read_text(errors="replace")
    finally:
        pg.close()


def _delete_note(pg: Any, panel: Any) -> None:
    """Open the note's editor and press Delete until the panel says the note is gone. A click that
    lands while the page reruns (two test workers share the 2 cores) is lost, and the rerun may
    draw the editor closed again: each try waits for the page to be idle and opens the editor only
    when it is closed (a `details` element's `open` attribute is the empty string when open)."""
    from playwright.sync_api import expect

    summary = panel.locator("summary", has_text="Edit the note")
    for attempt in range(3):
        pg.wait_for_selector(IDLE, timeout=60_000)
        if not summary.evaluate("(s) => s.parentElement.open"):
            summary.click()
            pg.wait_for_selector(IDLE, timeout=60_000)
        panel.locator(".st-key-nt_delete button").click(timeout=30_000)
        try:
            expect(panel).to_contain_text("Note deleted.", timeout=20_000 * (attempt + 1))
            return
        except AssertionError:
            pg.wait_for_selector(IDLE, timeout=60_000)
            if attempt == 2:
                raise
            if summary.count() == 0:  # deleted, its message drawn over by a rerun: the panel offers a new note
                expect(panel.locator("summary", has_text="Write a note")).to_have_count(1)
                return


# every page the sidebar lists, read from the app's navigation (tests/test_browser_sweep.py opens
# each at a laptop's and a phone's size, in both languages)
NAV = tuple(p for p in re.findall(r'url_path="([a-z_]+)"', (ROOT / "dashboard" / "app.py").read_text(encoding="utf-8"))
            if p != "home")


def test_one_players_view_is_written_in_the_url(site: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    pg = _replay(browser, site, 1280, 800, "tr", step=12)
    try:
        pg.locator('[data-testid="stCheckbox"]', has_text="gözünden").first.click()
        expect(pg.locator(".ist-hidden").first).to_be_visible(timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        assert parse_qs(urlparse(pg.url).query).get("pov") == ["true"], pg.url
        assert pg.locator(".ist-hidden").count() == 3  # the three other racks: tile backs with a count
    finally:
        pg.close()
