"""A club board served for real (docs/serving.md): Streamlit's own upload endpoint, hit with HTTP
requests, stores nothing for a session whose page has no uploader, and keeps a session's budget;
the writer's login survives a reload through its cookie and a logout ends it; 40 wrong
passphrases cost the server little CPU and the 41st, right, waits."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ROOT, chromium, needs_chromium
from dashboard_logs import many_games, write_log
from store_logs import stored

pytestmark = needs_chromium
PASS = "kahve-101"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@contextmanager
def club_server(tmp: Path, mode: str = "club", **env: str) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """The dashboard in ``mode`` with a writer's passphrase, its database in ``tmp/data`` (made
    when missing); yields (url, process, log)."""
    from dashboard.state.access import hash_passphrase

    (tmp / "data").mkdir(exist_ok=True)
    db = tmp / "data" / "club.duckdb"
    if not db.exists():
        stored(db, write_log(tmp / "g.jsonl", many_games(2)))
    secrets = tmp / "secrets.toml"
    secrets.write_text(f'[istaka]\nwriter_passphrase = "{hash_passphrase(PASS)}"\n')
    with socket.socket() as so:  # a free port of this machine
        so.bind(("127.0.0.1", 0))
        port = so.getsockname()[1]
    log = tmp / "server.log"
    full = dict(os.environ, ISTAKA_DB=str(db), ISTAKA_MODE=mode, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **env)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.headless",
                                 "true", "--server.address", "127.0.0.1", "--server.port", str(port),
                                 "--secrets.files", str(secrets)], cwd=ROOT, env=full, stdout=out,
                                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.3)
        yield url, proc, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _session(page: Any) -> dict[str, str]:
    """Record the session id the server sends on the page's websocket (its NewSession message)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    got: dict[str, str] = {}

    def frame(payload: Any) -> None:
        if isinstance(payload, (bytes, bytearray)) and "id" not in got:
            try:
                msg = ForwardMsg.FromString(bytes(payload))
            except Exception:  # noqa: BLE001  (another frame)
                return
            if msg.WhichOneof("type") == "new_session":
                got["id"] = msg.new_session.initialize.session_id

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return got


def put_file(url: str, session: str, xsrf: str, size: int) -> int:
    """PUT one file of ``size`` bytes to Streamlit's upload endpoint for ``session``: the status, or
    0 when the server answered and closed the connection while the body was still being sent."""
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.jsonl\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + b"x" * size + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(f"{url}/_stcore/upload_file/{session}/{uuid.uuid4()}", data=body, method="PUT",
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                          "X-Xsrftoken": xsrf, "Cookie": f"_streamlit_xsrf={xsrf}"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
    except (urllib.error.URLError, ConnectionError) as e:
        if isinstance(e, ConnectionError) or isinstance(getattr(e, "reason", None), ConnectionError):
            return 0
        raise


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_session(browser: Any, url: str, path: str, ready: str = "Yazar girişi") -> tuple[Any, dict[str, str], str]:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    sid = _session(page)
    page.goto(f"{url}/{path}", wait_until="domcontentloaded")
    expect(page.locator('[data-testid="stSidebar"]')).to_contain_text(ready, timeout=60_000)
    xsrf = next(c["value"] for c in ctx.cookies() if c["name"] == "_streamlit_xsrf")
    deadline = time.monotonic() + 20
    while "id" not in sid and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert "id" in sid, "no session id seen on the websocket"
    return page, sid, xsrf


def login_with(page: Any, pw: str) -> None:
    side = page.locator('[data-testid="stSidebar"]')
    side.locator('input[type="password"]').fill(pw)
    side.get_by_role("button", name="Giriş").click()


def test_the_upload_endpoint_stores_nothing_without_an_uploader_and_keeps_a_budget(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with club_server(tmp_path, ISTAKA_UPLOAD_SESSION_MB="2", ISTAKA_UPLOAD_SERVER_MB="3") as (url, proc, log):
        page, sid, xsrf = open_session(browser, url, "games")  # a reader: no uploader on the page
        assert put_file(url, sid["id"], xsrf, 1000) == 400  # refused before the body is read
        rss0 = rss_mb(proc.pid)
        statuses = [put_file(url, sid["id"], xsrf, 45 * 1024 * 1024) for _ in range(4)]
        grown = rss_mb(proc.pid) - rss0
        assert set(statuses) <= {0, 400}, statuses  # 0: answered 400 and closed while the body came
        assert grown < 150, f"the server kept {grown:.0f} MB of refused uploads"
        login_with(page, PASS)  # a writer: the games page shows the uploader
        expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(1, timeout=60_000)
        mb = 1024 * 1024
        assert [put_file(url, sid["id"], xsrf, mb) for _ in range(3)] == [204, 204, 413], "the session's budget"
        # the same session moves to a page with no uploader (the sidebar's link): no file stored
        page.locator('[data-testid="stSidebarNav"] a', has_text="Kurallar").click()
        expect(page.locator('[data-testid="stMain"] h1').first).to_contain_text("Kurallar", timeout=60_000)
        deadline = time.monotonic() + 30  # once the page's run has ended
        while (got := put_file(url, sid["id"], xsrf, 1000)) != 400 and time.monotonic() < deadline:
            time.sleep(1)
        assert got == 400
        page.context.close()
    assert "Traceback" not in log.read_text(errors="replace")


def test_a_writer_stays_through_a_reload_logs_out_and_a_guesser_costs_little(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with club_server(tmp_path) as (url, proc, log):
        page, _, _ = open_session(browser, url, "rules")
        side = page.locator('[data-testid="stSidebar"]')
        cpu0 = cpu_s(proc.pid)
        for i in range(40):
            login_with(page, f"tahmin-{i}")
            expect(side.locator('[data-testid="stAlert"]')).to_have_count(1, timeout=30_000)
        login_with(page, PASS)
        page.wait_for_timeout(1500)
        cpu = cpu_s(proc.pid) - cpu0
        expect(side).to_contain_text("Çok fazla yanlış parola")
        expect(side).not_to_contain_text("Yazar olarak")
        print(f"40 wrong passphrases and the right one: {cpu:.2f} s of server CPU")
        assert cpu < 8, cpu  # 3 hashes; the rest is 41 reruns of the login form
        page.context.close()

    again = tmp_path / "again"
    again.mkdir()
    with club_server(again) as (url, proc, log):
        page, _, _ = open_session(browser, url, "games")
        side = page.locator('[data-testid="stSidebar"]')
        login_with(page, PASS)
        expect(side).to_contain_text("Yazar olarak", timeout=60_000)
        page.wait_for_timeout(1000)
        assert any(c["name"] == "istaka_writer" for c in page.context.cookies())
        page.reload(wait_until="domcontentloaded")
        expect(side).to_contain_text("Yazar olarak", timeout=60_000)  # the cookie kept the writer
        expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(1, timeout=30_000)
        side.get_by_role("button", name="Çıkış").click()
        expect(side).to_contain_text("Yazar girişi", timeout=60_000)
        page.wait_for_timeout(1000)
        page.reload(wait_until="domcontentloaded")
        expect(side).to_contain_text("Yazar girişi", timeout=60_000)
        expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(0)
        page.context.close()
    assert "Traceback" not in log.read_text(errors="replace")


def _snapshot(folder: Path) -> dict[str, str]:
    import hashlib

    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("mode", ["read-only", "club"])
def test_an_anonymous_browser_writes_nothing_on_the_score_sheet_and_the_recorder(browser: Any, tmp_path: Path,
                                                                                 mode: str) -> None:
    """The hostile pass: a sheet created, a round saved or deleted, a hand recorded and saved by
    an anonymous browser. Every button of those pages clicked; the data folder byte-identical."""
    from playwright.sync_api import expect

    from analysis import store
    from analysis.game.record import Recording
    from analysis.store import sheets
    from dashboard.state import recordings

    (tmp_path / "data").mkdir()
    db = stored(tmp_path / "data" / "club.duckdb", write_log(tmp_path / "g.jsonl", many_games(2)))
    header = {"type": "game", "game": "sheet-gate", "variant": "101", "players": ["A", "B", "C", "D"], "hands": 11,
              "started": "2026-12-05T10:00:00", "site": "istaka-sheet", "sheet": True}
    row = {"finisher": 1, "kind": "normal", "opened": ["points", "points", None, None], "left": [7, None, None, None],
           "penalties": []}
    con = store.connect(db, seed=False)
    try:
        sheets.save_sheet(con, header, [row, row])
    finally:
        con.close()
    rec = Recording("kayit-20261205-100000", variant="101", players=["A", "B", "C", "D"], view=0, starter=0)
    recordings.save(str(db), rec)
    folder = tmp_path / "data"
    before = _snapshot(folder)
    ready = "Salt okunur" if mode == "read-only" else "Yazar girişi"
    with club_server(tmp_path, mode) as (url, proc, log):
        clicked = 0
        for path in ("sheet?lang=tr", "sheet?sheet=sheet-gate&lang=tr", "sheet?sheet=sheet-gate&watch=1&lang=tr",
                     "record?lang=tr", f"record?rec={rec.id}&lang=tr"):
            page, _, _ = open_session(browser, url, path, ready)
            main = page.locator('[data-testid="stMain"]')
            expect(main).to_contain_text("Salt okunur" if mode == "read-only" else "Okuyucu", timeout=60_000)
            n = main.locator("button:enabled").count()
            for i in range(n):
                page.goto(f"{url}/{path}", wait_until="domcontentloaded")
                expect(main).to_contain_text("Salt okunur" if mode == "read-only" else "Okuyucu", timeout=60_000)
                buttons = main.locator("button:enabled")
                if i < buttons.count():
                    buttons.nth(i).click(timeout=10_000)
                    page.wait_for_timeout(1500)
                    clicked += 1
            assert main.locator(".st-key-save, .st-key-delete_row, .st-key-n_start, .st-key-rec_start").count() == 0
            page.context.close()
    assert _snapshot(folder) == before, "an anonymous browser changed the data folder"
    assert "Traceback" not in log.read_text(errors="replace")
