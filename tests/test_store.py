"""The DuckDB store: migrations, import guarantees, round trips and the dashboard's queries.

Real DuckDB files in temporary directories; logs from tests/store_logs.py, replayed by the
engine (a generator mistake would show up as an invalid game, which the tests check for).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from store_logs import lines, make_game, write_log

from analysis.store import queries as Q
from analysis import store
from analysis.cli import main as cli_main
from analysis.game import read_file
from analysis.game import replay_game

TABLES = ("games", "seats", "players", "hands", "hand_seats", "events", "penalties", "openings", "mismatches")


def snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, tuple]:
    """Row count and an order-independent hash of every game table."""
    out = {}
    for t in TABLES:
        cols = [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall() if r[0] not in ("import_id", "imported_at")]
        out[t] = con.execute(f"SELECT count(*), coalesce(sum(hash({', '.join(cols)})), 0) FROM {t}").fetchall()[0]
    return out


@pytest.fixture
def db(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    con = store.connect(tmp_path / "t.duckdb")
    yield con
    con.close()


@pytest.fixture
def games() -> list[list[dict]]:
    return [make_game(f"g{i}", seed=i, hands=3, modes=[("elden", "open", "none")[(i + k) % 3] for k in range(3)],
                      started=f"2026-01-0{1 + i % 5}T20:00:00", site="kahve" if i % 2 else "online",
                      variant="101" if i < 5 else "101-classic")
            for i in range(8)]


# ---- migrations ---------------------------------------------------------------------------

def schema(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = 'main' ORDER BY ALL").fetchall()


def test_migrations_from_empty_apply_every_version_once(tmp_path: Path) -> None:
    con = store.connect(tmp_path / "m.duckdb")
    versions = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()]
    assert versions == [m[0] for m in store.MIGRATIONS] and store.schema_version(con) == store.LATEST
    assert store.migrate(con) == []
    con.close()
    con = store.connect(tmp_path / "m.duckdb")  # reopening applies nothing again
    assert con.execute("SELECT count(*) FROM schema_migrations").fetchall()[0][0] == len(store.MIGRATIONS)


@pytest.mark.parametrize("version", range(store.LATEST))
def test_migration_from_every_older_version_reaches_the_latest_schema_and_keeps_data(
        tmp_path: Path, version: int) -> None:
    ref = store.connect(tmp_path / "ref.duckdb")
    want = schema(ref)
    old = duckdb.connect(str(tmp_path / "old.duckdb"))
    assert store.migrate(old, upto=version) == [v for v, _, _ in store.MIGRATIONS if v <= version]  # numbers may have gaps
    if version >= 1:  # a game as version 1 wrote it (columns of migration 1 only)
        old.execute("INSERT INTO games (game, checksum, variant, import_id) VALUES ('g', 'c', '101', 1)")
        old.execute("INSERT INTO seats VALUES ('g', 0, 'A'), ('g', 1, 'B'), ('g', 2, 'C'), ('g', 3, 'D')")
        old.execute("INSERT INTO hands (game, ord, hand, result) VALUES ('g', 1, 1, 'void'), ('g', 2, 1, 'finish')")
        old.execute("INSERT INTO hand_seats (game, ord, hand, seat, player) VALUES ('g', 2, 1, 0, 'A')")
        old.execute("INSERT INTO events (game, seq, type) VALUES ('g', 1, 'hand'), ('g', 2, 'draw')")
    old.close()
    con = store.connect(tmp_path / "old.duckdb")
    assert schema(con) == want
    assert store.schema_version(con) == store.LATEST
    if 1 <= version < 4:  # migration 4 numbers the games it finds (a game written by 4 has its gid)
        assert con.execute("SELECT gid, players, hands_counted FROM games").fetchall() == [(1, ["A", "B", "C", "D"], 1)]
        for t in ("events", "hands", "hand_seats"):
            assert {r[0] for r in con.execute(f"SELECT gid FROM {t}").fetchall()} == {1}
        assert Q.game_events(con, "g")[1]["type"] == "hand"
    if version >= 1:
        assert con.execute("SELECT game FROM games").fetchall() == [("g",)]
    else:
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 0


def test_quick_annotations_from_before_the_deep_review_are_marked_quick(tmp_path: Path) -> None:
    """Migration 5 keeps annotations made by migration 3's tables and marks them quick."""
    old = duckdb.connect(str(tmp_path / "q.duckdb"))
    store.migrate(old, upto=4)
    old.execute("INSERT INTO review_games VALUES ('g', 'c', 'review-1/x', now(), 0.1, 3, 1, 40)")
    old.execute("INSERT INTO review_decisions (game, ord, cost) VALUES ('g', 1, 40)")
    old.close()
    con = store.connect(tmp_path / "q.duckdb")
    assert con.execute("SELECT depth, graded, cost_points FROM review_games").fetchall() == [("quick", 3, 40.0)]
    assert con.execute("SELECT cost_points FROM review_decisions").fetchall() == [(40.0,)]
    assert con.execute("SELECT count(*) FROM review_choices").fetchall() == [(0,)]


def test_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    con = store.connect(tmp_path / "n.duckdb")
    con.execute("INSERT INTO schema_migrations VALUES (999, 'future', now())")
    con.close()
    with pytest.raises(store.StoreError, match="newer"):
        store.connect(tmp_path / "n.duckdb")


# ---- import -------------------------------------------------------------------------------

def test_import_stores_every_game_and_rebuilds_the_same_log(db, tmp_path: Path, games) -> None:
    f = write_log(tmp_path / "a.jsonl", games)
    s = store.import_paths(db, [str(f)])
    assert (s.stored, s.unchanged, s.conflicts, s.invalid, s.failed) == (8, 0, 0, 0, 0)
    assert s.events == sum(len(g) for g in games)
    for g in read_file(f).games:
        back = Q.load_gamelog(db, g.id)
        assert back.content() == g.content()
        assert store.game_checksum(back) == store.game_checksum(g)
        assert [ln for ln, _ in back.events] == [ln for ln, _ in g.events]


def test_stored_results_are_the_engines(db, tmp_path: Path, games) -> None:
    f = write_log(tmp_path / "a.jsonl", games)
    store.import_paths(db, [str(f)])
    for g in read_file(f).games:
        res = replay_game(g, keep_steps=False)
        hands = Q.game_hands(db, g.id)
        assert list(hands.result) == [h.result for h in res.hands]
        assert [list(x) for x in hands.scores] == [list(h.scores) for h in res.hands]
        assert [list(x) for x in hands.totals] == [h.totals() for h in res.hands]
        assert [list(x) for x in hands.finish_kinds] == [list(h.finish_kinds) for h in res.hands]
        info = Q.game_info(db, g.id)
        assert info["totals"] == res.totals and info["valid"] and info["players"] == res.players
        assert info["rules"] == res.rules.to_dict()
        ops = db.execute("SELECT ord, seat, kind, value, threshold, line FROM openings WHERE game = ? "
                         "ORDER BY ord, line", [g.id]).fetchall()
        assert ops == [(i, o["seat"], o["kind"], o["value"], o["threshold"], o["line"])
                       for i, h in enumerate(res.hands, 1) for o in h.openings]
        pens = db.execute("SELECT ord, seat, points, rule, line FROM penalties WHERE game = ? ORDER BY ord, line, seat",
                          [g.id]).fetchall()
        assert sorted(pens) == sorted((i, p.seat, p.points, p.rule, p.line)
                                      for i, h in enumerate(res.hands, 1) for p in h.penalties)
    # the generator's modes: games 0..7 x 3 hands, one elden finish per (i + k) % 3 == 0
    assert db.execute("SELECT count(*) FROM hands WHERE list_contains(finish_kinds, 'elden')").fetchall()[0][0] == 8


def test_reimporting_the_same_files_changes_nothing(db, tmp_path: Path, games) -> None:
    f = write_log(tmp_path / "a.jsonl", games[:5])
    write_log(tmp_path / "sub.jsonl", games[5:])
    store.import_paths(db, [str(tmp_path)])
    before = snapshot(db)
    s = store.import_paths(db, [str(tmp_path / "*.jsonl"), str(f)])  # a glob and the same file again
    assert (s.stored, s.unchanged, s.conflicts) == (0, 8, 0)
    assert snapshot(db) == before


def test_same_game_id_with_other_content_is_a_conflict_never_merged(db, tmp_path: Path, games) -> None:
    store.import_paths(db, [str(write_log(tmp_path / "a.jsonl", games[:2]))])
    before = snapshot(db)
    other = copy.deepcopy(games[0])
    other[0]["site"] = "elsewhere"
    f = write_log(tmp_path / "b.jsonl", [other])
    s = store.import_paths(db, [str(f)])
    assert (s.stored, s.conflicts) == (0, 1)
    assert snapshot(db) == before
    err = Q.import_errors(db)
    assert list(err.kind) == ["conflict"] and err.game[0] == "g0" and err.line[0] == 1 and err.file[0] == str(f)
    s = store.import_paths(db, [str(f)], replace=True)
    assert (s.stored, s.conflicts) == (1, 0)
    assert Q.game_info(db, "g0")["site"] == "elsewhere"
    assert db.execute("SELECT count(*) FROM games").fetchall()[0][0] == 2
    assert db.execute("SELECT count(*) FROM events WHERE game = 'g0'").fetchall()[0][0] == len(other) - 1
    assert db.execute("SELECT count(*) FROM hands WHERE game = 'g0'").fetchall()[0][0] == 3
    assert Q.import_errors(db).empty  # the file's latest import has no conflict any more


def test_a_file_with_good_and_bad_games_stores_the_good_and_explains_the_bad(db, tmp_path: Path, games) -> None:
    bad_json = lines(games[1]).splitlines(keepends=True)
    bad_json[4] = '{"type": "draw", "game": "g1", oops\n'
    no_players = copy.deepcopy(games[2])
    del no_players[0]["players"]
    text = lines(games[0]) + "".join(bad_json) + lines(no_players) + lines(games[3])
    f = tmp_path / "mixed.jsonl"
    f.write_text(text, encoding="utf-8")
    s = store.import_paths(db, [str(f)])
    assert (s.stored, s.failed) == (2, 2)
    assert sorted(r[0] for r in db.execute("SELECT game FROM games").fetchall()) == ["g0", "g3"]
    err = Q.import_errors(db).sort_values("line")
    assert list(err.game) == ["g1", "g2"] and set(err.kind) == {"unreadable"}
    assert int(err.line.iloc[0]) == len(games[0]) + 5
    assert "not JSON" in err.message.iloc[0]
    assert err.field.iloc[1] == "players"
    rec = Q.imports(db).iloc[0]
    assert (rec.games, rec.stored, rec.failed) == (2, 2, 2)
    # a re-import reports the same errors once, not twice
    store.import_paths(db, [str(f)])
    assert len(Q.import_errors(db)) == 2


def illegal(game: list[dict]) -> tuple[list[dict], int]:
    """The game with hand 1's first draw changed to a tile that is not the deck's next (P1)."""
    g = copy.deepcopy(game)
    i = next(i for i, e in enumerate(g) if e["type"] == "draw")
    g[i]["tile"] = "J" if g[i]["tile"] != "J" else "R1"
    return g, i + 1  # its line in a file holding only this game


def test_a_game_with_an_illegal_move_is_stored_with_its_valid_prefix_and_marked_invalid_P1(
        db, tmp_path: Path, games) -> None:
    g, line = illegal(games[0])
    f = write_log(tmp_path / "a.jsonl", [g])
    s = store.import_paths(db, [str(f)])
    assert (s.stored, s.invalid) == (1, 1)
    info = Q.game_info(db, "g0")
    assert not info["valid"] and info["error"]["rule"] == "P1" and info["error"]["line"] == line
    hands = Q.game_hands(db, "g0")
    assert list(hands.result) == ["invalid", "exhausted", "exhausted"]  # later hands still replay
    assert hands.error_line.iloc[0] == line and hands.error_rule.iloc[0] == "P1"
    ev = Q.game_events(db, "g0")
    assert all(e["valid"] for e in ev if e["line"] < line)
    assert not any(e["valid"] for e in ev if e["line"] >= line and e.get("hand") == 1)
    assert all(e["valid"] for e in ev if e.get("hand", 0) > 1)
    assert len(ev) == len(g)  # every event kept: the log can still be rebuilt
    err = Q.import_errors(db)
    assert list(err.kind) == ["invalid"] and err.rule[0] == "P1" and err.line[0] == line
    assert Q.list_games(db, result="invalid").game.tolist() == ["g0"]


def test_recorded_scores_that_differ_are_stored_as_mismatches(db, tmp_path: Path, games) -> None:
    g = copy.deepcopy(games[0])
    first_hand_end = next(i for i, e in enumerate(g) if i and e["type"] == "hand" and e["hand"] == 2)
    g.insert(first_hand_end, {"type": "end", "game": "g0", "hand": 1, "reason": "exhausted", "scores": [1, 2, 3, 4]})
    store.import_paths(db, [str(write_log(tmp_path / "a.jsonl", [g]))])
    m = Q.mismatches(db, "g0")
    assert sorted(m.kind) == ["result", "scores"] and json.loads(m[m.kind == "scores"].recorded.iloc[0]) == [1, 2, 3, 4]
    assert Q.list_games(db, result="disagrees").game.tolist() == ["g0"]


def test_gzip_files_directories_and_globs_are_found(db, tmp_path: Path, games) -> None:
    import gzip

    (tmp_path / "d" / "e").mkdir(parents=True)
    with gzip.open(tmp_path / "d" / "e" / "x.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write(lines(games[0]))
    write_log(tmp_path / "d" / "y.jsonl", [games[1]])
    (tmp_path / "d" / "notes.txt").write_text("not a log")
    assert store.import_paths(db, [str(tmp_path / "d")]).stored == 2
    with pytest.raises(store.StoreError, match="no such"):
        store.import_paths(db, [str(tmp_path / "missing*.jsonl")])


def test_a_broken_gzip_file_is_reported_and_the_other_files_imported(db, tmp_path: Path, games) -> None:
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip at all")
    write_log(tmp_path / "good.jsonl", games[:2])
    s = store.import_paths(db, [str(tmp_path)])
    assert (s.stored, s.failed) == (2, 1)
    err = Q.import_errors(db)
    assert list(err.kind) == ["unreadable"] and err.file[0].endswith("bad.jsonl.gz") and "gzip" in err.message[0]


def test_one_transaction_per_game_gives_the_same_database(tmp_path: Path, games) -> None:
    f = write_log(tmp_path / "a.jsonl", games)
    a = store.connect(tmp_path / "a.duckdb")
    b = store.connect(tmp_path / "b.duckdb")
    store.import_paths(a, [str(f)], batch_games=1)
    store.import_paths(b, [str(f)], batch_games=500)
    assert snapshot(a) == snapshot(b)


def test_a_game_that_cannot_be_written_is_reported_and_the_others_stored(db, tmp_path: Path, games) -> None:
    g = copy.deepcopy(games[1])
    g[0]["hands"] = 2 ** 40  # a valid log, but no INTEGER column holds it: DuckDB refuses the row
    s = store.import_paths(db, [str(write_log(tmp_path / "a.jsonl", [games[0], g, games[2]]))])
    assert (s.stored, s.failed) == (2, 1)
    assert sorted(r[0] for r in db.execute("SELECT game FROM games").fetchall()) == ["g0", "g2"]
    assert db.execute("SELECT count(*) FROM events WHERE game = 'g1'").fetchall()[0][0] == 0
    err = Q.import_errors(db)
    assert list(err.kind) == ["store"] and err.game[0] == "g1"


# ---- queries ------------------------------------------------------------------------------

@pytest.fixture
def loaded(db, tmp_path: Path, games):
    store.import_paths(db, [str(write_log(tmp_path / "a.jsonl", games))])
    return db


def test_list_games_filters_by_player_variant_dates_site_and_result(loaded, games) -> None:
    con = loaded
    assert len(Q.list_games(con)) == 8
    ali = {g[0]["game"] for g in games if "Ali" in g[0]["players"]}
    assert set(Q.list_games(con, player="Ali").game) == ali
    assert set(Q.list_games(con, variant="101-classic").game) == {"g5", "g6", "g7"}
    assert set(Q.list_games(con, site="kahve").game) == {"g1", "g3", "g5", "g7"}
    assert set(Q.list_games(con, date_from="2026-01-02", date_to="2026-01-03").game) == {"g1", "g2", "g6", "g7"}
    won = Q.list_games(con, player="Ali", result="won")
    assert set(won.game) == {g for g in ali if Q.game_info(con, g)["winner"] == "Ali"}
    assert Q.list_games(con, player="'; DROP TABLE games; --").empty  # bound, not spliced
    row = Q.list_games(con).set_index("game").loc["g0"]
    assert list(row.players) == games[0][0]["players"] and row.hands == 3 and bool(row.valid)
    assert row.winner == games[0][0]["players"][min(range(4), key=lambda s: list(row.totals)[s])]


def test_player_hand_scores_are_per_seat_totals_with_a_running_sum(loaded) -> None:
    df = Q.player_hand_scores(loaded, player="Ali")
    assert set(df.player) == {"Ali"} and (df.total == df.score + df.penalties).all()
    for _, part in df.groupby("variant"):
        assert part.cumulative.tolist() == part.total.cumsum().tolist()
    g = df.game.iloc[0]
    seat = int(df.seat.iloc[0])
    hands = Q.game_hands(loaded, g)
    assert df[df.game == g].total.tolist() == [t[seat] for t in hands.totals]


def test_openings_finishes_penalties_and_player_stats_agree(loaded) -> None:
    con = loaded
    op = Q.opening_values(con)
    assert set(op.kind) == {"points"} and set(op.value) == {138, 183} and (op.threshold == 101).all()
    fk = Q.finish_kinds(con)
    assert fk.finishes.sum() == con.execute("SELECT count(*) FROM hands WHERE result = 'finish'").fetchall()[0][0]
    pen = Q.penalties(con)
    st = Q.player_stats(con).set_index("player")
    assert st.penalty_points.sum() == pen.points.sum()
    assert st.finishes.sum() == fk.finishes.sum() and st.elden.sum() == 8
    hs = Q.player_hand_scores(con)
    counted = hs.merge(con.execute("SELECT game, ord, result FROM hands").df(), on=["game", "ord"])
    counted = counted[counted.result.isin(["finish", "exhausted"])]
    for name, part in counted.groupby("player"):
        assert st.loc[name, "hands"] == len(part)
        assert st.loc[name, "avg_hand_score"] == pytest.approx(part.total.mean())
    per = op.groupby("player").value.mean()
    for name, v in per.items():
        assert st.loc[name, "avg_opening"] == pytest.approx(v)
    assert Q.players(con) == sorted(set(hs.player)) and Q.variants(con) == ["101", "101-classic"]
    assert Q.sites(con) == ["kahve", "online"]
    only = Q.player_stats(con, variant="101-classic")
    assert only.hands.sum() == 3 * 3 * 4 - 4 * int((Q.game_hands(con, "g5").result == "void").sum())


def test_game_events_of_one_hand_and_its_replayed_states(loaded) -> None:
    ev = Q.game_events(loaded, "g2", hand=2)
    assert ev and {e["hand"] for e in ev} == {2} and ev[0]["type"] == "hand"
    h = Q.hand_states(loaded, "g2", 2)
    assert [s.line for s in h.steps] == [e["line"] for e in ev]
    assert h.steps[-1].state.result == Q.game_hands(loaded, "g2").result.iloc[1]


# ---- command line and export --------------------------------------------------------------

def test_cli_import_errors_and_parquet_export(tmp_path: Path, games, capsys) -> None:
    dbf = str(tmp_path / "c.duckdb")
    g, _ = illegal(games[0])
    no_players = copy.deepcopy(games[3])
    del no_players[0]["players"]
    f = write_log(tmp_path / "a.jsonl", [g, *games[1:3], no_players])
    assert cli_main(["import", str(f), "--db", dbf]) == 1  # something needs a look
    out = capsys.readouterr().out
    assert "3 stored, 0 unchanged, 0 conflicts, 1 invalid, 1 failed" in out
    assert cli_main(["errors", "--db", dbf]) == 1
    out = capsys.readouterr().out
    assert "invalid" in out and "[P1]" in out and "unreadable" in out and "2 errors" in out
    assert cli_main(["export", "--parquet", str(tmp_path / "pq"), "--db", dbf]) == 0
    ev = pd.read_parquet(tmp_path / "pq" / "events.parquet")
    assert len(ev) == sum(len(x) - 1 for x in (g, *games[1:3]))
    assert len(pd.read_parquet(tmp_path / "pq" / "hands.parquet")) == 9
    assert cli_main(["import", str(tmp_path / "nope.jsonl"), "--db", dbf]) == 2
    assert cli_main(["import", str(write_log(tmp_path / "b.jsonl", games[4:6])), "--db", dbf]) == 0


def test_first_use_of_the_default_database_fills_it_with_the_sample(tmp_path: Path, monkeypatch, games) -> None:
    sample = tmp_path / "sample"
    sample.mkdir()
    write_log(sample / "s.jsonl", games[:3])
    monkeypatch.setattr(store.connection, "SAMPLE_DIR", sample)
    monkeypatch.setenv(store.ENV_DB, str(tmp_path / "data" / "istaka.duckdb"))
    with store.reading() as con:  # a reader on a fresh install creates it, then reads
        assert len(Q.list_games(con)) == 3
    write_log(sample / "t.jsonl", games[3:4])
    with store.reading() as con:  # only the first use imports the sample
        assert len(Q.list_games(con)) == 3
