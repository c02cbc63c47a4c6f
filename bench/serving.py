"""What a hostile visitor costs a served club board (docs/serving.md "Measured"): one `streamlit
run` in club mode with a writer's passphrase, Debian's Chromium for the visitor's session.

    python bench/serving.py                    # 30 files of 45 MB, 40 wrong passphrases
    python bench/serving.py --files 5 --tries 10

1. Flood: a reader on the Games page (no uploader for a reader) PUTs ``--files`` files of
   ``--mb`` MB to Streamlit's upload endpoint with its own session id; the statuses, the server's
   RSS before and after, its CPU seconds.
2. Guessing: ``--tries`` wrong passphrases through the sidebar's form, then the right one; the
   server's CPU seconds for all of them, and whether the last one logged in (it should wait).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--mb", type=int, default=45)
    ap.add_argument("--tries", type=int, default=40)
    a = ap.parse_args(argv)

    import test_served_gate as T
    from browser_helpers import chromium
    from playwright.sync_api import expect

    tmp = Path(tempfile.mkdtemp(prefix="istaka-bench-serving-"))
    with chromium() as browser, T.club_server(tmp) as (url, proc, _log):
        page, sid, xsrf = T.open_session(browser, url, "games")
        rss, cpu, t0 = T.rss_mb(proc.pid), T.cpu_s(proc.pid), time.monotonic()
        got = [T.put_file(url, sid["id"], xsrf, a.mb * 1024 * 1024) for _ in range(a.files)]
        time.sleep(2)
        print(f"flood: {a.files} files of {a.mb} MB from a reader: statuses {sorted(set(got))} "
              f"(0: answered and closed while sending); RSS {rss:.0f} -> {T.rss_mb(proc.pid):.0f} MB; "
              f"server CPU {T.cpu_s(proc.pid) - cpu:.1f} s; {time.monotonic() - t0:.1f} s")
        side = page.locator('[data-testid="stSidebar"]')
        cpu = T.cpu_s(proc.pid)
        for i in range(a.tries):
            T.login_with(page, f"tahmin-{i}")
            expect(side.locator('[data-testid="stAlert"]')).to_have_count(1, timeout=30_000)
        T.login_with(page, T.PASS)
        page.wait_for_timeout(1500)
        writer = "Yazar olarak" in side.inner_text()
        print(f"guessing: {a.tries} wrong passphrases then the right one: server CPU {T.cpu_s(proc.pid) - cpu:.2f} s; "
              f"the last one {'logged in' if writer else 'waits'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
