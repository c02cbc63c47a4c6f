"""An upload's errors on the Games page in a real browser (Debian's Chromium driven by
Playwright, one `streamlit run` on an empty store), on a phone-sized screen: each bad line is a
whole sentence in the page's language, wrapped, never cut in a table cell; a gzip file cut short
is said as such in full."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, needs_chromium, streamlit_server
from store_logs import make_game

from analysis import store

pytestmark = needs_chromium
CUT = ("Dosya bu satırdan sonra kesik (yarım indirilmiş ya da kopyalanmış olabilir): geri kalanı okunamadı; "
       "önceki oyunlar alındı.")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    d = tmp_path_factory.mktemp("uploadweb")
    db = d / "up.duckdb"
    store.connect(db, seed=False).close()
    log = d / "server.log"
    with streamlit_server(db, log) as url:
        yield {"url": url, "log": log, "dir": d}


def test_an_uploads_errors_are_whole_wrapped_sentences_on_a_phone(server: dict[str, Any]) -> None:
    from playwright.sync_api import expect, sync_playwright

    bad = {"type": "game", "game": "up-bad", "variant": "101", "players": ["A", "B", "C", "D"]}
    text = "\n".join(json.dumps(e) for e in make_game("up-ok", seed=3) + [bad])
    text += '\n{"type":"draw","game":"up-bad","hand":1,"seat":0,"tile":tru}\n{"type":"draw","game":"up-bad"}\n'
    whole = gzip.compress(text.encode() + "\n".join(json.dumps(e) for e in make_game("up-cut", seed=4)).encode())
    f = server["dir"] / "kahve.jsonl.gz"
    f.write_bytes(whole[:-30])
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pg = b.new_context(viewport={"width": 390, "height": 844}).new_page()
            pg.goto(f"{server['url']}/games?lang=tr", wait_until="domcontentloaded")
            expect(pg.locator("h1").first).to_have_text("Oyunlar", timeout=30_000)
            pg.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(f))
            box = pg.locator(".st-key-upload_errors")
            expect(box).to_contain_text(CUT, timeout=60_000)
            items = box.locator("li")
            assert items.count() == 3, box.inner_text()
            said = [items.nth(i).inner_text() for i in range(3)]
            assert said[0].startswith("Satır ") and "Bu satır okunamıyor" in said[0], said
            assert "Bu çekiş olayında el numarası alanı eksik." in said[1], said
            for i in range(3):  # wrapped on the phone's width, nothing hidden past its edge
                cut = items.nth(i).evaluate("e => e.scrollWidth > e.clientWidth + 1")
                assert not cut, said[i]
            assert items.nth(2).evaluate("e => e.getBoundingClientRect().height") > 40  # on several lines
        finally:
            b.close()
    assert "Traceback" not in server["log"].read_text(errors="replace")
