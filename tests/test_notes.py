"""In the library: a coach's notes stored (analysis/store/notes.py, migration 10),
bounded, migrated into a database of version 9, written into the HTML report, exported with the
other tables, listed by ``istaka notes``, and hostile text through validation and the store."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import duckdb
import notes_gen
import pytest
from store_logs import make_game, stored, write_log

from analysis import store
from analysis.store import notes as N

GAME = "nt-g"
T0 = dt.datetime(2026, 12, 2, 10, 0, 0)
T1 = dt.datetime(2026, 12, 2, 11, 30, 0)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return stored(tmp_path / "n.duckdb", write_log(tmp_path / "g.jsonl", [make_game(GAME, seed=4, hands=2)]))


@pytest.fixture
def con(db: Path):  # type: ignore[no-untyped-def]
    c = store.connect(db)
    yield c
    c.close()


def _mem() -> duckdb.DuckDBPyConnection:
    """An in-memory store with one game of one hand (the rows the notes check for)."""
    c = duckdb.connect()
    store.migrate(c)
    c.execute("INSERT INTO games (game, checksum, variant, import_id) VALUES ('g', 'c', '101', 1)")
    c.execute("INSERT INTO hands (game, ord, hand, result) VALUES ('g', 1, 1, 'finish')")
    return c


# ---- round trip ------------------------------------------------------------------------------


def test_a_note_is_added_read_edited_and_deleted_with_its_times_and_author(con: duckdb.DuckDBPyConnection) -> None:
    n = store.add_note(con, GAME, 1, 7, "?!", "  Too early to open.\r\nWait a turn. ", "coach@kulup.example", now=T0)
    assert (n.mark, n.text, n.author, n.created, n.updated) == ("?!", "Too early to open.\nWait a turn.",
                                                                "coach@kulup.example", T0, T0)
    assert store.get_note(con, GAME, 1, 7) == n and store.list_notes(con, GAME) == [n]
    store.add_note(con, GAME, 2, 0, "!!", now=T0)
    store.add_note(con, GAME, 1, 3, "", "the deal", now=T0)
    assert [(x.hand, x.step) for x in store.list_notes(con, GAME)] == [(1, 3), (1, 7), (2, 0)]  # hand, step order
    assert [x.step for x in store.list_notes(con, GAME, hand=1)] == [3, 7]
    e = store.update_note(con, GAME, 1, 7, "??", "A blunder after all", now=T1)
    assert (e.mark, e.text, e.author, e.created, e.updated) == ("??", "A blunder after all", "coach@kulup.example", T0, T1)
    assert store.get_note(con, GAME, 1, 7) == e
    s = store.save_note(con, GAME, 1, 7, "!", "", author="", now=T1)  # Save on an existing note edits it
    assert (s.mark, s.text, s.author, s.created) == ("!", "", "coach@kulup.example", T0)  # a nameless edit
    assert store.save_note(con, GAME, 1, 7, "!", "", author="hoca", now=T1).author == "hoca"
    assert store.update_note(con, GAME, 1, 7, "!", "", author="", now=T1).author == ""
    assert store.delete_note(con, GAME, 1, 7) is True and store.delete_note(con, GAME, 1, 7) is False
    assert store.get_note(con, GAME, 1, 7) is None and N.count_notes(con) == {GAME: 2}


def test_a_note_survives_its_game_imported_again_and_reopening_the_database(db: Path, tmp_path: Path) -> None:
    with store.connect(db) as c:
        store.add_note(c, GAME, 2, 4, "?", "kept")
        store.import_paths(c, [str(write_log(tmp_path / "again.jsonl", [make_game(GAME, seed=4, hands=2)]))],
                           workers=1, replace=True)
    with store.reading(db) as c:
        assert [(x.hand, x.step, x.text) for x in store.list_notes(c, GAME)] == [(2, 4, "kept")]


# ---- bounds ----------------------------------------------------------------------------------


def test_the_text_is_bounded_at_2000_characters_and_the_mark_is_one_of_the_set() -> None:
    c = _mem()
    assert store.add_note(c, "g", 1, 1, "", "ğ" * 2_000).text == "ğ" * 2_000
    with pytest.raises(store.NoteError, match="2,001 characters long; at most 2,000") as e:
        store.add_note(c, "g", 1, 2, "", "ğ" * 2_001)
    assert e.value.kind == "too_long" and e.value.fields["n"] == 2_001 and isinstance(e.value, ValueError)
    for i, m in enumerate(store.MARKS):
        assert store.save_note(c, "g", 1, 10 + i, m, "x").mark == m
    assert set(store.MARKS) == {"", "!", "?", "?!", "??", "!!"}
    for bad in ("!?", "x", "!!!", "‼", 3, b"!", "?\x00"):
        with pytest.raises(store.NoteError, match="is not one of") as e:
            store.add_note(c, "g", 1, 30, bad, "x")  # type: ignore[arg-type]
        assert e.value.kind == "bad_mark"
    assert store.get_note(c, "g", 1, 2) is None and store.get_note(c, "g", 1, 30) is None


@pytest.mark.parametrize("args, kind, says", [
    (("g", 1, 1, "", ""), "empty", "needs a mark or a text"),
    (("g", 1, 1, "", " \n\t "), "empty", "needs a mark or a text"),
    (("g", 1, 1, "!", "bell\x07"), "bad_char", "control character (U+0007) at character 5"),
    (("g", 1, 1, "!", "\ud83d"), "bad_char", "lone surrogate (U+D83D) at character 1"),
    (("g", 1, 1, "!", "a\x00b"), "bad_char", "U+0000"),
    (("g", 1, 1, "!", 42), "bad_char", "must be a string"),
    (("g", 0, 1, "!", "x"), "bad_position", "hand 0"),
    (("g", 1, -1, "!", "x"), "bad_position", "step -1"),
    (("g", True, 1, "!", "x"), "bad_position", "hand True"),
    (("g", 1, "3", "!", "x"), "bad_position", "step '3'"),
    (("nope", 1, 1, "!", "x"), "no_game", "no game 'nope'"),
    (("", 1, 1, "!", "x"), "no_game", "a stored game's id"),
    (("g", 2, 1, "!", "x"), "no_hand", "has no hand 2"),
])
def test_a_bad_note_is_one_clear_error_naming_what_was_wrong(args: tuple, kind: str, says: str) -> None:
    c = _mem()
    with pytest.raises(store.NoteError) as e:
        store.add_note(c, *args)
    assert e.value.kind == kind and says in str(e.value) and "\n" not in str(e.value)
    assert c.execute("SELECT count(*) FROM notes").fetchall() == [(0,)]


def test_adding_twice_editing_nothing_and_a_long_author_are_errors() -> None:
    c = _mem()
    store.add_note(c, "g", 1, 1, "!")
    with pytest.raises(store.NoteError, match="has a note already: edit it") as e:
        store.add_note(c, "g", 1, 1, "?")
    assert e.value.kind == "exists" and store.get_note(c, "g", 1, 1).mark == "!"  # type: ignore[union-attr]
    with pytest.raises(store.NoteError, match="no note to edit") as e:
        store.update_note(c, "g", 1, 2, "?")
    assert e.value.kind == "missing"
    with pytest.raises(store.NoteError, match="author is 201 characters"):
        store.add_note(c, "g", 1, 3, "?", author="a" * 201)


# ---- migration -------------------------------------------------------------------------------


def test_a_database_at_version_9_gets_the_notes_table_and_keeps_its_games(tmp_path: Path) -> None:
    mine = next(v for v, name, _ in store.MIGRATIONS if "a coach's notes" in name)
    assert mine == 10
    old = duckdb.connect(str(tmp_path / "v9.duckdb"))
    assert store.migrate(old, upto=mine - 1) == list(range(1, mine))
    old.execute("INSERT INTO games (game, checksum, variant, import_id) VALUES ('g9', 'c', '101', 1)")
    old.execute("INSERT INTO hands (game, ord, hand, result) VALUES ('g9', 1, 1, 'finish')")
    assert store.list_notes(old, "g9") == [] and store.get_note(old, "g9", 1, 0) is None  # no table yet: none
    old.close()
    con = store.connect(tmp_path / "v9.duckdb", seed=False)
    assert store.schema_version(con) == store.LATEST >= mine
    cols = [r[0] for r in con.execute("SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' "
                                      "ORDER BY ordinal_position").fetchall()]
    assert cols == list(N.COLUMNS)
    assert con.execute("SELECT game FROM games").fetchall() == [("g9",)]
    store.add_note(con, "g9", 1, 2, "??", "after the migration")
    con.close()
    with store.reading(tmp_path / "v9.duckdb") as c:
        assert [(x.mark, x.text) for x in store.list_notes(c, "g9")] == [("??", "after the migration")]


# ---- report, export, CLI ---------------------------------------------------------------------


def test_the_html_report_shows_each_note_under_its_hand_escaped(db: Path, tmp_path: Path) -> None:
    from analysis.cli import main

    with store.connect(db) as c:
        store.add_note(c, GAME, 2, 3, "?!", "<script>alert(1)</script> keep the pair", "hoca")
        store.add_note(c, GAME, 1, 1, "!!", "good take")
    for lang, heading in (("en", "Hand 2, step 3"), ("tr", "El 2, adım 3")):
        out = tmp_path / f"r-{lang}.html"
        assert main(["report", GAME, "--db", str(db), "--out", str(out), "--lang", lang]) == 0
        page = out.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; keep the pair" in page
        assert heading in page and ("by hoca" if lang == "en" else "yazan: hoca") in page
        h1, h2 = page.index('data-step="1"'), page.index('data-step="3"')
        assert page.index("<h2>", 0) < h1 < page.index("<h2>", h1) < h2  # each under its own hand's heading
        assert page.count('class="note"') == 2
        note = page[h2: page.index("</div></div>", h2)]
        assert 'class="ev"' in note and 'class="t"' in note  # the noted move drawn with its tile


def test_the_report_puts_notes_on_a_hand_it_does_not_show_in_a_closing_section(db: Path) -> None:
    from analysis.game import replay_game
    from analysis.review import render, review_game
    from analysis.store import queries

    with store.connect(db) as c:
        store.add_note(c, GAME, 1, 2, "?", "on hand one")
        g = queries.load_gamelog(c, GAME)
        notes = store.list_notes(c, GAME)
    res = replay_game(g, keep_steps=True)
    ghost = N.Note(GAME, 9, 0, "!", "a hand this game has not", "", T0, T0)
    page = render(res, review_game(res), lang="en", notes=[*notes, ghost])
    assert "on hand one" in page and page.index("Other notes") < page.index("a hand this game has not")
    assert render(res, review_game(res), lang="en").count('class="note"') == 0


def test_istaka_export_writes_the_notes_table_and_a_lake_holds_it_too(db: Path, tmp_path: Path) -> None:
    with store.connect(db) as c:
        store.add_note(c, GAME, 1, 5, "?", "çift açmalıydı\nsatır iki", now=T0)
    from analysis.cli import main

    assert main(["export", "--parquet", str(tmp_path / "x"), "--db", str(db)]) == 0
    assert "notes" in store.EXPORT_TABLES
    rows = duckdb.sql(f"SELECT game, hand, step, mark, text, created FROM '{tmp_path / 'x' / 'notes.parquet'}'").fetchall()
    assert rows == [(GAME, 1, 5, "?", "çift açmalıydı\nsatır iki", T0)]
    with store.reading(db) as c:
        store.export_lake(c, tmp_path / "lake")
    lake = store.connect(tmp_path / "lake", read_only=True)
    try:
        assert [(x.step, x.text) for x in store.list_notes(lake, GAME)] == [(5, "çift açmalıydı\nsatır iki")]
    finally:
        lake.close()


def test_istaka_notes_lists_sets_and_deletes_with_one_line_errors(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from analysis.cli import main

    def _cli(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main(["notes", *args])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out.out, out.err)

    assert _cli(GAME, "--db", str(db)).stdout.strip() == f"no notes on {GAME}"
    r = _cli(GAME, "--db", str(db), "--set", "1", "4", "--mark", "?!", "--text", "satır bir\nsatır iki")
    assert r.returncode == 0 and "note saved" in r.stdout, r.stderr
    assert _cli(GAME, "--db", str(db)).stdout.strip() == "hand 1 step 4: ?! satır bir / satır iki"
    got = [json.loads(x) for x in _cli(GAME, "--db", str(db), "--json").stdout.splitlines()]
    assert [(x["hand"], x["step"], x["mark"], x["text"]) for x in got] == [(1, 4, "?!", "satır bir\nsatır iki")]
    for bad, says in ((("--set", "1", "5", "--mark", "!?"), "mark '!?' is not one of"),
                      (("--set", "1", "5", "--text", "x" * 2_001), "2,001 characters long"),
                      (("--set", "7", "5", "--mark", "!"), "has no hand 7"),
                      (("--delete", "1", "9"), "no note at hand 1, step 9"),
                      (("--mark", "!"), "go with --set")):
        r = _cli(GAME, "--db", str(db), *bad)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, (bad, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
    capsys.readouterr()
    assert main(["report", GAME, "--json", "--db", str(db)]) == 0  # the report's JSON carries the notes too
    rep = json.loads(capsys.readouterr().out)
    assert [(x["hand"], x["step"], x["mark"], x["text"]) for x in rep["notes"]] == [(1, 4, "?!", "satır bir\nsatır iki")]
    assert _cli(GAME, "--db", str(db), "--delete", "1", "4").returncode == 0
    assert _cli(GAME, "--db", str(db)).stdout.strip() == f"no notes on {GAME}"


# ---- hostile text ----------------------------------------------------------------------------


def test_ten_thousand_hostile_texts_through_validation_and_a_share_through_the_store() -> None:
    """Every text is either refused with a NoteError of a known kind or kept exactly as validated;
    the first 300 also go through the store and come back unchanged (bench/notes.py sends all
    10,000 through it). No other exception."""
    kinds = {"too_long", "bad_char", "bad_mark", "empty"}
    texts, marks = notes_gen.texts(10_000), notes_gen.marks(10_000)
    kept: dict[int, tuple[str, str]] = {}
    refused: dict[str, int] = {}
    for i, (tx, m) in enumerate(zip(texts, marks)):
        try:
            kept[i] = N.validate(m, tx)[:2]
        except store.NoteError as e:
            assert e.kind in kinds and "\n" not in str(e), (i, e.kind, str(e))
            refused[e.kind] = refused.get(e.kind, 0) + 1
    assert all(refused.get(k, 0) > 50 for k in kinds), refused  # the generator reaches every refusal
    assert len(kept) > 3_000, len(kept)
    for i, (m, tx) in kept.items():
        assert len(tx) <= N.MAX_TEXT and not N.REFUSED.search(tx) and tx == tx.strip() and "\r" not in tx
        assert N.validate(m, tx)[:2] == (m, tx)  # validating what is kept keeps it
    c = _mem()
    sent: dict[int, tuple[str, str]] = {}
    for i in range(300):
        try:
            store.add_note(c, "g", 1, i, marks[i], texts[i])  # type: ignore[arg-type]
            sent[i] = kept[i]
        except store.NoteError as e:
            assert i not in kept and e.kind in kinds
    back = {x.step: (x.mark, x.text) for x in store.list_notes(c, "g")}
    assert back == sent and len(sent) > 100
