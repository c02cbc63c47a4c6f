"""The loss graph, the key moments on the Review page and the board's marks:
AppTests of Review and Replay against a real DuckDB with a quick-reviewed and a deep-reviewed
simulated game, and the marks' HTML for a crafted lay-off and a fed finish."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.game import Tile
from analysis.review import Choice, Decision, GameReview, HandReview, Mistake, key_moments
from analysis.selfplay import GameSpec, Player, play_game
from analysis.store import analyze
from dashboard.board import board_marks, loss_graph
from dashboard.board.tiles_view import Marks, table_html

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PLAYERS = (Player("Sol", "solver"), Player("Ran", "random"), Player("Gre", "greedy"), Player("Rnd", "random"))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """lg-q (3 hands, the quick review) and lg-d (1 hand, a short deep review)."""
    d = tmp_path_factory.mktemp("lossgraph")
    lines = []
    for gid, seed, hands in (("lg-q", "4", 3), ("lg-d", "5", 1)):
        lines += play_game(GameSpec(gid, PLAYERS, "101", None, seed, f"2026-10-0{seed}T20:00:00+00:00",
                                    hands=hands)).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")

    def review(con: Any) -> None:
        analyze(con, games=["lg-q"])
        analyze(con, games=["lg-d"], deep=True, budget=0.002, worlds=4)
    yield stored(d / "lg.duckdb", log, review)


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=120)


def _review(db: Path, game: str) -> GameReview:
    with store.reading(db) as con:
        gr = store.load_review(con, game)
    assert gr is not None
    return gr


def _chart(at: AppTest, key: str) -> dict[str, Any]:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


def _step(at: AppTest) -> int:
    return int(re.search(r'data-testid="ist-step" data-step="(\d+)"', ui.html(at)).group(1))


def _select(at: AppTest, key: str, point: list[int]) -> AppTest:
    at.session_state[key] = {"selection": {"points": [{"customdata": point, "curve_number": point[2]}],
                                           "point_indices": [0], "box": [], "lasso": []}}
    at.run()
    return ui.ok(at)


# ---- the points ------------------------------------------------------------------------------

def test_points_of_a_quick_review_are_each_seats_cost_so_far_turn_by_turn() -> None:
    hands = []
    for o in (1, 2):
        h = HandReview(o, o, "finish")
        for turn, (seat, cost) in enumerate([(0, 0), (1, 12), (0, 30), (1, 0), (0, 5)]):
            ms = [Mistake("missed_layoff", seat, cost, 10 * turn + 2, 1)] if cost else []
            h.decisions.append(Decision(o, o, seat, turn, 10 * turn, 10 * turn + 3, 1, "draw", None, False, {}, {},
                                        0, 0, ms))
        hands.append(h)
    pts = loss_graph.points(GameReview("g", "101", ["a", "b", "c", "d"], hands))
    assert list(pts[pts["seat"] == 0]["y"]) == [0, 30, 35, 35, 65, 70]  # over the whole game
    assert list(pts[pts["seat"] == 1]["y"]) == [12, 12, 24, 24]
    assert list(pts["target"])[:5] == [0, 12, 22, 30, 42]  # a costly turn opens at its finding's step
    one = loss_graph.within_hand("quick", pts[pts["hand"] == 2])  # one hand: from its start
    assert list(one[one["seat"] == 0]["y"]) == [0, 30, 35] and list(one[one["seat"] == 1]["y"]) == [12, 12]


def test_points_of_a_deep_review_are_the_expected_score_of_each_move_played() -> None:
    h = HandReview(1, 2, "finish")
    cs = [Choice("take", 4, 1, "draw", "draw", 61.5, 61.5, 1, 0), Choice("discard", 5, 1, "R7", "B3", 70, 52, 1, 18)]
    h.decisions.append(Decision(1, 2, 3, 0, 4, 6, 1, "draw", None, False, {}, {}, 0, 0, [], cs))
    pts = loss_graph.points(GameReview("g", "101", ["a", "b", "c", "d"], [h], depth="deep"))
    assert list(pts["y"]) == [61.5, 70] and list(pts["cost"]) == [0, 18] and list(pts["step"]) == [4, 5]
    import plotly.graph_objects as go

    fig = go.Figure(loss_graph.figure("deep", pts, ["a", "b", "c", "d"], "en", now=5))  # a valid figure
    assert [list(x) for x in fig.data[0].customdata] == [[2, 4, 3], [2, 5, 3]]
    assert fig.data[0].marker.symbol == "triangle-up"  # seats differ by marker and dash, not colour alone
    assert fig.layout.yaxis.title.text.startswith("expected hand score")
    assert fig.layout.shapes[0].x0 == 5 and fig.layout.annotations[0].text == "now"


def test_a_click_is_read_from_the_point_it_picked() -> None:
    assert loss_graph.clicked({"selection": {"points": [{"customdata": [3, 17, 2]}]}}) == (3, 17, 2)
    assert loss_graph.clicked({"selection": {"points": []}}) is None
    assert loss_graph.clicked(None) is None


# ---- Review -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game,depth", [("lg-q", "quick"), ("lg-d", "deep")])
def test_review_draws_the_loss_graph_and_a_click_opens_that_step_in_the_replay(app: AppTest, db: Path, game: str,
                                                                                depth: str) -> None:
    at = ui.open_page(app, "review", game=game, lang="en")
    want = "Expected hand score" if depth == "deep" else "Cost so far"
    assert any(s.value.startswith(want) for s in at.subheader), [s.value for s in at.subheader]
    spec = _chart(at, "lg_review")
    assert len(spec["data"]) == 4 and all(tr["customdata"] for tr in spec["data"])
    hand, step, seat = spec["data"][2]["customdata"][-1]
    _select(at, "lg_review", [hand, step, seat])
    assert [t.value for t in at.title] == ["Hand replay"]
    assert _step(at) == step and at.selectbox(key="hand").value == hand and at.selectbox(key="seat").value == seat


def test_review_opens_on_each_players_key_moments_and_a_button_opens_the_replay_there(app: AppTest, db: Path) -> None:
    at = ui.open_page(app, "review", game="lg-q")
    assert at.subheader[0].value.startswith("Önemli anlar")
    per = key_moments(_review(db, "lg-q"), "tr")
    shown = [b for b in at.button if (b.key or "").startswith("km_")]
    assert len(shown) == sum(len(ms) for ms in per) > 0
    captions = [c.value for c in at.caption]
    seat, i = next((s, 0) for s, ms in enumerate(per) if ms)
    m = per[seat][i]
    assert f"{m.cost:.0f} puan" in at.button(key=f"km_{seat}_{i}").label
    assert any(m.lesson.split(":")[0] in c.replace("\\", "") for c in captions)
    at.button(key=f"km_{seat}_{i}").click().run()
    ui.ok(at)
    assert [t.value for t in at.title] == ["El tekrarı"] and _step(at) == m.step
    assert at.selectbox(key="hand").value == m.hand


# ---- Replay -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["lg-q", "lg-d"])
def test_replay_draws_the_hands_graph_and_a_click_goes_to_that_step(app: AppTest, game: str) -> None:
    at = ui.open_page(app, "replay", game=game, hand=1, step=2)
    spec = _chart(at, "lg_replay")
    assert {p[0] for tr in spec["data"] for p in tr["customdata"]} == {1}  # this hand only
    target = max(p[1] for tr in spec["data"] for p in tr["customdata"])
    assert target != 2
    _select(at, "lg_replay", [1, target, 0])
    assert _step(at) == target and str(at.query_params["step"]).strip("[]'") == str(target)
    spec = _chart(at, "lg_replay")  # the new step is marked on the chart
    assert any(s.get("x0") == target for s in spec["layout"].get("shapes", []))


# ---- the board's marks ------------------------------------------------------------------------

def _hand_with(db: Path, game: str, kind: str) -> tuple[Any, int]:
    from dashboard.state.data import Replay
    from analysis.game import replay_game
    from analysis.store import queries

    with store.reading(db) as con:
        rp = Replay(g := queries.load_gamelog(con, game), replay_game(g, keep_steps=True))
    for hr in rp.result.hands:
        for i, s in enumerate(hr.steps):
            if s.event.get("type") == kind:
                return hr, i
    pytest.skip(f"no {kind} in {game}")


def test_a_lay_off_marks_its_table_meld_and_the_tiles_played_in_both_languages(db: Path) -> None:
    hr, i = _hand_with(db, "lg-q", "layoff")
    ev = hr.steps[i].event
    seat, meld = ev["seat"], ev["meld"]
    turn = SimpleNamespace(seat=seat, start=i - 1, end=next(j for j in range(i, len(hr.steps))
                                                           if hr.steps[j].event.get("type") == "discard"))
    marks = board_marks.marks_at(hr.steps, i - 1, turn, None, 1)
    assert marks.seat == seat and marks.melds.get(meld) == "layoff"
    assert Tile.parse(ev["tiles"][0]) in marks.played
    state = hr.steps[i - 1].state
    for lang, words in (("tr", "işleme buraya"), ("en", "lay-off here")):
        html = table_html(state, ["a", "b", "c", "d"], lang, marks=marks)
        box = re.search(rf'<span class="ist-meld mk-layoff" data-meld="{meld}" data-mark="layoff" title="([^"]+)"', html)
        assert box and f"#{meld}" in box.group(1), html[:200]
        assert words in html
        assert re.search(r'class="ist-tile[^"]*mk-played"[^>]*data-mark="played"', html)
        assert "▲" in html  # a tag beside the outline: told apart without colour


def test_a_better_tile_from_the_review_is_marked_with_its_own_outline_and_title() -> None:
    d = Decision(1, 1, 0, 0, 2, 5, 1, "draw", None, False, {}, {}, 0, 0,
                 [Mistake("last_discard", 0, 12, 4, 1, {"tile": "R7", "best_tile": "B13"})])
    tiles, melds = board_marks.better_marks(d, 4)
    assert tiles == [Tile.parse("B13")] and melds == {}


def test_a_deep_reviews_better_line_marks_its_tile_and_its_lay_off_meld_and_a_free_decision_none() -> None:
    best = [{"type": "layoff", "seat": 1, "meld": 3, "tiles": ["K9"]}, {"type": "discard", "seat": 1, "tile": "Y2"}]
    costly = Choice("place", 6, 1, "wait", "layoff", 80, 60, 1, 20,
                    [{"move": "layoff", "expected": 60, "se": 1, "n": 40, "events": best}], [], "worse_placing",
                    None, 40)
    free = Choice("discard", 8, 1, "R1", "R1", 50, 50, 1, 0,
                  [{"move": "R5", "expected": 50, "se": 1, "n": 40, "events": [{"type": "discard", "tile": "R5"}]}])
    d = Decision(1, 1, 1, 3, 5, 9, 1, "draw", None, True, {}, {}, 0, 0, [], [costly, free])
    assert board_marks.better_marks(d, 5) == ([Tile.parse("K9"), Tile.parse("Y2")], {3: "better"})
    assert board_marks.better_marks(d, 7) == ([], {})  # past the costly decision; the free one marks nothing
    assert board_marks.better_marks(None, 5) == ([], {})


def _fake(events: list[dict[str, Any]], finisher: int) -> list[Any]:
    final = SimpleNamespace(result="finish", finisher=finisher, over=True)
    other = SimpleNamespace(result=None, finisher=None, over=False)
    return [SimpleNamespace(event=e, state=final if i == len(events) - 1 else other) for i, e in enumerate(events)]


def test_the_discard_that_fed_a_finish_is_found_and_drawn_on_the_pile_and_in_the_centre(db: Path) -> None:
    steps = _fake([{"type": "deal"}, {"type": "draw", "seat": 2, "tile": "B1"}, {"type": "discard", "seat": 2,
                   "tile": "R9"}, {"type": "take", "seat": 3, "tile": "R9"}, {"type": "layoff", "seat": 3, "meld": 1,
                   "tiles": ["R9"]}, {"type": "discard", "seat": 3, "tile": "K4"}], finisher=3)
    assert board_marks.fed_finish(steps) == (2, 2, Tile.parse("R9"))
    drew = _fake([{"type": "deal"}, {"type": "discard", "seat": 2, "tile": "R9"}, {"type": "draw", "seat": 3,
                  "tile": "R9"}, {"type": "discard", "seat": 3, "tile": "K4"}], finisher=3)
    assert board_marks.fed_finish(drew) is None  # drawn from the deck: nobody fed it
    hr, i = _hand_with(db, "lg-q", "discard")
    state = hr.steps[i].state
    seat, tile = hr.steps[i].event["seat"], Tile.parse(hr.steps[i].event["tile"])
    for lang, words in (("tr", "Bitirten taş"), ("en", "fed the finish")):
        html = table_html(state, ["a", "b", "c", "d"], lang, marks=Marks(fed=(seat, tile), fed_note=True))
        pile = html[html.index(f'data-seat="{seat}"'):]
        pile = pile[pile.index('class="ist-discards"'):]
        assert re.search(rf'mk-fed" title="[^"]+" data-tile="{tile}" data-mark="fed"', pile)
        assert "⚑" in html and words in html and f'data-fed="{tile}"' in html


def test_replay_draws_the_marks_and_their_legend(app: AppTest, db: Path) -> None:
    hr, i = _hand_with(db, "lg-q", "discard")
    at = ui.open_page(app, "replay", game="lg-q", hand=hr.hand, step=i - 1, lang="en")
    html = ui.html(at)
    assert 'data-mark="played"' in html
    assert any("▲ solid outline the tile played" in c.value for c in at.caption)
