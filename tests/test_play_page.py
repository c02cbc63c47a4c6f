"""AppTests of the Play page "Oyna / Play": the table's setup (presets, the hand count's G1 range,
the expert's strengths named for people), a whole hand played by taps against bots to its stored
review and the next hand (D2), partners to the game's ranks (G2, G4), a reload mid-hand, a refusal
per rule a person can break there (P1, P2, O1, O3, L2, L3, S2, tiles not held), hostile taps (a
double tap, a tap from a page showing an earlier turn), the training warning (X3) and hints, and
no game at all where the board is read-only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import empty_board
from play_cases import OPENER, fixed_game
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from analysis import store
from dashboard.state import play_games

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return empty_board(tmp_path / "play.duckdb", monkeypatch)


def _open(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pl_pause_in"] = False  # the bots' turns at once (the pause is for people)
    return ui.open_page(at, "play", **params)


def _turn(at: AppTest) -> dict[str, str]:
    m = re.search(r'data-testid="pl-turn" ([^>]*)', ui.html(at))
    assert m, "no turn line"
    return dict(re.findall(r'data-(\w+)="([^"]*)"', m.group(1)))


def _over(at: AppTest) -> dict[str, str] | None:
    m = re.search(r'data-testid="pl-over" ([^>]*)', ui.html(at))
    return dict(re.findall(r'data-(\w+)="([^"]*)"', m.group(1))) if m else None


def _step_button(at: AppTest, name: str) -> Any:
    found = [b for b in at.button if b.key and b.key.startswith(f"{name}~")]
    assert len(found) == 1, (name, [b.key for b in at.button])
    return found[0]


def _tiles(at: AppTest) -> list[Any]:
    return [b for b in at.button if b.key and b.key.startswith("tile-")]


def _start(at: AppTest, variant: str = "101", hands: int = 11, bots: str = "greedy", seed: str = "42") -> str:
    at.selectbox(key="pl_variant_in").set_value(variant)
    at.number_input(key="pl_hands_in").set_value(hands)
    for k in (1, 2, 3):
        at.selectbox(key=f"pl_bot_{k}").set_value(bots)
    at.text_input(key="pl_seed_in").input(seed)
    at.button(key="pl_start").click().run()
    ui.ok(at)
    gid = at.query_params["play"]
    return gid[0] if isinstance(gid, list) else gid


def _play_hand(at: AppTest, limit: int = 200) -> dict[str, str]:
    """A scripted person: draws, discards the rightmost tile of the rack, to the hand's end."""
    for _ in range(limit):
        over = _over(at)
        if over is not None:
            return over
        turn = _turn(at)
        assert turn["mine"] == "1", turn
        if turn["phase"] == "draw":
            _step_button(at, "pl_draw").click().run()
        else:
            _tiles(at)[-1].click().run()
        ui.ok(at)
        assert not at.error, [e.value for e in at.error]
    raise AssertionError("the hand did not end")


def test_the_setup_names_presets_the_hand_range_and_the_experts_strengths(db: Path) -> None:
    at = _open(lang="tr")
    assert list(at.selectbox(key="pl_variant_in").options) == ["101", "101-classic", "51", "101 eşli"]
    assert at.number_input(key="pl_hands_in").label == "El sayısı (1–100, G1)"
    assert list(at.selectbox(key="pl_level_1").options) == ["kolay", "orta", "güçlü"]
    at = _open(lang="en")
    assert list(at.selectbox(key="pl_level_2").options) == ["easy", "medium", "strong"]
    assert at.button(key="pl_start").label == "Start the game"


def test_a_whole_hand_by_taps_is_stored_reviewed_and_the_next_hand_dealt_D2(db: Path) -> None:
    at = _open(lang="en")
    gid = _start(at)
    assert (db.parent / "played" / f"{gid}.json").exists()
    g = play_games.load(str(db), gid)
    assert g is not None and g.people == [0]
    first = g.starter
    over = _play_hand(at)
    assert over["hand"] == "1" and over["stored"] == "1"
    assert 'data-testid="pl-totals" data-hands="1"' in ui.html(at)
    links = [p for p in at.get("page_link")]
    assert any("rv_hand" in str(p.proto) and gid in str(p.proto) for p in links), "no link to the hand's review"
    assert 'data-testid="pl-moments"' in ui.html(at)  # the person's key moments of the hand, on the page
    con = store.connect(db)
    try:
        header = con.execute("SELECT count(*) FROM games WHERE game = ?", [gid]).fetchall()
    finally:
        con.close()
    assert header[0][0] == 1
    text = (db.parent / "played" / f"{gid}.jsonl").read_text()
    assert '"people":[0]' in text.replace(" ", "")
    at.button(key="pl_next_hand").click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and g.hand == 2 and g.starter == (first + 1) % 4  # D2
    assert _turn(at)["hand"] == "2"


def test_partners_play_to_the_games_end_and_its_ranks_G2_G4(db: Path) -> None:
    at = _open(lang="tr")
    _start(at, variant="partners", hands=1, seed="7")
    _play_hand(at)
    html = ui.html(at)
    assert 'data-testid="pl-ranks"' in html
    assert any("Takımlar (G4)" in s.value for s in at.success)
    assert not [b for b in at.button if b.key == "pl_next_hand"]  # G1: one hand planned, the game is over


def test_a_reload_mid_hand_shows_the_same_turn_and_goes_on(db: Path) -> None:
    at = _open(lang="en")
    gid = _start(at)
    for _ in range(3):
        turn = _turn(at)
        (_step_button(at, "pl_draw") if turn["phase"] == "draw" else _tiles(at)[0]).click().run()
    before = _turn(at)
    again = _open(lang="en", play=gid)
    assert _turn(again) == before
    _play_hand(again)


def _fixed(db: Path, rack0: list[str], **kw: Any) -> str:
    g = fixed_game(rack0, **kw)
    play_games.save(str(db), g)
    return g.id


def _tap(gid: str, db: str, events: list[dict[str, Any]], step: tuple[int, int] | None = None) -> AppTest:
    """The page's own callback (play_state.act) with these events, one after another, then the
    message it leaves, as the page shows it."""
    def script(gid, db, events, step):  # type: ignore[no-untyped-def] # its source runs alone (no imports of this file)
        import streamlit as st

        from dashboard.state import play_games, play_state

        for ev in events:
            g = play_games.load(db, gid)
            assert g is not None
            play_state.act(db, gid, step or play_state.step_of(g), ev)
        said = play_state.play_said()
        if said is not None:
            getattr(st, said[0])(said[1])

    at = AppTest.from_function(script, args=(gid, db, events, step), default_timeout=60)
    at.session_state["lang"] = "en"
    return ui.ok(at.run())


OPEN3 = {"type": "open", "seat": 0, "melds": [["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"],
                                               ["K7", "K8", "K9", "K10"]]}


@pytest.mark.parametrize(("setup", "bad", "rule"), [
    ([], {"type": "discard", "seat": 0, "tile": "R1"}, "P1"),  # a tile not held
    ([], {"type": "open", "seat": 0, "melds": [["R1", "R2", "R3"]]}, "P1"),
    ([], {"type": "discard", "seat": 0, "tile": "Q7"}, "T1"),
    ([{"type": "open", "seat": 0, "melds": [["R10", "R11", "R12"]]}], {"type": "discard", "seat": 0, "tile": "B1"},
     "O1"),
    ([], {"type": "open", "seat": 0, "melds": [["R10", "R11", "R12"]], "pairs": [["Y1", "Y1"]]}, "O3"),
    ([OPEN3], {"type": "layoff", "seat": 0, "meld": 0, "tiles": ["Y1"]}, "L2"),
    ([OPEN3], {"type": "layoff", "seat": 0, "meld": 2, "tiles": ["K4", "K5", "K6"]}, "L3"),
    ([{"type": "discard", "seat": 0, "tile": "B1"}], {"type": "take", "seat": 1, "tile": "R1"}, "P1"),
    ([{"type": "discard", "seat": 0, "tile": "B1"}, {"type": "take", "seat": 1, "tile": "B1"}],
     {"type": "discard", "seat": 1, "tile": "Y13"}, "P2"),
])
def test_a_refused_move_says_what_and_which_rule_in_one_line_nothing_changes(
        db: Path, setup: list[dict[str, Any]], bad: dict[str, Any], rule: str) -> None:
    gid = _fixed(db, OPENER, rack1=["Y13", "Y13"])
    ok = _tap(gid, str(db), setup)
    assert not ok.error, [e.value for e in ok.error]
    before = play_games.load(str(db), gid).to_dict()  # type: ignore[union-attr]
    at = _tap(gid, str(db), [bad])
    assert len(at.error) == 1 and f"[{rule}]" in at.error[0].value.replace("\\", ""), [e.value for e in at.error]
    assert "\n" not in at.error[0].value.strip()
    assert play_games.load(str(db), gid).to_dict() == before  # type: ignore[union-attr]


def test_an_okey_taken_from_a_group_only_by_completing_it_S2(db: Path) -> None:
    rack = "R5 B5 Y10 K5 R10 R11 R12 R13 B10 B11 B12 B13 K8 K9 K10 K11 Y1 Y2 Y3 Y4 Y6 Y7".split()
    gid = _fixed(db, rack)
    melds = [["R5", "B5", "Y10>K5"], ["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"],
             ["K8", "K9", "K10", "K11"]]
    _tap(gid, str(db), [{"type": "open", "seat": 0, "melds": melds}])
    at = _tap(gid, str(db), [{"type": "swap", "seat": 0, "meld": 0, "tiles": ["R5"]}])
    assert len(at.error) == 1 and "S2" in at.error[0].value


def test_a_tap_from_a_page_showing_an_earlier_turn_is_refused_and_changes_nothing(db: Path) -> None:
    gid = _fixed(db, OPENER, seats=["person", "greedy", "greedy", "greedy"])
    at = _open(lang="en", play=gid)
    step = (1, 0)
    sent = at._tree  # noqa: F841 - the page as it was drawn
    old = WidgetStates()
    tile = _tiles(at)[0]
    tap = old.widgets.add()
    tap.id, tap.trigger_value = tile.id, True
    tile.click().run()  # the discard; the bots play up to the person's next turn
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None
    n = len(g.events)
    at._run(old)  # the same tap again, from the page that showed the first turn
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and len(g.events) == n  # dropped: that tile button belongs to a gone step
    late = _tap(gid, str(db), [{"type": "draw", "seat": 0}], step=step)  # a callback that still fires
    assert len(late.error) == 1 and "earlier move" in late.error[0].value
    assert len(play_games.load(str(db), gid).events) == n  # type: ignore[union-attr]


def test_training_warns_before_a_charged_discard_X3_then_the_second_tap_discards(db: Path) -> None:
    rack = OPENER[:-1] + ["Y10"]  # Y10 is the okey (gösterge Y9)
    gid = _fixed(db, rack, seats=["person", "greedy", "greedy", "greedy"])
    at = _open(lang="en", play=gid)
    at.toggle(key="pl_train_in").set_value(True).run()
    okey = [b for b in _tiles(at) if b.key.startswith("tile-Y-10-ok-")]
    okey[0].click().run()
    assert at.warning and "X3" in at.warning[0].value, [w.value for w in at.warning]
    g = play_games.load(str(db), gid)
    assert g is not None and len(g.events) == 0
    [b for b in _tiles(at) if b.key.startswith("tile-Y-10-ok-")][0].click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and g.events[0] == {"type": "discard", "seat": 0, "tile": "Y10"}
    assert any(p.rule == "X3" and p.seat == 0 for p in g.states()[1].penalties)


def test_a_hint_gives_the_experts_best_three_and_marks_the_game(db: Path) -> None:
    gid = _fixed(db, OPENER, seats=["person", "greedy", "greedy", "greedy"])
    at = _open(lang="tr", play=gid)
    at.toggle(key="pl_train_in").set_value(True).run()
    _step_button(at, "pl_hint").click().run()
    ui.ok(at)
    n = int(re.search(r'data-testid="pl-hints" data-n="(\d)"', ui.html(at)).group(1))  # type: ignore[union-attr]
    assert 2 <= n <= 3  # the opening with pers or waiting (fewer than three candidates here)
    assert at.info[0].value.count("1.") == 1 and "expected" not in at.info[0].value and "beklenen" in at.info[0].value
    g = play_games.load(str(db), gid)
    assert g is not None and g.hinted and g.header()["hints"] is True
    assert "Bu oyunda ipucu kullanıldı." in [c.value for c in at.caption]


def test_a_read_only_board_offers_no_game(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    at = _open(lang="en")
    assert not [b for b in at.button if b.key == "pl_start"]
    assert at.info


def test_with_the_pause_the_bots_move_one_turn_a_run_to_the_persons_turn(db: Path) -> None:
    from analysis.selfplay import new_game

    g0 = new_game("oyun-20261205-000002", seats=["greedy", "person", "greedy", "greedy"], names=list("abcd"),
                  seed="3", starter=0)  # a bot starts
    play_games.save(str(db), g0)
    gid = g0.id
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pl_pause_in"] = True
    at = ui.open_page(at, "play", lang="en", play=gid)
    g = play_games.load(str(db), gid)
    assert g is not None and g.state().turn == 1 and g.events  # type: ignore[union-attr]
    assert _turn(at)["mine"] == "1"
    assert 'data-testid="pl-bot-moves"' in ui.html(at)


def test_showing_the_gosterge_twin_O7_and_declaring_pairs_O10_are_one_tap(db: Path) -> None:
    gid = _fixed(db, OPENER[:-1] + ["Y9"], seats=["person", "greedy", "greedy", "greedy"])  # gösterge Y9
    at = _open(lang="en", play=gid)
    _step_button(at, "pl_show").click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and g.events == [{"type": "show", "seat": 0, "tile": "Y9"}] and g.state().shown[0]
    assert not [b for b in at.button if b.key and b.key.startswith("pl_show~")]  # once (O7)
    gid = _fixed(db, OPENER, seats=["person", "greedy", "greedy", "greedy"], variant="101-classic",
                 gid="oyun-20261205-000001")
    at = _open(lang="tr", play=gid)
    assert not [b for b in at.button if b.key and b.key.startswith("pl_show~")]  # 101-classic: no gösterge
    _step_button(at, "pl_declare").click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and g.events == [{"type": "declare", "seat": 0, "what": "pairs"}] and g.state().declared[0]


def _step_widget(at: AppTest, kind: str, name: str) -> Any:
    found = [w for w in getattr(at, kind) if w.key and w.key.startswith(f"{name}~")]
    assert len(found) == 1, (name, [w.key for w in getattr(at, kind)])
    return found[0]


def _tap_rack(at: AppTest, tile: str) -> None:
    """A tap on the first not yet raised copy of ``tile`` in the rack (build mode)."""
    face = f"{tile[0]}-{tile[1:]}"
    b = [x for x in _tiles(at) if x.key.startswith(f"tile-{face}-") and x.proto.type != "primary"][0]
    b.click().run()
    ui.ok(at)


def test_opening_and_laying_off_by_taps_in_build_mode_with_an_L3_refusal(db: Path) -> None:
    gid = _fixed(db, OPENER, seats=["person", "greedy", "greedy", "greedy"])
    at = _open(lang="en", play=gid)
    _step_widget(at, "segmented_control", "pl_mode").set_value("build").run()
    for k, meld in enumerate((["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"], ["K7", "K8", "K9", "K10"])):
        if k:
            _step_button(at, "pl_next_group").click().run()
        for x in meld:
            _tap_rack(at, x)
    assert 'data-text="R10 R11 R12 R13 | B10 B11 B12 B13 | K7 K8 K9 K10"' in ui.html(at)
    _step_button(at, "pl_melds").click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and g.events[-1]["type"] == "open" and g.state().opened[0] is not None
    _step_widget(at, "segmented_control", "pl_mode").set_value("build").run()  # a new step: discard mode again
    for x in ("K4", "K5", "K6"):
        _tap_rack(at, x)
    _step_widget(at, "segmented_control", "pl_on").set_value(2).run()
    _step_button(at, "pl_layoff").click().run()
    assert len(at.error) == 1 and "L3" in at.error[0].value  # three tiles on one run end in a turn
    n = len(play_games.load(str(db), gid).events)  # type: ignore[union-attr]
    _step_button(at, "pl_clear").click().run()
    for x in ("K5", "K6"):
        _tap_rack(at, x)
    _step_button(at, "pl_layoff").click().run()
    g = play_games.load(str(db), gid)
    assert g is not None and len(g.events) == n + 1 and g.events[-1] == {"type": "layoff", "seat": 0, "meld": 2,
                                                                         "tiles": ["K5", "K6"]}


def test_a_bare_okey_tapped_into_a_per_stands_for_the_face_that_makes_it_legal_T4(db: Path) -> None:
    rack = "R5 B5 Y10 K5 R10 R11 R12 R13 B10 B11 B12 B13 K8 K9 K10 K11 Y1 Y2 Y3 Y4 Y6 Y7".split()
    gid = _fixed(db, rack, seats=["person", "greedy", "greedy", "greedy"])  # okey Y10
    at = _open(lang="en", play=gid)
    _step_widget(at, "segmented_control", "pl_mode").set_value("build").run()
    for k, meld in enumerate((["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"], ["K8", "K9", "K10", "K11"],
                              ["R5", "B5", "Y10"])):
        if k:
            _step_button(at, "pl_next_group").click().run()
        for x in meld:
            _tap_rack(at, x)
    _step_button(at, "pl_melds").click().run()
    ui.ok(at)
    g = play_games.load(str(db), gid)
    assert g is not None and not at.error, [e.value for e in at.error]
    assert g.events[-1]["melds"][-1][:2] == ["R5", "B5"] and g.events[-1]["melds"][-1][2] in ("Y10>Y5", "Y10>K5")
