"""Seat-view logs in the store: imported like any log, the viewing seat kept
(games.view_seat, migration "seat-view logs"), rebuilt exactly, refusals listed by `istaka errors`."""

from __future__ import annotations

import json
from pathlib import Path

import seatview_cases as SC

from analysis import store
from analysis.cli import main as cli_main
from analysis.game import read_file, replay_game
from analysis.store import queries as Q


def test_seat_view_logs_import_keep_their_seat_and_rebuild_exactly(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.duckdb"
    con = store.connect(db, seed=False)
    try:
        cols = {r[0] for r in con.execute("DESCRIBE games").fetchall()}
        assert "view_seat" in cols
        s = store.import_paths(con, [str(SC.DIR)], workers=1)
        n = len(list(SC.DIR.glob("*.jsonl")))
        assert s.stored == n and s.failed == 0 and s.invalid == sum(1 for c in SC.cases() if not c.expected["valid"])
        assert con.execute("SELECT count(*) FROM games WHERE view_seat = 0").fetchall() == [(n,)]
        for c in SC.cases():
            (g,) = read_file(SC.DIR / f"{c.name}.jsonl").games
            back = Q.load_gamelog(con, c.gid)
            assert back is not None and back.content() == g.content(), c.name
            assert Q.game_info(con, c.gid)["view"] == 0
            a, b = replay_game(g, keep_steps=False), Q.replay_stored(con, c.gid)
            assert b is not None and a.to_dict() | {"file": None} == b.to_dict() | {"file": None}
    finally:
        con.close()
    capsys.readouterr()
    assert cli_main(["errors", "--db", str(db), "--json"]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    got = {r["game"]: r["rule"] for r in rows}
    want = {c.gid: c.expected["error"]["rule"] for c in SC.cases() if c.expected["error"]}
    assert got == want


def test_the_sample_holds_seat_view_games_reviewed_for_their_seat_only(tmp_path: Path) -> None:
    """data/sample/view-*.jsonl.gz (made with `istaka view` from self-play games): a new user's
    database holds them, valid, agreeing with their end scores, reviewed for the viewing seat."""
    files = sorted(store.SAMPLE_DIR.glob("view-*.jsonl.gz"))
    assert len(files) >= 2
    con = store.connect(tmp_path / "s.duckdb", seed=False)
    try:
        s = store.import_paths(con, [str(f) for f in files], workers=1)
        assert s.stored == len(files) and s.invalid == 0 and s.failed == 0
        rows = con.execute("SELECT game, view_seat, valid, agrees FROM games ORDER BY game").fetchall()
        assert all(v is not None and ok and agree for _, v, ok, agree in rows)
        presets = {r[0] for r in con.execute("SELECT DISTINCT variant FROM games").fetchall()}
        assert {"101", "51"} <= presets
        a = store.analyze(con, jobs=1)
        assert a.annotated == len(files) and a.failed == 0
        for game, view, _, _ in rows:
            seats = {r[0] for r in con.execute("SELECT DISTINCT seat FROM review_decisions WHERE game = ?",
                                               [game]).fetchall()}
            assert seats == {view}, game
    finally:
        con.close()
