"""``istaka analyze``: with ``--game`` the summary counts only the games asked for (it counted every
stored game: "68 games: 1 annotated ... 67 already annotated"), a game not stored is named; and
where no progress bar can be drawn (a log file, a pipe) a line per game goes to stderr, unless
``--no-progress``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from analysis.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
GAMES = ("kahve-2026-09-07-1", "kahve-2026-09-07-2", "kahve-2026-09-08-3")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("analyze")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as f:
        lines = [x for x in f if json.loads(x).get("game") in GAMES]
    (d / "three.jsonl").write_text("".join(lines), encoding="utf-8")
    assert main(["import", "--db", str(d / "a.duckdb"), "--no-progress", str(d / "three.jsonl")]) == 0
    return d / "a.duckdb"


def test_game_counts_only_the_games_asked_for_and_logs_a_line_each(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["analyze", "--db", str(db), "--game", GAMES[0]]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("1 games: 1 annotated (") and ", 0 already annotated by " in out, out
    assert err.startswith(f"analyze: 1/1 {GAMES[0]}: ") and err.count("\n") == 1 and "decisions" in err, err
    assert main(["analyze", "--db", str(db), "--game", GAMES[0], "--game", GAMES[1], "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("2 games: 1 annotated (") and ", 1 already annotated by " in out, out
    assert err == ""  # --no-progress: not a line


def test_a_game_not_stored_is_named_and_counted_failed(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["analyze", "--db", str(db), "--game", "nope", "--game", GAMES[2], "--json"]) == 1
    out, err = capsys.readouterr()
    s = json.loads(out)
    assert (s["games"], s["failed"], s["annotated"] + s["skipped"]) == (2, 1, 1), s
    assert s["errors"] == ["nope: no such game in the database"]
    assert err.count("\n") == 1 and GAMES[2] in err  # a line for the game reviewed, none for the missing one
