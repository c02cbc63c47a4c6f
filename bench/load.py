"""Readers and writers at once against one `streamlit run` of the dashboard.

    python bench/load.py                       # 20 readers, 2 writers, 300 s over the websocket protocol
    python bench/load.py --browser             # the same in real browsers (below)
    python bench/load.py --browser --readers 4 --writers 1 --seconds 30    # a quick one

Without ``--browser`` every user is a websocket client speaking the Streamlit protocol
(bench/load_ws.py: the server's own time per action, its memory over the run, writes lost or
doubled, tracebacks; tests/test_load_ws.py runs it for a few seconds). With ``--browser``, in
Debian's Chromium through Playwright, one browser, one context per user:

Readers open the app once, then walk the pages (Games, Replay, Players, Review, Rules) by the
sidebar's links (``--reload``: each by its address), time each from the click to its new title
painted and its script run to the end, then read it for ``--think`` seconds on average (10; 0
reloads at once, a load no club makes: twenty tabs reloading back to back on the server's own two
cores measure the browsers more than the board). Each writer takes the three kinds of write in turn, a
couple of seconds apart, each in its own tab: an upload of a new one-game log through the Games
page's uploader; a coach's note with its own text at a step of a stored game no other note has
(the Replay page's note panel); a row of a score sheet it keeps (the Score sheet page: a finisher
and the others' values left, Save; a new 21-round sheet when one is full or a save was not seen).
A write counts as written once the page shows it: the new game's link, "Note saved." and the
note's text, the sheet's round counter; each wait is at most 300 s, and a write not shown by then
is a page error (on a box too busy for that, few writes are made). At the end the database is
read: per kind, every write shown stored exactly once (a note with its text at its step, a
sheet's rows those shown), what was stored without being shown; the server log and the pages
free of tracebacks; the reader page times (median, p95), with the machine's load beside them.
Exit 1 when a write was lost or doubled or a traceback was seen.

Works on a copy of the database it is given (default: the sample, imported fresh), never on
data/istaka.duckdb itself. Another kind of writer (studies) adds a ``write_…`` function to
``KINDS`` and ``writer``'s turn, what it showed to ``Tally.written[kind]``, and its check to
``stored``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from browser_helpers import ARGS, CHROMIUM, streamlit_server  # noqa: E402
from sheet_driver import _WATCH  # noqa: E402  (in the page: when the script run a tap caused has ended)

PAGES = ("games", "replay", "players", "review", "rules")
KINDS = ("upload", "note", "sheet row")
WAIT = 300_000  # ms: a page under 20 readers on 2 cores (their 20 browser tabs on the same cores) can take minutes
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
NAMES = ("Ali", "Ayşe", "Mehmet", "Zeynep")  # a sheet's players (four different names are needed)
ROUNDS = 21  # a sheet's planned rounds: the most a `101` sheet allows, so a sheet lasts


@dataclass
class Tally:
    times: dict[str, list[float]] = field(default_factory=dict)
    # per kind, what the page showed written: an upload's game id; a note's (game, hand, step,
    # text); a sheet row's (sheet, finisher, values left)
    written: dict[str, list[Any]] = field(default_factory=lambda: {k: [] for k in KINDS})
    page_errors: list[str] = field(default_factory=list)
    failed_loads: int = 0
    cpu: tuple[float, float] = (0.0, 0.0)  # CPU seconds of the server and of the browsers over the run


@dataclass
class SheetKept:
    """The sheet a writer is filling: its id and the rows the page has shown saved."""

    game: str
    rows: int = 0


async def _idle(page) -> None:  # type: ignore[no-untyped-def]
    await page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=WAIT)


async def _open(page, target: str) -> None:  # type: ignore[no-untyped-def]
    """Go to a page and wait until its title is painted and its script has run to the end."""
    await page.goto(target, wait_until="domcontentloaded", timeout=WAIT)
    await page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=WAIT)
    await page.locator(IDLE).wait_for(timeout=WAIT)


async def _rerun(page, action) -> None:  # type: ignore[no-untyped-def]
    """Do ``action`` (a tap) and wait for the script run it causes to end: a number typed while
    the page still reruns for the last one can be drawn over."""
    await page.evaluate(_WATCH)
    await action()
    try:
        await page.wait_for_function("() => window.__ist.done !== null", timeout=10_000)
    except Exception:  # noqa: BLE001  (a rerun not seen starting: the idle wait below still holds)
        pass
    await page.locator(IDLE).wait_for(timeout=WAIT)


async def reader(browser, url: str, games: list[str], until: float, tally: Tally, seed: int,  # type: ignore[no-untyped-def]
                 think: float, reload: bool) -> None:
    """Walk the pages as a club member does: the app opened once (a game's Replay), then the
    sidebar's links, each page timed from the click to its new title painted and its script run to
    the end. ``reload``: every page opened by its address instead (the browser parses the whole
    app again each time: most of the box's CPU goes to the browsers then)."""
    rnd = random.Random(seed)
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    here = None
    try:
        while time.monotonic() < until:
            name = rnd.choice([p for p in PAGES if p != here])
            t0 = time.perf_counter()
            try:
                if reload or here is None:
                    target = f"{url}/{name}" + (f"?game={rnd.choice(games)}" if name in ("replay", "review") else "")
                    await _open(page, target)
                else:
                    title = await page.locator('[data-testid="stMain"] h1').first.inner_text(timeout=WAIT)
                    await page.locator(f'[data-testid="stSidebarNav"] a[href*="/{name}"]').first.click(timeout=WAIT)
                    await page.wait_for_function(
                        "(t) => { const h = document.querySelector('[data-testid=\"stMain\"] h1');"
                        " return h && h.innerText !== t; }", arg=title, timeout=WAIT)
                    await page.locator(IDLE).wait_for(timeout=WAIT)
            except Exception as e:  # noqa: BLE001  (a load that never finished is counted, the run goes on)
                tally.failed_loads += 1
                tally.page_errors.append(f"{name}: {type(e).__name__}")
                here = None  # start again from the page's address
                continue
            tally.times.setdefault(name, []).append(time.perf_counter() - t0)
            here = name
            if await page.locator('[data-testid="stException"]').count():
                tally.page_errors.append(f"{name}: an exception box")
            await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))  # a reader reads the page first
    finally:
        await ctx.close()


# ---- the writes, one of each kind -----------------------------------------------------------

def _one_game_log(gid: str, seed: int) -> bytes:
    from dashboard_logs import make_game

    return ("\n".join(json.dumps(e) for e in make_game(gid, seed=seed)) + "\n").encode()


async def upload(page, url: str, gid: str, seed: int, work: Path, tally: Tally) -> None:  # type: ignore[no-untyped-def]
    p = work / f"{gid}.jsonl"
    p.write_bytes(_one_game_log(gid, seed))
    await page.goto(f"{url}/games", wait_until="domcontentloaded", timeout=WAIT)  # a fresh uploader
    drop = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    await drop.wait_for(state="attached", timeout=WAIT)
    await _idle(page)
    await drop.set_input_files(str(p), timeout=WAIT)
    # the page's link to the new game (not the file's name in the uploader's list)
    await page.locator(f'a[href*="game={gid}&"]').first.wait_for(timeout=WAIT)
    tally.written["upload"].append(gid)


async def write_note(page, url: str, spot: tuple[str, int], text: str,  # type: ignore[no-untyped-def]
                     tally: Tally) -> None:
    game, step = spot
    await _open(page, f"{url}/replay?game={quote(game)}&hand=1&step={step}&lang=en")
    if await page.locator('[data-testid="ist-step"]').get_attribute("data-step") != str(step):
        return  # a hand shorter than that: the page shows its last step, where another note may be
    panel = page.locator(".st-key-nt_panel")
    await panel.locator("summary", has_text="Write a note").click(timeout=WAIT)
    await panel.locator(".st-key-nt_text textarea").fill(text, timeout=WAIT)
    await panel.locator('[data-testid="stFormSubmitButton"] button').click(timeout=WAIT)
    await panel.get_by_text("Note saved.").wait_for(timeout=WAIT)
    # the note as the panel reads it back from the store, not the editor's box
    await panel.locator('[data-testid="stMarkdownContainer"]').get_by_text(text, exact=True).wait_for(timeout=WAIT)
    tally.written["note"].append((game, 1, step, text))


async def start_sheet(page, url: str) -> SheetKept:  # type: ignore[no-untyped-def]
    await _open(page, f"{url}/sheet?lang=en")
    for s, name in enumerate(NAMES):
        box = page.locator(f".st-key-n_name{s} input")
        await _rerun(page, lambda box=box, name=name: _type(box, name, "Tab"))
    await _rerun(page, lambda: _type(page.locator(".st-key-n_hands_101 input"), str(ROUNDS), "Enter"))
    await page.locator(".st-key-n_start button").click(timeout=WAIT)
    await page.wait_for_function("() => location.search.includes('sheet=')", timeout=WAIT)
    await page.locator(".st-key-fin").wait_for(timeout=WAIT)  # the sheet's own view has been drawn
    await page.locator(IDLE).wait_for(timeout=WAIT)
    return SheetKept(parse_qs(urlparse(page.url).query)["sheet"][0])


async def _type(box, text: str, key: str) -> None:  # type: ignore[no-untyped-def]
    await box.click(timeout=WAIT)
    await box.fill(text, timeout=WAIT)
    await box.press(key)


async def write_row(page, sheet: SheetKept, k: int, tally: Tally) -> None:  # type: ignore[no-untyped-def]
    """One round: the finisher (seats in turn), the others opened by points with values left
    that make the row unique in its sheet (the first is the round's number), Save."""
    n = sheet.rows + 1
    fin = n % 4
    others = [s for s in range(4) if s != fin]
    left = dict(zip(others, (n, 10 + n % 7, 20 + k), strict=True))
    await _rerun(page, lambda: page.locator(f'.st-key-fin button:has(p:text-is("{NAMES[fin]}"))').click(timeout=WAIT))
    for s, v in left.items():
        await _rerun(page, lambda s=s, v=v: _type(page.locator(f".st-key-left{s} input"), str(v), "Enter"))
    await page.locator(".st-key-save button").click(timeout=WAIT)  # enabled once every value is in
    await page.get_by_text(f"101 · round {n} of {ROUNDS}", exact=True).wait_for(timeout=WAIT)
    sheet.rows = n
    tally.written["sheet row"].append((sheet.game, fin, tuple(left.get(s) for s in range(4))))


async def writer(browser, url: str, until: float, tally: Tally, k: int, work: Path,  # type: ignore[no-untyped-def]
                 spots: Iterator[tuple[str, int]]) -> None:
    """Upload, note, sheet row in turn, each in its own tab, until the time is up."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    tabs = {kind: await ctx.new_page() for kind in KINDS}
    sheet: SheetKept | None = None
    try:
        for n in itertools.count(1):
            for kind in KINDS:
                if time.monotonic() >= until:
                    return
                try:
                    if kind == "upload":
                        await upload(tabs[kind], url, f"load-w{k}-{n}", 1000 * k + n, work, tally)
                    elif kind == "note":
                        await write_note(tabs[kind], url, next(spots), f"load note w{k}-{n}", tally)
                    else:
                        if sheet is None or sheet.rows >= ROUNDS:
                            sheet = await start_sheet(tabs[kind], url)
                        await write_row(tabs[kind], sheet, k, tally)
                except Exception as e:  # noqa: BLE001  (a write not seen: the end's check says if it was stored)
                    tally.page_errors.append(f"{kind} w{k}-{n}: {type(e).__name__}")
                    if kind == "sheet row":
                        sheet = None  # what that sheet holds now is unknown: the next row starts another
                await asyncio.sleep(2.0)
    finally:
        await ctx.close()


def note_spots(games: list[str]) -> Iterator[tuple[str, int]]:
    """(game, step) of hand 1, never the same twice (one note per step), spread over the games."""
    return ((g, step) for step in range(3, 10_000, 4) for g in games)


async def main_async(args: argparse.Namespace, db: Path, work: Path) -> tuple[Tally, str]:
    from playwright.async_api import async_playwright

    from analysis import store
    from analysis.store import queries

    with store.reading(db) as con:
        games = [str(g) for g in queries.list_games(con)["game"]][:40]
    tally = Tally()
    spots = note_spots(games)  # shared by the writers: one event loop, so no two take the same
    log = work / "server.log"
    with streamlit_server(db, log) as url:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            until = time.monotonic() + args.seconds
            tasks = [reader(browser, url, games, until, tally, s, args.think, args.reload) for s in range(args.readers)]
            tasks += [writer(browser, url, until, tally, k, work, spots) for k in range(args.writers)]
            cpu0 = _cpu_split()
            await asyncio.gather(*tasks)
            cpu1 = _cpu_split()
            tally.cpu = (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1])
            await browser.close()
    return tally, log.read_text(errors="replace")


def _cpu_split() -> tuple[float, float]:
    """CPU seconds so far of the dashboard's server and of everything else this process started
    (the browser's processes): where the box's two cores went."""
    import psutil  # comes with dask's distributed

    server = other = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            used = t.user + t.system
            if "streamlit" in " ".join(p.cmdline()):
                server += used
            else:
                other += used
        except psutil.Error:  # a process that ended in between
            continue
    return server, other


# ---- what the store holds ---------------------------------------------------------------------

@dataclass
class Check:
    """One kind of write: shown on the page, stored, and how the two differ."""

    written: int
    stored: int
    lost: int  # shown, not stored
    doubled: int  # stored more than once
    unshown: int  # stored, never shown (a write whose confirmation timed out)


def _compare(shown: list[Any], stored: list[Any]) -> Check:
    have, want = Counter(stored), Counter(shown)
    return Check(len(shown), len(stored), sum((want - have).values()), sum(1 for c in have.values() if c > 1),
                 sum((have - want).values()))


def stored(db: Path, tally: Tally, sheets_before: set[str]) -> dict[str, Check]:
    from analysis import store
    from analysis.store import sheets

    with store.reading(db) as con:
        games = [g for (g,) in con.execute("SELECT game FROM games WHERE game LIKE 'load-w%'").fetchall()]
        notes = [(g, int(h), int(s), t) for g, h, s, t in
                 con.execute("SELECT game, hand, step, text FROM notes WHERE text LIKE 'load note %'").fetchall()]
        rows = []
        for sid in set(sheets.list_sheets(con)["game"]) - sheets_before:
            got = sheets.load_sheet(con, sid)
            rows += [(sid, r["finisher"], tuple(r["left"])) for r in (got[1] if got else [])]
    out = {"upload": _compare(tally.written["upload"], games), "note": _compare(tally.written["note"], notes),
           "sheet row": _compare(tally.written["sheet row"], rows)}
    # a note is one per step: its text stored twice (at two steps) is a double too
    out["note"].doubled += sum(1 for c in Counter(t for *_, t in notes).values() if c > 1)
    return out


def main() -> int:
    if "--browser" not in sys.argv[1:]:
        import load_ws

        return load_ws.main(sys.argv[1:])
    sys.argv.remove("--browser")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readers", type=int, default=20)
    ap.add_argument("--writers", type=int, default=2, help="writers, each taking upload, note, sheet row in turn")
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--think", type=float, default=10.0,
                    help="seconds a reader spends on a page before the next, on average (uniform, ±50%%); 0 reloads at once")
    ap.add_argument("--reload", action="store_true",
                    help="readers open every page by its address (a full reload) instead of the sidebar's links")
    ap.add_argument("--db", help="a database to copy (default: the sample imported fresh)")
    args = ap.parse_args()
    from analysis import store
    from analysis.store import sheets

    with tempfile.TemporaryDirectory(prefix="istaka-load-") as tmp:
        work = Path(tmp)
        db = work / "load.duckdb"
        if args.db:
            shutil.copy(args.db, db)
        else:
            con = store.connect(db, seed=False)
            store.import_paths(con, [str(ROOT / "data" / "sample")], workers=1)
            con.close()
        with store.reading(db) as con:
            sheets_before = set(sheets.list_sheets(con)["game"])
        load0 = os.getloadavg()
        t0 = time.perf_counter()
        tally, server_log = asyncio.run(main_async(args, db, work))
        wall = time.perf_counter() - t0
        checks = stored(db, tally, sheets_before)
    tracebacks = server_log.count("Traceback")
    times = [x for v in tally.times.values() for x in v]
    print(f"load test: {args.readers} readers, {args.writers} writers, {args.seconds:g} s asked, {wall:.0f} s run; "
          f"load {load0[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    for kind, c in checks.items():
        print(f"writes   {kind:9} {c.written:3} shown, {c.stored} stored, {c.lost} lost, {c.doubled} stored more "
              f"than once, {c.unshown} stored without being shown")
    print(f"pages    {len(times)} loads, {tally.failed_loads} unfinished; "
          + (f"median {statistics.median(times):.2f} s, p95 {_p95(times):.2f} s" if times else "none"))
    for name, v in sorted(tally.times.items()):
        print(f"  {name:8} {len(v):4} loads, median {statistics.median(v):.2f} s, p95 {_p95(v):.2f} s")
    server, browsers = tally.cpu
    cores = os.cpu_count() or 1
    print(f"cpu      the server {server:.0f} s, the browsers {browsers:.0f} s, of {cores * wall:.0f} s of {cores} cores "
          f"(per page load: server {server / max(len(times), 1):.2f} s, browsers {browsers / max(len(times), 1):.2f} s)")
    print(f"errors   {tracebacks} server tracebacks, {len(tally.page_errors)} page errors "
          f"{tally.page_errors[:5] if tally.page_errors else ''}")
    bad = any(c.lost or c.doubled for c in checks.values())
    return 1 if (bad or tracebacks or any("exception" in e for e in tally.page_errors)) else 0


def _p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


if __name__ == "__main__":
    sys.exit(main())
