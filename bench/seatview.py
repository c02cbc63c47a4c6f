"""Seat-view logs against full logs: replay and import throughput on the same games.

    python bench/seatview.py [--games 24] [--repeat 5] [--seat 0]

Simulates greedy games of all three presets (bench/replay.py's set), cuts them to one seat's
view (analysis.game.cut, what ``istaka view`` writes), then times, alternating full and seat
view so that both see the same machine: the engine's replay (CPU time) and the import (read,
replay, store; one worker, CPU time). Prints the medians, their ratios and the machine load.
Target: a seat view within 2x of its full log.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seat", type=int, default=0)
    args = ap.parse_args()

    from replay import make_file

    from analysis import store
    from analysis.game import read_file, replay_game, write
    from analysis.game.cut import cut_view

    with tempfile.TemporaryDirectory(prefix="istaka-sv-bench-") as tmp:
        full_path = Path(tmp) / "full.jsonl.gz"
        make_file(args.games, full_path)
        full = read_file(full_path).games
        buf = io.StringIO()
        write([cut_view(g, args.seat) for g in full], buf)
        view_path = Path(tmp) / "view.jsonl"
        view_path.write_text(buf.getvalue(), encoding="utf-8")
        view = read_file(view_path).games
        sets = {"full": (full, full_path), "seat view": (view, view_path)}
        events = {k: sum(len(g.events) for g in gs) for k, (gs, _) in sets.items()}
        rep: dict[str, list[float]] = {k: [] for k in sets}
        imp: dict[str, list[float]] = {k: [] for k in sets}
        for i in range(args.repeat):
            for k, (gs, path) in sets.items():
                t = time.process_time()
                for g in gs:
                    replay_game(g, keep_steps=False)
                rep[k].append(events[k] / (time.process_time() - t))
                con = store.connect(Path(tmp) / f"{k.replace(' ', '_')}-{i}.duckdb", seed=False)
                t = time.process_time()
                store.import_paths(con, [str(path)], workers=1)
                imp[k].append(events[k] / (time.process_time() - t))
                con.close()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{len(full)} games, {events['full']:,} events (seat view {events['seat view']:,}), seat {args.seat}, "
          f"medians of {args.repeat} alternating runs, CPU time; load average {load}")
    for name, r in (("engine replay", rep), ("import (read+replay+store, 1 worker)", imp)):
        f, v = statistics.median(r["full"]), statistics.median(r["seat view"])
        print(f"{name:38}: full {f:>9,.0f} events/s, seat view {v:>9,.0f} events/s: {f / v:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
