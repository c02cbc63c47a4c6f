"""How long does `istaka COMMAND --help` take? The median wall time of N runs per command (and of
`istaka --help`), each a fresh `python -m analysis.cli` from this tree, and the modules of the
library each one imported. A command imports its heavy modules (the engine, the store's DuckDB
and pandas, the evaluator) when it runs, never for its help.

    python bench/cli_help.py [--runs 7]

Measured 2026-12-05 on the shared 2-core machine (load 6), median of 5, before -> after the lazy
imports: `istaka --help` 1276 -> 101 ms, notes 670 -> 34 ms, replay 274 -> 42, match 260 -> 34,
simulate 208 -> 32, solve 160 -> 39, view 102 -> 33; evaluate 144 -> 95 ms (its help still imports
the evaluator, for PRICE_WORLDS, and so does `istaka --help`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("", "replay", "solve", "simulate", "match", "import", "errors", "export", "analyze", "report", "notes",
            "evaluate", "view", "study")
PROBE = ("import sys, runpy; sys.argv = ['istaka', *sys.argv[1:]]\n"
         "try:\n    runpy.run_module('analysis.cli', run_name='__main__')\n"
         "except SystemExit:\n    pass\n"
         "print(' '.join(sorted(m for m in sys.modules if m.startswith('analysis.') and not m.startswith("
         "'analysis.cli') or m in ('duckdb', 'pandas'))), file=sys.stderr)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    env = {**os.environ, "COLUMNS": "100"}
    print(f"load {os.getloadavg()}, {a.runs} runs each")
    for cmd in COMMANDS:
        args = [sys.executable, "-m", "analysis.cli", *([cmd] if cmd else []), "--help"]
        times = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            subprocess.run(args, cwd=ROOT, env=env, capture_output=True, check=False)
            times.append(time.perf_counter() - t0)
        probe = subprocess.run([sys.executable, "-c", PROBE, *([cmd] if cmd else []), "--help"], cwd=ROOT, env=env,
                               capture_output=True, text=True, check=False)
        heavy = probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else ""
        print(f"istaka {cmd or '':9} --help  {1000 * statistics.median(times):6.0f} ms   "
              f"{len(heavy.split())} library modules imported" + (f" ({heavy[:80]}...)" if heavy else ""))


if __name__ == "__main__":
    main()
