"""The dashboard in a real browser (Debian's Chromium driven by Playwright) at 1280×800: a Replay
step from the key press to the new board painted, the Players page to its last chart painted,
and the first paint of every page of the navigation (Studies, Record and Score sheet included).
Prints medians with the machine's load beside them.

    python bench/browser.py [--db data/istaka.duckdb | --games 1000] [--steps 20] [--loads 3]

Targets: a step ≤ 300 ms, the Players page ≤ 2 s on 1,000 games, every page's first
paint ≤ 2 s on the sample database.
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

PAGES = ("games", "replay", "lab", "players", "review", "study", "practice", "rules", "record", "sheet")
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def _load() -> str:
    return "load %.1f %.1f %.1f on %d cores" % (*os.getloadavg(), os.cpu_count() or 0)


def _db(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    from dashboard_logs import many_games, write_log

    from analysis import store

    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-browser-"))
    log = write_log(tmp / "games.jsonl", many_games(args.games, hands=11))
    con = store.connect(tmp / "bench.duckdb", seed=False)
    try:
        print("database:", store.import_paths(con, [str(log)]).line())
    finally:
        con.close()
    return tmp / "bench.duckdb"


def _first_game(db: Path) -> str:
    from analysis import store
    from analysis.store import queries

    with store.reading(db) as con:
        return str(queries.list_games(con)["game"].iloc[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--loads", type=int, default=3)
    args = ap.parse_args()
    db = _db(args)
    game = _first_game(db)

    from browser_helpers import ARGS, CHROMIUM, streamlit_server
    from playwright.sync_api import expect, sync_playwright

    log = Path(tempfile.mkdtemp(prefix="istaka-bench-log-")) / "server.log"
    ms = 1000
    with streamlit_server(db, log) as url, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = b.new_page(viewport={"width": 1280, "height": 800})
        for path in PAGES:  # one visit each first: the server's caches and the browser's bundle
            pg.goto(f"{url}/{path}", wait_until="domcontentloaded")
            pg.wait_for_selector(IDLE, timeout=180_000)

        firsts: dict[str, float] = {}
        for path in PAGES:
            times = []
            for _ in range(args.loads):
                t = time.perf_counter()
                pg.goto(f"{url}/{path}", wait_until="domcontentloaded")
                pg.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
                times.append(time.perf_counter() - t)
                pg.wait_for_selector(IDLE, timeout=180_000)
            firsts[path] = statistics.median(times)

        players = []
        for _ in range(args.loads):
            t = time.perf_counter()
            pg.goto(f"{url}/players", wait_until="domcontentloaded")
            pg.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 7",
                                 timeout=180_000, polling=50)
            players.append(time.perf_counter() - t)
            pg.wait_for_selector(IDLE, timeout=180_000)

        pg.goto(f"{url}/replay?game={game}&hand=1&step=0", wait_until="domcontentloaded")
        step = pg.locator('[data-testid="ist-step"]')
        expect(step).to_have_attribute("data-step", "0", timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=180_000)
        steps = []
        for i in range(1, args.steps + 1):
            t = time.perf_counter()
            pg.keyboard.press("ArrowRight")
            # the new board: the step label and the table drawn for step i
            pg.wait_for_function(f"document.querySelector('[data-testid=\"ist-board\"][data-step=\"{i}\"]')"
                                 f" || document.querySelector('[data-testid=\"ist-step\"][data-step=\"{i}\"]')",
                                 timeout=60_000, polling="raf")
            steps.append(time.perf_counter() - t)
            pg.wait_for_selector(IDLE, timeout=180_000)
        b.close()

    print(_load())
    for path, s in firsts.items():
        print(f"first paint /{path:9s} median {s * ms:7.0f} ms  target ≤ 2000 ms")
    print(f"Players page painted (7 charts): median {statistics.median(players) * ms:7.0f} ms  target ≤ 2000 ms")
    print(f"Replay step, key press to board: median {statistics.median(steps) * ms:7.0f} ms  "
          f"max {max(steps) * ms:7.0f} ms  target ≤ 300 ms")
    print(_load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
