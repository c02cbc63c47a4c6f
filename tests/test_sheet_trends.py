"""Trends from score sheets: the Players page's frames by source (sheets, recorded, all)
with wins, the Players page's source filter, and the Games page listing sheets with their results
and a link to the sheet page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from dashboard_logs import make_game, write_log
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.store import sheets

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
SHEETS = ROOT / "tests" / "data" / "sheets"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("trends")
    log = write_log(d / "games.jsonl", [make_game("rec-1", hands=2, seed=3, players=["Ali", "Deniz", "Emre", "Can"])])
    p = stored(d / "trends.duckdb", log)
    con = store.connect(p, seed=False)
    try:
        store.import_paths(con, [str(SHEETS / "sheet-101.jsonl"), str(SHEETS / "sheet-esli.jsonl")])
    finally:
        con.close()
    yield p


def test_trend_frames_split_sheets_from_recorded_games_and_count_wins_G1(db: Path) -> None:
    with store.reading(db) as con:
        every = sheets.trend_frames(con, "101", None)
        sh = sheets.trend_frames(con, "101", "sheets")
        rec = sheets.trend_frames(con, "101", "recorded")
    assert set(sh["player_hand_scores"]["game"]) == {"sheet-101", "sheet-esli"}
    assert set(rec["player_hand_scores"]["game"]) == {"rec-1"}
    assert len(every["player_hand_scores"]) == len(sh["player_hand_scores"]) + len(rec["player_hand_scores"])
    ali = sh["player_hand_scores"][sh["player_hand_scores"]["player"] == "Ali"]
    assert ali["cumulative"].iloc[-1] == 897 + 303  # his two sheets' totals, hand by hand
    stats = sh["player_stats"].set_index("player")
    assert stats.loc["Ali", "wins"] == 1 and stats.loc["Ayşe", "wins"] == 1  # sheet-101: Ali; sheet-esli: Ayşe
    assert stats.loc["Ali", "games"] == 2
    kinds = sh["finish_kinds"]
    assert set(kinds[kinds["player"] == "Zeynep"]["kind"]) == {"pairs", "elden+pairs"}
    assert set(sh["penalties"]["rule"]) == {"X2", "X3", "X4", "X5", "O8"}
    assert len(sh["opening_values"]) == 0  # a sheet says who opened, not with what
    assert "Ayşe" not in set(rec["player_stats"]["player"])


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_players_page_filters_by_source(db: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "players", lang=lang, p_source="sheets",
                      p_players="Ali")
    wins = "Kazandığı oyun" if lang == "tr" else "Games won"
    games = "Oyun" if lang == "tr" else "Games"
    stats = next(d.value for d in at.dataframe if wins in d.value.columns)
    assert stats.iloc[0, 0] == "Ali"
    assert int(stats[wins].iloc[0]) == 1 and int(stats[games].iloc[0]) == 2
    assert at.query_params["p_source"] == "sheets"


def test_games_page_lists_sheets_with_results_and_links_them_to_their_page(db: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "games")
    df = next(d.value for d in at.dataframe if "Kaynak" in d.value.columns).set_index("Oyun")
    assert df.loc["sheet-101", "Kaynak"] == "puan tablosu" and df.loc["rec-1", "Kaynak"] == "kayıt"
    assert df.loc["sheet-101", "Kazanan"] == "Ali" and df.loc["sheet-101", "Toplamlar"] == "897 2321 1683 2076"
    assert df.loc["sheet-101", "▶"].startswith("sheet?sheet=sheet-101")
