"""The sample's played game (data/sample/played-101.jsonl.gz): a scripted person against three
bots, written as the Play page writes it; the committed file is the regenerated one, and it imports
valid, agreeing with its scores, naming its person."""

from __future__ import annotations

import gzip
from pathlib import Path

from analysis import store
from analysis.game import read_file
from analysis.selfplay.played_sample import PLAYED_FILE, PLAYED_ID, played_lines


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
