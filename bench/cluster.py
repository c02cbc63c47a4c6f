"""Import and review throughput on a Dask cluster against the plain path, in one run.

    python bench/cluster.py                      # 192 self-play games in 16 files (cached), 6 reviewed
    python bench/cluster.py --analyze-games 0 --repeat 5   # import only
    python bench/cluster.py --depth quick --analyze-games 48

The same logs are imported (read + replay + store) into a fresh database three ways: the plain
single-process path (``--jobs 1``), then ``--cluster local:1`` and ``--cluster local:2``; then the
same games are reviewed the same three ways (the deep pass when the store has one, else the quick
pass; the line says which). Cluster start-up is timed apart: it is paid once per run, not per game.
Targets: 2 workers >= 1.7x 1 worker; 1 worker >= 0.9x the plain path (overhead <= 10%).

Also printed: how many rows per second the single writer (the client's DuckDB transactions)
absorbs, and a projection for 1 million games on 100 worker cores from these figures.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from analysis import store
from analysis.store import importer, reviews
from analysis.store.cluster import Cluster

VARIANTS = ("101", "51", "101-classic")


def make_logs(cache: Path, games: int, files: int) -> list[Path]:
    """Self-play logs (greedy bots, the presets in turn), made once and cached."""
    from analysis.selfplay import run, specs, write_records

    d = cache / f"cluster-{games}-{files}"
    if (d / "DONE").exists():
        return sorted(d.glob("*.jsonl.gz"))
    d.mkdir(parents=True, exist_ok=True)
    per = -(-games // files)
    for k in range(files):
        n = min(per, games - k * per)
        if n <= 0:
            break
        sp = specs(n, variant=VARIANTS[k % len(VARIANTS)], seed=f"cluster{k}", names=["Ayşe", "Mehmet", "Zeynep", "Ali"])
        write_records(run(sp, jobs=os.cpu_count() or 1), str(d / f"part-{k:03}.jsonl.gz"))
        print(f"  generated file {k + 1}/{files}", file=sys.stderr)
    (d / "DONE").touch()
    return sorted(d.glob("*.jsonl.gz"))


class WriteClock:
    """Seconds the client spends inside the importer's per-file write step (the single writer)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._orig = importer._import_file

    def __enter__(self) -> Self:
        orig = self._orig

        @functools.wraps(orig)
        def timed(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return orig(*a, **kw)
            finally:
                self.seconds += time.perf_counter() - t

        importer._import_file = timed  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        importer._import_file = self._orig  # type: ignore[assignment]


def pick_depth(want: str, con: Any, game: str, budget: float | None) -> tuple[str, Callable[..., Any]]:
    """The deep pass when asked for (``auto``: when it runs on one game here), else the quick one."""
    deep_ok = "deep" in inspect.signature(reviews.analyze).parameters
    if want != "quick" and deep_ok:
        opts: dict[str, Any] = {"deep": True, "force": True}
        if budget is not None:
            opts["budget"] = budget
        trial = reviews.analyze(con, games=[game], **opts)
        if trial.annotated == 1:
            what = "deep" + (f", {budget:g} s budget per decision" if budget is not None else "")
            return what, functools.partial(reviews.analyze, **opts)
        if want == "deep":
            raise SystemExit(f"the deep pass fails here: {trial.errors}")
        return f"quick (the deep pass fails here: {(trial.errors or ['?'])[0]})", functools.partial(
            reviews.analyze, force=True)
    if want == "deep":
        raise SystemExit("this tree has no deep pass (istaka analyze --deep)")
    return "quick" + ("" if deep_ok else " (no deep pass in this tree)"), functools.partial(reviews.analyze, force=True)


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=192)
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3, help="imports per path (the median is printed)")
    ap.add_argument("--analyze-games", type=int, default=6, help="games reviewed per path (0: import only)")
    ap.add_argument("--depth", choices=("auto", "quick", "deep"), default="auto")
    ap.add_argument("--budget", type=float, default=None,
                    help="the deep pass's CPU seconds per decision (default: its own); the work stays CPU-bound")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "istaka-bench"))
    a = ap.parse_args()
    files = make_logs(Path(a.cache), a.games, a.files)
    paths = [str(f) for f in files]
    print(f"{len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB gzip, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    imp: dict[str, float] = {}
    rev: dict[str, float] = {}
    write_rate = rows_per_event = 0.0
    events = 0
    depth = ""
    analyze: Callable[..., Any] = reviews.analyze
    with tempfile.TemporaryDirectory() as tmp:
        for label, workers in (("plain", 0), ("local:1", 1), ("local:2", 2)):
            cl = None
            if workers:
                t = time.perf_counter()
                cl = Cluster.open(f"local:{workers}")
                print(f"  {label}: cluster up in {time.perf_counter() - t:.1f}s (paid once per run)")
            try:
                rates, writing = [], []
                for r in range(a.repeat):
                    db = Path(tmp) / f"{workers}-{r}.duckdb"
                    con = store.connect(db, seed=False)
                    try:
                        with WriteClock() as clock:
                            s = store.import_paths(con, paths, workers=1, cluster=cl)
                        events = s.events
                        rates.append(s.events / s.seconds)
                        writing.append(clock.seconds)
                        if r == 0:
                            rows = sum(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
                                       for t in ("events", "hands", "hand_seats", "seats", "games", "penalties",
                                                 "openings", "mismatches"))
                    finally:
                        con.close()
                imp[label] = median(rates)
                if label == "plain":
                    rows_per_event = rows / events
                    write_rate = rows / median(writing)
                print(f"  import  {label:<8} {imp[label]:>9,.0f} events/s  (median of {a.repeat}: "
                      f"{', '.join(f'{x:,.0f}' for x in rates)}; {s.games} games, {s.events} events; "
                      f"client writing {median(writing):.2f}s of {s.seconds:.2f}s)")
                if a.analyze_games <= 0:
                    continue
                con = store.connect(Path(tmp) / f"{workers}-0.duckdb", seed=False)
                try:
                    ids = [r[0] for r in con.execute("SELECT game FROM games ORDER BY gid LIMIT ?",
                                                     [a.analyze_games]).fetchall()]
                    if not depth:
                        depth, analyze = pick_depth(a.depth, con, ids[0], a.budget)
                    res = analyze(con, games=ids, cluster=cl) if cl else analyze(con, games=ids, jobs=1)
                    rev[label] = 60.0 * res.annotated / res.seconds
                    # the runner's own cost: wall time the workers were not reviewing
                    busy = res.cpu_seconds / max(1, workers)
                    print(f"  analyze {label:<8} {rev[label]:>9,.1f} games/min  ({res.line()}; wall beyond the "
                          f"games' own time: {max(0.0, res.seconds - busy):.1f}s = "
                          f"{max(0.0, res.seconds - busy) / res.seconds:.1%})")
                finally:
                    con.close()
            finally:
                if cl is not None:
                    cl.close()
    print(f"review depth: {depth}")
    for what, rates_ in (("import", imp), ("analyze", rev))[:2 if rev else 1]:
        two, one = rates_["local:2"] / rates_["local:1"], rates_["local:1"] / rates_["plain"]
        print(f"{what:<8} 2 workers / 1 worker x{two:.2f} (target >= 1.7: {'met' if two >= 1.7 else 'NOT met'});"
              f"  1 worker / plain x{one:.2f} (target >= 0.9: {'met' if one >= 0.9 else 'NOT met'})")
    per_game = events / a.games
    core = imp["local:1"]  # events/s one worker core sustains (the client writes beside it)
    cores = 100
    need = 1_000_000 * per_game
    writer = write_rate / rows_per_event  # events/s the single writer absorbs
    print(f"single writer: {write_rate:,.0f} rows/s ({rows_per_event:.2f} rows per event) = {writer:,.0f} events/s")
    t_cpu = need / (core * cores)
    t_writer = need / writer
    print(f"projection, 1M games (~{per_game:.0f} events each) on {cores} worker cores: import "
          f"{max(t_cpu, t_writer) / 3600:.2f} h ({'writer-bound' if t_writer > t_cpu else 'CPU-bound'}: workers "
          f"{t_cpu / 3600:.2f} h, writer {t_writer / 3600:.2f} h); the writer is the limit past "
          f"{writer / core:.0f} worker cores")
    if not rev:
        return 0
    per_review = 60.0 / rev["local:1"]
    kind = depth.split(",")[0].split()[0]
    print(f"projection, 1M games reviewed ({kind}, {per_review:.2f} s per game per core) on {cores} "
          f"cores: {1_000_000 * per_review / cores / 3600:.1f} h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
