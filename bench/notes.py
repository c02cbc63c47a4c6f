"""A coach's notes: every one of N seeded hostile texts (tests/notes_gen.py)
through validation and the store, one note per step as the Replay panel writes them, then read
back; a note edited and deleted; the time per write and the machine load.

    python bench/notes.py [--texts 10000] [--db FILE]

Fails (exit 1) when an exception other than NoteError escapes, a refused text was stored, or a
kept note comes back other than validated. tests/test_notes.py runs the same check on a share.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--texts", type=int, default=10_000)
    ap.add_argument("--db", help="a new database file to write into (default: in memory; a file syncs every "
                    "write to disk, some 10-20 ms each on a busy box)")
    args = ap.parse_args()

    import notes_gen

    from analysis import store
    from analysis.store import notes as N

    texts, marks = notes_gen.texts(args.texts), notes_gen.marks(args.texts)
    with tempfile.TemporaryDirectory(prefix="istaka-notes-bench-"):
        if args.db:
            con = store.connect(args.db, seed=False)
        else:
            import duckdb

            con = duckdb.connect()
            store.migrate(con)
        try:
            con.execute("INSERT INTO games (game, checksum, variant, import_id) VALUES ('bench', 'c', '101', 1)")
            con.execute("INSERT INTO hands (game, ord, hand, result) VALUES ('bench', 1, 1, 'finish')")
            want: dict[int, tuple[str, str]] = {}
            refused: dict[str, int] = {}
            times: list[float] = []
            problems: list[str] = []
            for i, (m, tx) in enumerate(zip(marks, texts)):
                try:
                    v = N.validate(m, tx)[:2]
                except store.NoteError:
                    v = None
                t = time.perf_counter()
                try:
                    store.save_note(con, "bench", 1, i, m, tx)  # type: ignore[arg-type]
                    times.append(time.perf_counter() - t)
                    if v is None:
                        problems.append(f"text {i} was stored though validation refuses it")
                    else:
                        want[i] = v
                except store.NoteError as e:
                    refused[e.kind] = refused.get(e.kind, 0) + 1
                    if v is not None:
                        problems.append(f"text {i} was refused by the store ({e.kind}) though it validates")
                except Exception as e:  # noqa: BLE001  (what the bench is for)
                    problems.append(f"text {i}: {type(e).__name__}: {e}")
            t = time.perf_counter()
            back = {n.step: (n.mark, n.text) for n in store.list_notes(con, "bench")}
            read = time.perf_counter() - t
            lost = [i for i in want if back.get(i) != want[i]]
            extra = [i for i in back if i not in want]
            t = time.perf_counter()
            for i in list(want)[:200]:
                store.update_note(con, "bench", 1, i, "?", "edited")
                store.delete_note(con, "bench", 1, i)
            edit = (time.perf_counter() - t) / max(1, min(200, len(want)))
        finally:
            con.close()
    load = os.getloadavg()
    print(f"{args.texts:,} texts: {len(want):,} stored, refused {dict(sorted(refused.items()))}")
    print(f"write: median {1e3 * statistics.median(times):.2f} ms, p95 "
          f"{1e3 * sorted(times)[int(0.95 * len(times))]:.2f} ms; read of {len(back):,} notes {1e3 * read:.0f} ms; "
          f"an edit and a delete {1e3 * edit:.2f} ms")
    print(f"lost or changed: {len(lost)}, stored unasked: {len(extra)}, other errors: {len(problems)}")
    for p in problems[:10]:
        print("  " + p)
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    return 1 if problems or lost or extra else 0


if __name__ == "__main__":
    sys.exit(main())
