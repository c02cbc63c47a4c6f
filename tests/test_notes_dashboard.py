"""On the dashboard: a coach's note written, edited and deleted in Replay's panel,
its mark in the move list, the Review page's list linking to the step, and read-only mode
(notes shown, no editor, nothing written), through AppTest against a real DuckDB."""

from __future__ import annotations

import hashlib
from pathlib import Path

import apptest_helpers as ui
import pytest
from dashboard_logs import make_game, write_log
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
GAME = "nt-1"
EVIL = "<img src=x onerror=alert(1)> [link](http://x.example) **bold**"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = stored(tmp_path / "notes.duckdb", write_log(tmp_path / "g.jsonl", [make_game(GAME, hands=1, seed=3)]))
    monkeypatch.setenv("ISTAKA_DB", str(d))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    return d


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=90)


def _stored(db: Path) -> list[store.Note]:
    with store.reading(db) as con:
        return store.list_notes(con, GAME)


def _panel_text(at: AppTest) -> str:
    return " ".join([*(m.value for m in at.markdown), *(c.value for c in at.caption),
                     *(s.value for s in at.success), *(e.value for e in at.error)])


def _move_labels(at: AppTest) -> list[str]:
    return [b.label for b in at.button if str(b.key).startswith("mv_")]


def test_a_note_is_added_edited_and_deleted_in_the_replay_panel(db: Path) -> None:
    at = ui.open_page(_app(), "replay", game=GAME, hand=1, step=4, lang="en")
    assert "No note on this step." in _panel_text(at)
    at.radio(key="nt_mark").set_value("?!")
    at.text_area(key="nt_text").set_value("  Kept the pair too long.\nDiscard R5 instead.  ")
    at.button(key="FormSubmitter:nt_form-Save").click().run()
    ui.ok(at)
    notes = _stored(db)
    assert [(n.hand, n.step, n.mark, n.text, n.author) for n in notes] == [
        (1, 4, "?!", "Kept the pair too long.\nDiscard R5 instead.", "")]
    said = _panel_text(at)
    assert "Note saved." in said and "Kept the pair too long." in said and "Discard R5 instead." in said
    assert any(label.startswith("4 ·") and label.endswith("?\\!") for label in _move_labels(at)), _move_labels(at)
    assert at.text_area(key="nt_text").value == "Kept the pair too long.\nDiscard R5 instead."  # as stored

    at.radio(key="nt_mark").set_value("??")
    at.text_area(key="nt_text").set_value(EVIL)
    at.button(key="FormSubmitter:nt_form-Save").click().run()
    ui.ok(at)
    (n,) = _stored(db)
    assert (n.mark, n.text) == ("??", EVIL) and n.updated >= n.created
    shown = "\n".join(m.value for m in at.markdown)
    assert "<img" not in shown and "](http" not in shown  # a user's text never becomes HTML or a link

    at.button(key="nt_delete").click().run()
    ui.ok(at)
    assert _stored(db) == []
    assert "Note deleted." in _panel_text(at) and "No note on this step." in _panel_text(at)
    assert not any(label.startswith("4 ·") and label.endswith("?\\?") for label in _move_labels(at))


def test_a_bad_note_is_refused_with_one_line_and_nothing_is_written(db: Path) -> None:
    at = ui.open_page(_app(), "replay", game=GAME, hand=1, step=2, lang="tr")
    at.button(key="FormSubmitter:nt_form-Kaydet").click().run()  # no mark, no text
    ui.ok(at)
    assert [e.value for e in at.error] == [("Boş not kaydedilmez: bir işaret ya da yorum yazın (notu kaldırmak için "
                                            "silin).")]
    at.text_area(key="nt_text").set_value("bell \x07 here")  # (the widget itself cuts a text to 2,000 characters)
    at.button(key="FormSubmitter:nt_form-Kaydet").click().run()
    ui.ok(at)
    assert [e.value for e in at.error] == ["Yorumdaki 6. karakter (U+0007) saklanamaz."]
    assert at.text_area(key="nt_text").value == "bell \x07 here"  # the text is kept to be corrected
    assert _stored(db) == []


def test_the_note_follows_its_step_and_the_review_page_links_to_it(db: Path) -> None:
    with store.connect(db) as con:
        store.add_note(con, GAME, 1, 6, "!!", "Gösterge shown at the right time")
    at = ui.open_page(_app(), "replay", game=GAME, hand=1, step=5, lang="en")
    assert "No note on this step." in _panel_text(at)
    assert at.text_area(key="nt_text").value == ""
    at.button(key="b_next").click().run()
    ui.ok(at)
    assert "Gösterge shown at the right time" in _panel_text(at) and "**Note** · **\\!\\!**" in _panel_text(at)
    assert at.text_area(key="nt_text").value == "Gösterge shown at the right time"  # the editor is filled for it
    assert at.radio(key="nt_mark").value == "!!"

    rv = ui.open_page(_app(), "review", game=GAME, lang="en")
    frame = next(d.value for d in rv.dataframe if "Comment" in d.value.columns)
    assert list(frame["Comment"]) == ["Gösterge shown at the right time"] and list(frame["Mark"]) == ["!!"]
    assert list(frame["▶"]) == [f"replay?game={GAME}&hand=1&step=6&lang=en"]
    assert "Coach's notes" in [s.value for s in rv.subheader]


def test_read_only_mode_shows_notes_but_not_the_editor_and_writes_nothing(db: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with store.connect(db) as con:
        store.add_note(con, GAME, 1, 3, "?", "Taking this tile gave the next seat a pair")
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    at = ui.open_page(_app(), "replay", game=GAME, hand=1, step=3, lang="en")
    said = _panel_text(at)
    assert "Taking this tile gave the next seat a pair" in said and "Notes are read-only on this board." in said
    assert not [w for w in [*at.get("text_area"), *at.get("radio")] if w.key in ("nt_text", "nt_mark")]
    assert not any(b.key == "nt_delete" for b in at.button)
    assert any(label.startswith("3 ·") and label.endswith("?") for label in _move_labels(at))
    rv = ui.open_page(_app(), "review", game=GAME, lang="en")
    assert any("Comment" in d.value.columns for d in rv.dataframe)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    from dashboard.board import notes_view

    assert not notes_view.writable()
