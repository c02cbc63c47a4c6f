"""Peak memory of the istaka commands on hostile input that each rule alone allows.

    python bench/memory.py                  # every case at full size
    python bench/memory.py --quick          # small sizes (a minute)

Each case is a file small on disk (gzip) that a reader without bounds replays at a cost growing
with the square of its events: 8,000 open/takeback pairs in one turn (O6: one takeback a turn
now, refused at the second), 25 hands of the R8 passed round by take and discard with an X4
penalty at each discard (legal: every seat opened; 1,990 events a hand, refused now that a hand
holds at most 1,000, and 20 hands of 990, the largest the reader takes), a 32,699-round score sheet (refused at 100 hands, G1), a 1,000,000-character player name.
Each command runs in its own process; its peak resident memory (``ru_maxrss``) is printed beside
its exit code and time. The target: every case under 1.5 GB (docs/limits.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hostile_logs import take_discard_flood, takeback_flood  # noqa: E402

TARGET_MB = 1536
# runs one istaka command in this process and prints its peak RSS (MB) as the last stderr line
RUN = ("import resource, sys\nfrom analysis.cli import main\ntry:\n    rc = main(sys.argv[1:])\n"
       "finally:\n    print('MAXRSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.stderr)\n"
       "sys.exit(rc)\n")


def sheet(rounds: int) -> str:
    head = {"type": "game", "game": "big-sheet", "variant": "101", "players": ["A", "B", "C", "D"], "sheet": True}
    res = {"type": "result", "game": "big-sheet", "finisher": None, "kind": "exhausted", "opened": [None] * 4,
           "left": [0, 0, 0, 0], "penalties": []}
    return "".join(json.dumps(x) + "\n" for x in [head] + [res | {"hand": i} for i in range(1, rounds + 1)])


def long_name(chars: int) -> str:
    lines = (ROOT / "tests" / "data" / "golden" / "normal_finish.jsonl").read_text("utf-8").splitlines()
    head = json.loads(lines[0])
    head["players"][0] = "x" * chars
    return "\n".join([json.dumps(head)] + lines[1:]) + "\n"


def run(args: list[str], cwd: Path) -> tuple[int, float, int, str]:
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, cwd=cwd,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    rss = next((int(x.split()[1]) for x in reversed(p.stderr.splitlines()) if x.startswith("MAXRSS")), -1)
    tb = "Traceback" in p.stderr
    last = (p.stdout.strip().splitlines() or [""])[-1][:90]
    return p.returncode, time.monotonic() - t0, rss, ("TRACEBACK " if tb else "") + last


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes")
    ap.add_argument("--cache", type=int, default=0, metavar="N",
                    help="only: N copies of the reader's worst legal game, each opened on the Replay page")
    a = ap.parse_args()
    if a.cache:
        return cache_run(a.cache, a.quick)
    q = a.quick
    cases = {
        "takeback-8000": takeback_flood(400 if q else 8_000),
        "take-discard-20x990": take_discard_flood(3 if q else 20, 200 if q else 490),  # the reader's worst
        "take-discard-25x1990": take_discard_flood(3 if q else 25, 200 if q else 990),  # refused: hands past 1,000
        "sheet-32699": sheet(2_000 if q else 32_699),
        "name-1e6": long_name(1_000_000),
    }
    worst = 0
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        print(f"{'case':24} {'gzip KB':>8} {'command':10} {'exit':>4} {'s':>6} {'RSS MB':>7}  last line")
        for name, text in cases.items():
            f = d / f"{name}.jsonl.gz"
            f.write_bytes(gzip.compress(text.encode("utf-8")))
            db = d / f"{name}.duckdb"
            game = json.loads(text.split("\n", 1)[0])["game"]
            for cmd in (["replay", str(f)], ["import", str(f), "--db", str(db)],
                        ["analyze", "--db", str(db), "--no-progress"],
                        ["report", game, "--db", str(db), "--out", str(d / "r.html")]):
                rc, s, rss, last = run(cmd, d)
                worst = max(worst, rss)
                print(f"{name:24} {f.stat().st_size / 1024:8.1f} {cmd[0]:10} {rc:4} {s:6.1f} {rss:7}  {last}",
                      flush=True)
            if name.startswith("take-discard-20"):
                mb = replay_page(db, game, d)
                worst = max(worst, mb)
                print(f"{name:24} {f.stat().st_size / 1024:8.1f} {'Replay page':10} {'':4} {'':6} {mb:7}  the server's peak "
                      f"(VmHWM) after its Replay opened at hands 1, 10 and 20", flush=True)
    print(f"worst peak: {worst} MB (target < {TARGET_MB} MB)")
    return 0 if worst < TARGET_MB else 1


def replay_page(db: Path, game: str, work: Path, games: list[str] | None = None) -> int:
    """The dashboard's server peak memory once its Replay page has shown ``game`` (three hands),
    or each of ``games`` (hands 1 and 20: the page caches fill)."""
    import asyncio

    sys.path.insert(0, str(ROOT / "bench"))
    from load_ws import serve
    from ws_client import Session

    proc, url = serve(db, work / "server.log")
    try:
        async def visit() -> None:
            for g in games or [game]:
                async with Session(url) as s:
                    for hand in ((1, 20) if games else (1, 10, 20)):
                        await s.run("replay", f"game={g}&hand={hand}&step=500")
                if games:
                    status = Path(f"/proc/{proc.pid}/status").read_text()
                    rss = int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) // 1024
                    print(f"  after {g}: the server holds {rss} MB", flush=True)
        asyncio.run(visit())
        status = Path(f"/proc/{proc.pid}/status").read_text()
        return int(next(x for x in status.splitlines() if x.startswith("VmHWM")).split()[1]) // 1024
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def cache_run(n: int, quick: bool) -> int:
    """The server's memory as its caches fill with ``n`` copies of the worst legal game."""
    from analysis import store

    text = take_discard_flood(3 if quick else 20, 200 if quick else 490)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = []
        for i in range(n):
            f = d / f"g{i}.jsonl"
            f.write_text(text.replace('"game":"td"', f'"game":"td{i}"'), encoding="utf-8")
            files.append(str(f))
        db = d / "c.duckdb"
        con = store.connect(db, seed=False)
        store.import_paths(con, files, workers=1)
        store.analyze(con, jobs=1)
        con.close()
        peak = replay_page(db, "", d, [f"td{i}" for i in range(n)])
    print(f"{n} copies of the worst legal game, each opened on Replay: the server's peak {peak} MB "
          f"(target < {TARGET_MB} MB)")
    return 0 if peak < TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
