"""The HTML report (``istaka report``) in a real browser: on a 390 px phone nothing runs off the
right edge (the statistics table used to make the page 760 px wide), and the report of an 11-hand
game is a few screens tall, its findings collapsed (it was 31,000 px on a phone, 15,000 px on a
laptop, every finding drawing the whole table). One Chromium, four page loads."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM, needs_chromium

from analysis.game import read_file, replay_game
from analysis.review import render, review_game

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SIZE = "[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    g = read_file(SAMPLE).games[0]  # 11 hands, 51 findings in the quick review
    res = replay_game(g, keep_steps=True)
    gr = review_game(res)
    d = tmp_path_factory.mktemp("report")
    out = {}
    for lang in ("tr", "en"):
        out[lang] = d / f"{lang}.html"
        out[lang].write_text(render(res, gr, lang=lang), encoding="utf-8")
    return out


@needs_chromium
def test_the_report_fits_a_phone_and_is_a_few_screens_tall(pages: dict[str, Path]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for lang, path in pages.items():
                for vp in (PHONE, LAPTOP):
                    pg = b.new_page(viewport=vp)
                    pg.goto(path.as_uri())
                    width, height = pg.evaluate(SIZE)
                    assert width <= vp["width"], (lang, vp, width)  # no sideways scrolling
                    assert height <= 7 * vp["height"], (lang, vp, height)
                    n = pg.evaluate("document.querySelectorAll('details').length")
                    pg.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                    width, opened = pg.evaluate(SIZE)
                    assert width <= vp["width"], (lang, vp, "opened", width)  # the drawings fit too
                    assert n >= 40 and opened > 2 * height, (n, opened, height)  # all there behind a click
                    pg.close()
        finally:
            b.close()


def test_the_findings_of_one_step_share_one_drawing_behind_one_click() -> None:
    """Every finding drew the whole rack and table again, two findings of the same step too: now
    each step's findings are one closed ``<details>``, its position drawn once."""
    g = read_file(SAMPLE).games[0]
    res = replay_game(g, keep_steps=True)
    gr = review_game(res)
    page = render(res, gr, lang="en")
    steps = {(d.ord, d.turn, min(max(m.step, 0), len(res.hands[d.ord - 1].steps) - 1))
             for d in gr.decisions for m in d.mistakes}
    findings = sum(len(d.mistakes) for d in gr.decisions)
    assert len(steps) < findings  # the sample has steps with two findings
    blocks = page.split('<details class="f"')[1:]
    assert len(blocks) == len(steps) and page.count('<span class="rack">') == len(steps)
    assert sum(b.split("</details>")[0].count('<div class="m" data-category=') for b in blocks) == findings
