"""bench/load_ws.py at a small size: readers and writers over the Streamlit protocol (websocket
clients, no browser) against one server; every write shown is stored once, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readers_and_writers_over_the_protocol_lose_nothing_and_raise_nothing() -> None:
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "load_ws.py"), "--readers", "2", "--writers", "1",
                        "--seconds", "6", "--think", "0"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    out = p.stdout
    assert "writes note" in out and "writes study item" in out, p.stderr[-2000:]
    for line in out.splitlines():
        if line.startswith("writes "):
            assert " 0 lost, 0 stored twice" in line, out
    assert "0 tracebacks in the server log, 0 page exceptions" in out, out
    assert p.returncode == 0, out
    assert "server RSS:" in out and "replay" in out
