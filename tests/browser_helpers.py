"""What the real-browser tests share: Debian's Chromium and its flags, and a `streamlit run` of
the dashboard on a free port against a given database, its output in a log file."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason=f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(db: Path, log: Path, env: dict[str, str] | None = None,
                     args: tuple[str, ...] = ()) -> Iterator[str]:
    """The dashboard on ``db``, served until the block ends; yields its base URL. Everything the
    server prints goes to ``log`` (tests look there for tracebacks). ``env``: more variables
    (ISTAKA_MODE); ``args``: more ``streamlit run`` options (``--secrets.files``), or the
    script's own after ``--``."""
    port = _free_port()
    env = dict(os.environ, ISTAKA_DB=str(db), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **(env or {}))
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.headless",
                                 "true", "--server.address", "127.0.0.1", "--server.port", str(port), *args],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
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
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright (never a downloaded browser), closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
