"""The fuzz suite at scale: mutated games and positions through the istaka command line.

    python bench/fuzz.py --mutations 20000 [--seeds 3] [--positions 2000] [--files 200] [--keep DIR]

Each seed makes ``--mutations / --seeds`` mutated games (every class of tests/fuzz_gen.py, plus
one clean game per five) and ``--sheets / --seeds`` mutated score sheets (tests/fuzz_sheets.py), replays each alone to learn which are clean on their own, then runs
them together through ``replay --json``, ``import``, ``errors`` and ``errors --json`` (plain,
gzip, BOM, a gzip without its trailer, a gzip cut short), and ``--positions`` mutated positions
through ``solve --batch``, and ``--files`` hostile files (tests/fuzz_gen.py FILE_CLASSES:
gzip bombs, endless lines, binary data, glob-like and long names, floods of broken lines; with a
FIFO and the devices) through ``replay`` and ``import`` with their peak memory. Prints mutations, tracebacks, hangs, games lost, batch lines not
answered, and the first notes. Exit 1 when anything was found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import fuzz_check  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mutations", type=int, default=10_000)
    ap.add_argument("--seeds", type=int, default=0, help="split into this many runs (default: 1 per 4,000)")
    ap.add_argument("--positions", type=int, default=0, help="solve --batch lines (default: mutations / 10)")
    ap.add_argument("--sheets", type=int, default=0,
                    help="mutated score-sheet logs besides (default: mutations / 5; tests/fuzz_sheets.py)")
    ap.add_argument("--files", type=int, default=0, help="hostile files (default: mutations / 500, at least 16)")
    ap.add_argument("--classes", help="only these mutation classes of tests/fuzz_gen.py CLASSES, comma-separated "
                                      "(e.g. seat_view: 10,000 seat-view logs)")
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=900, help="seconds per command before it counts as a hang")
    ap.add_argument("--keep", help="work in this directory and keep the files")
    args = ap.parse_args()
    seeds = args.seeds or max(1, -(-args.mutations // 4000))
    args.sheets = args.sheets or args.mutations // 5
    per = -(-args.mutations // seeds)
    positions = args.positions or max(100, args.mutations // 10)
    files = args.files or max(16, args.mutations // 500)
    t0 = time.perf_counter()
    f = fuzz_check.Findings()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for k in range(seeds):
            seed = args.first_seed + k
            fuzz_check.check_logs(work, seed, per, per // 5, f=f, timeout=args.timeout, sheets=args.sheets // seeds,
                                  classes=args.classes.split(",") if args.classes else None)
            fuzz_check.check_solve(work, seed, -(-positions // seeds), f=f, timeout=args.timeout)
            fuzz_check.check_files(work, seed, -(-files // seeds), f=f, timeout=args.timeout)
            print(f"seed {seed}: {f.mutations} mutations, {f.positions} positions so far, "
                  f"{f.failures} findings, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    print(f"mutations        {f.mutations} games ({f.clean_alone} clean on their own, clean ones included), "
          f"{f.positions} solve positions, {f.calls} commands, {time.perf_counter() - t0:.1f}s")
    print(f"tracebacks       {f.tracebacks}")
    print(f"hangs            {f.hangs} (a command over {args.timeout:g}s)")
    print(f"hostile files    {files} (peak memory limit {fuzz_check.MAX_RSS_MB} MB a command)")
    print(f"bad exit codes   {f.bad_exit}")
    print(f"games lost       {f.games_lost} (clean on their own, not clean or not stored next to the others)")
    print(f"lines unanswered {f.lines_unanswered} (solve --batch)")
    for n in f.notes[:20]:
        print("  " + n.replace("\n", " | "))
    return 1 if f.failures else 0


if __name__ == "__main__":
    sys.exit(main())
