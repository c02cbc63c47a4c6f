"""Bounded memory and caps at the reader: hostile input that each rule alone allows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_logs import takeback_flood

from analysis.game.log import read_lines
from analysis.game.record import Recording, RecordError
from analysis.game.replay import replay_game


def test_a_second_takeback_in_one_turn_is_refused_so_steps_stay_bounded_O6() -> None:
    r = read_lines(takeback_flood(300).splitlines())
    hand = replay_game(r.games[0], keep_steps=True).hands[0]
    assert hand.result == "invalid"
    assert hand.error is not None and hand.error["rule"] == "O6" and hand.error["line"] == 6
    assert "one takeback" in hand.error["message"]
    assert len(hand.steps) <= 4  # open, takeback, open: not 600 states each holding the last's table


def test_one_takeback_a_turn_is_still_legal_O6() -> None:
    r = read_lines(takeback_flood(1).splitlines())
    hand = replay_game(r.games[0], keep_steps=True).hands[0]
    assert hand.error is None, hand.error


def _golden(name: str = "penalty_x2") -> list[str]:
    return (Path(__file__).parent / "data" / "golden" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()


def test_a_complete_game_is_kept_whatever_lines_naming_it_follow_and_its_reason_is_listed() -> None:
    lines = _golden("normal_finish")  # its one planned hand ends with an 'end' event
    gid = json.loads(lines[0])["game"]
    junk = ["not json"] * 150 + [json.dumps({"type": "draw", "game": gid})] * 3 + [lines[2]]
    r = read_lines(lines + junk)
    assert [g.id for g in r.games] == [gid]  # its last hand ended before the junk
    summary = r.errors[-1].message
    assert "more errors" in summary and "games read: 1, refused: 0" in summary


def test_a_refused_games_reason_is_listed_even_past_the_error_bound() -> None:
    lines = _golden()
    gid = json.loads(lines[0])["game"]
    head = lines[:3]  # the game's header, its hand, one event: unfinished, then one broken line of it
    orphans = [json.dumps({"type": "draw", "game": f"z{i}", "hand": 1}) for i in range(150)]  # 150 file errors
    r = read_lines(head + orphans + [json.dumps({"type": "draw", "game": gid})])
    assert r.games == []
    assert any(e.game == gid for e in r.errors), "the game's reason was cut with the file's junk"
    assert "games read: 0, refused: 1" in r.errors[-1].message


def test_a_score_sheet_past_100_results_is_refused_at_the_reader_G1() -> None:
    head = {"type": "game", "game": "s", "variant": "101", "players": ["A", "B", "C", "D"], "sheet": True}
    res = {"type": "result", "game": "s", "finisher": None, "kind": "exhausted", "opened": [None] * 4,
           "left": [0, 0, 0, 0], "penalties": []}
    lines = [json.dumps(head)] + [json.dumps(res | {"hand": i}) for i in range(1, 32_700)]
    r = read_lines(lines)
    assert r.games == []
    assert any("100 hands" in e.message and e.rule == "G1" for e in r.errors)


def test_a_player_name_past_100_characters_is_refused_naming_the_field() -> None:
    lines = _golden()
    head = json.loads(lines[0])
    head["players"][1] = "x" * 5_000
    r = read_lines([json.dumps(head)] + lines[1:])
    assert r.games == []
    assert r.errors[0].field == "players" and "100 characters" in r.errors[0].message
    assert len(str(r.errors[0])) < 300


def test_a_hand_past_1000_events_is_refused_at_the_reader() -> None:
    lines = _golden()
    gid = json.loads(lines[0])["game"]
    pen = json.dumps({"type": "penalty", "game": gid, "hand": 1, "seat": 0, "points": 0, "reason": "x"})
    r = read_lines(lines[:2] + [pen] * 1_001 + lines[2:])
    assert r.games == []
    assert "1,000 events" in r.errors[0].message
    assert read_lines(lines[:2] + [pen] * 900 + lines[2:]).games  # 900 are read (a hand has some 60)


def test_a_game_of_hands_each_under_the_bound_stays_small_to_replay() -> None:
    """20 hands of 990 legal events (R8 passed round, an X4 penalty at each discard): each state
    holds the hand's penalties so far, so this is the reader's worst case (62 MB measured)."""
    import gc

    def rss_mb() -> int:
        status = Path("/proc/self/status").read_text()
        return int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) // 1024

    from hostile_logs import take_discard_flood

    r = read_lines(take_discard_flood(20, 490).splitlines())
    assert len(r.games) == 1, r.errors[:2]
    gc.collect()
    before = rss_mb()
    res = replay_game(r.games[0], keep_steps=True)
    assert sum(len(h.steps) for h in res.hands) > 19_000
    assert rss_mb() - before < 150  # a game of 50,000 such events held 260 MB, 2,000 pairs a turn 85 MB


# ---- recording files (the recorder's JSON, analysis.game.record) ----------------------------


def _recording() -> dict:
    """A recording of golden x2-1 ("all racks") up to seat 2's failed opening."""
    lines = [json.loads(x) for x in _golden()]
    hand = lines[1]
    rec = Recording("r-x2")
    rec.view = None
    rec.players = list(lines[0]["players"])
    rec.starter, rec.indicator, rec.racks = hand["starter"], hand["indicator"], hand["racks"]
    rec.deal()
    for ev in lines[2:9]:  # ... open R1 R2 R3, takeback
        rec.add({k: v for k, v in ev.items() if k not in ("game", "hand")})
    return rec.to_dict()


def test_a_recording_round_trips_through_its_bounded_reader() -> None:
    d = _recording()
    r = Recording.from_json(json.dumps(d))
    assert r.events == d["events"] and r.state() is not None


@pytest.mark.parametrize("damage", ["nested", "open_empty", "no_deal", "done_without_racks", "pairs_15000",
                                    "pairs_900", "long_name", "huge"])
def test_a_damaged_recording_file_is_one_record_error(damage: str) -> None:
    d = _recording()
    if damage == "nested":
        raw = "[" * 100_000 + "]" * 100_000
    else:
        opn, back = d["events"][-2], d["events"][-1]
        if damage == "open_empty":
            d["events"][-2] = {**opn, "melds": [[]]}  # M1 when the page asks for the state
        elif damage == "no_deal":
            d["racks"] = [[], [], [], []]  # D1
        elif damage == "done_without_racks":
            d["done"] = [{"hand": 1, "starter": 0, "indicator": "Y6", "events": [], "result": "finish"}]
        elif damage == "pairs_15000":
            d["events"] += [opn, back] * 15_000
        elif damage == "pairs_900":
            d["events"] += [opn, back] * 900
        elif damage == "long_name":
            d["players"][0] = "x" * 5_000
        elif damage == "huge":
            d["started"] = "x" * 2_000_000
        raw = json.dumps(d)
    with pytest.raises(RecordError) as e:
        Recording.from_json(raw)
    assert "\n" not in str(e.value) and len(str(e.value)) < 400


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"id": "kayit-20261205-000000", "done": [{}]}'])
def test_the_recorder_page_loads_a_damaged_recording_as_none_not_a_traceback(tmp_path: Path, text: str) -> None:
    from dashboard.state import recordings

    db = str(tmp_path / "t.duckdb")
    recordings.folder(db).mkdir()
    (recordings.folder(db) / "kayit-20261205-000000.json").write_text(text, encoding="utf-8")
    assert recordings.load(db, "kayit-20261205-000000") is None


# ---- studies: surrogates, control characters, a killed import's temporary file ---------------


@pytest.fixture
def study_db(tmp_path: Path) -> Any:
    from analysis.store import connect, import_paths

    con = connect(str(tmp_path / "t.duckdb"))
    import_paths(con, [str(Path(__file__).parent / "data" / "golden" / "normal_finish.jsonl")], workers=1)
    gid = con.execute("SELECT game FROM games").fetchall()[0][0]
    yield con, gid
    con.close()


@pytest.mark.parametrize("name,note", [("ok\ud800", "n"), ("ok", "bad\ud800"), ("ok", "bell\x07"), ("ok", "esc\x1b[2J")])
def test_a_study_name_or_note_with_a_surrogate_or_control_character_is_a_study_error(study_db: Any, name: str,
                                                                                     note: str) -> None:
    from analysis.store.study_rows import Item, StudyError, create

    con, gid = study_db
    with pytest.raises(StudyError):
        create(con, name, [Item(gid, 1, 0, 0, note)])


def test_a_note_keeps_its_line_breaks_and_tabs(study_db: Any) -> None:
    from analysis.store.study_rows import Item, create, get

    con, gid = study_db
    sid = create(con, "s", [Item(gid, 1, 0, 0, "a\nb\tc\r\nd")])
    study = get(con, sid)
    assert study is not None and study.items[0].note == "a\nb\tc\r\nd"


@pytest.mark.parametrize("where", ["name", "note", "game"])
def test_a_study_file_with_a_surrogate_escape_is_one_line_naming_line_and_field(study_db: Any, where: str) -> None:
    from analysis.store.study_file import export_text, import_study
    from analysis.store.study_rows import Item, create

    con, gid = study_db
    text = export_text(con, create(con, "s", [Item(gid, 1, 0, 0, "n")]))
    bad = {"name": ('"name":"s"', '"name":"s\\ud800"'), "note": ('"note":"n"', '"note":"n\\ud800"'),
           "game": (f'"game":"{gid}","lines"', f'"game":"{gid}\\ud800","lines"')}[where]
    assert bad[0] in text
    res = import_study(con, text.replace(bad[0], bad[1]).encode(), label="f.istaka-study", name="t")
    assert res.error is not None and "\n" not in res.error
    assert res.error.startswith(("f.istaka-study:1: field", "f.istaka-study:2: field")), res.error


def test_a_killed_study_imports_temporary_file_is_swept_at_the_next_import(tmp_path: Path) -> None:
    from analysis.store.study_file import TEMP_PREFIX, sweep_temp

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f"{TEMP_PREFIX}{dead.stdout.strip()}-x.jsonl"  # its process ended without cleaning
    live = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-y.jsonl"
    stale.write_text("x" * 3_300_000)
    live.write_text("x")
    assert sweep_temp(str(tmp_path)) == 1
    assert not stale.exists() and live.exists()


# ---- the command line: bytes that are not UTF-8 ----------------------------------------------


def _istaka(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, cwd=cwd, env=env,
                          timeout=120)


def test_a_directory_import_reads_every_file_after_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    gold = Path(__file__).parent / "data" / "golden"
    (d / "a.jsonl").write_bytes((gold / "normal_finish.jsonl").read_bytes())
    Path(os.fsdecode(bytes(d) + b"/b\xff.jsonl")).write_bytes((gold / "escalation.jsonl").read_bytes())
    (d / "c.jsonl").write_bytes((gold / "void_hand.jsonl").read_bytes())
    r = _istaka("import", str(d), "--db", "t.duckdb", cwd=tmp_path)
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr[-600:]
    assert b"3 games" in r.stdout and b"3 stored" in r.stdout


@pytest.mark.parametrize("args", [("report", b"g\xff", "--out", "o.html"), ("notes", b"g\xff"),
                                  ("notes", "g", "--set", "1", "1", "--text", b"a\xffb"),
                                  ("study", "export", b"s\xff", "--out", "x.istaka-study")])
def test_an_argument_that_is_not_utf8_is_one_line_not_a_traceback(tmp_path: Path, args: tuple) -> None:
    r = _istaka("import", str(Path(__file__).parent / "data" / "golden" / "normal_finish.jsonl"), "--db", "t.duckdb",
                cwd=tmp_path)
    assert r.returncode == 0
    r = _istaka(*args, "--db", "t.duckdb", cwd=tmp_path)
    err = r.stderr.decode("utf-8", "replace").strip()
    assert r.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "not UTF-8 text" in err


@pytest.mark.parametrize("damage", ["empty", "truncated"])
@pytest.mark.parametrize("command", [("errors",), ("import", "LOG"), ("notes", "g"), ("report", "g", "--out", "o.html"),
                                     ("study", "list"), ("analyze",)])
def test_a_damaged_database_is_one_line_in_every_store_command(tmp_path: Path, damage: str,
                                                               command: tuple[str, ...]) -> None:
    log = str(Path(__file__).parent / "data" / "golden" / "normal_finish.jsonl")
    if damage == "empty":
        (tmp_path / "t.duckdb").write_bytes(b"")
    else:
        assert _istaka("import", log, "--db", "whole.duckdb", cwd=tmp_path).returncode == 0
        whole = (tmp_path / "whole.duckdb").read_bytes()
        (tmp_path / "t.duckdb").write_bytes(whole[:20_000])
    before = (tmp_path / "t.duckdb").read_bytes()
    r = _istaka(*(log if a == "LOG" else a for a in command), "--db", "t.duckdb", cwd=tmp_path)
    err = r.stderr.decode("utf-8", "replace").strip()
    assert r.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert ("empty" if damage == "empty" else "damaged") in err
    assert (tmp_path / "t.duckdb").read_bytes() == before  # nothing written to it


# ---- one connection configuration in the server process ----------------------------------------


def test_a_reader_waits_for_a_writer_of_this_process_instead_of_a_connection_error(tmp_path: Path) -> None:
    import threading
    import time

    from analysis.store import connect, reading

    db = str(tmp_path / "t.duckdb")
    writer = connect(db)  # read-write in this process: DuckDB refuses a read-only open beside it
    threading.Timer(0.4, writer.close).start()
    t0 = time.monotonic()
    with reading(db, wait=5) as con:
        assert con.execute("SELECT 1").fetchall() == [(1,)]
    assert time.monotonic() - t0 >= 0.3


def test_every_dashboard_connection_goes_through_the_servers_gate() -> None:
    """Readers and writers of one server share data.reading_db / data.writing_db: a connection
    opened beside them, with the other read_only setting, is refused by DuckDB."""
    root = Path(__file__).resolve().parents[1] / "dashboard"
    stray = [f"{p.relative_to(root)}:{n}" for p in root.rglob("*.py") if p.name != "data.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "store.reading(" in line or "store.connect(" in line or "duckdb.connect(" in line]
    assert stray == []


def test_a_plain_streamlit_run_listens_on_this_machine_only() -> None:
    import tomllib

    cfg = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text("utf-8"))
    assert cfg["server"]["address"] == "127.0.0.1"


def test_a_report_past_its_size_limit_is_refused_and_nothing_is_written(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from analysis.cli import main
    from analysis.cli import review as cli_review

    log = str(Path(__file__).parent / "data" / "golden" / "normal_finish.jsonl")
    monkeypatch.setattr(cli_review, "MAX_REPORT_CHARS", 2_000)  # bench/memory.py: 25 long hands made 159 MB
    out = tmp_path / "r.html"
    assert main(["report", "normal-1", "--log", log, "--out", str(out)]) == 2
    assert not out.exists() and list(tmp_path.iterdir()) == []
    monkeypatch.setattr(cli_review, "MAX_REPORT_CHARS", 16 << 20)
    assert main(["report", "normal-1", "--log", log, "--out", str(out)]) == 0 and out.exists()


def test_a_failed_study_export_leaves_no_partial_file(study_db: Any, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from analysis.store import study_file
    from analysis.store.study_rows import Item, create

    con, gid = study_db
    sid = create(con, "s", [Item(gid, 1, 0, 0, "n")])
    out = tmp_path / "out" / "s.istaka-study"
    out.parent.mkdir()

    def full(*a: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(study_file.os, "replace", full)
    with pytest.raises(OSError):
        study_file.export_study(con, sid, out)
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("page,keys", [("record", [f"rec_p{k}" for k in range(4)]),
                                       ("sheet", [f"n_name{s}" for s in range(4)])])
def test_the_pages_name_boxes_stop_at_the_readers_name_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             page: str, keys: list[str]) -> None:
    import apptest_helpers as ui
    from streamlit.testing.v1 import AppTest

    from analysis.game.log import MAX_NAME
    from analysis.store import connect

    db = tmp_path / "t.duckdb"
    connect(db, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(db))
    at = ui.open_page(AppTest.from_file(str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py"),
                                        default_timeout=90), page)
    boxes = {w.key: w for w in at.text_input if w.key in keys}
    assert sorted(boxes) == sorted(keys)
    assert all(w.max_chars == MAX_NAME for w in boxes.values())


def test_a_killed_writes_temporary_file_is_swept_by_the_next_write_there(tmp_path: Path) -> None:
    from analysis.cli.common import write_atomic

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".r.html.{dead.stdout.strip()}.tmp"  # a report killed before its rename
    stale.write_bytes(b"x" * 50_000)
    other = tmp_path / f".r.html.{os.getpid()}x.tmp"  # not a process id: not ours to remove
    other.write_bytes(b"y")
    write_atomic(tmp_path / "r.html", "<html></html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "r.html"]


def test_the_play_page_loads_a_deeply_nested_game_file_as_none_not_a_traceback(tmp_path: Path) -> None:
    from dashboard.state import play_games

    db = str(tmp_path / "t.duckdb")
    play_games.folder(db).mkdir(parents=True)
    (play_games.folder(db) / "oyun-20261205-000000.json").write_text("[" * 100_000 + "]" * 100_000)
    assert play_games.load(db, "oyun-20261205-000000") is None


def test_past_the_memory_budget_the_servers_caches_are_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    import streamlit as st

    from dashboard.state import memory

    calls: list[int] = []

    @st.cache_resource
    def heavy(x: int) -> int:
        calls.append(x)
        return x

    heavy(1)
    heavy(1)
    monkeypatch.setenv(memory.ENV, str(10**7))
    assert memory.guard() is False and heavy(1) == 1 and calls == [1]
    assert 0 < memory.rss_mb() < 10**7
    monkeypatch.setattr(memory, "rss_mb", lambda: 5_000)  # a server past its 1,000 MB
    monkeypatch.setenv(memory.ENV, "1000")
    assert memory.guard() is True
    assert heavy(1) == 1 and calls == [1, 1]  # recomputed: nothing lost
