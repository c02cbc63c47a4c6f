"""Dashboard timings: a replay step (the rerun after →) and loading the Players page on 1,000 games.

    python bench/dashboard.py [--games 1000] [--hands 11] [--steps 40]

Builds a DuckDB of hand-written legal games (tests/dashboard_logs.py) through the store's import,
then drives the real app with Streamlit's AppTest (each figure includes AppTest's own overhead).
Baseline, measured in the same run: the rerun of a one-button script, i.e. the floor any page
pays. Targets: a step under 100 ms, the Players page under 1 s.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
logging.getLogger("streamlit").setLevel(logging.ERROR)


def _med(xs: list[float]) -> float:
    return statistics.median(xs)


def _p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(len(xs) * 0.9) - 1)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--hands", type=int, default=11)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--loads", type=int, default=5)
    args = ap.parse_args()

    from dashboard_logs import many_games, write_log

    from analysis import store

    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-dash-"))
    log = write_log(tmp / "games.jsonl", many_games(args.games, hands=args.hands))
    db = tmp / "bench.duckdb"
    t0 = time.perf_counter()
    con = store.connect(db, seed=False)
    try:
        summary = store.import_paths(con, [str(log)])
    finally:
        con.close()
    print(f"database: {summary.line()} (setup {time.perf_counter() - t0:.1f}s)")
    os.environ["ISTAKA_DB"] = str(db)

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    # baseline: the rerun of a trivial script
    base = AppTest.from_string("import streamlit as st\nst.button('x', key='x')\n", default_timeout=60)
    base.run()
    floor = []
    for _ in range(args.steps):
        t = time.perf_counter()
        base.button(key="x").click().run()
        floor.append(time.perf_counter() - t)

    app = str(ROOT / "dashboard" / "app.py")
    at = AppTest.from_file(app, default_timeout=120)
    at.query_params["game"] = "g0000"
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.message for e in at.exception]
    steps = []
    for _ in range(args.steps):
        t = time.perf_counter()
        at.button(key="b_next").click().run()
        steps.append(time.perf_counter() - t)
    assert not at.exception, [e.message for e in at.exception]
    # the same steps again: every solver answer now cached
    at.button(key="b_first").click().run()
    warm = []
    for _ in range(args.steps):
        t = time.perf_counter()
        at.button(key="b_next").click().run()
        warm.append(time.perf_counter() - t)

    loads = []
    for _ in range(args.loads):
        st.cache_data.clear()
        st.cache_resource.clear()
        p = AppTest.from_file(app, default_timeout=120)
        p.query_params["p_variant"] = "101"
        p.run()
        t = time.perf_counter()
        p.switch_page("views/players.py").run()
        loads.append(time.perf_counter() - t)
        assert not p.exception, [e.message for e in p.exception]
        assert len(p.get("plotly_chart")) == 7
    warm_loads = []
    for _ in range(args.loads):
        t = time.perf_counter()
        p.run()
        warm_loads.append(time.perf_counter() - t)

    ms = 1000
    print(f"baseline rerun (one-button script):       median {_med(floor) * ms:7.1f} ms")
    print(f"replay step (→, first visit, solver):     median {_med(steps) * ms:7.1f} ms  p90 {_p90(steps) * ms:7.1f} ms"
          f"  max {max(steps) * ms:7.1f} ms  ({_med(steps) / _med(floor):.1f}x baseline)  target < 100 ms")
    print(f"replay step (→, revisited, cached):       median {_med(warm) * ms:7.1f} ms  p90 {_p90(warm) * ms:7.1f} ms"
          f"  ({_med(warm) / _med(floor):.1f}x baseline)")
    print(f"Players page, {args.games} games, cold caches: median {_med(loads) * ms:7.1f} ms  max {max(loads) * ms:7.1f} ms"
          f"  ({_med(loads) / _med(floor):.1f}x baseline)  target < 1000 ms")
    print(f"Players page, {args.games} games, warm rerun:  median {_med(warm_loads) * ms:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
