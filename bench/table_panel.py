"""What they hold on Replay: what the panel adds to a step, and one reading on its own.

    python bench/table_panel.py [--steps 30] [--games 2]

Builds a DuckDB of hand-written legal games (tests/store_logs.py) and drives the real Replay page
with Streamlit's AppTest (each figure includes AppTest's own overhead), stepping forward with →:

- baseline, measured in the same run: the steps with the panel closed, every other cache of the
  page already warm (a first pass fills them);
- the same steps with the panel open: each step a new reading (cold), then again (cached);
- the library's reading alone (``read_table`` on the same positions, 64 worlds).

The panel reads only while open, so a closed panel costs the page nothing but its label.
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
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args()

    from store_logs import make_game, write_log

    from analysis import store
    from analysis.evaluate.panel import read_table
    from analysis.game import read_file, replay_game
    from analysis.players import View

    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-panel-"))
    log = write_log(tmp / "g.jsonl", [make_game(f"tp-{i}", seed=i, hands=1, modes=["open"]) for i in range(args.games)])
    db = tmp / "bench.duckdb"
    con = store.connect(db, seed=False)
    try:
        store.import_paths(con, [str(log)], workers=1)
    finally:
        con.close()
    os.environ["ISTAKA_DB"] = str(db)

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=300)
    at.query_params["game"] = "tp-0"
    at.query_params["step"] = "1"
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.message for e in at.exception]

    def walk(open_: bool) -> list[float]:
        at.session_state["step"] = 1
        at.session_state["th_replay"] = open_
        at.run()
        out = []
        for _ in range(args.steps):
            t = time.perf_counter()
            at.button(key="b_next").click().run()
            out.append(time.perf_counter() - t)
            assert not at.exception, [e.message for e in at.exception]
            shown = any('data-testid="th-panel"' in m.value for m in at.markdown)
            assert shown == open_ or at.session_state["step"] >= args.steps, (open_, shown)
        return out

    walk(False)  # fills the page's other caches (solver suggestions, the evaluator's panel)
    closed = walk(False)
    cold = walk(True)
    warm = walk(True)

    res = replay_game(read_file(log).games[0], keep_steps=True)
    steps = res.hands[0].steps
    alone, cpu = [], []
    for k in range(2, min(len(steps), args.steps + 2)):
        st = steps[k].state
        if st.over:
            continue
        t, c = time.perf_counter(), time.process_time()
        read_table(View.of(st, 0), seed=f"bench:{k}", worlds=64)
        alone.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)

    ms = 1000
    print(f"{args.steps} Replay steps (→) of tp-0, the panel read from seat 0's view (AppTest, wall clock)")
    print(f"panel closed (baseline):        median {_med(closed) * ms:7.1f} ms  p90 {_p90(closed) * ms:7.1f} ms")
    print(f"panel open, each step new:      median {_med(cold) * ms:7.1f} ms  p90 {_p90(cold) * ms:7.1f} ms"
          f"  ({_med(cold) / _med(closed):.2f}x baseline)")
    print(f"panel open, revisited (cached): median {_med(warm) * ms:7.1f} ms  p90 {_p90(warm) * ms:7.1f} ms"
          f"  ({_med(warm) / _med(closed):.2f}x baseline)")
    print(f"read_table alone (64 worlds):   median {_med(alone) * ms:7.1f} ms  p90 {_p90(alone) * ms:7.1f} ms"
          f"  max {max(alone) * ms:7.1f} ms  ({len(alone)} positions)")
    print(f"read_table alone, CPU time:     median {_med(cpu) * ms:7.1f} ms  p90 {_p90(cpu) * ms:7.1f} ms"
          f"  max {max(cpu) * ms:7.1f} ms  (this process's own work, whatever the machine's load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
