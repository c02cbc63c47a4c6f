"""Bad-move rates: per seat the % of graded decisions costing more than 10 / 30 /
100 points, in the review's summary and on the Players page, forced decisions left out; the
Review page's "only mistakes over N points" filter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.selfplay import GameSpec, Player, play_game
from analysis.store import analyze, load_review
from analysis.store.review_rates import RATE_OVER, overall, player_rates

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("rates")
    lines = []
    for gid, seed in (("rt-deep", "5"), ("rt-quick", "6")):
        spec = GameSpec(gid, (Player("Sol", "solver"), Player("Kemal", "random"), Player("Gre", "greedy"),
                              Player("Ran", "random")), "101", None, seed, f"2026-10-0{seed}T20:00:00+00:00",
                        hands=1)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")

    def both(con):  # type: ignore[no-untyped-def]
        analyze(con, games=["rt-quick"])
        analyze(con, games=["rt-deep"], deep=True, budget=0.002, worlds=8)

    yield stored(d / "rt.duckdb", log, both)


def test_rates_count_graded_decisions_over_each_threshold_forced_ones_left_out(db: Path) -> None:
    with store.reading(db) as con:
        frame = player_rates(con)
        gr = load_review(con, "rt-deep")
    deep = frame[frame["game"] == "rt-deep"].set_index("player")
    for s in gr.summary():
        mine = [c for d in gr.decisions if d.seat == s["seat"] for c in d.choices]
        graded = [c.cost for c in mine if not c.forced]
        assert any(c.forced for c in mine)  # there were forced decisions, and they are not counted
        row = deep.loc[s["player"]]
        assert int(row["decisions"]) == s["graded"] == len(graded)
        for n in RATE_OVER:
            assert int(row[f"over_{n}"]) == sum(1 for x in graded if x > n)
            want = 100.0 * sum(1 for x in graded if x > n) / len(graded)
            assert s["rates"][str(n)] == pytest.approx(want)
    quick = frame[frame["game"] == "rt-quick"]
    assert len(quick) == 4 and set(quick["depth"]) == {"quick"}


def test_players_page_shows_the_bad_move_rates(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "players", lang="en")
    at.multiselect(key="p_players").set_value(["Kemal", "Sol"]).run()
    ui.ok(at)
    import json

    charts = [c for c in at.get("plotly_chart") if "Bad-move rate" in c.proto.spec]
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    with store.reading(db) as con:
        want = overall(player_rates(con))
    got = {tr["name"]: tr["y"] for tr in spec["data"]}
    assert set(got) == {"Kemal", "Sol"}
    for name, ys in got.items():
        assert [round(y, 6) for y in ys] == [round(want[name][n], 6) for n in RATE_OVER]


def test_the_review_page_shows_only_mistakes_over_the_chosen_points(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "review", game="rt-deep", lang="tr")
    every = len(at.dataframe(key="dv_decisions").value)
    at.selectbox(key="rv_min_cost").select(30).run()
    ui.ok(at)
    with store.reading(db) as con:
        gr = load_review(con, "rt-deep")
    ords = sorted({h.ord for h in gr.hands})
    over = [c for h in gr.hands if h.ord == ords[0] for d in h.decisions for c in d.choices if c.cost > 30]
    assert len(at.dataframe(key="dv_decisions").value) == len(over) < every
    seats = [f.value for f in at.dataframe if "Zorunlu" in list(f.value.columns)]
    assert len(seats) == 1 and "> 30 puan kayıp %" in list(seats[0].columns)
