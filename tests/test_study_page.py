"""AppTests of the "Çalışmalar / Studies" page and Replay's "Add to study" , on a
real DuckDB: a link opens its position (the board at that step, the note), previous/next walk,
notes are edited, positions reordered and removed, a study made from Replay, a study file
downloaded and uploaded into another database; read-only mode shows studies and writes nothing."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import make_game, write_log
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.store import studies as S

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    log = write_log(tmp_path / "g.jsonl", [make_game("sp-1", seed=4, hands=2, players=["Ali", "Ayşe", "Mehmet", "Zeynep"]),
                                           make_game("sp-2", seed=5, hands=1)])
    p = tmp_path / "study.duckdb"
    con = store.connect(p, seed=False)
    store.import_paths(con, [str(log)], workers=1)
    S.create(con, "Ders", [S.Item("sp-1", 1, 2, 0, "ilk not\n- ikinci satır"), S.Item("sp-1", 2, 6, 1, "**ikinci** not"),
                           S.Item("sp-2", 1, 4, 3, "")])
    con.close()
    monkeypatch.setenv("ISTAKA_DB", str(p))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    yield p


def _study(db: Path, name: str = "Ders") -> S.Study:
    with store.reading(db) as con:
        sid = S.find(con, name)
        assert sid is not None
        got = S.get(con, sid)
    assert got is not None
    return got


def _item(at: AppTest) -> str:
    return next(m.value for m in at.markdown if 'data-testid="ist-study-item"' in m.value)


def _links(at: AppTest) -> dict[str, str]:
    """The page links drawn: the page's url path -> their query string."""
    return {p.proto.page.strip("/"): p.proto.query_string for p in at.get("page_link")}


def _open(lang: str = "tr", **params: object) -> AppTest:
    return ui.open_page(AppTest.from_file(APP, default_timeout=90), "study", lang=lang, **params)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_link_opens_its_position_with_the_board_and_the_note_and_walks_on(db: Path, lang: str) -> None:
    sid = _study(db).id
    at = _open(lang, study=sid, item=2)
    assert 'data-item="2"' in _item(at) and ("Konum 2 / 3" if lang == "tr" else "Position 2 / 3") in _item(at)
    page = ui.html(at)
    assert 'data-testid="ist-step" data-step="6"' in page and 'class="ist-table"' in page
    assert any(r"\*\*ikinci\*\* not" in m.value for m in at.markdown)  # the note as written, not as markdown
    links = _links(at)
    assert links["replay"].startswith("game=sp-1&hand=2&step=6&seat=1&lang=")  # the step in Replay
    assert links["study"] == f"study={sid}&item=2&lang={lang}"  # this position's own link
    at.button(key="sw_next").click().run()
    ui.ok(at)
    assert 'data-item="3"' in _item(at) and at.query_params["item"] == "3"
    assert at.button(key="sw_next").disabled
    at.button(key="sw_prev").click().run()
    at.button(key="sw_prev").click().run()
    assert 'data-item="1"' in _item(at) and 'data-step="2"' in ui.html(at)
    assert any(m.value == "ilk not  \n\\- ikinci satır" for m in at.markdown)  # each line as written


def test_a_note_is_edited_and_positions_are_moved_and_removed(db: Path) -> None:
    sid = _study(db).id
    at = _open(study=sid, item=1)
    box = next(w for w in at.text_area if w.key and w.key.startswith(f"sw_note_{sid}_1_"))
    box.input("yeni not: 42 puan").run()
    at.button(key="sw_save").click().run()
    ui.ok(at)
    assert _study(db).items[0].note == "yeni not: 42 puan"
    assert any(r"yeni not\: 42 puan" in m.value for m in at.markdown)
    at.button(key="sw_down").click().run()  # position 1 becomes 2, and the page follows it
    ui.ok(at)
    assert [i.step for i in _study(db).items] == [6, 2, 4] and 'data-item="2"' in _item(at)
    at.button(key="sw_remove").click().run()
    ui.ok(at)
    assert [i.step for i in _study(db).items] == [6, 4] and 'data-item="1"' in _item(at)


def test_a_study_is_created_renamed_and_deleted(db: Path) -> None:
    at = _open()
    at.text_input(key="sw_new").input("Orta oyun").run()
    at.button(key="sw_create").click().run()
    ui.ok(at)
    new = _study(db, "Orta oyun")
    assert at.selectbox(key="study").value == new.id and at.query_params["study"] == str(new.id)
    at.text_input(key=f"sw_rename_{new.id}").input("Son oyun").run()
    at.button(key="sw_rename").click().run()
    ui.ok(at)
    assert _study(db, "Son oyun").id == new.id
    at.button(key="sw_delete_yes").click().run()
    ui.ok(at)
    with store.reading(db) as con:
        assert S.find(con, "Son oyun") is None and S.find(con, "Ders") is not None


def test_add_to_study_from_replay_stores_the_step_and_seat(db: Path) -> None:
    at = ui.open_page(AppTest.from_file(APP, default_timeout=90), "replay", lang="en", game="sp-1", hand=2, step=9,
                      seat=2)
    at.selectbox(key="sw_add_study").select(0).run()  # a new study
    at.text_input(key="sw_add_name").input("From replay").run()
    at.text_area(key="sw_add_note").input("look at the discard").run()
    at.button(key="sw_add_go").click().run()
    ui.ok(at)
    st_ = _study(db, "From replay")
    assert st_.items == [S.Item("sp-1", 2, 9, 2, "look at the discard")]
    assert _links(at)["study"] == f"study={st_.id}&item=1&lang=en"
    assert any("as position 1" in s.value for s in at.success)
    at.button(key="b_next").click().run()  # the next step, into the same study
    at.button(key="sw_add_go").click().run()
    ui.ok(at)
    assert [i.step for i in _study(db, "From replay").items] == [9, 10]


def test_download_then_upload_into_another_database(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _open(study=_study(db).id, item=1)
    dl = next(w for w in at.get("download_button") if w.proto.id and "sw_download" in w.proto.id)
    assert dl is not None
    with store.reading(db) as con:
        data = S.export_text(con, _study(db).id).encode("utf-8")
    other = tmp_path / "student.duckdb"
    store.connect(other, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(other))
    at = _open()
    assert at.info and "No studies" not in at.info[0].value
    at.file_uploader(key="sw_file").set_value(("Ders.istaka-study", data, "application/x-ndjson")).run()
    ui.ok(at)
    assert any("Çalışma yüklendi: Ders (3 konum)" in s.value for s in at.success), [s.value for s in at.success]
    assert 'data-item="1"' in _item(at)
    assert [i.note for i in _study(other).items] == ["ilk not\n- ikinci satır", "**ikinci** not", ""]
    at.file_uploader(key="sw_file").set_value(("kötü.istaka-study", b'{"type":"study","version":9}\n',
                                               "application/x-ndjson")).run()
    ui.ok(at)
    err = html.unescape(" ".join(e.value for e in at.error)).replace("\\", "")  # as the page reads
    assert "Çalışma kaydedilmedi" in err and "field 'version'" in err and "upload/kötü.istaka-study:1:" in err


def test_read_only_shows_the_study_and_offers_no_edit(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    before = _study(db)
    at = _open(study=before.id, item=2)
    assert 'data-item="2"' in _item(at) and 'class="ist-table"' in ui.html(at)
    assert not at.text_area and not [b for b in at.button if b.key in ("sw_save", "sw_up", "sw_remove", "sw_create")]
    assert not at.file_uploader
    at.button(key="sw_next").click().run()  # walking is reading
    assert 'data-item="3"' in _item(at)
    at = ui.open_page(AppTest.from_file(APP, default_timeout=90), "replay", game="sp-1", hand=1, step=2)
    assert not [w for w in at.text_area if w.key == "sw_add_note"]  # no "Add to study" for a reader
    assert _study(db) == before


def test_a_position_whose_game_is_gone_says_so(db: Path) -> None:
    with store.connect(db, seed=False) as con:
        sid = S.create(con, "Eksik", [S.Item("yok-1", 1, 0, 0, "kayıp")])
    at = _open(study=sid, item=1)
    assert any("yok-1" in w.value for w in at.warning)
    assert any("Dosya hazırlanamadı" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_positions_table_names_each_positions_player_not_its_seat(db: Path, lang: str) -> None:
    sid = _study(db).id
    at = _open(lang, study=sid, item=1)
    ui.ok(at)
    table = next(d.value for d in at.dataframe if ("Oyuncu" if lang == "tr" else "Player") in d.value.columns)
    with store.reading(db) as con:
        other = con.execute("SELECT players FROM games WHERE game = 'sp-2'").fetchone()[0]
    assert table["Oyuncu" if lang == "tr" else "Player"].tolist() == ["Ali", "Ayşe", other[3]]
