"""What an outsider can send. Each test is one finding of a hostile-input review, tried as a hostile
user would, and fails on the code before the fix: bounded decompression and line reading, the
help text, numbers the review tables cannot hold, import-error rows, ``--db`` onto a log, names
that look like globs, rules given twice, OS errors, FIFOs and the amplification limits."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest
import store_logs
from test_hardening import cli, games, text

from analysis.game import log as game_log

REPO = Path(__file__).resolve().parents[1]
PEAK = """import resource, subprocess, sys
p = subprocess.run([sys.executable, "-m", "analysis.cli", *sys.argv[1:]], capture_output=True, timeout=300)
sys.stdout.write(p.stdout.decode("utf-8", "replace") + "\\x00" + p.stderr.decode("utf-8", "replace") + "\\x00")
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)"""


def peak(*args: str) -> tuple[str, str, int, int]:
    """(stdout, stderr, exit code, peak resident MB) of one ``istaka`` run in a fresh parent."""
    p = subprocess.run([sys.executable, "-c", PEAK, *args], cwd=REPO, capture_output=True, timeout=320, check=True)
    out, err, tail = p.stdout.decode("utf-8", "replace").split("\x00")
    rc, mb = tail.split()
    assert "Traceback" not in err, err[-2000:]
    return out, err, int(rc), int(mb)


# ---- finding 1: bounded decompression and line reading ------------------------------------


def test_a_gzip_bomb_is_refused_before_it_fills_memory_and_the_games_before_it_stay(tmp_path: Path) -> None:
    good = text(games(3)).encode()  # the last game before the limit may be cut: it is charged with it
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(good + b"\n" * (200 << 20), 9))  # 200 MB of newlines in ~200 KB
    out, _, rc, mb = peak("replay", "--json", str(bomb))
    res = json.loads(out)
    assert mb < 250, f"{mb} MB resident for a {bomb.stat().st_size:,}-byte file"
    assert rc == 1 and {g["game"] for g in res["games"] if g["valid"]} == {"g0", "g1"}
    assert any("gzip bomb" in e["message"] for e in res["errors"])


def test_an_endless_line_is_never_held_whole_and_is_one_error_for_its_game(tmp_path: Path) -> None:
    p = tmp_path / "long.jsonl"
    with open(p, "wb") as fh:
        fh.write(text(games(1)).encode())
        fh.write(b'{"type":"game","game":"endless","players":["' + b"A" * (48 << 20) + b'"]}\n')
        fh.write(text(games(1, "h")).encode())
    out, _, rc, mb = peak("replay", "--json", str(p))
    res = json.loads(out)
    assert mb < 200, f"{mb} MB resident for a line of 48 MB"
    assert {g["game"] for g in res["games"] if g["valid"]} == {"g0", "h0"}
    (err,) = res["errors"]
    assert err["game"] == "endless" and f"{(48 << 20) + 47:,} bytes" in err["message"]


def test_a_fifo_and_a_device_are_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    r = cli("replay", str(fifo), timeout=30)
    assert r.returncode == 2 and "FIFO" in r.stdout + r.stderr
    r = cli("replay", "/dev/zero", timeout=30)
    assert r.returncode == 2 and "device" in r.stdout + r.stderr
    r = cli("import", "--db", str(tmp_path / "x.duckdb"), str(fifo), timeout=30)
    assert r.returncode == 2 and "FIFO" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.duckdb").exists()


# ---- finding 9: the help ----------------------------------------------


@pytest.mark.parametrize("args", [(), ("-h",), ("--help",)])
def test_istaka_and_its_help_print_the_commands_without_a_traceback(args: tuple[str, ...]) -> None:
    r = cli(*args)
    assert "match" in r.stdout and "95% CI" in r.stdout and r.returncode in (0, 2)


def test_a_match_of_few_deals_says_they_are_too_few() -> None:
    r = cli("match", "--bots", "random,greedy", "--deals", "1", "--seed", "3")
    assert r.returncode == 0 and "far too few" in r.stderr and "--deals 120" in r.stderr


# ---- finding 2: numbers the review tables cannot hold -------------------------------------


def test_a_rule_option_past_its_bound_is_refused_at_import_with_its_rule_O1_E5(tmp_path: Path) -> None:
    gs = games(3)
    gs[0][0]["rules"] = {"open_points": 10**18}
    gs[1][0]["rules"] = {"unopened_penalty": 3 * 10**9}
    p = tmp_path / "big.jsonl"
    p.write_text(text(gs))
    db = tmp_path / "t.duckdb"
    r = cli("import", "--db", str(db), "--no-progress", "--json", str(p))
    assert r.returncode == 1 and json.loads(r.stdout)["stored"] == 1
    rows = [json.loads(x) for x in cli("errors", "--db", str(db), "--json").stdout.splitlines()]
    assert {(x["game"], x["message"].split("[")[-1]) for x in rows} == {("g0", "O1]"), ("g1", "E5]")}
    a = cli("analyze", "--db", str(db), "--no-progress")
    assert a.returncode == 0 and "1 annotated" in a.stdout


def test_analyze_writes_every_other_game_when_one_game_breaks_the_review_tables(tmp_path: Path,
                                                                                 monkeypatch: Any) -> None:
    from analysis import store
    from analysis.store import reviews

    db = tmp_path / "t.duckdb"
    p = store_logs.write_log(tmp_path / "g.jsonl", games(4))
    con = store.connect(db)
    store.import_paths(con, [str(p)], workers=1)
    real = reviews.rows

    def rows(gr: Any) -> Any:  # one game whose exposure is past INTEGER, as open_points 10**18 made it
        dec, mis = real(gr)
        if gr.game == "g2":
            dec = [d[:12] + (10**18,) + d[13:] for d in dec]
        return dec, mis
    monkeypatch.setattr(reviews, "rows", rows)
    s = store.analyze(con, batch=10)
    assert (s.annotated, s.failed) == (3, 1) and s.errors and s.errors[0].startswith("g2: could not be stored")
    assert {r[0] for r in con.execute("SELECT game FROM review_games").fetchall()} == {"g0", "g1", "g3"}
    con.close()


# ---- finding 3: import-error rows ---------------------------------


def test_import_error_rows_are_capped_per_file_with_one_row_counting_the_rest(tmp_path: Path) -> None:
    p = tmp_path / "noise.jsonl"
    p.write_text(text(games(2)) + "{}\n" * 30_000)
    db = tmp_path / "t.duckdb"
    r = cli("import", "--db", str(db), "--no-progress", "--json", str(p))
    assert json.loads(r.stdout)["stored"] == 2
    con = duckdb.connect(str(db), read_only=True)
    n, last = con.execute("SELECT count(*), max(message) FILTER (WHERE line IS NULL) FROM import_errors").fetchall()[0]
    con.close()
    assert n == game_log.MAX_ERRORS + 1 and f"{30_000 - game_log.MAX_ERRORS:,} more errors" in last


def test_a_png_renamed_jsonl_is_one_error_not_one_per_line(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40 + b"\n" * 300
    (tmp_path / "photo.jsonl").write_bytes(png)
    db = tmp_path / "t.duckdb"
    cli("import", "--db", str(db), "--no-progress", str(tmp_path / "photo.jsonl"))
    e = cli("errors", "--db", str(db), "--json")
    (row,) = [json.loads(x) for x in e.stdout.splitlines()]
    assert "PNG image" in row["message"]


# ---- finding 6: --db onto a log file ------------------------------------------------------


@pytest.mark.parametrize("command", ["import", "errors"])
def test_db_onto_a_log_file_is_refused_and_the_log_is_left_alone(tmp_path: Path, command: str) -> None:
    victim = store_logs.write_log(tmp_path / "victim.jsonl", games(1))
    before = victim.read_bytes()
    base = store_logs.write_log(tmp_path / "base.jsonl", games(2, "b"))
    args = ["import", "--no-progress", "--db", str(victim), str(base)] if command == "import" else \
        ["errors", "--db", str(victim)]
    r = cli(*args)
    assert r.returncode == 2 and "not a DuckDB database" in r.stderr and "stored" not in r.stdout
    assert victim.read_bytes() == before
    r = cli("import", "--db", "/dev/null", str(base))
    assert r.returncode == 2 and "not a database file" in r.stderr


# ---- finding 7: file names ----------------------------------------------------------------


def test_a_name_with_brackets_is_that_file_not_a_glob_and_a_long_name_is_one_line(tmp_path: Path) -> None:
    p = store_logs.write_log(tmp_path / "kahve [eylül].jsonl", games(2))
    db = tmp_path / "t.duckdb"
    r = cli("import", "--db", str(db), "--no-progress", str(p))
    assert r.returncode == 0 and "2 stored" in r.stdout
    r = cli("import", "--db", str(db), "--no-progress", str(tmp_path / ("x" * 300 + ".jsonl")))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "too long" in r.stderr


# ---- finding 8: the rules as they apply ---------------------------------------------------


def test_an_option_given_twice_by_its_alias_is_refused_in_either_order_O2(tmp_path: Path) -> None:
    gs = games(3)
    gs[0][0]["rules"] = {"katlamali": True, "escalating": False}
    gs[1][0]["rules"] = {"escalating": False, "katlamali": True}
    p = tmp_path / "twice.jsonl"
    p.write_text(text(gs))
    r = cli("replay", "--json", str(p))
    out = json.loads(r.stdout)
    assert {g["game"] for g in out["games"]} == {"g2"}
    assert {e["game"] for e in out["errors"] if "given twice" in e["message"]} == {"g0", "g1"}


# ---- finding 10: OS errors ----------------------------------------------------------------


def test_os_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    cli("import", "--db", str(db), "--no-progress", str(store_logs.write_log(tmp_path / "g.jsonl", games(1))))
    (tmp_path / "dir").mkdir()
    (tmp_path / "file.parquet").write_text("x")
    for args in (["report", "g0", "--db", str(db), "--out", str(tmp_path / "dir")],
                 ["report", "g0", "--db", str(db), "--out", "/dev/full"],
                 ["report", "g0", "--db", str(db), "--json", "--out", "/dev/full"],
                 ["match", "--bots", "random,greedy", "--deals", "1", "--deals-out", "/dev/full"],
                 ["export", "--db", str(db), "--parquet", str(tmp_path / "file.parquet")]):
        r = cli(*args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)


# ---- finding 4: amplification -------------------------------------------------------------


def test_games_per_file_and_hands_per_game_are_bounded_G1(monkeypatch: Any) -> None:
    monkeypatch.setattr(game_log, "MAX_GAMES", 3)
    rr = game_log.read_lines(text(games(5)).splitlines(), "many.jsonl")
    assert [g.id for g in rr.games] == ["g0", "g1", "g2"]
    assert [e.game for e in rr.errors] == ["g3"] and "more than 3 games" in rr.errors[0].message
    monkeypatch.setattr(game_log, "MAX_HANDS", 2)
    three = store_logs.make_game("long", seed=1, hands=3)
    rr = game_log.read_lines(store_logs.lines(three).splitlines() + text(games(1)).splitlines(), "long.jsonl")
    assert [g.id for g in rr.games] == ["g0"] and rr.errors[0].rule == "G1"


def test_the_migration_renames_old_upload_paths_and_cuts_old_error_floods() -> None:
    """Upload names in a database written before the fix: temporary upload paths and 366
    rows from a PNG stay no more (the migration found by its name, not its number)."""
    from analysis.store.db import MIGRATIONS, migrate

    mine = next(v for v, name, _ in MIGRATIONS if name.startswith("uploads named by their own file"))
    con = duckdb.connect(":memory:")
    migrate(con, upto=mine - 1)
    rows = [(1, "/tmp/istaka-upload-x1/0/kahve.jsonl", i, None, "unreadable", None, None, "not JSON")
            for i in range(1, 367)] + [(2, "kept.jsonl", 5, "g", "conflict", None, "game", "x")]
    con.executemany("INSERT INTO import_errors VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    migrate(con)
    got = con.execute("SELECT file, count(*), max(message) FILTER (WHERE line IS NULL) FROM import_errors "
                      "GROUP BY file ORDER BY file").fetchall()
    assert got == [("kept.jsonl", 1, None),
                   ("upload/kahve.jsonl", 201, "166 more errors in this file are not listed (the first 200 are)")]
