"""The store across real processes: a SIGKILL mid-import, and an import beside a reading dashboard.

DuckDB lets one process hold a file read-write and nobody else meanwhile; these tests run real
``istaka import`` processes next to reader processes that behave like the dashboard.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
from store_logs import make_game, write_log
from test_store import snapshot

from analysis.store import queries as Q
from analysis import store
from analysis.game import read_file

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def istaka(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=REPO, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def reader(code: str) -> subprocess.Popen:
    """A dashboard-like process running ``code`` (with ``store``, ``Q`` and ``time`` imported)."""
    prog = "import sys, time\nfrom analysis import store\nfrom analysis.store import queries as Q\n" + textwrap.dedent(code)
    return subprocess.Popen([sys.executable, "-c", prog], cwd=REPO, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def fresh_db(path: Path) -> Path:
    store.connect(path).close()  # created and migrated; closing checkpoints, so no WAL is left
    return path


def many_games(tmp_path: Path, n: int, name: str = "many.jsonl", prefix: str = "k") -> Path:
    return write_log(tmp_path / name, [make_game(f"{prefix}{i}", seed=i, hands=2) for i in range(n)])


def consistent(con: duckdb.DuckDBPyConnection, expected_events: dict[str, int]) -> int:
    """Every stored game is whole; no row belongs to a game that is not stored. Returns games."""
    for t in ("seats", "hands", "hand_seats", "events", "penalties", "openings", "mismatches"):
        orphans = con.execute(f"SELECT count(*) FROM {t} WHERE game NOT IN (SELECT game FROM games)").fetchall()
        assert orphans[0][0] == 0, t
    rows = con.execute("""
        SELECT g.game, g.hands_played,
               (SELECT count(*) FROM seats s WHERE s.game = g.game),
               (SELECT count(*) FROM hands h WHERE h.game = g.game),
               (SELECT count(*) FROM hand_seats h WHERE h.game = g.game),
               (SELECT count(*) FROM events e WHERE e.game = g.game)
        FROM games g""").fetchall()
    for game, played, seats, hands, hand_seats, events in rows:
        assert (seats, hands, hand_seats, events) == (4, played, 4 * played, expected_events[game]), game
    return len(rows)


def test_sigkill_in_the_middle_of_an_import_leaves_only_whole_games(tmp_path: Path) -> None:
    n = 150
    f = many_games(tmp_path, n)
    expected = {g.id: len(g.events) for g in read_file(f).games}
    db = fresh_db(tmp_path / "k.duckdb")
    wal = Path(str(db) + ".wal")
    p = istaka("import", str(f), "--db", str(db), "--batch", "1", "--jobs", "1", "--no-progress")
    deadline = time.monotonic() + 60
    # wait until some games are committed (their rows in the write-ahead log), then kill
    while not (wal.exists() and wal.stat().st_size > 200_000) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL
    con = store.connect(db)
    stored = consistent(con, expected)
    assert 0 < stored < n, "the kill should land in the middle of the import"
    s = store.import_paths(con, [str(f)])
    assert (s.stored, s.unchanged) == (n - stored, stored)
    assert consistent(con, expected) == n
    clean = store.connect(tmp_path / "clean.duckdb")
    store.import_paths(clean, [str(f)])
    assert snapshot(con) == snapshot(clean)


def test_import_waits_for_a_dashboard_read_to_finish_then_succeeds(tmp_path: Path) -> None:
    db = fresh_db(tmp_path / "w.duckdb")
    f = many_games(tmp_path, 5)
    r = reader(f"""
        con = store.connect({str(db)!r}, read_only=True)
        print(len(Q.list_games(con)), flush=True)
        time.sleep(1.5)
        con.close()
    """)
    assert r.stdout.readline().strip() == "0"  # the reader holds the file now
    t0 = time.monotonic()
    p = istaka("import", str(f), "--db", str(db), "--wait", "20", "--no-progress")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "5 stored" in out
    assert time.monotonic() - t0 > 0.5  # it did wait
    assert r.wait(timeout=30) == 0


def test_import_fails_at_once_with_a_clear_message_while_a_reader_holds_on(tmp_path: Path) -> None:
    db = fresh_db(tmp_path / "b.duckdb")
    f = many_games(tmp_path, 3)
    r = reader(f"""
        con = store.connect({str(db)!r}, read_only=True)
        print("open", flush=True)
        time.sleep(20)
    """)
    try:
        assert r.stdout.readline().strip() == "open"
        t0 = time.monotonic()
        p = istaka("import", str(f), "--db", str(db), "--wait", "0.3", "--no-progress")
        _, err = p.communicate(timeout=60)
        assert p.returncode == 3
        assert time.monotonic() - t0 < 10
        assert "is busy" in err and "Retry" in err and str(db) in err
    finally:
        r.kill()
        r.wait()
    con = store.connect(db)  # nothing written, nothing broken
    assert Q.list_games(con).empty and con.execute("SELECT count(*) FROM imports").fetchall()[0][0] == 0


def test_a_refreshing_dashboard_sees_new_games_and_waits_out_an_import(tmp_path: Path) -> None:
    db = fresh_db(tmp_path / "d.duckdb")
    a = many_games(tmp_path, 20, "a.jsonl", "a")
    b = many_games(tmp_path, 20, "b.jsonl", "b")
    r = reader(f"""
        seen = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with store.reading({str(db)!r}, wait=60) as con:  # open, read, close: one refresh
                n = len(Q.list_games(con))
            if not seen or seen[-1] != n:
                seen.append(n)
                print(n, flush=True)
            if n == 40:
                break
            time.sleep(0.02)
    """)
    assert r.stdout.readline().strip() == "0"
    for f in (a, b):
        p = istaka("import", str(f), "--db", str(db), "--wait", "30", "--no-progress")
        out, err = p.communicate(timeout=90)
        assert p.returncode == 0, err
    out, err = r.communicate(timeout=120)
    assert r.returncode == 0, err
    seen = [0] + [int(x) for x in out.split()]
    assert seen[-1] == 40 and seen == sorted(seen)  # only whole imports' worth of games, never fewer
    assert set(seen) <= {0, 20, 40}
