"""Replay throughput: events per second with full legality checks, on one core (target 100,000).

    python bench/replay.py [--games 24] [--file LOG.jsonl[.gz]] [--repeat 5]

Without --file it simulates greedy games of all three presets (at least 200 hands) into a
temporary file first. It prints the median over --repeat runs of three things on the same
events: JSON parsing alone (the baseline every reader pays), reading (parse + field checks +
grouping) and the full replay (read + every rule checked + scores), and their ratios. Times
are this process's CPU time (one core, single-threaded, so it is the work's own time even on a
shared machine); --wall uses wall-clock time instead.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from analysis.game import log
from analysis.game.log import _loads as loads  # the reader's own JSON parser (orjson when installed)
from analysis.game import replay_game


def make_file(games: int, path: Path) -> None:
    from analysis.selfplay import run, specs, write_records

    todo = []
    for i, variant in enumerate(("101", "101-classic", "51")):
        todo += specs(games // 3, variant=variant, bots=("greedy",) * 4, seed=100 + i)
    write_records(run(todo), str(path))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--file")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    a = ap.parse_args()
    clock = time.perf_counter if a.wall else time.process_time
    if a.file:
        path = Path(a.file)
    else:
        path = Path(tempfile.mkdtemp()) / "bench.jsonl"
        make_file(a.games, path)
    with log.open_text(path) as fh:
        lines = fh.readlines()
    rr = log.read_lines(lines, str(path))
    events = sum(len(g.events) + 1 for g in rr.games)
    hands = sum(1 for g in rr.games for _, e in g.events if e["type"] == "hand")
    parse_t, read_t, replay_t = [], [], []
    invalid = 0
    for _ in range(a.repeat):
        t0 = clock()
        for ln in lines:
            loads(ln)
        t1 = clock()
        rr = log.read_lines(lines, str(path))
        t2 = clock()
        results = [replay_game(g, keep_steps=False) for g in rr.games]
        t3 = clock()
        invalid = sum(not r.valid for r in results)
        parse_t.append(t1 - t0)
        read_t.append(t2 - t1)
        replay_t.append(t3 - t2)
    p, r, e = (statistics.median(x) for x in (parse_t, read_t, replay_t))
    print(f"file: {path} — {len(rr.games)} games, {hands} hands, {events} events ({invalid} invalid games); "
          f"{'wall-clock' if a.wall else 'CPU'} time, median of {a.repeat}")
    print(f"JSON parse only          : {events / p:>12,.0f} events/s (baseline)")
    print(f"read (parse+check+group)  : {events / r:>12,.0f} events/s ({p / r:.2f}x baseline)")
    print(f"engine replay (rules only): {events / e:>12,.0f} events/s")
    print(f"read + replay end to end  : {events / (r + e):>12,.0f} events/s "
          f"({p / (r + e):.2f}x baseline; target 100,000 for the replay)")


if __name__ == "__main__":
    main()
