"""The deep review in the dashboard: what the Replay panel of the evaluator's top three
adds to a replay step, and how long the Review page's "deep review" button takes on a game.

    python bench/deep_dashboard.py [--steps 40] [--rounds 3] [--hands 11]

1. Replay steps (the rerun after →, first visit: every cache cleared) through Streamlit's AppTest
   on a simulated game, in alternating rounds with the panel and with the panel replaced by a
   no-op (the baseline, same run, same steps); prints the medians and their ratio.
2. The button's work, ``dashboard.state.deep_data.run_deep`` (the deep pass with a progress callback,
   then one write), on a simulated game of ``--hands`` hands: wall and CPU seconds, decisions.
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


def _game_db(tmp: Path, gid: str, hands: int, seed: str) -> Path:
    from store_logs import stored

    from analysis.selfplay import GameSpec, Player, play_game

    spec = GameSpec(gid, (Player("Sol", "solver"), Player("Ran", "random"), Player("Gre", "greedy"),
                          Player("Exp", "solver")), "101", None, seed, "2026-10-09T20:00:00+00:00", hands=hands)
    log = tmp / f"{gid}.jsonl"
    log.write_text("".join(play_game(spec).lines()), encoding="utf-8")
    return stored(tmp / f"{gid}.duckdb", log)


def _steps(panel: bool, n: int) -> list[float]:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from dashboard.board import deep_view

    real = deep_view.replay_panel
    if not panel:
        deep_view.replay_panel = lambda *a, **k: None  # the page without the panel
    try:
        st.cache_data.clear()
        st.cache_resource.clear()
        at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=120)
        at.query_params["game"] = "bench-1"
        at.run()
        at.switch_page("views/replay.py").run()
        assert not at.exception, [e.message for e in at.exception]
        out = []
        for _ in range(n):
            t = time.perf_counter()
            at.button(key="b_next").click().run()
            out.append(time.perf_counter() - t)
        assert not at.exception, [e.message for e in at.exception]
        return out
    finally:
        deep_view.replay_panel = real


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hands", type=int, default=11)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-deepdash-"))
    os.environ["ISTAKA_DB"] = str(_game_db(tmp, "bench-1", 1, "7"))

    with_panel: list[float] = []
    without: list[float] = []
    for _ in range(args.rounds):  # alternating, so that a change in the machine's load hits both
        without += _steps(False, args.steps)
        with_panel += _steps(True, args.steps)
    med = statistics.median
    ms = 1000
    print(f"replay step without the panel (baseline): median {med(without) * ms:6.1f} ms  "
          f"({len(without)} steps)")
    print(f"replay step with the panel (first visit):  median {med(with_panel) * ms:6.1f} ms  "
          f"p90 {sorted(with_panel)[int(len(with_panel) * .9) - 1] * ms:6.1f} ms  "
          f"ratio {med(with_panel) / med(without):.2f}x")

    db = _game_db(tmp, "bench-11", args.hands, "9")
    os.environ["ISTAKA_DB"] = str(db)
    from dashboard.state import deep_data

    ticks: list[tuple[int, int]] = []
    t0, c0 = time.perf_counter(), time.process_time()
    n, err = deep_data.run_deep("bench-11", lambda d, t: ticks.append((d, t)))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"deep review button, {args.hands}-hand game: {n} decisions graded in {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({cpu / max(n, 1) * ms:.0f} ms CPU a decision; progress reported {len(ticks)} times; error: {err}); "
          f"target <= 30 s on one core")
    return 0 if err is None else 1


if __name__ == "__main__":
    sys.exit(main())
