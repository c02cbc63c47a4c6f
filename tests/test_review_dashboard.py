"""AppTests of the move review in the dashboard: the Review and Practice pages, the mistake marks,
the next-mistake key and the chance to open in Replay, and the trends on the Players page,
against a real DuckDB with simulated games annotated by the review."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import apptest_helpers as ui
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis.store import queries

from analysis import store
from analysis.store import analyze
from analysis.selfplay import GameSpec, Player, play_game
from dashboard.state import review_data as rv

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
EVIL = "<img src=x onerror=alert(2)>"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("rvdash")
    lines = []
    for gid, seed in (("rv-a", "4"), ("rv-b", "5")):
        spec = GameSpec(gid, (Player("Sol", "solver"), Player(EVIL, "random"), Player("Gre", "greedy"),
                              Player("Ran", "random")), "101", None, seed, f"2026-10-0{seed}T20:00:00+00:00",
                        hands=3)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    yield stored(d / "rv.duckdb", log, lambda con: analyze(con, games=["rv-a"]))  # rv-b unannotated


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=90)


_ok, _open, _html = ui.ok, ui.open_page, ui.html  # shared with the other AppTests


def _read(db: Path, fn: str, *args: Any, **kw: Any) -> Any:
    with store.reading(db) as con:
        return getattr(queries, fn)(con, *args, **kw)


def test_review_page_lists_mistakes_worst_first_with_severity_and_escaped_names(app: AppTest, db: Path) -> None:
    at = _open(app, "review", game="rv-a")
    seats = at.dataframe[0].value
    assert list(seats["#"]) == [0, 1, 2, 3] and EVIL in list(seats["Oyuncu"])  # a data frame cell, not HTML
    table = at.dataframe(key="rv_mistakes").value
    want = _read(db, "game_mistakes", "rv-a")
    costs = list(table.iloc[:, 4])
    assert costs == sorted(costs, reverse=True) == list(want.cost)
    assert all(s.split()[0] in rv.SEV_ICON.values() for s in table.iloc[:, 0])
    first = want.iloc[0]  # one click to the step: the row's link opens the replay there
    assert table["▶"].iloc[0] == f"replay?game=rv-a&hand={first.hand}&step={first.step}&lang=tr"
    assert "<img" not in _html(at)


def test_review_page_analyses_a_game_on_request(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    monkeypatch.setenv("ISTAKA_DB", str(copy))
    at = _open(AppTest.from_file(APP, default_timeout=90), "review", game="rv-b")
    assert any("henüz incelenmedi" in i.value for i in at.info)
    at.button(key="rv_analyze").click().run()
    ui.after_jobs(_ok(at))  # queued: the page shows the outcome once it has run
    assert len(at.dataframe[0].value) == 4
    assert _read(copy, "review_status")["by_version"]


def test_replay_marks_mistakes_and_the_m_key_jumps_to_the_next_one(app: AppTest, db: Path) -> None:
    ms = _read(db, "game_mistakes", "rv-a")
    hand = int(ms.sort_values(["hand", "step"]).hand.iloc[0])
    steps = sorted({int(s) for s in ms[ms.hand == hand].step})
    at = _open(app, "replay", game="rv-a", hand=hand, step=0)
    at.button(key="b_nmistake").click().run()
    _ok(at)
    cur = int(re.search(r'data-step="(\d+)"', _html(at)).group(1))
    assert cur == steps[0]
    row = at.button(key=f"mv_{cur}")  # the move list's row for this step carries the mark
    assert row.label.split()[0] in rv.SEV_ICON.values()
    if len(steps) > 1:
        at.button(key="b_nmistake").click().run()
        assert int(re.search(r'data-step="(\d+)"', _html(_ok(at))).group(1)) == steps[1]


def test_replay_shows_the_chance_to_open_for_an_unopened_seat(app: AppTest) -> None:
    at = _open(app, "replay", game="rv-a", hand=1, step=2)
    html = _html(at)
    assert "Açma şansı" in html and "çekişte" in html and "görünmeyen taş" in html


def test_players_page_shows_accuracy_and_mistake_trends(app: AppTest) -> None:
    at = _open(app, "players")
    at.multiselect(key="p_players").set_value(["Sol", EVIL]).run()
    _ok(at)
    assert "Uyum ve hata eğilimi" in "\n".join(h.value for h in at.subheader)
    keys = {c.proto.id for c in at.get("plotly_chart")}
    assert len(keys) >= 10  # the seven existing charts and the three of the review


def _positions(db: Path, player: str) -> Any:
    """The player's practice positions as the Practice page reads them (its categories only)."""
    from analysis.review import PRACTICE_CATEGORIES

    return _read(db, "practice_positions", player, list(PRACTICE_CATEGORIES))


def test_practice_scores_the_evaluators_best_try_right(app: AppTest, db: Path) -> None:
    """Practice retries the player's costliest position: the evaluator's best move,
    tried first, is judged right in expected points and the session's score counts it."""
    from analysis.evaluate import candidates
    from analysis.players import View
    from analysis.review.deep import grade_decision, seat_knows
    from analysis.review.kinds import declare_candidates, held_back

    pos = _positions(db, "Gre")
    if not len(pos):
        pos = _positions(db, EVIL)
        player = EVIL
    else:
        player = "Gre"
    assert len(pos), "the random and greedy seats make mistakes to practise on"
    at = _open(app, "practice")
    at.selectbox(key="pr_player").select(player).run()
    _ok(at)
    r = pos.iloc[0]
    res = _read(db, "replay_stored", r.game)
    steps = res.hands[int(r.ord) - 1].steps
    state, seat, step = steps[int(r.step)].state, int(r.seat), int(r.step)
    known = seat_knows(steps, step, seat)
    tiles = [b for b in at.button if b.key and b.key.startswith("tile-")]
    assert len(tiles) == len(state.racks[seat])  # the rack drawn as tiles one clicks
    if state.phase == "play" and state.turn_base is None:  # a placing: the best one of the list
        view = View.of(state, seat)
        cands = candidates(view, "place")
        cands += held_back(view, cands) + declare_candidates(view, cands)
        c = grade_decision(state, seat, "place", [], seed=f"{r.game}:{int(r.hand)}:{step}:place", known=known, step=step)
        listed = [[dict(e) for e in x.events] for x in cands]
        if c.best_events == []:
            at.button(key=f"pr_play_{listed.index([])}").click().run()
        else:
            at.button(key=f"pr_play_{listed.index(c.best_events)}").click().run()
    else:
        pytest.skip(f"the costliest position is not a placing: {state.phase}")
    _ok(at)
    assert at.success and "Doğru" in at.success[0].value, [w.value for w in at.warning]
    assert "1 / 1" in _html(at)


def test_review_click_on_a_mistake_opens_the_replay_at_its_step(app: AppTest, db: Path) -> None:
    """The click used to raise StreamlitAPIException (a query parameter bound to a
    widget cannot be set by st.switch_page)."""
    at = _open(app, "review", game="rv-a")
    want = _read(db, "game_mistakes", "rv-a").iloc[0]
    at.session_state["rv_mistakes"] = {"selection": {"rows": [], "columns": [], "cells": [[0, "Adım"]]}}
    at.run()
    _ok(at)
    assert "El tekrarı" in [t.value for t in at.title]
    assert int(re.search(r'data-step="(\d+)"', _html(at)).group(1)) == int(want.step)
    assert at.selectbox(key="game").value == "rv-a" and at.selectbox(key="hand").value == int(want.hand)


def test_practice_offers_to_analyse_the_games_waiting(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    monkeypatch.setenv("ISTAKA_DB", str(copy))
    at = _open(AppTest.from_file(APP, default_timeout=90), "practice")
    assert any("1 oyun henüz incelenmedi" in i.value for i in at.info)
    at.button(key="pr_analyze_all").click().run()
    ui.after_jobs(_ok(at))  # queued
    assert any("1 oyun incelendi" in s.value for s in at.success)
    assert not any("henüz incelenmedi" in i.value for i in at.info)


def test_practice_position_is_kept_in_the_url(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "all.duckdb"  # both games analysed: more positions to step through
    shutil.copy(db, copy)
    con = store.connect(copy)
    try:
        analyze(con)
    finally:
        con.close()
    player = max(("Gre", EVIL, "Ran", "Sol"), key=lambda p: len(_positions(copy, p)))
    assert len(_positions(copy, player)) > 1
    monkeypatch.setenv("ISTAKA_DB", str(copy))
    at = _open(AppTest.from_file(APP, default_timeout=90), "practice", pr_player=player)
    at.button(key="pr_next").click().run()
    _ok(at)
    assert str(at.query_params["pr_idx"]).strip("[]'") == "1"
    again = _open(AppTest.from_file(APP, default_timeout=90), "practice", pr_player=player, pr_idx=1)
    assert "Pozisyon 2 /" in "\n".join(c.value for c in again.caption)


def test_practice_score_line_shows_no_markdown_escape_in_its_html_block(app: AppTest, db: Path) -> None:
    """The session's score sits in an HTML block, where Markdown escapes are not read: its colon
    showed as "Bu oturumda\\: 0 / 0"."""
    at = _open(app, "practice")
    at.selectbox(key="pr_player").select("Gre" if len(_positions(db, "Gre")) else EVIL).run()
    _ok(at)
    html = _html(at)
    assert "Bu oturumda: 0 / 0 pozisyon doğru" in html and "\\:" not in html


def test_the_quick_screen_is_labelled_and_gives_way_to_the_verdict(app: AppTest, db: Path) -> None:
    """A game with only the quick review: each finding on Replay is labelled a screen, and where the
    judge's verdict on the same decision finds no clear loss the screen gives way to it."""
    from analysis.review import CATEGORY_KIND

    from dashboard.state import deep_data

    ms = _read(db, "game_mistakes", "rv-a")
    assert len(ms) and _read(db, "review_depth", "rv-a") == "quick"
    seen = {"screen": 0, "gives_way": 0}
    for _, m in ms.head(8).iterrows():
        at = ui.open_page(app, "replay", game="rv-a", hand=int(m["hand"]), step=int(m["step"]), lang="en")
        texts = [w.value for w in at.warning] + [i.value for i in at.info]
        assert not any(x.startswith("The review at this turn") for x in texts)  # never the verdict's words
        rows = deep_data.verdict_at("rv-a", int(m["ord"]), int(m["step"]), "en")
        v = next((r for r in rows if r["kind"] == CATEGORY_KIND.get(str(m["category"]))), None)
        if v is not None and v["cost"] <= 0:
            assert any("verdict on the same decision finds no clear loss" in x for x in texts)
            seen["gives_way"] += 1
        else:
            assert any(x.startswith("The quick screen at this turn") for x in texts)
            seen["screen"] += 1
    assert seen["screen"] + seen["gives_way"] >= 3
