"""The Player page's paint on 1,000 games in a real browser (Debian's Chromium through Playwright).

    python bench/player_page.py                  # 1,000 self-play games (greedy bots), reviewed
    python bench/player_page.py --games 100 --loads 3

Builds a store of ``--games`` simulated 11-hand games (bench/import.py's logs, cached under
--cache: two tables of four names, Ali at both, so Ali has every game), reviews them all (the
quick pass: the mistakes by kind need reviews), starts the dashboard on it and opens the Player
page ``--loads`` times at 1280x800, each time for another pair of players side by side, so that
every load's reads miss the server's caches. A load counts from the navigation to the page
painted: both kinds tables, the style table and both trend charts drawn. The Players page on the
same store, loaded the same way, is the baseline of the same run.

Target: the Player page paints in ≤ 2 s on 1,000 games (the median of the loads).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
NAMES = ("Ali", "Ayşe", "Mehmet", "Zeynep", "Elif", "Emre", "Fatma")


def _load() -> str:
    return "load %.1f %.1f %.1f on %d cores" % (*os.getloadavg(), os.cpu_count() or 0)


def _logs(cache: Path, games: int, files: int) -> list[Path]:
    spec = importlib.util.spec_from_file_location("bench_import", ROOT / "bench" / "import.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.make_logs(cache, games, files, "simulated", os.cpu_count() or 1)


def _store(files: list[Path], jobs: int) -> Path:
    from analysis import store
    from analysis.store import analyze

    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-player-"))
    db = tmp / "bench.duckdb"
    con = store.connect(db, seed=False)
    try:
        t = time.perf_counter()
        print("import:", store.import_paths(con, [str(f) for f in files]).line(), flush=True)
        s = analyze(con, jobs=jobs)
        print(f"review: {s.line()}  ({time.perf_counter() - t:.0f}s with the import)", flush=True)
    finally:
        con.close()
    return db


PAINTED = """(n) => document.querySelectorAll('[data-testid="pp-kinds"]').length >= n
  && document.querySelector('[data-testid="pp-style"] tr[data-metric="finish_rate"]') !== null
  && [...document.querySelectorAll('.js-plotly-plot')].filter((c) => c.querySelector('.main-svg')).length >= n"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2, help="review workers")
    ap.add_argument("--db", help="an existing store instead (its names need not be the bench's)")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "istaka-bench"))
    args = ap.parse_args()
    print(_load(), flush=True)
    db = Path(args.db) if args.db else _store(_logs(Path(args.cache), args.games, args.files), args.jobs)

    from analysis import store
    from analysis.store import queries

    with store.reading(db) as con:
        games = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        reviewed = con.execute("SELECT count(*) FROM review_games").fetchall()[0][0]
        played = {r[0] for r in con.execute("SELECT DISTINCT player FROM hand_seats JOIN games USING (game) "
                                            "WHERE variant = '101'").fetchall()}
        names = [n for n in NAMES if n in played] or sorted(played)
        ali = con.execute("SELECT count(DISTINCT game) FROM seats WHERE player = ?", [names[0]]).fetchall()[0][0]
    print(f"store: {games} games, {reviewed} reviewed; {names[0]} sits at {ali}", flush=True)
    pairs = [(names[0], b) for b in names[1:]] + list(itertools.combinations(names[1:], 2))

    from browser_helpers import ARGS, CHROMIUM, streamlit_server
    from playwright.sync_api import sync_playwright

    log = Path(tempfile.mkdtemp(prefix="istaka-bench-log-")) / "server.log"
    player_ms: list[float] = []
    idle_ms: list[float] = []
    base_ms: list[float] = []
    with streamlit_server(db, log) as url, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = b.new_page(viewport={"width": 1280, "height": 800})
        for path in ("players", "player"):  # the browser's bundle and the pages' modules, once
            pg.goto(f"{url}/{path}?lang=en", wait_until="domcontentloaded")
            pg.wait_for_selector(IDLE, timeout=300_000)
        for i in range(args.loads):
            a, o = pairs[i % len(pairs)]
            t = time.perf_counter()
            pg.goto(f"{url}/player?pp_player={a}&pp_other={o}&pp_variant=101&lang=en", wait_until="domcontentloaded")
            pg.wait_for_function(PAINTED, arg=2, timeout=300_000, polling=50)
            player_ms.append((time.perf_counter() - t) * 1000)
            pg.wait_for_selector(IDLE, timeout=300_000)
            idle_ms.append((time.perf_counter() - t) * 1000)
            print(f"  Player page, {a} beside {o}: painted {player_ms[-1]:.0f} ms, idle {idle_ms[-1]:.0f} ms",
                  flush=True)
            t = time.perf_counter()  # the baseline: the Players page, its 7 charts, same players
            pg.goto(f"{url}/players?p_variant=101&p_players={a}&p_players={o}&lang=en", wait_until="domcontentloaded")
            pg.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 7",
                                 timeout=300_000, polling=50)
            base_ms.append((time.perf_counter() - t) * 1000)
            pg.wait_for_selector(IDLE, timeout=300_000)
        b.close()
    text = log.read_text(errors="replace")
    if "Traceback" in text:
        print(text[-3000:])
        return 1
    med, base = statistics.median(player_ms), statistics.median(base_ms)
    print(_load())
    print(f"Player page painted, {games} games, {args.loads} loads (another pair each): median {med:.0f} ms "
          f"(min {min(player_ms):.0f}, max {max(player_ms):.0f}); to idle {statistics.median(idle_ms):.0f} ms; "
          f"target ≤ 2000 ms: {'met' if med <= 2000 else 'NOT met'}")
    print(f"baseline, the Players page (7 charts) on the same store: median {base:.0f} ms; ratio {med / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
