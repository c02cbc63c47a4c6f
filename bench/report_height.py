"""How wide and how tall is the HTML report (`istaka report`)? Renders the first sample game's report
(11 hands) in Turkish and English and measures it in Chromium on a 390x844 phone and a 1280x800
laptop: ``document.scrollingElement`` scrollWidth (over the screen's width: the page scrolls
sideways) and scrollHeight, as it opens (findings and decisions without a cost closed) and with
every ``<details>`` opened.

The quick review by default (what `istaka report` writes after `istaka analyze`); ``--deep`` also
deep-reviews the game on a few pricing worlds (the height depends on how many decisions carry a
cost, not on the prices).

    python bench/report_height.py [--deep [--worlds 8]]

Measured 2026-12-05 (width x height in px), before -> after the phone layout and closed findings.
Quick review: 390x844 tr 759 x 31,536 -> 390 x 4,507, en 748 x 33,007 -> 390 x 4,982; 1280x800
tr 14,986 -> 3,332 tall, en 15,268 -> 3,332. Deep review (before on the reviewer of that day, 29
decisions with a cost; after on the new one, 37): 390x844 tr 837 x 9,480 -> 390 x 7,750, en 812 x
10,324 -> 390 x 8,089; 1280x800 tr 4,996 -> 4,463, en 5,163 -> 4,571.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import ARGS, CHROMIUM  # noqa: E402

from analysis.game import read_file, replay_game  # noqa: E402
from analysis.review import render, review_game  # noqa: E402

VIEWPORTS = ((390, 844), (1280, 800))
SIZE = "[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]"


def measure(browser: Any, page_file: Path) -> list[str]:
    """One line per viewport: width, height in px and screens, height with every details opened."""
    out = []
    for w, h in VIEWPORTS:
        pg = browser.new_page(viewport={"width": w, "height": h})
        try:
            pg.goto(page_file.as_uri())
            width, height = pg.evaluate(SIZE)
            pg.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            width_open, whole = pg.evaluate(SIZE)
        finally:
            pg.close()
        over = "" if max(width, width_open) <= w else f"  OVERFLOWS by {max(width, width_open) - w} px"
        out.append(f"  {w}x{h}: width {width} px, height {height:,} px ({height / h:.1f} screens); "
                   f"every details opened: {whole:,} px{over}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deep", action="store_true", help="also the deep review's report")
    ap.add_argument("--worlds", type=int, default=8, help="the deep pass's pricing worlds (default 8)")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    g = read_file(ROOT / "data" / "sample" / "games.jsonl.gz").games[0]
    res = replay_game(g, keep_steps=True)
    reviews = [("quick", review_game(res))]
    findings = sum(len(d.mistakes) for d in reviews[0][1].decisions)
    print(f"{g.id}: {len(res.hands)} hands, {findings} findings in the quick review, load {os.getloadavg()}")
    if a.deep:
        from analysis.review.deep import deep_review_game

        t0 = time.process_time()
        gr = deep_review_game(res, budget=0.0, worlds=a.worlds)
        ch = [c for d in gr.decisions for c in d.choices]
        print(f"deep: {len(ch)} decisions ({sum(bool(c.forced) for c in ch)} forced, {sum(c.cost > 0 for c in ch)} "
              f"with a cost), {time.process_time() - t0:.1f} s CPU on {a.worlds} pricing worlds")
        reviews.append(("deep", gr))
    with tempfile.TemporaryDirectory() as d, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for depth, gr in reviews:
                for lang in ("tr", "en"):
                    page_file = Path(d) / f"{depth}-{lang}.html"
                    page_file.write_text(render(res, gr, lang=lang), encoding="utf-8")
                    print(f"{depth} review, {lang} ({page_file.stat().st_size // 1024} KB):")
                    print("\n".join(measure(b, page_file)))
        finally:
            b.close()


if __name__ == "__main__":
    main()
