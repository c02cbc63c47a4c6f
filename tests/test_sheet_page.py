"""AppTests of the "Puan tablosu / Score sheet" page, on a real DuckDB: start a game,
enter rounds with one-tap controls, see the engine's row before saving, correct and delete
rows, follow the totals and the leader, the end with ranks and G3 match points, the spectator
view, the exports, and both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.store import sheets

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    p = tmp_path / "sheet.duckdb"
    store.connect(p, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(p))
    yield p


def _stored(db: Path, game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with store.reading(db) as con:
        got = sheets.load_sheet(con, game)
    assert got is not None
    return got


def _seg(at: AppTest, key: str) -> Any:
    return next(w for w in at.button_group if w.key == key)


def _start(at: AppTest, names: list[str], teams: bool = False, variant: str = "101", hands: int = 11) -> str:
    ui.open_page(at, "sheet")
    if teams:
        _seg(at, "n_mode").set_value("teams").run()
    for s, n in enumerate(names):
        at.text_input(key=f"n_name{s}").input(n)
    if variant != "101":
        _seg(at, "n_variant").set_value(variant).run()
    at.number_input(key=f"n_hands_{variant}").set_value(hands)
    at.button(key="n_start").click().run()
    ui.ok(at)
    return str(at.query_params["sheet"])


def _round(at: AppTest, fin: str, opened: dict[int, str], left: dict[int, int], kinds: list[str] = (),  # type: ignore[assignment]
           pens: dict[int, list[str]] | None = None) -> None:
    _seg(at, ui.sheet_key(at, "fin")).set_value(fin).run()
    if kinds:
        _seg(at, ui.sheet_key(at, "kinds")).set_value(list(kinds)).run()
    for s, o in opened.items():
        _seg(at, ui.sheet_key(at, f"op{s}")).set_value(o).run()
    for s, v in left.items():
        at.number_input(key=ui.sheet_key(at, f"left{s}")).set_value(v).run()
    for s, rules in (pens or {}).items():
        _seg(at, ui.sheet_key(at, f"pen{s}")).set_value(rules).run()
    ui.ok(at)


def _preview(at: AppTest) -> list[int]:
    df = next(d.value for d in at.table if "=" in d.value.columns)
    return [int(x) for x in df["="]]


def test_a_round_is_scored_by_the_engine_before_saving_and_saved_to_the_store_E5_X4(db: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["Ali", "Ayşe", "Mehmet", "Zeynep"])
    assert _stored(db, game)[1] == []
    # LOG_FORMAT's example: Mehmet finishes; Ayşe opened, 41 left, X4; Zeynep opened çift, 17 left
    _round(at, "2", {0: "points", 1: "points", 3: "pairs"}, {0: 23, 1: 41, 3: 17}, pens={1: ["X4"]})
    assert _preview(at) == [23, 142, -101, 34]
    assert not at.button(key="save").disabled
    at.button(key="save").click().run()
    ui.ok(at)
    header, results = _stored(db, game)
    assert header["sheet"] is True and len(results) == 1
    assert results[0]["penalties"] == [{"seat": 1, "rule": "X4", "points": 101}]
    assert "Önde: Mehmet (-101)" in ui.html(at)


def test_a_tap_from_a_page_still_showing_the_saved_round_does_not_reach_the_next_round_E6(db: Path) -> None:
    """On a slow server the page can still show the round just saved when the next tap goes: the
    browser then sends that round's values with the tap (here: a second tap of Save, and the next
    finisher tapped on the old round, whose "okey attı" is still lit). They must neither store the
    round twice nor make the next round an okey finish (E6 doubles it); the browser test of the
    sheet saw the latter once, on a loaded box."""
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["Ali", "Ayşe", "Mehmet", "Zeynep"])
    _round(at, "2", {0: "points", 1: "points", 3: "points"}, {0: 10, 1: 20, 3: 30}, kinds=["okey"])
    assert _preview(at) == [20, 40, -202, 60]
    at.button(key="save").click()
    sent = at._tree.get_widget_states()  # what the browser sends with the tap on Save
    at.run()
    assert len(_stored(db, game)[1]) == 1
    at._run(sent)  # Save tapped again before the page was drawn anew
    tap = WidgetStates()  # the next finisher tapped on the old round, its other values as they were
    for w in sent.widgets:
        if w.HasField("trigger_value"):
            continue  # a tap on Zeynep, not on Save
        tap.widgets.append(w)
        if w.id.endswith(("-fin", "-fin~0")):
            tap.widgets[-1].string_array_value.data[:] = ["Zeynep"]
    at._run(tap)
    ui.ok(at)
    assert len(_stored(db, game)[1]) == 1
    assert _seg(at, ui.sheet_key(at, "fin")).value is None  # the tap went to a widget that is gone: tap again
    _round(at, "3", {0: "points", 1: "points", 2: "points"}, {0: 1, 1: 2, 2: 3})
    assert _preview(at) == [1, 2, 3, -101]  # a normal finish: nothing of the last round's okey


def test_missing_values_are_named_with_their_rule_and_block_the_save_E5(db: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    _start(at, ["A", "B", "C", "D"])
    _seg(at, ui.sheet_key(at, "fin")).set_value("0").run()  # everybody is taken as opened by points: values missing
    assert any("E5" in w.value for w in at.warning)
    assert at.button(key="save").disabled


def test_correct_and_delete_rows_then_the_end_shows_ranks_and_match_points_G3(db: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["Gül", "Hakan", "İpek", "Kemal"], variant="101-classic", hands=3)
    _round(at, "0", {1: "points", 2: "none", 3: "none"}, {1: 30})
    at.button(key="save").click().run()
    _round(at, "1", {0: "points", 2: "points", 3: "points"}, {0: 10, 2: 20, 3: 1}, kinds=["okey"],
           pens={3: ["X7"]})
    assert _preview(at) == [20, -202, 40, 103]
    at.button(key="save").click().run()
    # a wrong row, corrected: the deck ran out, only Hakan had opened (12 left)
    _round(at, "3", {0: "none", 1: "none", 2: "none"}, {})
    at.button(key="save").click().run()
    at.selectbox(key="pick_row").set_value(2).run()
    at.button(key="edit_row").click().run()
    assert "3. eli düzeltiyorsunuz" in [s.value for s in at.subheader]
    _round(at, "exhausted", {0: "none", 1: "points", 2: "none", 3: "none"}, {1: 12})
    assert _preview(at) == [202, 12, 202, 202]
    at.button(key="save").click().run()
    ui.ok(at)
    _, results = _stored(db, game)
    assert len(results) == 3 and results[2]["kind"] == "exhausted"
    assert "Oyun bitti." in [s.value for s in at.success]
    standings = next(d.value for d in at.dataframe if "Maç puanı (G3)" in d.value.columns)
    assert standings["İsim"].tolist() == ["Hakan", "Gül", "İpek", "Kemal"]
    assert standings["Puan"].tolist() == [-160, 121, 444, 507]
    assert standings["Maç puanı (G3)"].tolist() == [3, 1, -1, -3]
    # delete a row: it goes from the store too, the rounds are numbered again
    at.selectbox(key="pick_row").set_value(0).run()
    at.button(key="delete_row").click().run()
    ui.ok(at)
    assert len(_stored(db, game)[1]) == 3, "a delete asks first"
    at.button(key="delete_yes").click().run()
    ui.ok(at)
    assert len(_stored(db, game)[1]) == 2


def test_partners_get_team_totals_and_the_partner_of_the_finisher_0_E8_G4(db: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["Ali", "Ayşe", "Mehmet", "Zeynep"], teams=True)
    _round(at, "0", {1: "none", 3: "points"}, {3: 12})
    assert _preview(at) == [-101, 202, 0, 12]
    at.button(key="save").click().run()
    assert "Takımlar: A -101 · B 214" in ui.html(at)
    assert _stored(db, game)[0]["rules"] == {"esli": True}


def test_spectator_view_is_read_only_and_exports_are_offered(db: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["A", "B", "C", "D"])
    _round(at, "1", {0: "points", 2: "none", 3: "none"}, {0: 7})
    at.button(key="save").click().run()
    code = at.code[0].value
    assert "1. B: -101" in code and "3. C: 202\n3. D: 202" in code  # a tie shares the better place
    from dashboard.state import tokens

    link = next(m.value for m in at.markdown if "watch=" in m.value)
    assert f"watch={tokens.watch_token(game)}" in link, "the spectator link carries the sheet's signed token"
    watch = AppTest.from_file(APP, default_timeout=60)
    ui.open_page(watch, "sheet", sheet=game, watch=tokens.watch_token(game))
    assert not [b for b in watch.button if b.key == "save"] and not watch.warning
    assert any("-101" in d.value.to_string() for d in watch.dataframe)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_page_speaks_one_language(db: Path, lang: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    ui.open_page(at, "sheet", lang=lang)
    title = at.title[0].value
    assert title == ("Puan tablosu" if lang == "tr" else "Score sheet")
    text = " ".join([b.label for b in at.button] + [s.value for s in at.subheader])
    assert ("Başlat" in text) == (lang == "tr") and ("Start" in text) == (lang == "en")


def test_after_the_games_last_hand_no_round_is_offered_and_rows_can_still_be_corrected_G1(db: Path) -> None:
    """A 3-hand game: once the third hand is saved the game is over; no fourth round is offered
    (nothing can be saved as "4/3"), while a saved row can still be corrected."""
    at = AppTest.from_file(APP, default_timeout=60)
    game = _start(at, ["Gül", "Hakan", "İpek", "Kemal"], variant="101-classic", hands=3)
    for fin in ("0", "1", "2"):
        _round(at, fin, {s: "none" for s in range(4) if s != int(fin)}, {})
        at.button(key="save").click().run()
        ui.ok(at)
    assert len(_stored(db, game)[1]) == 3
    assert "Oyun bitti." in [s.value for s in at.success]
    assert not [b for b in at.button if b.key == "save"]
    assert "4. el" not in [s.value for s in at.subheader]
    assert "4/3" not in ui.html(at)
    at.selectbox(key="pick_row").set_value(2).run()
    at.button(key="edit_row").click().run()
    assert "3. eli düzeltiyorsunuz" in [s.value for s in at.subheader]
    _round(at, "exhausted", {0: "none", 1: "points", 2: "none", 3: "none"}, {1: 12})
    at.button(key="save").click().run()
    ui.ok(at)
    results = _stored(db, game)[1]
    assert len(results) == 3 and results[2]["kind"] == "exhausted"
    assert not [b for b in at.button if b.key == "save"]


@pytest.mark.parametrize(("lang", "label", "refused"), [
    ("tr", "El sayısı (7–21, G1)", "El sayısı 3 olamaz: bu kural setinde 7–21 el oynanır (G1)."),
    ("en", "Number of rounds (7–21, G1)", "3 rounds cannot be played: this preset plays 7–21 rounds (G1)."),
])
def test_a_hand_count_outside_the_presets_range_is_named_and_refused_at_start_G1(
        db: Path, lang: str, label: str, refused: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    ui.open_page(at, "sheet", lang=lang)
    for s, n in enumerate(["A", "B", "C", "D"]):
        at.text_input(key=f"n_name{s}").input(n)
    box = at.number_input(key="n_hands_101")
    assert box.label == label
    box.set_value(3)
    at.button(key="n_start").click().run()
    ui.ok(at)
    assert [e.value for e in at.error] == [refused]
    assert "sheet" not in at.query_params
    with store.reading(db) as con:
        assert not len(sheets.list_sheets(con))
    _seg(at, "n_variant").set_value("51").run()
    assert at.number_input(key="n_hands_51").label.endswith("(3–11, tek sayı, G1)" if lang == "tr"
                                                            else "(3–11, an odd number, G1)")
    at.number_input(key="n_hands_51").set_value(4)
    at.button(key="n_start").click().run()
    assert "sheet" not in at.query_params and at.error
