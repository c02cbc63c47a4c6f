"""The sample's played game (data/sample/played-101.jsonl.gz): a scripted person against three
bots, written as the Play page writes it; the committed file is the regenerated one, and it imports
valid, agreeing with its scores, naming its person. The sample's duplicate set with two scripted
people is beside a new database after setup."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from analysis import store
from analysis.game import read_file
from analysis.selfplay import paired_ci, sets
from analysis.selfplay.played_sample import PLAYED_FILE, PLAYED_ID, SET_NAME, played_lines, sample_set


def test_the_committed_played_game_is_the_regenerated_one_and_imports_naming_its_person(tmp_path: Path) -> None:
    path = store.SAMPLE_DIR / PLAYED_FILE
    committed = gzip.decompress(path.read_bytes()).decode("utf-8")
    assert committed == "".join(played_lines())  # python -m analysis.selfplay.played_sample rebuilds it
    games = read_file(str(path)).games
    assert len(games) == 1 and games[0].people == [0] and games[0].header["bots"][0] is None
    assert any(e["type"] == "open" and e["seat"] == 0 for _, e in games[0].events)  # the person opened
    con = store.connect(tmp_path / "s.duckdb", seed=False)
    try:
        s = store.import_paths(con, [str(path)], workers=1)
        assert s.stored == 1 and s.invalid == 0
        assert con.execute("SELECT valid, agrees FROM games WHERE game = ?", [PLAYED_ID]).fetchall() == [(True, True)]
    finally:
        con.close()


def test_the_sample_set_two_people_against_the_expert_is_there_after_setup(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """data/sample/sets/ and data/sample/played/: the committed people's games are the regenerated
    ones, and a new default database (as ./setup.sh makes it) has the set and its table."""
    s, games = sample_set()
    for g in games:
        committed = json.loads((store.SAMPLE_DIR / "played" / f"{g.id}.json").read_text(encoding="utf-8"))
        assert committed == json.loads(json.dumps(g.to_dict()))  # python -m analysis.selfplay.played_sample
    sample = tmp_path / "sample"
    for sub in ("sets", "played"):
        shutil.copytree(store.SAMPLE_DIR / sub, sample / sub)
    monkeypatch.setattr(store.connection, "SAMPLE_DIR", sample)
    db = tmp_path / "data" / "istaka.duckdb"
    monkeypatch.setenv(store.ENV_DB, str(db))
    store.connect().close()
    assert sets.names(db) == [SET_NAME]
    ds = sets.load(db, SET_NAME)
    res = sets.results(db, ds)
    assert [r["person"] for r in res["people"]] == ["Deniz", "Ece"]  # the club player ahead of the beginner
    for r in res["people"]:
        assert r["deals"] == ds.hands == 3
        assert (r["mean_diff"], r["low"], r["high"]) == paired_ci([a - b for a, b in zip(r["scores"], ds.expert)])
