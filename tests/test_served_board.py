"""Hostile input on the dashboard: what an outsider can upload, a reader during an import, and the
serving modes of dashboard/state/access.py (read-only, club with a writers' login), through AppTest."""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from dashboard_logs import make_game, many_games, write_log
from store_logs import stored
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PAGES = ("games", "replay", "opening_lab", "players", "review", "practice", "rules", "study")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = stored(tmp_path / "served.duckdb", write_log(tmp_path / "g.jsonl", many_games(4)))
    monkeypatch.setenv("ISTAKA_DB", str(d))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    return d


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=90)


def _log(gid: str, seed: int = 9) -> bytes:
    return ("\n".join(json.dumps(e) for e in make_game(gid, seed=seed)) + "\n").encode()


def _said(at: AppTest) -> str:
    return " ".join(m.value for m in [*at.success, *at.warning, *at.error, *at.info])


def _digest(p: Path) -> tuple[str, int]:
    return hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns


# ---- uploads (uploads' bounds and names) ------------------------------------------


def test_the_game_count_includes_an_upload_at_once_and_its_errors_keep_the_uploaded_name(db: Path) -> None:
    at = ui.open_page(_app(), "games")
    assert "4 oyun" in ui.html(at)
    name = "kahve [eylül] " + "x" * 250 + ".jsonl"  # brackets (not a glob) and a name past NAME_MAX
    at.file_uploader(key="upload").set_value((name, _log("up-1") + b"{nope\n", "application/json")).run()
    ui.ok(at)
    assert "5 oyun" in ui.html(at), "the count at the top is stale after the upload"
    from analysis import store

    with store.reading(db) as con:
        files = {r[0] for r in con.execute("SELECT file FROM games UNION SELECT file FROM import_errors "
                                           "UNION SELECT file FROM imports").fetchall()}
    assert not any("istaka-upload-" in str(f) for f in files), files
    assert any(str(f).startswith("upload/kahve [eylül] ") and len(str(f)) < 140 for f in files), files


def test_a_gzip_bomb_upload_is_refused_by_what_it_inflates_to_and_leaves_no_folder(db: Path) -> None:
    before = set(Path(tempfile.gettempdir()).glob("istaka-upload-*"))
    bomb = gzip.compress(_log("bomb-1") + b"\n" * (120 << 20), 9)  # ~120 KB, far under 50 MB compressed
    at = ui.open_page(_app(), "games")
    at.file_uploader(key="upload").set_value(("bomb.jsonl.gz", bomb, "application/gzip")).run()
    ui.ok(at)
    assert "50 MB" in _said(at) and "4 oyun" in ui.html(at)
    assert set(Path(tempfile.gettempdir()).glob("istaka-upload-*")) <= before


def test_a_reader_during_an_upload_import_waits_and_gets_no_traceback(db: Path, monkeypatch: Any) -> None:
    from analysis import store
    from dashboard.state import data, uploads

    real = store.import_paths
    seen: dict[str, Any] = {}

    def reader() -> None:
        try:
            seen["games"] = len(data._read(lambda con: con.execute("SELECT game FROM games").fetchall()))
        except Exception as e:  # noqa: BLE001  (what the other browser's page would have shown)
            seen["error"] = repr(e)

    def slow_import(con: Any, paths: Any, **kw: Any) -> Any:
        t = threading.Thread(target=reader)
        t.start()
        t.join(0.5)  # the reader waits for the write (it does not fail on the open connection)
        seen["waited"] = t.is_alive()
        seen["thread"] = t
        return real(con, paths, **kw)

    monkeypatch.setattr(store, "import_paths", slow_import)

    class Upload:
        name, size, file_id = "r.jsonl", 0, "r1"

        def getvalue(self) -> bytes:
            return _log("r-1")

    f = Upload()
    f.size = len(f.getvalue())
    import streamlit as st

    st.session_state.clear()
    uploads.import_uploaded([f], "en")
    seen["thread"].join(30)
    assert "error" not in seen, seen.get("error")
    assert seen["waited"] and seen["games"] == 5


# ---- serving modes (Deliver 2) ---------------------------------------------------------------


def test_read_only_mode_serves_every_page_without_a_write_and_says_so(db: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    before = _digest(db)
    game = "dash-m1"
    from analysis import store
    from analysis.store import queries

    with store.reading(db) as con:
        game = str(queries.list_games(con)["game"].iloc[0])
    for page in PAGES:
        at = ui.open_page(_app(), page, game=game)
        assert not at.get("file_uploader"), page
        sidebar = " ".join(c.value for c in at.sidebar.caption)
        assert "Salt okunur" in sidebar and str(db.parent) not in sidebar, (page, sidebar)
        n = len([b for b in at.button if not b.proto.disabled][:12])
        for i in range(n):  # a reader's buttons write nothing; each clicked on a fresh page (one may navigate)
            at = ui.open_page(_app(), page, game=game)
            live = [b for b in at.button if not b.proto.disabled]
            if i < len(live):
                live[i].click().run()
                ui.ok(at)
    assert _digest(db) == before
    from dashboard.state import data

    with pytest.raises(PermissionError), data.writing_db():
        pass


def test_club_mode_readers_read_and_a_writer_logs_in_with_the_passphrase(db: Path, monkeypatch: Any) -> None:
    from dashboard.state import access

    monkeypatch.setenv("ISTAKA_MODE", "club")
    at = _app()
    at.secrets["istaka"] = {"writer_passphrase": access.hash_passphrase("kahve-101", rounds=2_000)}
    at = ui.open_page(at, "games")
    assert not at.get("file_uploader") and "Okuyucu" in _said(at)
    at.sidebar.text_input(key="ac_pw").input("yanlış")
    at.sidebar.button[0].click().run()
    assert "Parola yanlış" in _said(at) and not at.get("file_uploader")
    at.sidebar.text_input(key="ac_pw").input("kahve-101")
    at.sidebar.button[0].click().run()
    ui.ok(at)
    assert at.get("file_uploader"), "a writer sees the uploader"
    assert any("Yazar olarak" in c.value for c in at.sidebar.caption)


def test_a_mode_typo_serves_read_only_and_a_flag_wins_over_the_variable() -> None:
    from dashboard.state import access

    assert access.mode([], {"ISTAKA_MODE": "read-onyl"}) == "read-only"
    assert access.mode(["--read-only"], {"ISTAKA_MODE": "local"}) == "read-only"
    assert access.mode([], {}) == "local"
    h = access.hash_passphrase("p", rounds=1_000)
    assert access.check_passphrase("p", h) and not access.check_passphrase("q", h)
    assert not access.check_passphrase("p", "plain-text-in-secrets")


# ---- one queue for long work (Deliver 3) -----------------------------------------------------


def test_the_queue_runs_one_job_at_a_time_in_order_and_cancels_waiting_and_running() -> None:
    from dashboard.state.jobs import JobQueue

    q = JobQueue()
    gate = threading.Event()
    ran: list[str] = []
    live = [0, 0]  # jobs running now, most at once

    def job(name: str) -> Any:
        def run(j: Any) -> tuple[int, str | None]:
            live[0] += 1
            live[1] = max(live[1], live[0])
            ran.append(name)
            try:
                for k in range(200):
                    if name == "a" and not gate.is_set():
                        gate.wait(0.05)
                    j.tick(k, 200)
            finally:
                live[0] -= 1
            return 1, None
        return run

    a = q.submit("deep", "a", "s1", job("a"))
    b = q.submit("deep", "b", "s2", job("b"))
    c = q.submit("deep", "c", "s3", job("c"))
    assert q.submit("deep", "a2", "s1", job("a2")) == "busy"  # one job per session
    for _ in range(100):
        if q.position(a) == 0:
            break
        threading.Event().wait(0.02)
    assert (q.position(a), q.position(b), q.position(c)) == (0, 1, 2)
    q.cancel(b)  # waiting: taken out at once
    assert q.position(c) == 1 and b.state == "cancelled"
    q.cancel(a)  # running: stops at its next tick
    gate.set()
    assert q.wait_idle(30)
    assert (a.state, b.state, c.state) == ("cancelled", "cancelled", "done")
    assert ran == ["a", "c"] and live[1] == 1


def test_a_deep_review_from_the_page_is_queued_with_its_place_and_can_be_cancelled(db: Path, monkeypatch: Any) -> None:
    from dashboard.state import deep_data, jobs

    release = threading.Event()

    def slow(game: str) -> Any:
        def run(job: Any) -> tuple[int, str | None]:
            while not release.is_set():
                job.tick(0, 10)
                release.wait(0.05)
            return 0, None
        return run

    monkeypatch.setattr(deep_data, "deep_job", slow)
    blocker = jobs.QUEUE.submit("deep", "other visitor", "someone-else", slow("x"))
    try:
        from analysis import store
        from analysis.store import queries

        with store.reading(db) as con:
            game = str(queries.list_games(con)["game"].iloc[0])
        at = ui.open_page(_app(), "review", game=game)
        at.button(key="dv_run").click().run()
        ui.ok(at)
        assert "Sırada 1." in _said(at), _said(at)  # behind the other visitor's running job
        at.button(key="jb_cancel_deep").click().run()
        ui.ok(at)
        assert "iptal edildi" in _said(at)
    finally:
        release.set()
        assert not isinstance(blocker, str)
        jobs.QUEUE.wait_idle(30)
