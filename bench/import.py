"""Import throughput and dashboard query latency on 1,000 simulated games.

    python bench/import.py                       # 1,000 self-play games (greedy bots), 10 files
    python bench/import.py --source synthetic    # tests/store_logs.py games: no simulator needed
    python bench/import.py --games 200 --jobs 1

Prints: end-to-end import (read + replay + store) in events/s, DuckDB's own ``read_json`` of the
same files without any validation as the ceiling, their ratio, where a single process spends
its time, and the median latency of each dashboard query (and of open + query + close, the
dashboard's pattern) against ``SELECT 1`` measured in the same run. Targets: >= 50,000 events/s
end to end; every query < 50 ms at the median. The generated logs are cached under --cache.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from analysis.store import queries as Q
from analysis import store

VARIANTS = ("101", "51", "101-classic")


def make_logs(cache: Path, games: int, files: int, source: str, jobs: int) -> list[Path]:
    d = cache / f"{source}-{games}-{files}"
    done = d / "DONE"
    if done.exists():
        return sorted(d.glob("*.jsonl*"))
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    per = -(-games // files)
    t0 = time.perf_counter()
    for k in range(files):
        n = min(per, games - k * per)
        if n <= 0:
            break
        variant = VARIANTS[k % len(VARIANTS)]
        if source == "synthetic":
            from store_logs import make_game, write_log

            write_log(d / f"export-{k:03}.jsonl", [make_game(f"b{k}-{i}", seed=k * 100_000 + i, hands=11)
                                                   for i in range(n)])
        else:
            from analysis.selfplay import run, specs, write_records

            names = ["Ayşe", "Mehmet", "Zeynep", "Ali"] if k % 2 else ["Elif", "Ali", "Emre", "Fatma"]
            sp = specs(n, variant=variant, seed=f"bench{k}", names=names, site=f"site{k % 3}")
            write_records(run(sp, jobs=jobs), str(d / f"export-{k:03}.jsonl.gz"))
        print(f"  generated file {k + 1}/{files} ({time.perf_counter() - t0:.0f}s)", file=sys.stderr)
    done.touch()
    return sorted(d.glob("*.jsonl*"))


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def stage_breakdown(files: list[Path]) -> dict[str, float]:
    """Seconds per stage for one process over the first file (read, checksum, replay, rows, write)."""
    from analysis.game import read_file
    from analysis.game import replay_game

    f = files[0]
    out = {"read": 0.0, "checksum": 0.0, "replay": 0.0, "rows": 0.0, "arrow": 0.0, "write": 0.0}
    t = time.perf_counter()
    rr = read_file(f)
    out["read"] = time.perf_counter() - t
    rows = []
    for g in rr.games:
        t = time.perf_counter()
        cs = store.game_checksum(g)
        t1 = time.perf_counter()
        res = replay_game(g, keep_steps=False)
        t2 = time.perf_counter()
        rows.append(store.game_rows(g, res, cs))
        t3 = time.perf_counter()
        out["checksum"] += t1 - t
        out["replay"] += t2 - t1
        out["rows"] += t3 - t2
    store.to_tables(rows[:1])  # pyarrow's import, once
    t = time.perf_counter()
    tables, _ = store.to_tables(rows)
    out["arrow"] = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        con = store.connect(Path(tmp) / "s.duckdb")
        t = time.perf_counter()
        store.write_tables(con, tables)
        out["write"] = time.perf_counter() - t
        con.close()
    out["events"] = sum(len(g.events) + 1 for g in rr.games)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--source", choices=("simulated", "synthetic"), default="simulated")
    ap.add_argument("--jobs", type=int, default=None, help="import workers (default: the store's choice)")
    ap.add_argument("--repeat", type=int, default=30, help="runs per query for the median")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "istaka-bench"))
    args = ap.parse_args()

    files = make_logs(Path(args.cache), args.games, args.files, args.source, os.cpu_count() or 1)
    size = sum(f.stat().st_size for f in files)
    print(f"{len(files)} files, {size / 1e6:.1f} MB ({args.source}), {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        dbf = Path(tmp) / "bench.duckdb"
        con = store.connect(dbf)
        import resource

        c0 = time.process_time()
        ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        s = store.import_paths(con, [str(f) for f in files], workers=args.jobs)
        ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time() - c0 + (ch1.ru_utime - ch0.ru_utime) + (ch1.ru_stime - ch0.ru_stime)
        e2e = s.events / s.seconds
        print(f"import: {s.line()}")
        print(f"  end to end      {e2e:>10,.0f} events/s   (cpu {cpu:.1f}s: {s.events / cpu:,.0f} events per cpu-s; "
              f"workers {args.jobs or store.default_workers(files)})")
        t = time.perf_counter()
        again = store.import_paths(con, [str(f) for f in files], workers=args.jobs)
        print(f"  re-import       {again.events / (time.perf_counter() - t):>10,.0f} events/s   "
              f"({again.unchanged} unchanged)")
        con.close()

        raw = duckdb.connect()
        pattern = str(files[0].parent / ("*.jsonl.gz" if files[0].name.endswith(".gz") else "*.jsonl"))
        t = time.perf_counter()
        n = raw.execute("CREATE TABLE raw AS SELECT * FROM read_json(?, format = 'newline_delimited', "
                        "union_by_name = true)", [pattern]).fetchall()[0][0]
        ceil = n / (time.perf_counter() - t)
        raw.close()
        print(f"  read_json       {ceil:>10,.0f} events/s   (DuckDB, no validation: the ceiling)")
        print(f"  ratio           {e2e / ceil:>10.3f}          (target: >= 50,000 events/s end to end: "
              f"{'met' if e2e >= 50_000 else 'NOT met'})")

        st = stage_breakdown(files)
        total = sum(v for k, v in st.items() if k != "events")
        print(f"  one process, one file ({st['events']:,.0f} events): " + ", ".join(
            f"{k} {v / total:.0%} ({st['events'] / v:,.0f}/s)" for k, v in st.items() if k != "events"))

        with store.reading(dbf) as rc:
            some = Q.list_games(rc)
            game = some.game.iloc[len(some) // 2]
            player = Q.players(rc)[0]
            variant = Q.variants(rc)[0]
            checks: list[tuple[str, Callable[[], Any]]] = [
                ("SELECT 1 (baseline)", lambda: rc.execute("SELECT 1").fetchall()),
                ("list_games()", lambda: Q.list_games(rc)),
                ("list_games(player, variant)", lambda: Q.list_games(rc, player=player, variant=variant)),
                ("list_games(dates, site)", lambda: Q.list_games(rc, date_from="2026-01-01", date_to="2026-12-31",
                                                                 site="site1")),
                ("game_info", lambda: Q.game_info(rc, game)),
                ("game_hands", lambda: Q.game_hands(rc, game)),
                ("game_events", lambda: Q.game_events(rc, game)),
                ("game_events(hand)", lambda: Q.game_events(rc, game, hand=1)),
                ("load_gamelog", lambda: Q.load_gamelog(rc, game)),
                ("player_hand_scores()", lambda: Q.player_hand_scores(rc)),
                ("player_hand_scores(player, variant)", lambda: Q.player_hand_scores(rc, player, variant)),
                ("opening_values()", lambda: Q.opening_values(rc)),
                ("finish_kinds()", lambda: Q.finish_kinds(rc)),
                ("penalties()", lambda: Q.penalties(rc)),
                ("player_stats()", lambda: Q.player_stats(rc)),
                ("player_stats(variant)", lambda: Q.player_stats(rc, variant)),
                ("import_errors", lambda: Q.import_errors(rc)),
                ("players/variants/sites", lambda: (Q.players(rc), Q.variants(rc), Q.sites(rc))),
            ]
            results = [(name, median_ms(fn, args.repeat)) for name, fn in checks]
        base = results[0][1]
        print(f"dashboard queries on {len(some)} games (median of {args.repeat}, ms):")
        for name, ms in results:
            flag = "" if ms < 50 else "   OVER 50 ms"
            print(f"  {name:<38}{ms:>8.2f} ms  x{ms / base:>7.0f} of SELECT 1{flag}")

        def refresh() -> None:
            with store.reading(dbf) as c:
                Q.list_games(c)

        print(f"  {'open + list_games + close':<38}{median_ms(refresh, args.repeat):>8.2f} ms  "
              "(the dashboard's per-refresh pattern)")
        worst = max(ms for _, ms in results[1:])
        print(f"slowest query {worst:.1f} ms: target < 50 ms {'met' if worst < 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
