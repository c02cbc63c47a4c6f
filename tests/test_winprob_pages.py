"""AppTests of the chance to win on the pages: the score sheet's line under the totals (updated with
each hand entered, on the spectator link too, with G3 expected match points in 101-classic, gone at
the end), and the chart hand by hand in Replay (the hand on the board marked) and Review, in both
languages; the figures are the library's (analysis.review.winprob) for the same scores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import make_game, stored, write_log
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.game import read_and_replay, resolve
from analysis.review import winprob
from analysis.store import sheets
from dashboard.words.winprob_words import item

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
NAMES = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
# two rounds: Ayşe finishes (Ali 20 left, Mehmet 30, Zeynep unopened); then the deck runs out
ROUNDS = [{"finisher": 1, "kind": "normal", "opened": ["points", "points", "points", None],
           "left": [20, None, 30, None], "penalties": []},
          {"finisher": None, "kind": "exhausted", "opened": ["points", None, "pairs", None],
           "left": [11, None, 4, None], "penalties": []}]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("wp")
    g = make_game("wp-1", seed=4, hands=3)
    g[0]["hands"] = 5  # three hands of five played: two to come
    return write_log(d / "wp.jsonl", [g])


@pytest.fixture
def db(logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    p = stored(tmp_path / "wp.duckdb", logs)
    monkeypatch.setenv("ISTAKA_DB", str(p))
    yield p


def _sheet(db: Path, game: str, rounds: list[dict[str, Any]], variant: str = "101", hands: int = 7,
           esli: bool = False) -> None:
    header: dict[str, Any] = {"type": "game", "game": game, "variant": variant, "players": NAMES, "hands": hands,
                              "started": "2026-12-05T10:00:00", "site": "istaka-sheet", "sheet": True}
    if esli:
        header["rules"] = {"esli": True}
    con = store.connect(db, seed=False)
    try:
        sheets.save_sheet(con, header, rounds)
    finally:
        con.close()


def _expected_line(totals: list[int], left: int, lang: str, variant: str = "101", planned: int = 7) -> str:
    c = winprob.chance(resolve(variant), totals, left, planned=planned)
    return " · ".join(item(n, p, lang) for n, p in zip(NAMES, c.win))


def _chart(at: AppTest, key: str) -> dict[str, Any]:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


# ---- the score sheet --------------------------------------------------------------------------

@pytest.mark.parametrize("lang,head", [("tr", "Kazanma şansı (5 el kaldı): "), ("en", "Chance to win (5 hands left): ")])
def test_the_sheet_shows_each_players_chance_from_the_totals_and_hands_left(db: Path, lang: str, head: str) -> None:
    _sheet(db, "wp-s1", ROUNDS)
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-s1", lang=lang)
    # E5: 20 / -101 / 30 / 202, then the exhausted deck: 11 / 202 / 4 x 2 (pairs) / 202
    totals = [31, 101, 38, 404]
    line = head + _expected_line(totals, 5, lang)
    assert line in ui.html(at), ui.html(at)
    fig = _chart(at, "wp_sheet_2")
    assert [tr["name"] for tr in fig["data"]] == NAMES
    assert fig["data"][0]["x"] == [0, 1, 2] and [tr["y"][0] for tr in fig["data"]] == [25.0] * 4


def test_a_hand_entered_moves_the_chance_and_the_spectator_sees_it(db: Path) -> None:
    _sheet(db, "wp-s2", ROUNDS[:1])
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-s2")
    assert "Kazanma şansı (6 el kaldı): " + _expected_line([20, -101, 30, 202], 6, "tr") in ui.html(at)
    # the second round by taps: the deck runs out, Ali 11, Ayşe unopened, Mehmet çift 4, Zeynep unopened
    seg = {w.key: w for w in at.button_group}
    seg[ui.sheet_key(at, "fin")].set_value("exhausted").run()
    seg = {w.key: w for w in at.button_group}
    seg[ui.sheet_key(at, "op1")].set_value("none").run()
    seg = {w.key: w for w in at.button_group}
    seg[ui.sheet_key(at, "op2")].set_value("pairs").run()
    seg = {w.key: w for w in at.button_group}
    seg[ui.sheet_key(at, "op3")].set_value("none").run()
    at.number_input(key=ui.sheet_key(at, "left0")).set_value(11).run()
    at.number_input(key=ui.sheet_key(at, "left2")).set_value(4).run()
    at.button(key="save").click().run()
    ui.ok(at)
    now = "Kazanma şansı (5 el kaldı): " + _expected_line([31, 101, 38, 404], 5, "tr")
    assert now in ui.html(at)
    from dashboard.state import tokens

    watch = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-s2",
                         watch=tokens.watch_token("wp-s2"))
    assert not [b for b in watch.button if b.key == "save"]
    assert now in ui.html(watch)


def test_classic_shows_expected_match_points_and_the_end_shows_no_chance_G3(db: Path) -> None:
    _sheet(db, "wp-c", ROUNDS, variant="101-classic", hands=3)
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-c", lang="en")
    c = winprob.chance(resolve("101-classic"), [31, 101, 38, 404], 1, planned=3)
    assert c.match_points is not None
    assert ("Expected match points (G3): " + " · ".join(f"{n} {x:+.1f}" for n, x in zip(NAMES, c.match_points))
            in ui.html(at))
    assert "Chance to win (the last hand left): " in ui.html(at)
    _sheet(db, "wp-c", ROUNDS + ROUNDS[:1], variant="101-classic", hands=3)  # the last hand: the game is over
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-c", lang="en")
    assert "Chance to win (" not in ui.html(at) and "Expected match points" not in ui.html(at)
    fig = _chart(at, "wp_sheet_3")  # the course stays, ending on the result: Ali wins (51 against 0 ...)
    final = [tr["y"][-1] for tr in fig["data"]]
    totals = [51, 0, 68, 606]
    assert final == [100.0 if t == min(totals) else 0.0 for t in totals]


def test_partners_see_their_teams_chance_G4(db: Path) -> None:
    _sheet(db, "wp-e", ROUNDS, esli=True)
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "sheet", sheet="wp-e", lang="en")
    res = read_sheet(db, "wp-e")
    c = winprob.course(res)[-1].chance
    assert c.sides == ((0, 2), (1, 3))
    line = ("Chance to win (5 hands left): " + item("team A: Ali + Mehmet", c.win[0], "en") + " · "
            + item("team B: Ayşe + Zeynep", c.win[1], "en"))
    assert line in ui.html(at)


def read_sheet(db: Path, game: str) -> Any:
    from analysis.game import replay_game

    with store.reading(db) as con:
        got = sheets.load_sheet(con, game)
    assert got is not None
    return replay_game(sheets.sheet_log(*got), keep_steps=False)


# ---- Replay and Review ------------------------------------------------------------------------

def _course(logs: Path) -> list[winprob.Point]:
    games, _ = read_and_replay(str(logs))
    return winprob.course(games[0])


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_draws_the_chance_hand_by_hand_with_the_hand_on_the_board_marked(db: Path, logs: Path,
                                                                                lang: str) -> None:
    at = ui.open_page(AppTest.from_file(APP, default_timeout=90), "replay", game="wp-1", hand=2, lang=lang)
    fig = _chart(at, "wp_replay")
    pts = _course(logs)
    assert len(pts) == 4 and pts[-1].chance.hands_left == 2
    names = read_and_replay(str(logs))[0][0].players
    assert [tr["name"] for tr in fig["data"]] == names
    for i, tr in enumerate(fig["data"]):
        assert tr["x"] == [0, 1, 2, 3]
        assert tr["y"] == [round(100 * p.chance.win[i], 1) for p in pts]
    assert fig["layout"]["shapes"][0]["x0"] == 1  # hand 2 is played after one hand
    title = fig["layout"]["title"]["text"]
    assert title == ("Kazanma şansı, el el" if lang == "tr" else "Chance to win, hand by hand")


@pytest.mark.parametrize("lang,head", [("tr", "Kazanma şansı"), ("en", "Chance to win")])
def test_review_draws_the_chance_even_before_the_review(db: Path, logs: Path, lang: str, head: str) -> None:
    at = ui.open_page(AppTest.from_file(APP, default_timeout=90), "review", game="wp-1", lang=lang)
    assert head in [s.value for s in at.subheader]
    fig = _chart(at, "wp_review")
    pts = _course(logs)
    assert [tr["y"][-1] for tr in fig["data"]] == [round(100 * w, 1) for w in pts[-1].chance.win]
    assert "shapes" not in fig["layout"] or not fig["layout"]["shapes"]
