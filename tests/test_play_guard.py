"""The Play page's mistake guard (training): a move the judge prices as a large mistake is held with
a one-line warning in the page's language (its cost, the better move, the threshold), the game
unchanged until the person plays it anyway or takes it back; a good move goes through without a
word; with training off nothing is judged. The guard's verdicts are the review's (the stored hand,
replayed, is charged the same cost at the same decision) and a hint already asked is reused."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import empty_board
from play_cases import OPENER, fixed_game
from streamlit.testing.v1 import AppTest

from analysis.game import read_file, replay_game
from analysis.review.deep import judge_spot
from analysis.review.spots import seed_game, spot_at
from dashboard.state import play_games, play_hints
from dashboard.state.play_games import log_text

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
SEATS = ["person", "greedy", "greedy", "greedy"]
# the opening the judge finds for OPENER: every tile but B1 on the table
BEST_OPEN = "R11 R12 R13 | Y1 Y2 Y3 | Y1 Y2 Y3 | B11 B12 B13 | K4 K5 K6 K7 K8 K9 | R10 B10 K10"
DISCARD_R10 = {"type": "discard", "seat": 0, "tile": "R10"}


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return empty_board(tmp_path / "play.duckdb", monkeypatch)


def _open(db: Path, lang: str, *, train: bool) -> tuple[AppTest, str]:
    g = fixed_game(list(OPENER), seats=SEATS)
    play_games.save(str(db), g)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pl_pause_in"] = False
    at = ui.open_page(at, "play", lang=lang, play=g.id)
    if train:
        at.toggle(key="pl_train_in").set_value(True).run()
        ui.ok(at)
    return at, g.id


def _tile(at: AppTest, face: str) -> Any:
    return [b for b in at.button if b.key and b.key.startswith(f"tile-{face}-")][0]


def _step_button(at: AppTest, name: str) -> Any:
    found = [b for b in at.button if b.key and b.key.startswith(f"{name}~")]
    assert len(found) == 1, (name, [b.key for b in at.button])
    return found[0]


def _guard(at: AppTest) -> dict[str, str] | None:
    m = re.search(r'data-testid="pl-guard" ([^>]*)', ui.html(at))
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', m.group(1))) if m else None


def _events(db: Path, gid: str) -> list[dict[str, Any]]:
    g = play_games.load(str(db), gid)
    assert g is not None
    return g.events


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Waiting (placing nothing this turn) costs about", "Discarding R10 costs about", "against discarding B1",
            "opening with 6 pers", "the review will charge it", "from 20 points", "Play it anyway?")),
    ("tr", ("Beklemek (bu tur hiçbir şey koymamak): yaklaşık", "R10 atmak: yaklaşık", "daha iyisi B1 atmak",
            "6 perle açmak", "inceleme bunu hata sayacak", "uyarı 20 puandan", "Yine de oynansın mı?")),
])
def test_a_large_mistake_is_held_with_a_warning_and_nothing_changes_until_confirmed(
        db: Path, lang: str, words: tuple[str, ...]) -> None:
    at, gid = _open(db, lang, train=True)
    _tile(at, "R-10").click().run()  # waiting with an opening of 153 in hand, and a tile of it thrown
    ui.ok(at)
    held = _guard(at)
    assert held is not None and held["n"] == "2" and float(held["cost"]) >= play_hints.LARGE_MISTAKE, held
    line = at.warning[0].value.replace("\\", "")
    assert all(w in line for w in words), line
    assert "\n" not in line.strip()
    assert _events(db, gid) == []  # held: the game as it was
    g = play_games.load(str(db), gid)
    assert g is not None and g.hinted  # the warning told the person something: the game is marked
    at.run()  # a redraw keeps it held
    assert _guard(at) is not None and _events(db, gid) == []
    labels = {b.label for b in at.button if b.key and b.key.startswith(("pl_anyway~", "pl_back~"))}
    assert labels == ({"Play it anyway", "Take it back"} if lang == "en" else {"Yine de oyna", "Vazgeç"})


def test_play_it_anyway_applies_the_held_move(db: Path) -> None:
    at, gid = _open(db, "en", train=True)
    _tile(at, "R-10").click().run()
    assert _guard(at) is not None and _events(db, gid) == []
    _step_button(at, "pl_anyway").click().run()
    ui.ok(at)
    evs = _events(db, gid)
    assert evs and evs[0] == DISCARD_R10  # the bots moved after it, as after any discard
    assert _guard(at) is None and not at.warning


def test_take_it_back_leaves_the_game_and_the_turn_as_they_were(db: Path) -> None:
    at, gid = _open(db, "en", train=True)
    _tile(at, "R-10").click().run()
    assert _guard(at) is not None
    _step_button(at, "pl_back").click().run()
    ui.ok(at)
    assert _events(db, gid) == [] and _guard(at) is None and not at.warning
    assert 'data-mine="1"' in ui.html(at)  # still the person's turn, the same tiles to tap
    _tile(at, "R-10").click().run()  # the same mistake tapped again: warned again
    assert _guard(at) is not None and _events(db, gid) == []


def test_a_good_move_is_not_warned_and_goes_through_at_once(db: Path) -> None:
    at, gid = _open(db, "en", train=True)
    mode = [w for w in at.segmented_control if w.key and w.key.startswith("pl_mode~")][0]
    mode.set_value("build").run()
    at.session_state["pl_build~1.0"] = BEST_OPEN
    at.run()
    _step_button(at, "pl_melds").click().run()
    ui.ok(at)
    assert _guard(at) is None and not at.warning and not at.error, [w.value for w in at.warning]
    evs = _events(db, gid)
    assert len(evs) == 1 and evs[0]["type"] == "open"
    _tile(at, "B-1").click().run()  # the last tile: the hand is finished, no warning on the way
    ui.ok(at)
    assert _guard(at) is None and not at.warning
    assert {"type": "discard", "seat": 0, "tile": "B1"} in _events(db, gid)
    g = play_games.load(str(db), gid)
    assert g is not None and not g.hinted  # no hint, no warning: the game is not marked


def test_without_training_nothing_is_judged_and_the_move_is_applied(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, gid = _open(db, "en", train=False)
    _tile(at, "R-10").click().run()
    ui.ok(at)
    assert _guard(at) is None and not at.warning
    assert _events(db, gid)[0] == DISCARD_R10


# ---- the guard's verdicts (no page) ------------------------------------------------------------


def test_the_guards_cost_is_the_reviews_charge_on_the_stored_hand(tmp_path: Path) -> None:
    g = fixed_game(list(OPENER), seats=SEATS)
    found = play_hints.large_mistakes(g, 0, DISCARD_R10)
    assert [m.kind for m in found] == ["place", "discard"]
    wait, throw = found
    assert wait.played == () and wait.best[0]["type"] == "open" and wait.cost >= play_hints.LARGE_MISTAKE
    assert throw.best == ({"type": "discard", "seat": 0, "tile": "B1"},) and throw.cost >= play_hints.LARGE_MISTAKE
    g.person(dict(DISCARD_R10))
    while True:  # the hand played to its end (the person draws and throws what it drew), then stored
        g.bots_until_person()
        if g.over:
            break
        if g.state().phase == "draw":  # type: ignore[union-attr]
            g.person({"type": "draw", "seat": 0})
        else:
            g.person({"type": "discard", "seat": 0, "tile": g.events[-1]["tile"]})
    path = tmp_path / "hand.jsonl"
    path.write_text(log_text(g), encoding="utf-8")
    res = replay_game(read_file(str(path)).games[0], keep_steps=True)
    hr = res.hands[0]
    for m in found:
        spot = spot_at(hr, 0, m.kind, 0)
        assert spot is not None and tuple(spot.played) == m.played
        c = judge_spot(seed_game(res), hr, spot)
        assert c is not None and round(c.cost, 1) == m.cost  # the review charges what the guard warned


def test_a_placing_that_can_go_on_to_a_good_line_waits_for_the_discard() -> None:
    g = fixed_game(list(OPENER), seats=SEATS)
    part = {"type": "open", "seat": 0, "melds": [["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"],
                                                  ["K7", "K8", "K9", "K10"]]}
    assert play_hints.large_mistakes(g, 0, part) == []  # the rest can still be placed this turn
    g.person(dict(part))
    found = play_hints.large_mistakes(g, 0, {"type": "discard", "seat": 0, "tile": "B1"})
    # the turn's placing is whole at the discard: three pers with eight placeable tiles kept
    assert found and found[0].kind == "place" and len(found[0].played) == 1 and found[0].played[0]["type"] == "open"


def test_a_good_move_is_no_mistake_and_an_illegal_or_foreign_move_is_not_judged() -> None:
    g = fixed_game(list(OPENER), seats=SEATS)
    best = play_hints.best_three(g, 0)[0]["events"]
    assert play_hints.large_mistakes(g, 0, best[0]) == []
    assert play_hints.move_spots(g, 1, {"type": "discard", "seat": 1, "tile": "R1"}) == []  # not seat 1's turn
    assert play_hints.move_spots(g, 0, {"type": "draw", "seat": 0}) == []  # no draw in the play phase
    assert play_hints.move_spots(g, 0, {"type": "show", "seat": 0, "tile": "Y9"}) == []  # not a guarded move


def test_a_hint_already_asked_is_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    g = fixed_game(list(OPENER), seats=SEATS, gid="oyun-20261205-000009")
    calls: list[Any] = []
    real = play_hints.judge_spot

    def counted(*a: Any, **kw: Any) -> Any:
        calls.append(a[2])
        return real(*a, **kw)

    monkeypatch.setattr(play_hints, "judge_spot", counted)
    best = play_hints.best_three(g, 0)[0]
    asked = len(calls)
    assert asked >= 1
    assert play_hints.large_mistakes(g, 0, best["events"][0]) == []
    assert len(calls) == asked  # the hint's verdict on its own best, reused
    play_hints.large_mistakes(g, 0, DISCARD_R10)
    assert len(calls) > asked  # a move not judged before is judged


def test_a_stale_tap_with_training_on_is_refused_after_the_judge_not_played(db: Path) -> None:
    g = fixed_game(list(OPENER), seats=SEATS)
    g.person(dict(DISCARD_R10))  # the game moved on since the page was drawn
    play_games.save(str(db), g)

    def script(gid, db):  # type: ignore[no-untyped-def] # its source runs alone (no imports of this file)
        import streamlit as st

        from dashboard.state import play_state

        st.session_state[play_state.TRAIN_KEY] = True
        applied = play_state.act(db, gid, (1, 0), {"type": "discard", "seat": 0, "tile": "B1"})
        st.write(f"applied={applied} pending={play_state.pending_judge(gid)}")
        play_state.judge_pending(db, gid)
        said = play_state.play_said()
        if said is not None:
            getattr(st, said[0])(said[1])

    at = AppTest.from_function(script, args=(g.id, str(db)), default_timeout=60)
    at.session_state["lang"] = "en"
    ui.ok(at.run())
    assert "applied=False pending=True" in at.markdown[0].value
    assert len(at.error) == 1 and "earlier move" in at.error[0].value
    assert _events(db, g.id) == [DISCARD_R10]
