"""The served board's reads (docs/serving.md): one held read-only connection shared by every burst
of reads, each on its own cursor, let go before a write of this process, when idle (so that
``istaka import`` in another process finds the file free) and when old; and on a served board, a
step of a game with no stored deep review is judged only when a reader asks."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import apptest_helpers as ui
import pytest
from dashboard_logs import many_games, write_log
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from dashboard.state import data, deep_data
from dashboard.words.i18n import t

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
# another process opening the file read-write, at once (no retry): 0 when it could, 3 when busy
WRITER = ("import sys\nfrom analysis import store\n"
          "try:\n    store.connect(sys.argv[1], wait=0, seed=False).close()\nexcept store.DatabaseBusy:\n    sys.exit(3)\n")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = stored(tmp_path / "reads.duckdb", write_log(tmp_path / "g.jsonl", many_games(2)))
    monkeypatch.setenv("ISTAKA_DB", str(path))
    return path


def count(cur: object) -> int:
    return int(cur.execute("SELECT count(*) FROM games").fetchall()[0][0])  # type: ignore[attr-defined]


def bursts(r: data._Reader, path: Path, n: int = 1) -> None:
    """``n`` bursts of reads, one after the other, each seeing the two games."""
    for _ in range(n):
        with r.cursor(str(path)) as cur:
            assert count(cur) == 2


def other_process_writes(path: Path) -> int:
    return subprocess.run([sys.executable, "-c", WRITER, str(path)], cwd=ROOT, timeout=60).returncode


def test_bursts_share_one_connection_each_on_its_own_cursor(db: Path) -> None:
    r = data._Reader()
    bursts(r, db, 5)
    assert r.opens == 1
    seen: list[int] = []

    def burst() -> None:
        with r.cursor(str(db)) as cur:
            seen.append(count(cur))

    threads = [threading.Thread(target=burst) for _ in range(8)]  # sessions reading at once
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [2] * 8 and r.opens == 1
    r.close()


def test_the_held_connection_goes_before_a_write_of_this_process(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "READER", data._Reader())
    with data.reading_db() as cur:
        assert count(cur) == 2
    assert data.READER._con is not None  # held between bursts
    # DuckDB refuses a read-write connection beside a read-only one of the same process; the
    # writing side lets the reader go first, so the write neither waits nor fails
    t0 = time.monotonic()
    with data.writing_db(authorized=True) as con:
        con.execute("DELETE FROM notes")
    assert time.monotonic() - t0 < 5 and data.READER._con is None
    with data.reading_db() as cur:
        assert count(cur) == 2
    assert data.READER.opens == 2


def test_an_idle_reader_lets_another_process_write(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "READER_IDLE", 120.0)
    r = data._Reader()
    bursts(r, db)
    assert other_process_writes(db) == 3  # held: another process cannot open the file
    monkeypatch.setattr(data, "READER_IDLE", 0.0)
    r._idle()  # what the idle timer does once READER_IDLE has passed without a read
    assert r._con is None
    assert other_process_writes(db) == 0


def test_the_idle_timer_closes_the_connection(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "READER_IDLE", 0.2)
    r = data._Reader()
    bursts(r, db, 3)
    assert r._con is not None
    deadline = time.monotonic() + 10
    while r._con is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert r._con is None and r.opens == 1


def test_an_old_connection_is_let_go_at_a_bursts_end(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "READER_AGE", 0.0)
    r = data._Reader()
    for _ in range(3):
        bursts(r, db)
        assert r._con is None
    assert r.opens == 3


def test_a_burst_on_another_database_opens_its_own(db: Path, tmp_path: Path) -> None:
    other = stored(tmp_path / "other.duckdb", write_log(tmp_path / "h.jsonl", many_games(3, seed=7)))
    r = data._Reader()
    with r.cursor(str(db)) as a:
        with r.cursor(str(other)) as b:  # while the held one is in use: opened and closed alone
            assert (count(a), count(b)) == (2, 3)
        assert r._path == str(db)
    with r.cursor(str(other)) as b:  # nobody reading: the held one follows the file asked
        assert count(b) == 3
    assert r._path == str(other) and r.opens == 2
    r.close()


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_served_board_judges_a_step_when_a_reader_asks(db: Path, monkeypatch: pytest.MonkeyPatch,
                                                          lang: str) -> None:
    """Club mode, no deep review stored: stepping costs no pricing; the button judges the step with
    the deep review's own worlds and seed, and the next reader there sees it without asking."""
    monkeypatch.setenv("ISTAKA_MODE", "club")
    monkeypatch.setattr(deep_data, "DEEP_WORLDS", 8)  # the same verdict on fewer worlds: a quick test
    monkeypatch.setattr(deep_data, "_JUDGED", type(deep_data._JUDGED)())
    calls: list[int] = []
    real = deep_data.judge_spot
    monkeypatch.setattr(deep_data, "judge_spot", lambda *a, **k: calls.append(1) or real(*a, **k))
    deep_data._verdicts.clear()
    with store.reading(db) as con:
        game = str(store.queries.list_games(con)["game"].iloc[0])
    step = 1 if lang == "tr" else 2
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=game, hand=1, step=step, lang=lang)
    ask = t("dv_replay_ask", lang)
    judge = [b for b in at.button if b.key.startswith("dv_judge_1_")]  # (the step its turn's decision is at)
    assert len(judge) == 1 and judge[0].label == t("dv_replay_judge", lang)
    assert any(c.value == ask for c in at.caption) and not calls
    judge[0].click().run()
    ui.ok(at)
    assert calls and not any(c.value == ask for c in at.caption)
    computed = [c.value for c in at.caption if c.value.startswith(t("dv_replay_computed", lang, n=8)[:30])]
    assert computed, [c.value for c in at.caption]
    n = len(calls)
    again = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=game, hand=1, step=step, lang=lang)
    assert not [b for b in again.button if b.key.startswith("dv_judge_")]  # judged: shown to everyone
    assert any(c.value in computed for c in again.caption) and len(calls) == n  # from the cache
    monkeypatch.setenv("ISTAKA_MODE", "local")
    deep_data._verdicts.clear()
    deep_data._JUDGED.clear()
    local = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=game, hand=1, step=step,
                         lang=lang)
    assert not [b for b in local.button if b.key.startswith("dv_judge_")]  # unserved: judged at once
    assert len(calls) > n
