"""The Parquet lake: `istaka export --parquet DIR --partition variant,month` writes
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


def _same(a: Any, b: Any) -> bool:
    """Two query results (DataFrames, or lists of rows) hold the same values."""
    return bool(a.equals(b)) if hasattr(a, "equals") else bool(a == b)


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
    assert (lake / "imports" / "data.parquet").is_file()  # a file's import record: no game to partition by
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


def test_shards_each_with_its_own_writer_append_into_one_lake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample split by month into two databases (two writers); exported into one lake, the
    second appended: the lake reads as the whole archive, game by game."""
    import gzip

    months: dict[str, list[str]] = {}
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as fh:
        for line in fh:
            ev = json.loads(line)
            if ev["type"] == "game":
                key = ev["started"][:7]
            months.setdefault(key, []).append(line)
    assert sorted(months) == ["2026-09", "2026-10"]
    dbs = []
    for m, lines in sorted(months.items()):
        log = tmp_path / f"{m}.jsonl"
        log.write_text("".join(lines), encoding="utf-8")
        con = store.connect(tmp_path / f"{m}.duckdb", seed=False)
        store.import_paths(con, [str(log)], workers=1)
        con.close()
        dbs.append(tmp_path / f"{m}.duckdb")
    whole = tmp_path / "whole.duckdb"
    con = store.connect(whole, seed=False)
    store.import_paths(con, [str(tmp_path / f"{m}.jsonl") for m in sorted(months)], workers=1)
    con.close()
    lake = tmp_path / "lake"
    assert cli(["export", "--db", str(dbs[0]), "--parquet", str(lake), "--partition", "variant,month"]) == 0
    assert cli(["export", "--db", str(dbs[1]), "--parquet", str(lake), "--partition", "variant,month",
                "--append"]) == 0
    with store.reading(whole) as w, store.reading(lake) as lk:
        for t in ("games", "events", "hands", "hand_seats", "players", "schema_migrations", "imports"):
            assert lk.execute(f"SELECT count(*) FROM {t}").fetchall() == w.execute(f"SELECT count(*) FROM {t}").fetchall()
        assert lk.execute("SELECT count(DISTINCT gid), count(DISTINCT import_id) FROM games").fetchall() == [(60, 2)]
        for g in [r[0] for r in w.execute("SELECT game FROM games ORDER BY game").fetchall()][::7]:
            assert queries.game_events(lk, g) == queries.game_events(w, g)
            assert _same(queries.game_hands(lk, g), queries.game_hands(w, g))
        assert _same(queries.player_stats(lk), queries.player_stats(w))
    # the same games again: refused, the lake unchanged
    assert cli(["export", "--db", str(dbs[1]), "--parquet", str(lake), "--partition", "variant,month",
                "--append"]) == 2
    with store.reading(lake) as lk:
        assert lk.execute("SELECT count(*) FROM games").fetchall() == [(60,)]


def test_the_review_page_on_a_lake_offers_no_analysis_and_says_why(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lake is read-only: the Review page explains it in the page's language instead of offering
    buttons that would fail to write."""
    from streamlit.testing.v1 import AppTest

    from apptest_helpers import open_page

    lake = tmp_path / "lake"
    assert cli(["export", "--parquet", str(lake), "--partition", "variant", "--db", str(db)]) == 0
    monkeypatch.setenv(store.ENV_DB, str(lake))
    for lang, words in (("tr", "salt okunur"), ("en", "read-only")):
        at = open_page(AppTest.from_file(str(REPO / "dashboard" / "app.py"), default_timeout=90), "review", lang=lang)
        assert any(words in i.value for i in at.info), [i.value for i in at.info]
        assert not [b for b in at.button if b.label.startswith(("Analyse", "İncele", "Derin", "Deep"))]
