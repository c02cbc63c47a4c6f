"""The score sheet kept by taps on a phone-sized screen (390×844) in a real browser (Debian's
Chromium driven by Playwright, one `streamlit run`): a whole 11-round game, a normal finish with
one penalty in at most 12 taps, a row corrected, a reload that goes on from the store, and the
totals, ranks and exports checked against the rule texts' scores (E4-E6, X1)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, needs_chromium, streamlit_server
from sheet_driver import PHONE, Driver, Round

from analysis import store

pytestmark = needs_chromium
NAMES = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
ROUNDS = [
    Round(0, (3,), {1: 20, 2: 15}, penalties=((1, "X4"),)),
    Round(1, (), {0: 5, 2: 7, 3: 9}),
    Round(2, (0,), {1: 10, 3: 4}, kinds=("okey",)),
    Round(3, (0, 1), {2: 33}, penalties=((2, "X3"),)),
    Round(0, (1, 2, 3), {}),
    Round("exhausted", (2,), {0: 10, 1: 20, 3: 30}),
    Round(1, (), {0: 1, 2: 2, 3: 3}),
    Round(2, (3,), {0: 40, 1: 12}),
    Round(3, (), {0: 8, 1: 9, 2: 10}, kinds=("okey",), penalties=((0, "X4"),)),
    Round(0, (2,), {1: 11, 3: 6}),
    Round(1, (0, 3), {2: 25}),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("sheetweb")
    db = d / "sheet.duckdb"
    store.connect(db, seed=False).close()
    log = d / "server.log"
    with streamlit_server(db, log) as url:
        yield {"url": url, "log": log, "db": db}


@pytest.fixture(scope="module")
def phone(server: dict[str, Any]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = b.new_context(viewport=PHONE, is_mobile=True, has_touch=True, accept_downloads=True)
            yield ctx.new_page()
        finally:
            b.close()


def test_an_eleven_round_game_kept_by_taps_on_a_phone(server: dict[str, Any], phone: Any) -> None:
    from playwright.sync_api import expect

    drv = Driver(phone, server["url"])
    game = drv.start(NAMES)
    taps = [drv.enter(r, NAMES) for r in ROUNDS]
    # a normal finish with one penalty: finisher, one unopened seat, two values, the penalty, save
    assert taps[0] <= 12, taps
    expect(phone.get_by_text("Oyun bitti.")).to_be_visible(timeout=30_000)

    # correct round 2: Ali had 50 left, not 5
    box = phone.locator(".st-key-pick_row input")
    box.click()
    box.fill("2. Ayşe")  # the box lists the rows matching what is typed
    drv.timed(phone.locator('[role="option"]').filter(has_text="2. Ayşe").first.click)
    drv.tap(".st-key-edit_row button")
    expect(phone.get_by_text("2. eli düzeltiyorsunuz")).to_be_visible(timeout=30_000)
    drv.type_number("left0", 50)
    drv.tap(".st-key-save button")
    ROUNDS[1] = Round(1, (), {0: 50, 2: 7, 3: 9})

    want = [sum(r.scores()[s] for r in ROUNDS) for s in range(4)]
    phone.reload(wait_until="domcontentloaded")  # the store holds the sheet: the reload goes on from it
    expect(phone.locator("h1").first).to_have_text("Puan tablosu", timeout=30_000)
    drv.settle()
    summary = drv.summary()
    order = sorted(range(4), key=lambda s: want[s])
    for s in order:
        rank = 1 + sum(1 for u in want if u < want[s])
        assert f"{rank}. {NAMES[s]}: {want[s]}" in summary, (summary, want)
    assert "11/11. el" in summary
    lead = order[0]
    expect(phone.get_by_text(f"Önde: {NAMES[lead]} ({want[lead]})")).to_be_visible()

    with phone.expect_download() as dl:
        phone.locator(".st-key-csv button").click()
    rows = list(csv.reader(io.StringIO(Path(dl.value.path()).read_text(encoding="utf-8"))))
    assert rows[0][1:5] == NAMES and len(rows) == 13
    assert [int(x) for x in rows[2][1:5]] == ROUNDS[1].scores()
    assert [int(x) for x in rows[-1][1:5]] == want

    # the spectator link: the same sheet, read-only
    drv.open(f"sheet={game}&watch=1&lang=tr")
    expect(phone.get_by_text("İzliyorsunuz")).to_be_visible()
    assert phone.locator(".st-key-save").count() == 0
    assert "Traceback" not in server["log"].read_text(errors="replace")


def test_a_hand_count_out_of_range_is_refused_and_an_opening_cannot_be_unpicked_G1(server: dict[str, Any],
                                                                                    phone: Any) -> None:
    """The range of the hand count is shown beside its box, a count outside it is refused at Start
    with the range named (a bounded box kept its last good value behind a red "!" and started an
    11-hand game); a seat's "Puanla", picked by itself, stays picked when tapped again, so its
    "Istakada kalan" box stays."""
    from playwright.sync_api import expect

    drv = Driver(phone, server["url"])
    drv.open("lang=tr")
    expect(phone.locator(".st-key-n_hands_101")).to_contain_text("El sayısı (7–21, G1)")
    for s, n in enumerate(NAMES):
        loc = phone.locator(f".st-key-n_name{s} input")
        loc.fill(n)
        loc.press("Tab")
        drv.settle()
    drv.type_number("n_hands_101", 3)
    drv.tap(".st-key-n_start button")
    expect(phone.get_by_text("El sayısı 3 olamaz: bu kural setinde 7–21 el oynanır (G1).")).to_be_visible()
    assert "sheet=" not in phone.url

    drv.start(NAMES, hands=7)
    drv.option("fin", NAMES[0])
    picked = phone.locator('.st-key-op1 button:has(p:text-is("Puanla"))').first
    expect(picked).to_have_attribute("data-selected", "true")
    drv.tap('.st-key-op1 button:has(p:text-is("Puanla"))')
    expect(picked).to_have_attribute("data-selected", "true")
    expect(phone.locator(".st-key-left1 input")).to_be_visible()
    assert "Traceback" not in server["log"].read_text(errors="replace")
