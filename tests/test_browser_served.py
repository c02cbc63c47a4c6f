"""In a real browser: the dashboard served read-only (nothing to write, the
pages say so, the database file unchanged) and as a club board (a reader sees no uploader; a
writer logs in with the passphrase whose hash is in secrets.toml and gets it). One server per
mode for the module."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import chromium, needs_chromium, streamlit_server
from dashboard_logs import many_games, write_log
from store_logs import stored

pytestmark = needs_chromium
PASS = "kahve-101"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("served")
    return stored(d / "served.duckdb", write_log(d / "g.jsonl", many_games(3)))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as b:
        yield b


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_read_only_serves_every_page_with_no_uploader_and_writes_nothing(db: Path, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    before = _digest(db)
    log = tmp_path / "ro.log"
    with streamlit_server(db, log, args=("--", "--read-only")) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for path in ("games", "replay", "lab", "players", "review", "practice", "rules"):
            page.goto(f"{url}/{path}", wait_until="domcontentloaded")
            side = page.locator('[data-testid="stSidebar"]')
            expect(side).to_contain_text("Salt okunur", timeout=30_000)
            expect(side).to_contain_text("served.duckdb")
            assert str(db.parent) not in side.inner_text(), path
            expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(0)
        page.close()
    assert "Traceback" not in log.read_text(errors="replace")
    assert _digest(db) == before


def test_club_mode_gives_the_uploader_only_after_the_writer_logs_in(db: Path, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    from dashboard.state.access import hash_passphrase

    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'[istaka]\nwriter_passphrase = "{hash_passphrase(PASS, rounds=2_000)}"\n')
    log = tmp_path / "club.log"
    with streamlit_server(db, log, env={"ISTAKA_MODE": "club"}, args=("--secrets.files", str(secrets))) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{url}/games", wait_until="domcontentloaded")
        main = page.locator('[data-testid="stMain"]')
        expect(main).to_contain_text("Okuyucu olarak", timeout=30_000)
        expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(0)
        side = page.locator('[data-testid="stSidebar"]')
        side.locator('input[type="password"]').fill("yanlış")
        side.get_by_role("button", name="Giriş").click()
        expect(side).to_contain_text("Parola yanlış", timeout=30_000)
        side.locator('input[type="password"]').fill(PASS)
        side.get_by_role("button", name="Giriş").click()
        expect(page.locator('[data-testid="stFileUploader"]')).to_have_count(1, timeout=30_000)
        expect(side).to_contain_text("Yazar olarak")
        page.close()
    assert "Traceback" not in log.read_text(errors="replace")
