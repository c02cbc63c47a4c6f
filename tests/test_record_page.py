"""AppTests of the recorder "Kayıt / Record", step by step: the table, the deal on the
picker and typed, hidden seats' "drew", taps for draws and discards, an opening built on the
picker, a refusal with its rule (T1), undo, a reload mid-hand (the recording is stored), the
finished hand saved to the store as a seat-view log and reviewed for its seat, the links to
Replay and Review."""

from __future__ import annotations

import re
from pathlib import Path

import apptest_helpers as ui
import pytest
import seatview_cases as SC
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from analysis import store

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    p = tmp_path / "rec.duckdb"
    store.connect(p, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(p))
    return p


def _open(**params: str) -> AppTest:
    return ui.open_page(AppTest.from_file(APP, default_timeout=90), "record", **params)


def _click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    return ui.ok(at)


def _turn(at: AppTest) -> tuple[int, str]:
    m = re.search(r'data-testid="rec-turn" data-seat="(\d)" data-phase="(\w+)"', ui.html(at))
    assert m, "no turn line"
    return int(m.group(1)), m.group(2)


def _build(at: AppTest, text: str, button: str) -> AppTest:
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("build").run()
    ui.step_widget(at, "text_input", "rec_build_in").input(text).run()
    _click(at, button)
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("discard").run()
    return ui.ok(at)


def test_record_a_hand_by_taps_with_a_refusal_undo_and_a_reload_then_save_and_review(db: Path) -> None:
    at = _open(lang="tr")
    assert at.button(key="rec_start") is not None
    _click(at, "rec_start")
    rid = at.query_params["rec"]
    rid = rid[0] if isinstance(rid, list) else rid
    assert rid.startswith("kayit-") and (db.parent / "recordings" / f"{rid}.json").exists()
    # the deal: the gösterge by a tap, a false okey refused as gösterge (T2), the rack typed
    _click(at, "pk_J")
    assert any("[T2]" in e.value or "T2" in e.value for e in at.error)
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A[:-1])).run()
    _click(at, "rec_apply")
    _click(at, "pk_Y9")  # the 22nd tile by a tap
    assert "22/22" in ui.html(at)
    _click(at, "rec_deal_done")
    assert not at.error and _turn(at) == (0, "play")
    # seat 0 (me, the starter) throws Y9; seat 1 drew, opens with 101, throws K13
    _click(at, "pk_Y9")
    assert _turn(at) == (1, "draw")
    _click(at, "rec_drew")
    _build(at, "Y10 Y11 Y12 Y13 | B9 B10 B11 B12 B13", "rec_melds")
    _click(at, "pk_K13")
    for s, tile in ((2, "K12"), (3, "K13")):
        assert _turn(at) == (s, "draw")
        _click(at, "rec_drew")
        _click(at, f"pk_{tile}")
    # my draw: K13 is refused (both copies lie face up, T1); Y1 is taken; undo; Y1 again
    assert _turn(at) == (0, "draw")
    _click(at, "pk_K13")
    assert any("T1" in e.value for e in at.error)
    _click(at, "pk_Y1")
    assert _turn(at) == (0, "play")
    _click(at, "rec_undo")
    assert _turn(at) == (0, "draw")
    _click(at, "pk_Y1")
    # a reload mid-hand: a new session on the same URL goes on where it was
    at = _open(lang="tr", rec=rid)
    assert _turn(at) == (0, "play") and "9 hamle" in ui.html(at) + "".join(c.value for c in at.caption)
    _build(at, " ".join(SC.run("R", 1, 13)) + " | " + " ".join(SC.run("B", 1, 8)), "rec_melds")
    _click(at, "pk_Y1")  # the last tile: a finish (E1)
    assert any("bitti" in s.value for s in at.success)
    at.number_input(key="rec_score_1").set_value(45).run()
    _click(at, "rec_save")
    assert any(rid in s.value for s in at.success)
    pages = [p.proto.page for p in at.get("page_link")]
    assert any("replay" in x for x in pages) and any("review" in x for x in pages), pages
    with store.reading(db) as con:
        rows = con.execute("SELECT view_seat, valid, agrees, totals FROM games WHERE game = ?", [rid]).fetchall()
        seats = {r[0] for r in con.execute("SELECT DISTINCT seat FROM review_decisions WHERE game = ?",
                                           [rid]).fetchall()}
    assert rows == [(0, True, True, [-101, 45, 202, 202])]
    assert seats == {0}


def test_a_tile_tapped_from_the_page_before_an_opening_is_the_discard_not_more_build_text(db: Path) -> None:
    """On a slow server the page can still show the build box when the next tap goes: the browser
    then sends that page's mode ("builds") and build text with it. The recorder must take the tap
    as what the page now says it is, the discard after the opening, and not put the opened melds'
    text back in the box with the tile added."""
    at = _open(lang="tr")
    _click(at, "rec_start")
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A[:-1])).run()
    _click(at, "rec_apply")
    _click(at, "pk_Y9")
    _click(at, "rec_deal_done")
    _click(at, "pk_Y9")
    _click(at, "rec_drew")
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("build").run()
    ui.step_widget(at, "text_input", "rec_build_in").input("Y10 Y11 Y12 Y13 | B9 B10 B11 B12 B13").run()
    at.button(key="rec_melds").click()
    sent = at._tree.get_widget_states()  # what the browser sends with the tap on "open"
    at.run()
    ui.ok(at)
    assert _turn(at) == (1, "play") and ui.step_widget(at, "segmented_control", "rec_mode").value == "discard"
    tap = WidgetStates()  # K13 tapped on the page that still shows the build box and its text
    tap.widgets.extend(w for w in sent.widgets if not w.HasField("trigger_value"))
    k13 = tap.widgets.add()
    k13.id = at.button(key="pk_K13").id
    k13.trigger_value = True
    at._run(tap)
    ui.ok(at)
    assert _turn(at) == (2, "draw")  # the tap was seat 1's discard (the only way on from its play)
    assert not [w for w in at.text_input if str(w.key).startswith("rec_build_in")]
    _click(at, "rec_drew")  # the next play: the build box starts empty, nothing of the old text
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("build").run()
    assert ui.step_widget(at, "text_input", "rec_build_in").value == ""
    assert "**Kurulan:**" in [m.value for m in at.markdown]  # bold (no space before the closing **)


def test_record_setup_in_english_and_all_racks_mode(db: Path) -> None:
    at = _open(lang="en")
    assert any("Record the game" in x.value for x in at.title)
    at.segmented_control(key="rec_seat_in").set_value("all").run()
    _click(at, "rec_start")
    assert "Pick the gösterge" in ui.html(at)
    assert at.segmented_control(key="rec_target") is not None  # every rack is entered


def test_an_unknown_recording_in_the_url_is_said_not_a_traceback(db: Path) -> None:
    at = _open(lang="en", rec="../../etc/passwd")
    assert any("No such recording" in w.value for w in at.warning)


def test_record_take_return_layoff_and_takeback(db: Path) -> None:
    """A hidden seat takes a discard and puts it back (P2) then draws; an opened hidden seat lays
    off onto the table meld picked (L1, L2), takes it back (O6) and lays it off again."""
    at = _open(lang="en")
    _click(at, "rec_start")
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A)).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    _click(at, "pk_Y9")
    _click(at, "rec_drew")
    _build(at, "Y10 Y11 Y12 Y13 | B9 B10 B11 B12 B13", "rec_melds")
    _click(at, "pk_K13")
    _click(at, "rec_took")  # seat 2 takes K13 ...
    assert _turn(at) == (2, "play")
    _click(at, "rec_return")  # ... cannot open with it and puts it back (P2)
    assert _turn(at) == (2, "draw")
    _click(at, "rec_drew")
    _click(at, "pk_K12")
    _click(at, "rec_drew")
    _click(at, "pk_K11")
    _click(at, "pk_Y1")
    _click(at, "pk_R1")
    assert _turn(at) == (1, "draw")
    _click(at, "rec_drew")
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("build").run()
    ui.step_widget(at, "text_input", "rec_build_in").input("Y9").run()
    assert ui.step_widget(at, "segmented_control", "rec_layoff_on").value == 0  # the run Y10-Y13
    _click(at, "rec_layoff")
    assert "9 10 11 12 13" in ui.html(at) or 'data-tile="Y9"' in ui.html(at)
    _click(at, "rec_takeback")
    _build(at, "Y9", "rec_layoff")
    _click(at, "pk_K1")
    assert _turn(at) == (2, "draw")
    rid = at.query_params["rec"]
    rid = rid[0] if isinstance(rid, list) else rid
    from analysis.game.record import Recording
    import json

    rec = Recording.from_dict(json.loads((db.parent / "recordings" / f"{rid}.json").read_text(encoding="utf-8")))
    kinds = [e["type"] for e in rec.events]
    assert kinds.count("take") == 1 and kinds.count("return") == 1 and kinds.count("layoff") == 2
    assert kinds.count("takeback") == 1


def _hand_one(at: AppTest) -> str:
    """The table and hand 1 of tests/seatview_cases.py by taps: the viewer (seat 0) finishes."""
    _click(at, "rec_start")
    rid = at.query_params["rec"]
    rid = rid[0] if isinstance(rid, list) else rid
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A)).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    _click(at, "pk_Y9")
    _click(at, "rec_drew")
    _build(at, "Y10 Y11 Y12 Y13 | B9 B10 B11 B12 B13", "rec_melds")
    _click(at, "pk_K13")
    for tile in ("K12", "K11"):
        _click(at, "rec_drew")
        _click(at, f"pk_{tile}")
    _click(at, "pk_Y1")
    _build(at, " ".join(SC.run("R", 1, 13)) + " | " + " ".join(SC.run("B", 1, 8)), "rec_melds")
    _click(at, "pk_Y1")
    return rid


def _totals(at: AppTest) -> tuple[int, list[int]]:
    m = re.search(r'data-testid="rec-totals" data-hands="(\d+)" data-totals="([-\d ]+)"', ui.html(at))
    assert m, "no totals"
    return int(m.group(1)), [int(x) for x in m.group(2).split()]


def test_a_game_of_two_hands_next_hand_totals_undo_and_one_saved_log(db: Path) -> None:
    """After hand 1, "next hand" deals hand 2 (seat 1 starts, the gösterge and rack entered
    anew) with the game's totals shown; undo at the empty deal goes back into hand 1; hand 2 is
    played to its end and the game is saved as one seat-view log of two hands, opened in Review."""
    at = _open(lang="en")
    rid = _hand_one(at)
    assert any("Hand 1 is over" in s.value for s in at.success)
    at.number_input(key="rec_score_1").set_value(45).run()
    assert _totals(at) == (1, [-101, 0, 202, 202])  # the table's score for seat 1 comes with the next hand
    _click(at, "rec_next")
    assert any("Hand 2 of 11: the deal (Right starts)" in h.value for h in at.subheader)
    assert _totals(at) == (1, [-101, 45, 202, 202])
    _click(at, "pk_K3")
    _click(at, "rec_undo")  # the gösterge tapped is taken back first ...
    assert "Pick the gösterge" in ui.html(at)
    _click(at, "rec_undo")  # ... then back into hand 1, at its end: the score entered is kept
    assert any("Hand 1 is over" in s.value for s in at.success)
    assert at.number_input(key="rec_score_1").value == 45
    _click(at, "rec_next")
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.run("Y", 1, 13) + SC.run("K", 5, 12))).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    assert _turn(at) == (1, "play") and 'data-hand="2"' in ui.html(at)
    _build(at, " ".join(SC.run("R", 1, 13)) + " | " + " ".join(SC.run("B", 1, 8)), "rec_melds")
    _click(at, "pk_Y9")  # seat 1 finishes elden with his 22 tiles
    assert any("Hand 2 is over" in s.value for s in at.success)
    n, tot = _totals(at)
    assert n == 2 and tot[1] < 45
    _click(at, "rec_save")
    assert any(f"{rid}, 2 hands" in s.value for s in at.success)
    pages = [p.proto.page for p in at.get("page_link")]
    assert any("review" in x for x in pages), pages
    with store.reading(db) as con:
        rows = con.execute("SELECT view_seat, valid, hands_counted FROM games WHERE game = ?", [rid]).fetchall()
        hands = con.execute("SELECT hand, starter, result FROM hands WHERE game = ? ORDER BY ord", [rid]).fetchall()
        graded = {r[0] for r in con.execute("SELECT DISTINCT seat FROM review_decisions WHERE game = ?",
                                            [rid]).fetchall()}
    assert rows and rows[0][:2] == (0, True) and rows[0][2] == 2, rows
    assert hands == [(1, 0, "finish"), (2, 1, "finish")]
    assert graded == {0}


def test_a_game_stopped_early_saves_the_hands_played(db: Path) -> None:
    at = _open(lang="tr")
    rid = _hand_one(at)
    _click(at, "rec_next")
    _click(at, "rec_save")  # "end the game here": hand 1 only
    assert any(f"{rid}, 1 el" in s.value for s in at.success)
    with store.reading(db) as con:
        assert con.execute("SELECT valid, hands_counted FROM games WHERE game = ?", [rid]).fetchall() == [(True, 1)]


def test_declare_pairs_where_the_preset_asks_for_it_o10(db: Path) -> None:
    at = _open(lang="en")
    at.selectbox(key="rec_preset_in").set_value("101-classic").run()
    _click(at, "rec_start")
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A)).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    assert not [b for b in at.button if b.key and b.key.startswith("rec_show")]  # no O7 in 101-classic
    _click(at, "pk_Y9")
    _click(at, "rec_drew")
    pairs = "Y10 Y10 | Y11 Y11 | Y12 Y12 | Y13 Y13 | K9 K9"
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("build").run()
    ui.step_widget(at, "text_input", "rec_build_in").input(pairs).run()
    _click(at, "rec_pairs")  # not declared: refused
    assert any("O10" in e.value for e in at.error)
    ui.step_widget(at, "segmented_control", "rec_mode").set_value("discard").run()
    _click(at, "rec_declare")
    assert any("Declared pairs: Right" in c.value for c in at.caption)
    _build(at, pairs, "rec_pairs")
    assert not at.error
    assert not [b for b in at.button if b.key == "rec_declare"]  # opened: nothing left to declare


def test_show_the_gosterge_twin_where_the_rules_allow_it_o7(db: Path) -> None:
    at = _open(lang="en")
    _click(at, "rec_start")
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A)).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    keys = {b.key for b in at.button if b.key and b.key.startswith("rec_show_")}
    assert keys == {"rec_show_1", "rec_show_2", "rec_show_3"}  # the viewer does not hold K3
    _click(at, "rec_show_2")
    keys = {b.key for b in at.button if b.key and b.key.startswith("rec_show_")}
    assert keys == {"rec_show_1", "rec_show_3"}
    _click(at, "rec_show_1")  # both copies are now out (the gösterge and seat 2's): refused
    assert any("T2" in e.value or "T1" in e.value or "O7" in e.value for e in at.error)


def _said(at: AppTest) -> list[str]:
    """The success lines as the browser shows them (their Markdown escapes read)."""
    return [re.sub(r"\\(.)", r"\1", s.value) for s in at.success]


def test_a_hand_is_saved_mid_hand_as_far_as_it_went_and_the_save_is_not_offered_again_until_a_change(
        db: Path) -> None:
    """A half-recorded hand is kept without playing it out: "save the game so far" stores the
    hand as far as it went (LOG_FORMAT: a hand's end is optional; the store keeps it unfinished),
    says so in plain words, and is not offered again for what was just saved; the next entry
    offers it again, and a second save replaces the stored game."""
    at = _open(lang="tr")
    _click(at, "rec_start")
    rid = at.query_params["rec"]
    rid = rid[0] if isinstance(rid, list) else rid
    _click(at, "pk_K3")
    at.text_input(key="rec_typed_in").input(" ".join(SC.RACK_A)).run()
    _click(at, "rec_apply")
    _click(at, "rec_deal_done")
    _click(at, "pk_Y9")
    _click(at, "rec_drew")
    assert _turn(at) == (1, "play")
    _click(at, "rec_save")
    assert _said(at) == [f"Kaydedildi: {rid} · 1. el yarım haliyle (2 hamle); kayıt sürüyor."]
    assert not [b for b in at.button if b.key == "rec_save"]
    assert _turn(at) == (1, "play")  # the recording goes on where it was
    with store.reading(db) as con:
        assert con.execute("SELECT valid FROM games WHERE game = ?", [rid]).fetchall() == [(True,)]
        assert con.execute("SELECT hand, result FROM hands WHERE game = ?", [rid]).fetchall() == [(1, "unfinished")]
        assert con.execute("SELECT count(*) FROM events WHERE game = ?", [rid]).fetchone()[0] >= 3
    _click(at, "pk_K13")
    assert [b for b in at.button if b.key == "rec_save"]  # something changed: offered again
    _click(at, "rec_save")
    assert any("(3 hamle)" in x for x in _said(at))
    with store.reading(db) as con:
        assert con.execute("SELECT count(*) FROM games WHERE game = ?", [rid]).fetchone()[0] == 1


def test_after_a_save_at_the_hands_end_the_message_is_clean_and_save_waits_for_a_change(db: Path) -> None:
    at = _open(lang="tr")
    rid = _hand_one(at)
    at.number_input(key="rec_score_1").set_value(45).run()
    _click(at, "rec_save")
    assert f"Kaydedildi: {rid}, 1 el." in _said(at)
    assert not [b for b in at.button if b.key == "rec_save"]
    at.number_input(key="rec_score_1").set_value(40).run()  # a score corrected: the save is offered again
    assert [b for b in at.button if b.key == "rec_save"]
    _click(at, "rec_save")
    with store.reading(db) as con:
        assert con.execute("SELECT totals FROM games WHERE game = ?", [rid]).fetchall() == [([-101, 40, 202, 202],)]
    _click(at, "rec_next")  # the same hands as saved: "end the game here" is not offered for them
    assert not [b for b in at.button if b.key == "rec_save"]
