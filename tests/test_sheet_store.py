"""Score sheets in the store: `istaka import`, `errors` and `export` take sheet logs;
games.sheet marks them (a migration); a stored sheet rebuilds as the log it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from analysis import store
from analysis.game import read_file, replay_game
from analysis.game.sheet import SheetError
from analysis.store import queries, sheets

ROOT = Path(__file__).resolve().parents[1]
SHEETS = ROOT / "tests" / "data" / "sheets"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_import_errors_export_take_sheets_and_mark_them(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    r = _cli("import", "--db", str(db), "--no-progress", str(SHEETS))
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout  # sheet-bad.jsonl has bad games
    again = _cli("import", "--db", str(db), "--no-progress", str(SHEETS))
    assert "0 stored" in again.stdout and "6 unchanged" in again.stdout
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = dict(con.execute("SELECT game, sheet FROM games").fetchall())
        assert rows == {"sheet-101": True, "sheet-51": True, "sheet-classic": True, "sheet-esli": True,
                        "rules-broken": True, "good": True}
        totals = dict(con.execute("SELECT game, totals FROM games").fetchall())
        assert totals["sheet-101"] == [897, 2321, 1683, 2076] and totals["sheet-classic"] == [121, -160, 444, 507]
        assert con.execute("SELECT match_points FROM games WHERE game = 'sheet-classic'").fetchall() == [
            ([1, 3, -1, -3],)]
        pens = con.execute("SELECT rule, count(*) FROM penalties WHERE game = 'sheet-101' GROUP BY rule "
                           "ORDER BY rule").fetchall()
        assert pens == [("O8", 1), ("X2", 1), ("X3", 1), ("X4", 1), ("X5", 1)]
        g = queries.load_gamelog(con, "sheet-101")
        assert g is not None
        orig = read_file(SHEETS / "sheet-101.jsonl").games[0]
        assert g.content() == orig.content()  # every result field kept (the ones without a column in extra)
        assert replay_game(g).totals == [897, 2321, 1683, 2076]
    finally:
        con.close()
    err = _cli("errors", "--db", str(db))
    lines = [ln for ln in err.stdout.splitlines() if "sheet-bad.jsonl" in ln]
    assert len(lines) == 11
    assert any(":13 game rules-broken: invalid: hand 4: field 'penalties[0]'" in ln and ln.endswith("[X5]")
               for ln in lines)
    assert any(":2 game bad-kind: unreadable: field 'kind'" in ln and ln.endswith("[E6]") for ln in lines)
    out = tmp_path / "pq"
    assert _cli("export", "--db", str(db), "--parquet", str(out)).returncode == 0
    con = duckdb.connect()
    assert con.execute(f"SELECT count(*) FROM read_parquet('{out / 'games.parquet'}') WHERE sheet").fetchall() == [(6,)]


def test_migration_marks_sheets_stored_before_it(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    mine = next(v for v, name, _ in store.MIGRATIONS if name.startswith("score sheets"))
    store.migrate(con, upto=mine - 1)
    con.execute("INSERT INTO games (game, checksum, header_extra) VALUES ('s', 'x', '{\"sheet\": true}'), "
                "('f', 'y', NULL)")
    store.migrate(con)
    assert dict(con.execute("SELECT game, sheet FROM games").fetchall()) == {"s": True, "f": False}
    con.close()


def test_a_save_past_the_games_last_hand_is_refused_and_nothing_is_written_G1(tmp_path: Path) -> None:
    con = store.connect(tmp_path / "s.duckdb", seed=False)
    header = {"type": "game", "game": "s3", "variant": "101-classic", "players": ["A", "B", "C", "D"],
              "hands": 3, "sheet": True}
    row = {"finisher": 0, "kind": "normal", "opened": ["points", "points", None, None], "left": [None, 10, 0, 0]}
    void = {"finisher": None, "kind": "void", "opened": ["pairs"] * 4, "left": [None] * 4}
    try:
        sheets.save_sheet(con, header, [row, row, void, row])  # a void third hand is played again (E3)
        with pytest.raises(SheetError) as e:
            sheets.save_sheet(con, header, [row, row, void, row, row])
        assert e.value.rule == "G1" and "hand 4 is past the end of a game of 3 hands" in str(e.value)
        got = sheets.load_sheet(con, "s3")
        assert got is not None and len(got[1]) == 4  # the last good save stands
    finally:
        con.close()


@pytest.mark.parametrize("kind", [[], {}, 5, None, "x" * 300, ["normal", "okey"]])
def test_a_result_of_the_wrong_shape_is_refused_by_its_field_and_rule_and_nothing_is_written_E6(
        tmp_path: Path, kind: object) -> None:
    """A result built by a caller (the score sheet page, a script) with a ``kind`` that is no kind
    was an IndexError deep in the scoring; it is refused as the log reader refuses it."""
    con = store.connect(tmp_path / "s.duckdb", seed=False)
    header = {"type": "game", "game": "s4", "variant": "101", "players": ["A", "B", "C", "D"], "hands": 11,
              "sheet": True}
    row = {"finisher": 0, "kind": "normal", "opened": ["points", "points", None, None], "left": [None, 10, 0, 0]}
    try:
        sheets.save_sheet(con, header, [row])
        with pytest.raises(SheetError) as e:
            sheets.save_sheet(con, header, [row, dict(row, kind=kind)])
        assert (e.value.rule, e.value.field) == ("E6", "kind") and str(e.value).startswith("round 2: field 'kind'")
        got = sheets.load_sheet(con, "s4")
        assert got is not None and len(got[1]) == 1  # the last good save stands
    finally:
        con.close()
