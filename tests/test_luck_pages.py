"""AppTests of the luck and skill waterfall in Replay and Review: a button until asked (the page
never waits for the split), then a Plotly waterfall from the deal's expected score to the actual
score whose bars are the library's split (analysis.review.luck) of the same hand and seat, and the
table of its parts, in both languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import make_game, stored, write_log
from streamlit.testing.v1 import AppTest

from analysis.game import read_and_replay
from analysis.review.luck import split_hand
from dashboard.state import luck_data

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
WORLDS = 4  # a quick split: the page's figures are checked against the library's with the same worlds


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("lk")
    return write_log(d / "lk.jsonl", [make_game("lk-1", seed=7, hands=2)])


@pytest.fixture
def db(logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    p = stored(tmp_path / "lk.duckdb", logs)
    monkeypatch.setenv("ISTAKA_DB", str(p))
    monkeypatch.setattr(luck_data, "WORLDS", WORLDS)
    yield p


def _charts(at: AppTest, key: str) -> list[dict[str, Any]]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(key)]


def _button(at: AppTest, key: str) -> Any:
    got = [b for b in at.button if b.key == key]
    assert len(got) == 1, [b.key for b in at.button]
    return got[0]


def _check(fig: dict[str, Any], logs: Path, index: int, seat: int, lang: str) -> None:
    res = read_and_replay(str(logs), keep_steps=True)[0][0]
    sp = split_hand(res, index, seat, worlds=WORLDS)
    wf = fig["data"][0]
    assert wf["type"] == "waterfall"
    assert wf["measure"][0] == "absolute" and wf["measure"][-1] == "total"
    assert wf["y"][0] == round(sp.deal, 2) and wf["y"][-1] == sp.actual
    assert wf["x"][0] == ("dağıtım" if lang == "tr" else "the deal")
    assert wf["x"][-1] == ("puan" if lang == "tr" else "score")
    # the bars between add up to the actual score (each rounded to 0.01)
    assert abs(sum(wf["y"][:-1]) - sp.actual) < 0.01 * len(wf["y"])
    assert wf["y"][-2] == round(sp.noise, 2)
    costs = [round(d.points, 2) for d in sp.decisions if d.points > 0]
    assert sorted(y for y, x in zip(wf["y"], wf["x"]) if x.startswith("bedel" if lang == "tr" else "cost")) == sorted(costs)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_draws_the_waterfall_when_asked(db: Path, logs: Path, lang: str) -> None:
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game="lk-1", hand=1, seat=2, lang=lang)
    assert not _charts(at, "lk_replay_chart_0_2")  # nothing computed at page load
    _button(at, "lk_replay_go_0_2").click().run()
    ui.ok(at)
    figs = _charts(at, "lk_replay_chart_0_2")
    assert len(figs) == 1
    _check(figs[0], logs, 0, 2, lang)
    title = figs[0]["layout"]["title"]["text"]
    assert ("el puanı" in title) if lang == "tr" else ("hand score" in title)
    adjusted = "Şanstan arındırılmış puan" if lang == "tr" else "Luck-adjusted score"
    tables = [d.value for d in at.dataframe if adjusted in list(d.value.iloc[:, 0])]
    assert len(tables) == 1
    res = read_and_replay(str(logs), keep_steps=True)[0][0]
    sp = split_hand(res, 0, 2, worlds=WORLDS)
    assert tables[0].iloc[-1, 1] == round(sp.adjusted, 1) and tables[0].iloc[-2, 1] == round(sp.actual, 1)
    # once asked, the next run draws it at once (from the cache), with no button
    at.run()
    ui.ok(at)
    assert _charts(at, "lk_replay_chart_0_2") and not [b for b in at.button if b.key == "lk_replay_go_0_2"]


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_review_draws_the_waterfall_of_the_hand_and_seat_picked(db: Path, logs: Path, lang: str) -> None:
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "review", game="lk-1", lang=lang)
    at.selectbox(key="lk_rv_hand").select(2).run()
    at.selectbox(key="lk_rv_seat").select(3).run()
    ui.ok(at)
    assert not _charts(at, "lk_review_chart_1_3")
    _button(at, "lk_review_go_1_3").click().run()
    ui.ok(at)
    figs = _charts(at, "lk_review_chart_1_3")
    assert len(figs) == 1
    _check(figs[0], logs, 1, 3, lang)
