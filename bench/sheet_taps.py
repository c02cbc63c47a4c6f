"""Taps and latency of the score sheet page in a real browser.

    python bench/sheet_taps.py [--rounds 11]

Starts the dashboard on a fresh database, opens /sheet on a phone-sized screen (390×844,
Debian's Chromium at /usr/bin/chromium through Playwright) and keeps a game by taps
(tests/sheet_driver.py): per round the taps it took (target ≤ 12 for a normal finish with one
penalty) and every tap's latency, from the tap until the page's script has run to its end
(target median ≤ 300 ms). Prints the machine load beside the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_helpers import ARGS, CHROMIUM, streamlit_server  # noqa: E402
from sheet_driver import PHONE, Driver, Round  # noqa: E402

NAMES = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
NORMAL_ONE_PENALTY = Round(0, (3,), {1: 20, 2: 15}, penalties=((1, "X4"),))
OTHERS = [Round(1, (), {0: 5, 2: 7, 3: 9}), Round(2, (0,), {1: 10, 3: 4}, kinds=("okey",)),
          Round("exhausted", (2,), {0: 10, 1: 20, 3: 30})]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from analysis import store

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        store.connect(db, seed=False).close()
        with streamlit_server(db, Path(tmp) / "server.log") as url, sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                pg = b.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
                drv = Driver(pg, url)
                drv.start(NAMES, hands=max(args.rounds, 7))
                drv.latencies.clear()
                drv.labels.clear()
                drv.unseen = 0
                normal: list[int] = []
                other: list[int] = []
                t0 = time.perf_counter()
                for i in range(args.rounds):
                    r = NORMAL_ONE_PENALTY if i % 2 == 0 else OTHERS[(i // 2) % len(OTHERS)]
                    n = drv.enter(r, NAMES)
                    (normal if r is NORMAL_ONE_PENALTY else other).append(n)
                wall = time.perf_counter() - t0
            finally:
                b.close()
    lat = sorted(x * 1000 for x in drv.latencies)
    load = os.getloadavg()
    print(f"rounds            {args.rounds} in {wall:.1f}s, machine load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"taps per round    normal finish with one penalty: {normal} (target <= 12); others: {other}")
    print(f"tap latency       median {statistics.median(lat):.0f} ms, p90 {lat[int(len(lat) * 0.9)]:.0f} ms, "
          f"max {lat[-1]:.0f} ms over {len(lat)} taps (target median <= 300 ms); {drv.unseen} taps "
          f"whose rerun the page did not report, not timed")
    slow = sorted(zip(drv.latencies, drv.labels), reverse=True)[:3]
    print("slowest taps      " + "; ".join(f"{x * 1000:.0f} ms {what}" for x, what in slow))
    ok = max(normal) <= 12 and statistics.median(lat) <= 300
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
