"""Every dashboard page in a real browser (Debian's Chromium driven by Playwright), in Turkish and
English, against one `streamlit run` for the whole module.

Checked: every page (and the Rules page's guide to the deep review) loads without an error box
and without a traceback in the server's log; the Review page's link to that guide opens it, and it
survives a reload; a click on a mistake in Review opens the Replay at that game, hand and step; a
click on a row in Games opens that game's Replay; deep links to the first and the last game
survive a reload; ``?lang=en`` survives a reload and the language switch writes ``lang=tr``; the
dangerous-discards panel draws tiles (never the bare ``x4x5``); the Lab shows an error, not a
crash, for bad and oversized racks in its URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urljoin, urlparse

import pytest
from browser_helpers import chromium, needs_chromium, streamlit_server
from store_logs import stored

ERRORS = '[data-testid="stException"], [data-testid="stAlertContentError"]'
TITLES = {  # page -> (Turkish, English) title
    "games": ("Oyunlar", "Games"), "replay": ("El tekrarı", "Hand replay"),
    "lab": ("Açılış laboratuvarı", "Opening lab"), "players": ("Oyuncular", "Players"),
    "review": ("Hamle incelemesi", "Move review"),
    "practice": ("Kendi hatalarından alıştırma", "Practice on your own mistakes"),
    "rules": ("Kurallar ve kayıt biçimi", "Rules and log format"),
    "record": ("Oynanan oyunu kaydet", "Record the game you are playing"),
    "study": ("Çalışmalar", "Studies"),
}

pytestmark = needs_chromium


def _danger_step(db: Path, game: str) -> tuple[int, int]:
    """A (hand, step) where the seat to move holds tiles the solver calls dangerous (X4/X5):
    the step where it has just drawn, which starts its turn on the Replay page."""
    from analysis import solver, store
    from analysis.store import queries

    with store.reading(db) as con:
        res = queries.replay_stored(con, game)
    for h in res.hands:
        for i, step in enumerate(h.steps):
            ev = step.event
            if ev.get("type") in ("draw", "take") and not step.state.over:
                d = solver.dangerous(step.state, int(ev["seat"]))
                if d["x4"] or d["x5"]:
                    return h.hand, i
    raise AssertionError(f"no dangerous discard in {game}")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The sample-like database (three simulated games, analysed) and a running dashboard."""
    from analysis.selfplay import GameSpec, Player, play_game
    from analysis.store import analyze, queries

    d = tmp_path_factory.mktemp("pages")
    lines = []
    for i, gid in enumerate(("web-a", "web-b", "web-c")):
        spec = GameSpec(gid, (Player("Elif", "solver"), Player("Ayşe", "random"), Player("Fatma", "greedy"),
                              Player("Zeynep", "random")), "101", None, str(i + 7),
                        f"2026-10-1{i}T20:00:00+00:00", hands=2)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    db = stored(d / "web.duckdb", log, lambda con: analyze(con))
    from analysis import store

    with store.reading(db) as con:
        ids = [str(g) for g in queries.list_games(con)["game"]]
        mistakes = queries.game_mistakes(con, ids[0])
        from analysis.review import PRACTICE_CATEGORIES

        practise = next(p for p in ("Ayşe", "Zeynep", "Fatma", "Elif")  # a player with positions to practise
                        if len(queries.practice_positions(con, p, list(PRACTICE_CATEGORIES))))
    server_log = d / "server.log"
    with streamlit_server(db, server_log) as url:
        yield {"url": url, "ids": ids, "mistakes": mistakes, "log": server_log, "danger": _danger_step(db, ids[0]),
               "practise": practise}


@pytest.fixture(scope="module")
def browser(site: dict[str, Any]) -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1500, "height": 1300})
    try:
        yield pg
    finally:
        pg.close()


def _settle(pg: Any, title: str | None = None) -> None:
    """Wait until the page's script has run to its end (and shows ``title``)."""
    from playwright.sync_api import expect

    if title is not None:
        expect(pg.locator("h1").first).to_have_text(title, timeout=30_000)
    expect(pg.locator('[data-testid="stApp"]')).to_have_attribute("data-test-script-state", "notRunning",
                                                                  timeout=30_000)
    pg.wait_for_timeout(300)  # the URL is written by the last message of the run


def _open(pg: Any, url: str, title: str | None = None) -> None:
    pg.goto(url, wait_until="domcontentloaded")
    _settle(pg, title)


def _params(pg: Any) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(pg.url).query).items()}


def _expect_step(pg: Any, step: int) -> None:
    from playwright.sync_api import expect

    expect(pg.locator('[data-testid="ist-step"]')).to_have_attribute("data-step", str(step), timeout=30_000)


def _no_errors(pg: Any, where: str) -> None:
    errs = pg.locator(ERRORS)
    assert errs.count() == 0, (where, [e.inner_text()[:300] for e in errs.all()])


def _click_row(pg: Any, frame: Any, row: int) -> None:
    """Click a cell in the middle of a data frame row (row 0 is the first below the header)."""
    box = frame.bounding_box()
    assert box is not None
    frame.click(position={"x": box["width"] * 0.3, "y": 35 * (row + 1) + 17})


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_every_page_loads_without_an_error(site: dict[str, Any], page: Any, lang: str) -> None:
    first = site["ids"][0]
    for path, extra in (("games", ""), ("replay", f"&game={first}&hand=1&step=5"), ("lab", ""), ("players", ""),
                        ("review", f"&game={first}"), ("practice", ""), ("practice", f"&pr_player={quote(site['practise'])}"),
                        ("rules", "&rule=X4"), ("rules", "&doc=review"), ("record", ""), ("study", "")):
        title = TITLES[path][lang == "en"]
        _open(page, f"{site['url']}/{path}?lang={lang}{extra}", title)
        _no_errors(page, f"{lang} {path}")
        assert _params(page).get("lang") == lang, (path, page.url)
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "x4x5" not in text and "Traceback" not in text
        # no Markdown escape shown as text (a colon with its backslash): escaped text where Markdown is not read
        assert not re.findall(r"\w\\[:()]", text), (lang, path, re.findall(r".{0,30}\\[:()].{0,10}", text))
    assert "Traceback" not in site["log"].read_text(errors="replace")


def test_review_click_on_a_mistake_opens_the_replay_at_that_step(site: dict[str, Any], page: Any) -> None:
    game = site["ids"][0]
    ms = site["mistakes"]
    assert len(ms), "the simulated games have mistakes to click"
    _open(page, f"{site['url']}/review?game={game}", TITLES["review"][0])
    frame = page.locator('[data-testid="stDataFrame"]').nth(1)  # the seats, then the mistakes
    _click_row(page, frame, 0)
    _settle(page, TITLES["replay"][0])
    want = ms.iloc[0]
    q = _params(page)
    assert urlparse(page.url).path.endswith("/replay")
    assert (q["game"], q["hand"], q["step"]) == (game, str(int(want["hand"])), str(int(want["step"])))
    _expect_step(page, int(want["step"]))
    _no_errors(page, "review -> replay")


def test_games_click_on_a_row_opens_that_games_replay(site: dict[str, Any], page: Any) -> None:
    _open(page, f"{site['url']}/games", TITLES["games"][0])
    _click_row(page, page.locator('[data-testid="stDataFrame"]').first, 1)
    _settle(page, TITLES["replay"][0])
    assert _params(page)["game"] == site["ids"][1]
    _expect_step(page, 0)
    _no_errors(page, "games -> replay")


@pytest.mark.parametrize("which", [0, -1])
def test_a_deep_link_to_the_first_and_the_last_game_survives_a_reload(site: dict[str, Any], page: Any,
                                                                      which: int) -> None:
    game = site["ids"][which]
    _open(page, f"{site['url']}/replay?game={quote(game)}&hand=2&step=7", TITLES["replay"][0])
    for _ in range(2):
        q = _params(page)
        assert (q.get("game"), q.get("hand"), q.get("step")) == (game, "2", "7"), page.url
        _expect_step(page, 7)
        page.reload(wait_until="domcontentloaded")
        _settle(page, TITLES["replay"][0])


def test_the_language_survives_a_reload_and_the_switch_writes_it(site: dict[str, Any], page: Any) -> None:
    _open(page, f"{site['url']}/?lang=en", "Games")  # / opens /games with its parameters
    assert urlparse(page.url).path.endswith("/games") and _params(page)["lang"] == "en"
    page.reload(wait_until="domcontentloaded")
    _settle(page, "Games")
    assert _params(page)["lang"] == "en"
    side = page.locator('[data-testid="stSidebar"]')
    side.get_by_text("Türkçe", exact=True).click()
    _settle(page, "Oyunlar")
    assert _params(page)["lang"] == "tr"
    side.get_by_text("English", exact=True).click()
    _settle(page, "Games")
    assert _params(page)["lang"] == "en"


def test_the_dangerous_discards_panel_draws_tiles(site: dict[str, Any], page: Any) -> None:
    hand, step = site["danger"]
    _open(page, f"{site['url']}/replay?game={quote(site['ids'][0])}&hand={hand}&step={step}", TITLES["replay"][0])
    from playwright.sync_api import expect

    panel = page.locator('[data-testid="ist-danger"]')
    expect(panel.locator("[data-danger]").first).to_be_visible(timeout=30_000)
    items = panel.locator("[data-danger]").all()
    for item in items:  # each tile drawn, with its rule and what discarding it would cost (101 preset)
        rule, tile = item.get_attribute("data-danger"), item.locator("[data-tile]").get_attribute("data-tile")
        cost = int(re.findall(r"\d+", item.inner_text())[-1])
        assert rule in ("X4", "X5") and tile and rule in item.inner_text()
        if rule == "X4":
            assert cost == 101
        elif tile != "J":
            assert cost == 10 * int(tile[1:])
    assert "x4x5" not in page.locator('[data-testid="stMain"]').inner_text()


def test_the_lab_refuses_bad_and_oversized_racks_from_its_url(site: dict[str, Any], page: Any) -> None:
    for rack, word in (("R1 Q9 K3", "Q9"), (" ".join(["R1"] * 40), "40"), ("R5 R5 R5", "T1")):
        _open(page, f"{site['url']}/lab?rack={quote(rack)}", TITLES["lab"][0])
        _no_errors(page, f"lab {rack[:20]}")  # a refusal of the user's input, not an error box
        warn = page.locator('[data-testid="stAlertContentWarning"]')
        assert warn.count() == 1 and word in warn.inner_text()
        assert _params(page)["rack"] == rack  # the link keeps what it asked for
    assert "Traceback" not in site["log"].read_text(errors="replace")


def test_a_rule_link_shows_the_rule_in_place_and_survives_a_reload(site: dict[str, Any], page: Any) -> None:
    from playwright.sync_api import expect

    _open(page, f"{site['url']}/rules?rule=X4&lang=en", TITLES["rules"][1])
    _no_errors(page, "rules X4")
    expect(page.locator("#X4")).to_be_attached()  # the anchor a link jumps to, in the full text
    expect(page.locator(".st-key-rule_hit")).to_contain_text("X4 — Discarding a tile the table takes")
    page.reload(wait_until="domcontentloaded")
    _settle(page, TITLES["rules"][1])
    assert _params(page)["rule"] == "X4" and _params(page)["lang"] == "en"
    expect(page.locator(".st-key-rule_hit")).to_contain_text("X4 — Discarding a tile the table takes")


@pytest.mark.parametrize("lang,guide", [("tr", "Derin incelemeyi okumak"), ("en", "Reading the deep review")])
def test_the_review_guide_opens_from_the_review_page_and_survives_a_reload(site: dict[str, Any], page: Any,
                                                                          lang: str, guide: str) -> None:
    from playwright.sync_api import expect

    _open(page, f"{site['url']}/review?game={quote(site['ids'][0])}&lang={lang}", TITLES["review"][lang == "en"])
    link = page.locator('[data-testid="stMain"] a[href*="doc=review"]:not([href*="doc=reviewing"])')
    expect(link).to_have_count(1)
    href = link.get_attribute("href") or ""
    assert {k: v[-1] for k, v in parse_qs(urlparse(href).query).items()} == {"doc": "review", "lang": lang}
    _open(page, urljoin(page.url, href), TITLES["rules"][lang == "en"])  # where the link leads
    _no_errors(page, f"rules guide {lang}")
    expect(page.locator("h1", has_text=guide)).to_have_count(1)
    expect(page.locator("a#limits")).to_be_attached()  # the guide's sections, as anchors
    page.reload(wait_until="domcontentloaded")
    _settle(page, TITLES["rules"][lang == "en"])
    assert _params(page)["doc"] == "review" and _params(page)["lang"] == lang
    expect(page.locator("h1", has_text=guide)).to_have_count(1)
