"""How tall is a deep review's HTML report? (issue 24: 112,000 px for 11 hands.) Deep-reviews the
first sample game (11 hands) on a few pricing worlds (the height depends on how many decisions
carry a cost, not on the prices), renders the Turkish report and measures it in Chromium at
1280x800: as it opens (decisions without a cost collapsed, each costed one a line) and with every
decision opened.

    python bench/report_height.py [--worlds 8]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import ARGS, CHROMIUM  # noqa: E402

from analysis.game import read_file, replay_game  # noqa: E402
from analysis.review import render  # noqa: E402
from analysis.review.deep import deep_review_game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worlds", type=int, default=8)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    g = read_file(ROOT / "data" / "sample" / "games.jsonl.gz").games[0]
    res = replay_game(g, keep_steps=True)
    t0 = time.process_time()
    gr = deep_review_game(res, budget=0.0, worlds=a.worlds)
    ch = [c for d in gr.decisions for c in d.choices]
    print(f"{g.id}: {len(res.hands)} hands, {len(ch)} decisions ({sum(bool(c.forced) for c in ch)} forced, "
          f"{sum(c.cost > 0 for c in ch)} with a cost), deep pass {time.process_time() - t0:.1f} s CPU on "
          f"{a.worlds} pricing worlds, load {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as d:
        page_file = Path(d) / "r.html"
        page_file.write_text(render(res, gr, lang="tr"), encoding="utf-8")
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                pg = b.new_page(viewport={"width": 1280, "height": 800})
                pg.goto(page_file.as_uri())
                short = pg.evaluate("document.documentElement.scrollHeight")
                pg.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                whole = pg.evaluate("document.documentElement.scrollHeight")
            finally:
                b.close()
    print(f"report height at 1280x800: {short} px ({short / 800:.1f} screens); every decision opened: {whole} px")


if __name__ == "__main__":
    main()
