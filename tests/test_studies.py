"""Studies: the store's round trip, the study file's export and import into a
fresh database (the games come with it), and hostile files: one line naming the line and field,
nothing of the study stored, the good games kept."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from store_logs import make_game, write_log

from analysis import store
from analysis.cli import main as cli_main
from analysis.store import studies as S
from analysis.store.queries import load_gamelog
from analysis.store.rows import game_checksum

Item = S.Item


def _db(path: Path, *logs: Path) -> duckdb.DuckDBPyConnection:
    con = store.connect(path, seed=False)
    if logs:
        store.import_paths(con, [str(p) for p in logs], workers=1)
    return con


@pytest.fixture
def games_log(tmp_path: Path) -> Path:
    return write_log(tmp_path / "club.jsonl", [make_game("ders-1", seed=1, hands=2), make_game("ders-2", seed=2, hands=2),
                                               make_game("ders-3", seed=3, hands=1)])


@pytest.fixture
def coach(tmp_path: Path, games_log: Path) -> duckdb.DuckDBPyConnection:
    con = _db(tmp_path / "coach.duckdb", games_log)
    yield con
    con.close()


def _lesson(con: duckdb.DuckDBPyConnection) -> int:
    sid = S.create(con, "Açılış dersi — 1")
    S.add_item(con, sid, Item("ders-1", 1, 3, 1, "Burada 101'e ulaşıyor mu?\nİkinci satır."))
    S.add_item(con, sid, Item("ders-2", 2, 5, 0, "elden bitiş"))
    S.add_item(con, sid, Item("ders-1", 2, 0, 2, ""))
    return sid


def _counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    return (con.execute("SELECT count(*) FROM studies").fetchall()[0][0],
            con.execute("SELECT count(*) FROM study_items").fetchall()[0][0])


# ---- the store ----------------------------------------------------------------------------

def test_a_study_is_created_reordered_edited_renamed_and_deleted(coach: duckdb.DuckDBPyConnection) -> None:
    sid = _lesson(coach)
    assert [(i.game, i.hand, i.step) for i in S.get(coach, sid).items] == [("ders-1", 1, 3), ("ders-2", 2, 5),
                                                                           ("ders-1", 2, 0)]
    assert S.add_item(coach, sid, Item("ders-3", 1, 2, 3, "başa"), at=1) == 1
    S.move_item(coach, sid, 1, 4)  # to the end
    S.move_item(coach, sid, 3, 1)
    assert [i.game for i in S.get(coach, sid).items] == ["ders-1", "ders-1", "ders-2", "ders-3"]
    S.set_note(coach, sid, 2, "yeni not")
    S.remove_item(coach, sid, 3)
    st = S.get(coach, sid)
    assert [(i.game, i.note) for i in st.items] == [("ders-1", ""), ("ders-1", "yeni not"), ("ders-3", "başa")]
    S.rename(coach, sid, "  Orta oyun  ")
    assert S.find(coach, "Orta oyun") == sid and S.get(coach, sid).name == "Orta oyun"
    other = S.create(coach, "Başka")
    with pytest.raises(S.StudyError, match="already exists"):
        S.rename(coach, other, "Orta oyun")
    listed = S.list_studies(coach)
    assert list(listed["name"]) == ["Başka", "Orta oyun"] and list(listed["items"]) == [0, 3]
    S.delete(coach, sid)
    assert S.get(coach, sid) is None and _counts(coach) == (1, 0)


def test_the_bounds_name_note_and_items(coach: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(S.StudyError, match="at most 200"):
        S.create(coach, "x" * 201)
    with pytest.raises(S.StudyError, match="needs a name"):
        S.create(coach, "   ")
    with pytest.raises(S.StudyError, match="one line"):
        S.create(coach, "iki\nsatır")
    sid = S.create(coach, "y" * 200)
    with pytest.raises(S.StudyError, match="2,000"):
        S.add_item(coach, sid, Item("ders-1", 1, 0, 0, "n" * 2001))
    S.add_item(coach, sid, Item("ders-1", 1, 0, 0, "n" * 2000))
    with pytest.raises(S.StudyError, match="seat"):
        S.add_item(coach, sid, Item("ders-1", 1, 0, 4))
    with pytest.raises(S.StudyError, match="no item 9"):
        S.set_note(coach, sid, 9, "")
    with pytest.raises(S.StudyError, match="at most 500"):
        S.create(coach, "çok", [Item("ders-1", 1, 0, 0)] * 501)
    full = S.create(coach, "dolu", [Item("ders-1", 1, k % 5, 0) for k in range(500)])
    with pytest.raises(S.StudyError, match="full"):
        S.add_item(coach, full, Item("ders-1", 1, 0, 0))
    assert len(S.get(coach, full).items) == 500


def test_hand_steps_counts_the_replay_steps_of_every_hand(coach: duckdb.DuckDBPyConnection) -> None:
    from analysis.game import replay_game

    for gid in ("ders-1", "ders-2", "ders-3"):
        res = replay_game(load_gamelog(coach, gid), keep_steps=True)
        for h in res.hands:
            assert S.hand_steps(coach, gid, h.hand) == len(h.steps), (gid, h.hand)
    assert S.hand_steps(coach, "ders-3", 2) is None and S.hand_steps(coach, "yok", 1) is None


# ---- the file -----------------------------------------------------------------------------

def test_export_then_import_into_a_fresh_database_restores_the_games_and_the_study(
        tmp_path: Path, coach: duckdb.DuckDBPyConnection) -> None:
    sid = _lesson(coach)
    out = S.export_study(coach, sid, tmp_path / S.file_name("Açılış dersi — 1"))
    assert out.name == "Açılış-dersi-1.istaka-study"
    lines = out.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["version"] == 1 and head["items"] == 3 and [g["game"] for g in head["games"]] == ["ders-1", "ders-2"]
    assert json.loads(lines[-1]) == {"type": "study_end", "lines": len(lines)}
    student = _db(tmp_path / "student.duckdb")
    res = S.import_study(student, out)
    assert res.status == "stored" and res.error is None, res.problems
    assert res.games is not None and res.games.stored == 2 and res.games.failed == 0
    back = S.get(student, res.study)
    assert back.name == "Açılış dersi — 1" and back.items == S.get(coach, sid).items
    for gid in ("ders-1", "ders-2"):  # the same games, by content
        want = coach.execute("SELECT checksum FROM games WHERE game = ?", [gid]).fetchall()
        assert student.execute("SELECT checksum FROM games WHERE game = ?", [gid]).fetchall() == want
        assert game_checksum(load_gamelog(student, gid)) == want[0][0]
    assert student.execute("SELECT count(*) FROM games WHERE game = 'ders-3'").fetchall()[0][0] == 0  # not used
    again = S.import_study(student, out)  # the same file twice: nothing new
    assert again.status == "unchanged" and again.study == res.study and again.games.unchanged == 2
    S.set_note(student, res.study, 1, "öğrencinin notu")
    third = S.import_study(student, out)  # the name is taken by another content: a new name
    assert third.status == "stored" and third.renamed and third.name == "Açılış dersi — 1 (2)"
    assert _counts(student) == (2, 6)


def test_a_student_holding_the_games_already_imports_only_the_study(
        tmp_path: Path, coach: duckdb.DuckDBPyConnection, games_log: Path) -> None:
    out = S.export_study(coach, _lesson(coach), tmp_path / "l.istaka-study")
    student = _db(tmp_path / "s.duckdb", games_log)
    res = S.import_study(student, out)
    assert res.status == "stored" and res.games.unchanged == 2 and res.games.stored == 0


def test_a_study_of_a_game_the_database_no_longer_holds_is_not_exported(coach: duckdb.DuckDBPyConnection) -> None:
    sid = S.create(coach, "eksik", [Item("ders-1", 1, 0, 0), Item("gitti", 1, 0, 0)])
    with pytest.raises(S.StudyError, match="item 2 .* 'gitti'"):
        S.export_text(coach, sid)


# ---- hostile files ------------------------------------------------------------------------

@pytest.fixture
def lesson_file(tmp_path: Path, coach: duckdb.DuckDBPyConnection) -> Path:
    return S.export_study(coach, _lesson(coach), tmp_path / "lesson.istaka-study")


def _refused(student: duckdb.DuckDBPyConnection, res: S.StudyImport, *bits: str) -> str:
    assert res.status == "refused" and res.study is None and _counts(student) == (0, 0)
    assert res.error and "\n" not in res.error and "Traceback" not in res.error, res.error
    for b in bits:
        assert b in res.error, (b, res.error)
    return res.error


def _games(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute("SELECT game FROM games ORDER BY game").fetchall()]


def test_a_file_cut_inside_the_second_game_keeps_the_first_and_stores_no_study(
        tmp_path: Path, lesson_file: Path) -> None:
    lines = lesson_file.read_bytes().splitlines(keepends=True)
    head = json.loads(lines[0])
    second = 1 + head["items"] + head["games"][0]["lines"]  # 0-based index of ders-2's first line
    cut = tmp_path / "cut.istaka-study"
    cut.write_bytes(b"".join(lines[:second + 40]) + lines[second + 40][:17])  # mid-line, as a download dies
    student = _db(tmp_path / "s.duckdb")
    err = _refused(student, S.import_study(student, cut), f"cut.istaka-study:{second + 41}:", "ders-2", "cut short")
    assert "1 complete games before it were imported" in err
    assert _games(student) == ["ders-1"]


@pytest.mark.parametrize("keep", [0, 1, 2, 3, -1])
def test_a_file_cut_anywhere_else_gives_one_line_and_stores_no_study(tmp_path: Path, lesson_file: Path,
                                                                     keep: int) -> None:
    """Cut in the header (0 lines), in the items (1, 2), at the first game's first line (3), or
    just before the end line (-1)."""
    lines = lesson_file.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.istaka-study"
    cut.write_bytes(b"".join(lines[:keep]) if keep else lines[0][:50])
    student = _db(tmp_path / "s.duckdb")
    res = S.import_study(student, cut)
    _refused(student, res, "cut.istaka-study:")
    assert _games(student) == (["ders-1", "ders-2"] if keep == -1 else [])


def test_a_wrong_version_names_line_1_and_the_field_and_stores_nothing(tmp_path: Path, lesson_file: Path) -> None:
    lines = lesson_file.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    bad = tmp_path / "v2.istaka-study"
    bad.write_text(json.dumps({**head, "version": 2}) + "\n" + "".join(lines[1:]), encoding="utf-8")
    student = _db(tmp_path / "s.duckdb")
    _refused(student, S.import_study(student, bad), "v2.istaka-study:1:", "field 'version'", "version 2")
    assert _games(student) == []


def test_a_file_past_the_size_bound_is_not_read(tmp_path: Path, lesson_file: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from analysis.store import study_file

    monkeypatch.setattr(study_file, "MAX_FILE_BYTES", 10_000)
    student = _db(tmp_path / "s.duckdb")
    _refused(student, S.import_study(student, lesson_file), "a study file is at most 10,000")
    _refused(student, S.import_study(student, lesson_file.read_bytes(), label="upload/x"), "upload/x: ")
    assert _games(student) == []


@pytest.mark.parametrize("change, bits", [
    (lambda h, items: ({**h, "items": 501}, items), ("field 'items'", ":1:")),
    (lambda h, items: ({**h, "name": "x" * 201}, items), ("field 'name'", "at most 200")),
    (lambda h, items: (h, [{**items[0], "note": "ü" * 2001}] + items[1:]), (":2:", "field 'note'", "2,001")),
    (lambda h, items: (h, items[:1] + [{**items[1], "game": "ders-3"}] + items[2:]), (":3:", "field 'game'")),
    (lambda h, items: (h, items[:1] + [{**items[1], "step": "5"}] + items[2:]), (":3:", "field 'step'")),
    (lambda h, items: (h, items[:2] + [{**items[2], "seat": True}] + items[3:]), (":4:", "field 'seat'")),
    (lambda h, items: (h, items[:1] + [{**items[1], "n": 7}] + items[2:]), (":3:", "field 'n'")),
    (lambda h, items: ({**h, "type": "game"}, items), ("not an Istaka study file",)),
])
def test_a_bad_header_or_item_names_its_line_and_field_and_stores_nothing(
        tmp_path: Path, lesson_file: Path, change: object, bits: tuple[str, ...]) -> None:
    lines = lesson_file.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    items = [json.loads(x) for x in lines[1:1 + head["items"]]]
    head, items = change(head, items)  # type: ignore[operator]
    bad = tmp_path / "bad.istaka-study"
    bad.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in [head, *items])
                   + "".join(lines[1 + len(items):]), encoding="utf-8")
    student = _db(tmp_path / "s.duckdb")
    _refused(student, S.import_study(student, bad), *bits)
    assert _games(student) == []  # a header or item problem: the file is not taken at all


def test_a_step_past_its_hand_is_refused_after_the_games_are_stored(tmp_path: Path, lesson_file: Path) -> None:
    lines = lesson_file.read_text(encoding="utf-8").splitlines(keepends=True)
    it = json.loads(lines[2])
    lines[2] = json.dumps({**it, "step": 15_000}) + "\n"
    bad = tmp_path / "far.istaka-study"
    bad.write_text("".join(lines), encoding="utf-8")
    student = _db(tmp_path / "s.duckdb")
    _refused(student, S.import_study(student, bad), "far.istaka-study:3:", "field 'step'", "not 15000")
    assert _games(student) == ["ders-1", "ders-2"]  # good games are kept


def test_bad_game_lines_keep_the_good_games_and_store_no_study(tmp_path: Path, lesson_file: Path) -> None:
    lines = lesson_file.read_bytes().splitlines(keepends=True)
    head = json.loads(lines[0])
    at = 1 + head["items"] + head["games"][0]["lines"] + 3  # a line inside ders-2
    lines[at] = b'{"type":"draw","game":"ders-2","hand":1,"seat":1,"tile":\n'
    bad = tmp_path / "broken.istaka-study"
    bad.write_bytes(b"".join(lines))
    student = _db(tmp_path / "s.duckdb")
    res = S.import_study(student, bad)
    _refused(student, res, f"broken.istaka-study:{at + 1}:", "ders-2")
    assert _games(student) == ["ders-1"]
    assert res.games is not None and res.games.stored == 1 and res.games.failed == 1
    errs = student.execute("SELECT file, line FROM import_errors").fetchall()  # `istaka errors` lists it
    assert errs == [("study:broken.istaka-study", at + 1)]


def test_a_game_stored_with_other_content_is_a_conflict_unless_replaced(
        tmp_path: Path, lesson_file: Path) -> None:
    other = write_log(tmp_path / "other.jsonl", [make_game("ders-1", seed=99, hands=1)])
    student = _db(tmp_path / "s.duckdb", other)
    _refused(student, S.import_study(student, lesson_file), "ders-1", "already stored with different content", "--replace")
    assert _games(student) == ["ders-1", "ders-2"]
    res = S.import_study(student, lesson_file, replace=True)
    assert res.status == "stored", res.problems


@pytest.mark.parametrize("raw", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50, b"", b"\n\n", b"[1, 2]\n",
                                 b'{"type":"study","version":1,"name":"a","items":0,"games":"x"}\n'])
def test_what_is_not_a_study_file_gives_one_line(tmp_path: Path, raw: bytes) -> None:
    student = _db(tmp_path / "s.duckdb")
    _refused(student, S.import_study(student, raw, label="upload/x.istaka-study"), "upload/x.istaka-study")


# ---- the command line ---------------------------------------------------------------------

def test_istaka_study_export_and_import(tmp_path: Path, coach: duckdb.DuckDBPyConnection,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    _lesson(coach)
    coach.close()
    db, out = str(tmp_path / "coach.duckdb"), str(tmp_path / "l.istaka-study")
    assert cli_main(["study", "export", "Açılış dersi — 1", "--out", out, "--db", db]) == 0
    assert "l.istaka-study" in capsys.readouterr().out
    fresh = str(tmp_path / "fresh.duckdb")
    assert cli_main(["study", "import", out, "--db", fresh]) == 0
    printed = capsys.readouterr().out
    assert "2 stored" in printed and "stored as study 1 (3 items)" in printed
    assert cli_main(["study", "list", "--db", fresh]) == 0
    assert "Açılış dersi — 1\t3 items" in capsys.readouterr().out
    assert cli_main(["study", "export", "yok", "--out", out, "--db", db]) == 2
    assert "no study named 'yok'" in capsys.readouterr().err
    Path(out).write_text('{"type":"study","version":3}\n', encoding="utf-8")
    assert cli_main(["study", "import", out, "--db", fresh]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "field 'version'" in err and "Traceback" not in err


def test_a_line_added_or_lost_between_the_games_is_found_by_the_end_line(tmp_path: Path, lesson_file: Path) -> None:
    lines = lesson_file.read_bytes().splitlines(keepends=True)
    student = _db(tmp_path / "s.duckdb")
    lost = tmp_path / "lost.istaka-study"
    lost.write_bytes(b"".join(lines[:-2] + lines[-1:]))  # ders-2's last line gone: the end line is read early
    _refused(student, S.import_study(student, lost), "field 'games'", "end line, inside game 'ders-2'", "lost")
    assert _games(student) == ["ders-1"]
    extra = tmp_path / "extra.istaka-study"
    extra.write_bytes(b"".join(lines) + b"\n\n")  # blank lines after the end are no harm
    assert S.import_study(student, extra).status == "stored"
    told = tmp_path / "told.istaka-study"
    told.write_bytes(b"".join(lines[:-1]) + b'{"type":"study_end","lines":3}\n')
    S.delete(student, S.find(student, "Açılış dersi — 1"))
    _refused(student, S.import_study(student, told), "field 'lines'", "lines were added or lost")
