"""Readers and writers at once against one `streamlit run` of the dashboard, over the Streamlit
protocol itself: each user is a websocket client (bench/ws_client.py), no browser.

    python bench/load_ws.py                                  # 20 readers, 2 writers, 300 s
    python bench/load_ws.py --readers 2 --writers 1 --seconds 5 --think 0   # the CI run

Readers walk the pages (Games, Replay at a random game and step, Players, Review, Rules), one
script run each, then think ``--think`` seconds on average. Writers take two kinds of write in
turn on the Replay page, each at its own step: a coach's note (the note form's text and submit)
and an item added to a study (the "Add to study" popover: a new study named for the writer, then
items into the first study listed). A write counts as written when the page says so ("Not
kaydedildi." / the study's success line). Reported: per action the server's own script time
(PageProfile.exec_time: the bench's server runs with ``browser.gatherUsageStats`` on, which only
makes it send that message to its clients) and the client's, p50 and p95; the server's resident
memory over the run; tracebacks in its log; page exceptions; and at the end, read from the
database, every write shown stored exactly once (lost, doubled, stored without being shown).
Exit 1 when a write was lost or doubled, or a traceback or page exception was seen.

The server is served as a club serves it (``--mode club``, the default): readers anonymous,
each writer logged in by the writer's cookie a passphrase login gives (signed here with the
secret the bench gives the server in its secrets.toml). ``--mode local`` serves it unserved, every
session a writer. The server runs on every CPU but the last, the driver on the last
(``--no-pin``: both on all), so that the clients' own work is not in the server's times.

Works on a copy of the sample imported fresh (or ``--db``), never on data/istaka.duckdb.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from ws_client import Run, Session  # noqa: E402

PAGES = ("games", "replay", "players", "review", "rules")
SAVED = ("Not kaydedildi.", "Note saved.")  # the note's success line (nt_saved, tr and en)
ADDED = ("konum olarak eklendi.", "as position")  # the study's (sw_added): its ends


@dataclass
class Tally:
    server: dict[str, list[float]] = field(default_factory=dict)  # action -> the server's script seconds
    client: dict[str, list[float]] = field(default_factory=dict)  # action -> seconds a client waited
    written: dict[str, list[tuple[Any, ...]]] = field(default_factory=lambda: {"note": [], "study item": []})
    unconfirmed: dict[str, int] = field(default_factory=lambda: {"note": 0, "study item": 0})
    exceptions: list[str] = field(default_factory=list)
    unfinished: int = 0
    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds into the run, MB)

    def add(self, action: str, run: Run) -> None:
        if not run.finished:
            self.unfinished += 1
            return
        self.client.setdefault(action, []).append(run.seconds)
        if run.server_seconds is not None:
            self.server.setdefault(action, []).append(run.server_seconds)
        if run.exception:
            self.exceptions.append(f"{action}: {run.exception}")


def _games(db: Path) -> list[tuple[str, int]]:
    """Games with the steps of their first hand (a writer's step must exist)."""
    from analysis import store

    with store.reading(db) as con:
        rows = con.execute("SELECT e.game, count(*) FROM events e JOIN games g USING (game) "
                           "WHERE e.hand = 1 AND g.valid AND g.view_seat IS NULL GROUP BY e.game ORDER BY e.game"
                           ).fetchall()
    return [(g, int(n)) for g, n in rows]


async def reader(url: str, games: list[tuple[str, int]], until: float, tally: Tally, seed: int,
                 think: float) -> None:
    rnd = random.Random(seed)
    async with Session(url) as s:
        while time.monotonic() < until:
            page = rnd.choice(PAGES)
            query = ""
            if page == "replay":
                g, n = rnd.choice(games)
                query = f"game={g}&hand=1&step={rnd.randrange(1, n)}"
            tally.add(page, await s.run(page, query))
            if think:
                await asyncio.sleep(rnd.uniform(think / 2, think * 1.5))


async def writer(url: str, games: list[tuple[str, int]], until: float, tally: Tally, w: int, writers: int,
                 think: float, cookie: str = "") -> None:
    """Writer ``w`` writes at steps no other writer uses: step = w + 1, w + 1 + writers, ...; each
    write from its own address opened anew (a new tab: the step comes from the address alone)."""
    k = 0
    while time.monotonic() < until:
        g, n = games[k % len(games)]
        step = 1 + w + writers * (k // len(games))
        if step >= n:
            break
        async with Session(url, cookie) as s:
            page = await s.run("replay", f"game={g}&hand=1&step={step}")
            tally.add("replay", page)
            if k % 2 == 0 and "submit:nt_form" in page.widgets:
                text = f"load note w{w}-{k}"
                run = await s.submit({"nt_text": text, "submit:nt_form": True}, page)
                tally.add("note save", run)
                key = "note"
                done = any(a in SAVED for a in run.alerts)
                row: tuple[Any, ...] = (g, 1, step, text)
            elif "sw_add_go" in page.widgets:
                text = f"load item w{w}-{k}"
                values: dict[str, Any] = {"sw_add_note": text, "sw_add_go": True}
                if "sw_add_name" in page.widgets:
                    values["sw_add_name"] = f"load study w{w}-{k}"
                run = await s.submit(values, page)
                tally.add("study add", run)
                key = "study item"
                done = any(a.endswith(ADDED[0]) or ADDED[1] in a for a in run.alerts)
                row = (g, 1, step, text)
            else:
                k += 1
                continue
            if done:
                tally.written[key].append(row)
            else:
                tally.unconfirmed[key] += 1
            k += 1
            if think:
                await asyncio.sleep(think)


async def sample_rss(pid: int, until: float, tally: Tally) -> None:
    t0 = time.monotonic()
    while time.monotonic() < until:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            kb = int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1])
            tally.rss.append((time.monotonic() - t0, kb // 1024))
        except (OSError, StopIteration):
            pass
        await asyncio.sleep(1)


def _port() -> int:
    for p in random.sample(range(8600, 9000), 400):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", p))
                return p
            except OSError:
                continue
    raise RuntimeError("no free port in 8600-8999")


def _pins() -> tuple[set[int], set[int]] | None:
    """(the server's CPUs, the driver's): the last CPU for the driver, the others for the server,
    so that the clients' own work is not counted in the server's times; None on one CPU."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return (set(cpus[:-1]), {cpus[-1]}) if len(cpus) >= 2 else None


PASSPHRASE = "yük testi yazarı"


def club(work: Path) -> tuple[Path, str]:
    """A secrets.toml for club mode (the writer's passphrase hashed, the server's secret) and the
    Cookie header of a logged-in writer, signed with that secret as the login signs it."""
    import secrets as pysecrets
    from unittest import mock

    from dashboard.state import access, login, tokens

    stored, secret = access.hash_passphrase(PASSPHRASE), pysecrets.token_hex(32)
    path = work / "secrets.toml"
    path.write_text(f'[istaka]\nwriter_passphrase = "{stored}"\nsecret = "{secret}"\n')
    with mock.patch.object(tokens, "_configured", lambda: secret.encode("utf-8")):
        token = login.make_token(stored)
    return path, f"{login.COOKIE}={token}"


def serve(db: Path, log: Path, cpus: set[int] | None = None,
          secrets: Path | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = _port()
    env = dict(os.environ, ISTAKA_DB=str(db), STREAMLIT_BROWSER_GATHER_USAGE_STATS="true")
    env.pop("ISTAKA_MODE", None)
    extra: list[str] = []
    if secrets is not None:
        env["ISTAKA_MODE"] = "club"
        extra = ["--secrets.files", str(secrets)]
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.headless",
                                 "true", "--server.address", "127.0.0.1", "--server.port", str(port),
                                 "--server.fileWatcherType", "none", *extra], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT,
                                preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"streamlit did not start: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.3)


async def drive(args: argparse.Namespace, url: str, pid: int, games: list[tuple[str, int]], cookie: str = "") -> Tally:
    tally = Tally()
    async with Session(url) as warm:  # the first run compiles every page's imports: not a user's
        await warm.run("games")
    until = time.monotonic() + args.seconds
    jobs = [reader(url, games, until, tally, 1000 + i, args.think) for i in range(args.readers)]
    jobs += [writer(url, games, until, tally, w, args.writers, args.think, cookie) for w in range(args.writers)]
    jobs.append(sample_rss(pid, until + 1, tally))
    await asyncio.gather(*jobs)
    return tally


def check(db: Path, tally: Tally) -> dict[str, tuple[int, int, int, int, int]]:
    """Per kind: (shown, stored, lost, stored twice, stored without being shown)."""
    from analysis import store

    with store.reading(db) as con:
        notes = [(g, int(h), int(s), t) for g, h, s, t in con.execute(
            "SELECT game, hand, step, text FROM notes WHERE text LIKE 'load note %'").fetchall()]
        items = [(g, int(h), int(s), t) for g, h, s, t in con.execute(
            "SELECT game, hand, step, note FROM study_items WHERE note LIKE 'load item %'").fetchall()]
    out = {}
    for kind, stored in (("note", notes), ("study item", items)):
        have, want = Counter(stored), Counter(tally.written[kind])
        out[kind] = (len(tally.written[kind]), len(stored), sum((want - have).values()),
                     sum(1 for c in have.values() if c > 1), sum((have - want).values()))
    return out


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readers", type=int, default=20)
    ap.add_argument("--writers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--think", type=float, default=5.0, help="seconds between a user's actions, on average")
    ap.add_argument("--db", help="a database to copy (default: the sample imported fresh)")
    ap.add_argument("--no-pin", action="store_true", help="let the server and the driver share every CPU")
    ap.add_argument("--mode", choices=("club", "local"), default="club",
                    help="club: anonymous readers, writers logged in (default); local: unserved, all writers")
    args = ap.parse_args(argv)
    pins = None if args.no_pin else _pins()
    from analysis import store

    with tempfile.TemporaryDirectory(prefix="istaka-wsload-") as tmp:
        work = Path(tmp)
        db = work / "load.duckdb"
        if args.db:
            shutil.copy(args.db, db)
        else:
            con = store.connect(db, seed=False)
            store.import_paths(con, [str(ROOT / "data" / "sample")], workers=1)
            con.close()
        games = _games(db)
        log = work / "server.log"
        secrets, cookie = club(work) if args.mode == "club" else (None, "")
        proc, url = serve(db, log, pins[0] if pins else None, secrets)
        if pins:
            os.sched_setaffinity(0, pins[1])
        t0 = time.perf_counter()
        try:
            tally = asyncio.run(drive(args, url, proc.pid, games, cookie))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        wall = time.perf_counter() - t0
        server_log = log.read_text(errors="replace")
        if os.environ.get("ISTAKA_LOAD_LOG"):
            shutil.copy(log, os.environ["ISTAKA_LOAD_LOG"])
        checks = check(db, tally)
    tracebacks = server_log.count("Traceback")
    print(f"load test over the websocket protocol, {args.mode} mode: {args.readers} readers, {args.writers} writers, "
          f"{args.seconds:g} s asked, {wall:.0f} s run, think {args.think:g} s; load {os.getloadavg()[0]:.1f} after; "
          + (f"server on CPU {sorted(pins[0])}, driver on CPU {sorted(pins[1])}" if pins else "not pinned"))
    print(f"{'action':11} {'runs':>5} {'server p50':>10} {'p95':>6} {'client p50':>10} {'p95':>6}")
    for action in sorted(tally.client):
        c, s = tally.client[action], tally.server.get(action, [])
        sp = f"{statistics.median(s):10.2f} {pct(s, 0.95):6.2f}" if s else f"{'-':>10} {'-':>6}"
        print(f"{action:11} {len(c):5} {sp} {statistics.median(c):10.2f} {pct(c, 0.95):6.2f}")
    if tally.rss:
        mbs = [m for _, m in tally.rss]
        step = max(1, len(tally.rss) // 6)
        over = ", ".join(f"{t:.0f} s {m} MB" for t, m in tally.rss[::step])
        print(f"server RSS: start {mbs[0]} MB, peak {max(mbs)} MB, end {mbs[-1]} MB ({over})")
    for kind, (shown, stored, lost, doubled, unshown) in checks.items():
        print(f"writes {kind:10} {shown:4} shown, {stored} stored, {lost} lost, {doubled} stored twice, "
              f"{unshown} stored without being shown ({tally.unconfirmed[kind]} not confirmed on the page)")
    print(f"errors: {tracebacks} tracebacks in the server log, {len(tally.exceptions)} page exceptions, "
          f"{tally.unfinished} runs unfinished {tally.exceptions[:3] if tally.exceptions else ''}")
    bad = any(lost or doubled for _, _, lost, doubled, _ in checks.values())
    return 1 if bad or tracebacks or tally.exceptions else 0


if __name__ == "__main__":
    sys.exit(main())
