"""The recorder's clicks and their latency for a whole hand, in a real browser.

    python bench/record_clicks.py [--game kahve-2026-09-07-1] [--hand 3] [--seat 0]

Copies the sample database (data/istaka.duckdb, built by setup.sh), serves the dashboard on it,
and records one hand of a sample self-play game (101, about 24 turns) on the "Kayıt / Record"
page by clicks with Debian's Chromium (tests/record_driver.py): the table, the gösterge and the
rack by taps, then every move. Prints the clicks, the typed entries (openings, lay-offs and
names, counted apart), and the median and 90th percentile of the time from a click to the page
showing its answer, with the machine load, and the browser's main-thread time per click (less
bent by the load than the wall clock). Targets: at most 120 clicks, a median of 300 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="kahve-2026-09-07-1")
    ap.add_argument("--hand", type=int, default=3)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--db", default=str(ROOT / "data" / "istaka.duckdb"))
    args = ap.parse_args()

    import record_driver as RD
    from browser_helpers import ARGS, CHROMIUM, streamlit_server
    from playwright.sync_api import sync_playwright

    hand, moves = RD.hand_events(str(ROOT / "data" / "sample" / "games.jsonl.gz"), args.game, args.hand)
    turns = sum(1 for m in moves if m["type"] == "discard")
    with tempfile.TemporaryDirectory(prefix="istaka-rec-bench-") as tmp:
        db = Path(tmp) / "sample.duckdb"
        shutil.copy(args.db, db)
        run = RD.Run()
        t0 = time.perf_counter()
        with streamlit_server(db, Path(tmp) / "server.log") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1400})
                cdp = page.context.new_cdp_session(page)  # the page's main-thread time (Chrome's metrics)
                cdp.send("Performance.enable")

                def busy() -> dict[str, float]:
                    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

                b0, n0 = busy(), run.clicks
                RD.start(page, url, run, hand, args.seat, ["Ben", "Sağ", "Karşı", "Sol"])
                RD.play(page, run, moves, args.seat)
                b1, n1 = busy(), run.clicks
            finally:
                browser.close()
        wall = time.perf_counter() - t0
    lat = sorted(run.latencies)
    p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"hand {args.game} #{args.hand}, seat {args.seat}: {turns} turns, {len(moves)} moves")
    print(f"clicks {run.clicks} (target <= 120), typed entries {run.typed}")
    per = {k: (b1[k] - b0[k]) / max(1, n1 - n0) * 1000 for k in ("TaskDuration", "ScriptDuration")}
    print(f"per click: median {statistics.median(lat) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms at load average {load} "
          f"(target median <= 300 ms); whole run {wall:.0f} s")
    print(f"the browser's main thread per click: {per['TaskDuration']:.0f} ms busy, {per['ScriptDuration']:.0f} ms of it "
          f"script (Chrome's Performance metrics; the waits between clicks included)")


if __name__ == "__main__":
    main()
