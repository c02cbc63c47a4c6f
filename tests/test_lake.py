"""The Parquet lake (issue 16): `istaka export --parquet DIR --partition variant,month` writes
hive-partitioned tables, and ISTAKA_DB=DIR opens them read-only with the store's own rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis import store
from analysis.cli import main as cli
from analysis.store import queries

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample" / "games.jsonl.gz"


def _tables(con: Any) -> list[str]:
    return [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                                      "ORDER BY table_name").fetchall()]


def _rows(con: Any, tables: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in tables}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample set, with two games' review annotations (review tables are exported too)."""
    path = tmp_path_factory.mktemp("lake") / "s.duckdb"
    con = store.connect(path, seed=False)
    try:
        store.import_paths(con, [str(SAMPLE)], workers=1)
        ids = [r[0] for r in con.execute("SELECT game FROM games ORDER BY gid LIMIT 2").fetchall()]
        assert store.analyze(con, games=ids).annotated == 2
    finally:
        con.close()
    return path


def test_export_partitions_by_variant_and_month_and_the_lake_reads_back_every_row(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lake = tmp_path / "lake"
    assert cli(["export", "--db", str(db), "--parquet", str(lake), "--partition", "variant,month"]) == 0
    capsys.readouterr()
    parts = sorted(p.relative_to(lake / "events").parent.as_posix() for p in (lake / "events").rglob("*.parquet"))
    assert "variant=101/month=2026-09" in parts and "variant=51/month=2026-10" in parts
    assert all(p.count("=") == 2 for p in parts)  # hive keys, variant then month
    assert (lake / "imports" / "data_0.parquet").is_file()  # a file's import record: no game to partition by
    with store.reading(db) as con:
        tables = _tables(con)  # the base tables and the views (player_hands)
        want = _rows(con, tables)
        types = {t: [d[1] for d in con.execute(f"SELECT * FROM {t} LIMIT 0").description] for t in tables}
    monkeypatch.setenv("ISTAKA_DB", str(lake))
    with store.reading() as con:
        assert _tables(con) == tables
        assert _rows(con, tables) == want  # same columns in the same order, same values
        assert {t: [d[1] for d in con.execute(f"SELECT * FROM {t} LIMIT 0").description] for t in tables} == types
        assert store.schema_version(con) == store.LATEST
        some = queries.list_games(con, variant="51")
        assert len(some) and set(some.variant) == {"51"}
        assert len(queries.game_events(con, some.game.iloc[0]))


def test_a_lake_is_read_only_and_a_directory_without_one_is_refused(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lake = tmp_path / "lake"
    with store.reading(db) as con:
        store.export_lake(con, lake, ("variant",))
    with pytest.raises(store.StoreError, match="opens read-only"):
        store.connect(lake)
    monkeypatch.setenv("ISTAKA_DB", str(lake))
    assert cli(["import", str(SAMPLE)]) == 2
    assert "Parquet lake, which opens read-only" in capsys.readouterr().err
    assert cli(["errors", "--json"]) == 0
    with pytest.raises(store.StoreError, match="without a Parquet lake"):
        store.connect(tmp_path)
    # an export into a directory holding something else is refused; over an earlier lake it replaces it
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert cli(["export", "--db", str(db), "--parquet", str(tmp_path / "other"), "--partition", "month"]) == 2
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"
    assert cli(["export", "--db", str(db), "--parquet", str(lake), "--partition", "month,site"]) == 0
    manifest = json.loads((lake / "_istaka_lake.json").read_text())
    assert manifest["partition"] == ["month", "site"]
    assert not list((lake / "games").glob("variant=*"))  # the old layout is gone
    assert cli(["export", "--db", str(db), "--parquet", str(lake), "--partition", "colour"]) == 2
    assert "variant, month, year, site" in capsys.readouterr().err
