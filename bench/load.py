"""Issue 25, Deliver 4: readers and writers at once against one `streamlit run` of the dashboard,
in a real browser (Debian's Chromium through Playwright, one browser, one context per user).

    python bench/load.py                       # 20 readers, 2 writers, 300 s (the issue's run)
    python bench/load.py --readers 4 --writers 1 --seconds 30    # a quick one

Readers walk the pages (Games, Replay of a game, Players, Review, Rules) and time each from the
navigation to the page painted and idle; writers upload a new one-game log every few seconds
through the Games page's uploader. At the end: every uploaded game stored exactly once, the
server log and the pages free of tracebacks, and the reader page times (median, p95), with the
machine's load beside them. Exit 1 when a write was lost or doubled or a traceback was seen.

Works on a copy of the database it is given (default: the sample, imported fresh), never on
data/istaka.duckdb itself. Other writers (score sheet rows, notes, studies) add a coroutine
beside ``writer`` and the ids they wrote to ``Tally.written``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_helpers import ARGS, CHROMIUM, streamlit_server  # noqa: E402

PAGES = ("games", "replay", "players", "review", "rules")


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_loads: int = 0


async def _idle(page) -> None:  # type: ignore[no-untyped-def]
    await page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=120_000)


async def reader(browser, url: str, games: list[str], until: float, tally: Tally, seed: int) -> None:  # type: ignore[no-untyped-def]
    rnd = random.Random(seed)
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    try:
        while time.monotonic() < until:
            name = rnd.choice(PAGES)
            target = f"{url}/{name}" + (f"?game={rnd.choice(games)}" if name in ("replay", "review") else "")
            t0 = time.perf_counter()
            try:
                await page.goto(target, wait_until="domcontentloaded", timeout=120_000)
                await page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=120_000)
                await _idle(page)
            except Exception as e:  # noqa: BLE001  (a load that never finished is counted, the run goes on)
                tally.failed_loads += 1
                tally.page_errors.append(f"{name}: {type(e).__name__}")
                continue
            tally.times.setdefault(name, []).append(time.perf_counter() - t0)
            if await page.locator('[data-testid="stException"]').count():
                tally.page_errors.append(f"{name}: an exception box")
            await asyncio.sleep(rnd.uniform(0.2, 1.0))
    finally:
        await ctx.close()


def _one_game_log(gid: str, seed: int) -> bytes:
    from dashboard_logs import make_game

    return ("\n".join(json.dumps(e) for e in make_game(gid, seed=seed)) + "\n").encode()


async def writer(browser, url: str, until: float, tally: Tally, k: int, work: Path) -> None:  # type: ignore[no-untyped-def]
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    n = 0
    try:
        await page.goto(f"{url}/games", wait_until="domcontentloaded", timeout=120_000)
        while time.monotonic() < until:
            n += 1
            gid = f"load-w{k}-{n}"
            p = work / f"{gid}.jsonl"
            p.write_bytes(_one_game_log(gid, seed=1000 * k + n))
            try:
                drop = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
                await drop.wait_for(state="attached", timeout=120_000)
                await _idle(page)
                await drop.set_input_files(str(p), timeout=120_000)
                # the page's link to the new game (not the file's name in the uploader's list)
                await page.locator(f'a[href*="game={gid}&"]').first.wait_for(timeout=120_000)
                tally.written.append(gid)
            except Exception as e:  # noqa: BLE001
                tally.page_errors.append(f"upload {gid}: {type(e).__name__}")
            await asyncio.sleep(2.0)
            await page.goto(f"{url}/games", wait_until="domcontentloaded", timeout=120_000)  # a fresh uploader
    finally:
        await ctx.close()


async def main_async(args: argparse.Namespace, db: Path, work: Path) -> tuple[Tally, str]:
    from playwright.async_api import async_playwright

    from analysis import store
    from analysis.store import queries

    with store.reading(db) as con:
        games = [str(g) for g in queries.list_games(con)["game"]][:40]
    tally = Tally()
    log = work / "server.log"
    with streamlit_server(db, log) as url:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            until = time.monotonic() + args.seconds
            tasks = [reader(browser, url, games, until, tally, s) for s in range(args.readers)]
            tasks += [writer(browser, url, until, tally, k, work) for k in range(args.writers)]
            await asyncio.gather(*tasks)
            await browser.close()
    return tally, log.read_text(errors="replace")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readers", type=int, default=20)
    ap.add_argument("--writers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--db", help="a database to copy (default: the sample imported fresh)")
    args = ap.parse_args()
    from analysis import store

    with tempfile.TemporaryDirectory(prefix="istaka-load-") as tmp:
        work = Path(tmp)
        db = work / "load.duckdb"
        if args.db:
            shutil.copy(args.db, db)
        else:
            con = store.connect(db, seed=False)
            store.import_paths(con, [str(ROOT / "data" / "sample")], workers=1)
            con.close()
        load0 = os.getloadavg()
        t0 = time.perf_counter()
        tally, server_log = asyncio.run(main_async(args, db, work))
        wall = time.perf_counter() - t0
        with store.reading(db) as con:
            counts = dict(con.execute("SELECT game, count(*) FROM games WHERE game LIKE 'load-w%' GROUP BY game")
                          .fetchall())
    lost = [g for g in tally.written if counts.get(g, 0) == 0]
    doubled = [g for g, c in counts.items() if c != 1]
    stray = [g for g in counts if g not in tally.written]  # stored though the page never showed it
    tracebacks = server_log.count("Traceback")
    times = [x for v in tally.times.values() for x in v]
    print(f"load test: {args.readers} readers, {args.writers} writers, {args.seconds:g} s asked, {wall:.0f} s run; "
          f"load {load0[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"writes   {len(tally.written)} uploads shown, {len(counts)} stored, {len(lost)} lost, {len(doubled)} "
          f"stored more than once, {len(stray)} stored without being shown")
    print(f"pages    {len(times)} loads, {tally.failed_loads} unfinished; "
          + (f"median {statistics.median(times):.2f} s, p95 {_p95(times):.2f} s" if times else "none"))
    for name, v in sorted(tally.times.items()):
        print(f"  {name:8} {len(v):4} loads, median {statistics.median(v):.2f} s, p95 {_p95(v):.2f} s")
    print(f"errors   {tracebacks} server tracebacks, {len(tally.page_errors)} page errors "
          f"{tally.page_errors[:5] if tally.page_errors else ''}")
    return 1 if (lost or doubled or tracebacks or any("exception" in e for e in tally.page_errors)) else 0


def _p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


if __name__ == "__main__":
    sys.exit(main())
