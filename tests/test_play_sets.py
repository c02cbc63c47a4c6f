"""Duplicate sets (analysis.selfplay.sets, ``istaka set``): the same seeded deals for every person
and for the expert, who played each once in the people's seat; the paired differences with their
95% interval as ``istaka match`` computes it; a ranking; the Play page starting a set's game."""

from __future__ import annotations

import json
import math
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import empty_board
from streamlit.testing.v1 import AppTest

from analysis.cli import main
from analysis.game import read_file, replay_game
from analysis.selfplay import paired_ci, sets
from analysis.selfplay.table import PlayGame, deal
from dashboard.state import play_games

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


def _play(g: PlayGame, pick: int) -> PlayGame:
    """A scripted person through every hand: draws, discards the ``pick``-th tile of the rack."""
    seat = g.people[0]
    while True:
        for _ in range(300):
            g.bots_until_person()
            if g.over:
                break
            s = g.state()
            assert s is not None
            if s.phase == "draw":
                g.person({"type": "draw", "seat": seat})
            s = g.state()
            assert s is not None
            rack = s.racks[seat]
            g.person({"type": "discard", "seat": seat, "tile": str(rack[min(pick, len(rack) - 1)])})
        if g.game_over:
            return g
        g.next_hand()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return empty_board(tmp_path / "sets.duckdb", monkeypatch)


def test_a_set_deals_the_same_hands_to_everyone_and_the_expert_once(db: Path) -> None:
    s = sets.make("club", hands=2, seed="s1", seat=1, starter=2, bots=["greedy", "random", "greedy"])
    assert len(s.expert) == 2 and s.bots == ["greedy", "person", "random", "greedy"]
    assert sets.make("club", hands=2, seed="s1", seat=1, starter=2, bots=["greedy", "random", "greedy"]).expert \
        == s.expert  # reproducible
    g = s.game("oyun-20261205-100000", "Ayşe")
    assert g.dset == "club" and g.people == [1] and g.players[1] == "Ayşe" and g.header()["set"] == "club"
    assert (g.indicator, g.racks, g.deck) == deal("s1", 1, 0, 21, 2)


def test_results_pair_each_deal_with_the_experts_and_rank_the_people(db: Path) -> None:
    s = sets.make("club", hands=2, seed="s2", bots=["greedy"] * 3)
    sets.save(db, s)
    for k, (who, pick) in enumerate((("Ayşe", 0), ("Ali", 5))):
        g = _play(s.game(f"oyun-20261205-10000{k}", who), pick)
        play_games.save(str(db), g)
    res = sets.results(db, sets.load(db, "club"))
    assert [r["rank"] for r in res["people"]] == [1, 2]
    by = {r["person"]: r for r in res["people"]}
    for who, r in by.items():
        diffs = [a - b for a, b in zip(r["scores"], s.expert)]
        assert (r["mean_diff"], r["low"], r["high"]) == paired_ci(diffs)
        assert r["deals"] == 2
    assert res["people"][0]["mean_diff"] <= res["people"][1]["mean_diff"]


def _replayed_scores(log: str, seat: int, tmp: Path) -> list[int]:
    """A game's hand scores at ``seat`` (E4-E8 with its penalties) as the engine replays its log."""
    f = tmp / "g.jsonl"
    f.write_text(log, encoding="utf-8")
    res = replay_game(read_file(str(f)).games[0])
    assert res.error is None and all(h.valid for h in res.hands)
    return [h.totals()[seat] for h in res.hands if h.result != "void"]


def test_two_scripted_people_their_table_and_intervals_are_match_arithmetic_on_the_same_scores(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Recomputed by hand: each person's deal scores from the engine's replay of their logs, the
    paired differences to the expert's, the mean and the 95% t-interval (t = 4.303 at 2 degrees of
    freedom) — equal to ``istaka set results`` and to istaka match's paired_ci."""
    s = sets.make("kulup", hands=3, seed="s4", seat=3, starter=1, bots=["greedy", "random", "greedy"])
    sets.save(db, s)
    scores: dict[str, list[int]] = {}
    for k, (who, pick) in enumerate((("Ayşe", 0), ("Ali", 4))):
        g = _play(s.game(f"oyun-20261205-11000{k}", who), pick)
        play_games.save(str(db), g)
        scores[who] = _replayed_scores(play_games.log_text(g), 3, tmp_path)
        assert len(scores[who]) == 3
    assert main(["set", "results", "kulup", "--json", "--db", str(db)]) == 0
    table = json.loads(capsys.readouterr().out)
    rows = {r["person"]: r for r in table["people"]}
    assert set(rows) == {"Ayşe", "Ali"} and table["expert"] == s.expert
    by_mean = []
    for who, mine in scores.items():
        diffs = [a - b for a, b in zip(mine, s.expert)]
        m = sum(diffs) / 3
        sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / 2)
        half = 4.303 * sd / math.sqrt(3)
        r = rows[who]
        assert r["scores"] == mine and r["expert"] == s.expert and r["deals"] == 3
        assert r["mean_diff"] == pytest.approx(m) and r["low"] == pytest.approx(m - half, abs=1e-6) \
            and r["high"] == pytest.approx(m + half, abs=1e-6)
        assert (r["mean_diff"], r["low"], r["high"]) == pytest.approx(paired_ci(diffs))  # istaka match's own
        by_mean.append((m, who))
    assert [rows[w]["rank"] for _, w in sorted(by_mean)] == [1, 2]
    assert main(["set", "results", "kulup", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    for who, r in rows.items():  # the printed table says the same
        assert f"{r['rank']}. {who}: 3 deals, {sum(r['scores'])} against the expert's {sum(s.expert)}" in text


def test_cli_creates_lists_and_gives_results(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["set", "create", "gece", "--variant", "51", "--hands", "2", "--bots", "greedy,greedy,random",
                 "--db", str(db)]) == 0
    assert "set gece: 2 deals of 51" in capsys.readouterr().out
    assert main(["set", "list", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith("gece\t51\t2 deals")
    assert main(["set", "results", "gece", "--json", "--db", str(db)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["set"] == "gece" and len(out["expert"]) == 2 and out["people"] == []
    assert main(["set", "create", "x", "--hands", "51", "--db", str(db)]) == 2  # 1-50 deals (G1)
    assert main(["set", "results", "nope", "--db", str(db)]) == 2


def test_the_play_page_starts_a_sets_game_and_shows_its_standing(db: Path) -> None:
    s = sets.make("club", hands=1, seed="s3", seat=2, bots=["greedy"] * 3)
    sets.save(db, s)
    play_games.save(str(db), _play(s.game("oyun-20261205-100010", "Zeynep"), 0))
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pl_pause_in"] = False
    at = ui.open_page(at, "play", lang="en")
    at.selectbox(key="pl_set_in").set_value("club").run()
    assert "Zeynep" in str(at.dataframe[0].value)
    at.text_input(key="pl_me_in").input("Can")
    at.button(key="pl_start").click().run()
    ui.ok(at)
    gid = at.query_params["play"]
    g = play_games.load(str(db), gid[0] if isinstance(gid, list) else gid)
    assert g is not None and g.dset == "club" and g.people == [2] and g.players[2] == "Can"


@pytest.mark.parametrize("damage", ['{"name": "club", "seat": "x"}', '[1, 2]', '{"name": "club", "bots": 5}',
                                    "{" * 5000, "not json"])
def test_a_damaged_set_file_is_one_error_never_a_traceback(db: Path, damage: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    d = sets.sets_dir(db)
    d.mkdir(parents=True, exist_ok=True)
    (d / "club.json").write_text(damage, encoding="utf-8")
    with pytest.raises(sets.SetError):
        sets.load(db, "club")
    assert main(["set", "results", "club", "--db", str(db)]) == 2
    assert "club" in capsys.readouterr().err
