"""A whole game on the Play page in a real browser, played by a scripted person, then its saved log
replayed by the engine (``istaka replay``) and every hand's scores compared with the page's.

    python bench/play_browser.py [--hands 11] [--bots expert] [--seed bench-1] [--lang en]
                                 [--width 1280 --height 800]

Starts its own dashboard (``streamlit run`` on a free port, a scratch database and data folder),
opens the Play page in Debian's Chromium (Playwright), starts a ``101`` game of ``--hands`` hands
against three ``--bots`` (the expert at the page's default strength), turns the bots' pause off,
and plays every hand by clicks as tests/test_browser_play.py's scripted person does: it draws,
opens with the quick finder's opening by tapping the tiles of each per (when it has one), and
discards the first tile of its rack; at a hand's end it reads the page's score table and taps
"next hand". At the end the game's log (``played/ID.jsonl``, written by the page) goes through
``istaka replay --json`` and each hand's score (E4-E8 with its penalties) is compared with the
page's row.

Prints: taps, the median tap answered (a draw or a tile tapped into a per: from the click, sent
once the page is idle, until the page shows its answer, polled at each animation frame, as
bench/record_clicks.py times the recorder), the median from the discard to your next turn (three
bot turns, pause off), seconds per hand, the hands opened by clicks, and OK or MISMATCH (exit 1)
with the hands that differ.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_helpers import ARGS, CHROMIUM, streamlit_server  # noqa: E402
from test_browser_play import _at, _idle, _pick, _turn, _wait_step  # noqa: E402

from analysis import store  # noqa: E402
from analysis.players import View, greedy_opening  # noqa: E402
from dashboard.state import play_games  # noqa: E402

BUILD = {"tr": "per / çift kur", "en": "builds a per / çift"}
BOT_WORD = {"tr": {"random": "rastgele", "greedy": "açgözlü", "solver": "çözücü"},
            "en": {"random": "random", "greedy": "greedy", "solver": "solver"}}


class Clock:
    def __init__(self) -> None:
        self.taps = 0
        self.opened = 0  # hands the person opened by clicks
        self.answered: list[float] = []  # draws and tiles tapped into a per
        self.to_turn: list[float] = []  # discard -> your next turn (bots included)
        self.last = 0.0
        self.refused: list[str] = []  # the page's refusals of the person's taps
        self.lost = 0  # taps the page did not answer in 30 s, sent again


# what the page shows once a tap is answered (read in one evaluation: a rerun may redraw between
# reads), polled at each animation frame
NEXT_STEP = """(events) => {
    if (document.querySelector('[data-testid="pl-over"]')) return "over";
    const t = document.querySelectorAll('[data-testid="pl-turn"]');
    if (t.length === 1 && t[0].dataset.events === events && !document.querySelector('[data-testid="stStatusWidget"]')
        && document.querySelector('[data-testid="stAlertContentError"]')) return "refused";
    return t.length === 1 && t[0].dataset.events !== events && t[0].dataset.mine === "1";
}"""
BUILT = """(text) => {
    const b = document.querySelectorAll('[data-testid="pl-build"]');
    return b.length === 1 && b[0].dataset.text === text;
}"""


def _tap(page: Any, clock: Clock, into: list[float] | None, selector: str, answered: str, arg: str) -> str | bool:
    """Click ``selector`` once the page is idle (think time, not timed) and time the click until
    ``answered`` holds; what it returned ("over": the hand ended, "refused")."""
    loc = page.locator(selector).first
    loc.wait_for(state="visible", timeout=30_000)
    _idle(page)
    page.wait_for_timeout(100)
    t0 = time.perf_counter()
    loc.click()
    try:
        got = page.wait_for_function(answered, arg=arg, timeout=30_000).json_value()
    except Exception:  # noqa: BLE001 - a click lost in a redraw: the page still shows the same step
        clock.lost += 1
        _idle(page)
        page.locator(selector).first.click()
        got = page.wait_for_function(answered, arg=arg, timeout=120_000).json_value()
    clock.last = time.perf_counter() - t0
    clock.taps += 1
    if got == "refused":
        clock.refused.append(page.locator('[data-testid="stAlertContentError"]').first.inner_text()[:160])
        return "refused"
    if into is not None:
        into.append(clock.last)
    return got  # type: ignore[no-any-return]


def _move(page: Any, db: Path, gid: str, lang: str, clock: Clock) -> None:
    """One move of the scripted person, timed."""
    from playwright.sync_api import expect

    turn = _turn(page)
    if turn["phase"] == "draw":
        _tap(page, clock, clock.answered, f'.st-key-pl_draw-{_at(turn)} button', NEXT_STEP, turn["events"])
        _wait_step(page, turn["events"])
        return
    g = play_games.load(str(db), gid)
    assert g is not None
    s = g.state()
    assert s is not None
    seat = s.turn
    ev = greedy_opening(View.of(s, seat)) if s.opened[seat] is None else None
    if ev is not None and "melds" in ev:
        built = page.locator('[data-testid="pl-build"]')
        for _ in range(3):  # build mode (clicked again if a rerun swallowed the click)
            page.locator(f".st-key-pl_mode-{_at(turn)}").get_by_text(BUILD[lang], exact=True).click()
            _idle(page)
            clock.taps += 1
            try:
                expect(built).to_have_count(1, timeout=15_000)
                break
            except AssertionError:
                clock.lost += 1
        text = ""
        for k, meld in enumerate(ev["melds"]):
            if k:
                page.locator(f'.st-key-pl_next_group-{_at(turn)} button').click()
                text += " |"
                expect(built).to_have_attribute("data-text", text, timeout=30_000)
                clock.taps += 1
            for x in meld:
                tile = x.split(">")[0]
                face = "J-0" if tile == "J" else f"{tile[0]}-{tile[1:]}"
                text = (text + " " + tile).strip()
                _tap(page, clock, clock.answered,
                     f'.st-key-tilerack-p{_at(turn)} [class*="st-key-tile-{face}-"] button', BUILT, text)
                expect(built).to_have_attribute("data-text", text, timeout=30_000)
        page.locator(f'.st-key-pl_melds-{_at(turn)} button').click()
        clock.taps += 1
        _wait_step(page, turn["events"])
        turn = _turn(page)
        after = play_games.load(str(db), gid)
        if after is not None and any(e.get("type") == "open" and e.get("seat") == seat for e in after.events):
            clock.opened += 1
        if page.locator('[data-testid="pl-over"]').count():
            return
    # the discard (the rack's first tile), timed until your next turn is on the page (or the hand's end);
    # refused (an opening under an escalated threshold is refused at the discard, O1): taken back
    # (O6) and the next tile tried
    for k in range(30):
        got = _tap(page, clock, None, f'.st-key-tilerack-p{_at(turn)} button >> nth={k}', NEXT_STEP,
                   turn["events"])
        if got != "refused":
            break
        back = page.locator(f'.st-key-pl_takeback-{_at(turn)} button')
        if back.count():
            t = _turn(page)
            back.click()
            clock.taps += 1
            page.wait_for_function(NEXT_STEP.replace('t[0].dataset.mine === "1"', "true"), arg=t["events"],
                                   timeout=60_000)
            _idle(page)
            turn = _turn(page)
    _wait_step(page, turn["events"])
    if got is True and not page.locator('[data-testid="pl-over"]').count():
        clock.to_turn.append(clock.last)


def _page_rows(page: Any) -> list[list[int]]:
    """The page's score table: each finished hand's row (hand, then the four seats)."""
    rows = page.evaluate(
        """() => {
            const t = document.querySelectorAll('[data-testid="pl-totals"]');
            if (!t.length) return [];
            const out = [];
            for (const tr of t[t.length - 1].querySelectorAll('tr')) {
                const cells = [...tr.querySelectorAll('td')].map(c => c.innerText.trim());
                if (cells.length === 5 && /^[0-9]+$/.test(cells[0])) out.push(cells.map(Number));
            }
            return out;
        }"""
    )
    return [[int(x) for x in r] for r in rows]


def play(url: str, db: Path, args: argparse.Namespace, clock: Clock) -> tuple[str, list[list[int]], list[float]]:
    from playwright.sync_api import expect, sync_playwright

    per_hand: list[float] = []
    rows: list[list[int]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            page.goto(f"{url}/play?lang={args.lang}")
            page.locator(".st-key-pl_start button").wait_for(timeout=60_000)
            _idle(page)
            page.locator(".st-key-pl_seed_in input").fill(args.seed)
            page.locator(".st-key-pl_seed_in input").press("Tab")
            page.locator(".st-key-pl_hands_in input").fill(str(args.hands))
            page.locator(".st-key-pl_hands_in input").press("Tab")
            if args.bots != "expert":
                for k in (1, 2, 3):
                    _pick(page, f".st-key-pl_bot_{k} input", BOT_WORD[args.lang][args.bots])
            _idle(page)
            page.locator(".st-key-pl_start button").click()
            expect(page.locator('[data-testid="pl-turn"]')).to_be_visible(timeout=60_000)
            page.locator(".st-key-pl_pause_in label").click()  # the bots' turns at once
            _idle(page)
            gid = page.url.split("play=")[1].split("&")[0]
            _wait_step(page, "-1")
            hand = 0
            while True:
                hand += 1
                t0 = time.perf_counter()
                moves = 0
                while not page.locator('[data-testid="pl-over"]').count():
                    _move(page, db, gid, args.lang, clock)
                    moves += 1
                    if moves > 200:
                        raise RuntimeError(f"hand {hand} did not end")
                over = page.locator('[data-testid="pl-over"]')
                expect(over).to_have_attribute("data-stored", str(len(_page_rows(page)) or 1), timeout=120_000)
                per_hand.append(time.perf_counter() - t0)
                rows = _page_rows(page)
                print(f"hand {hand}: {over.get_attribute('data-result')}, {moves} moves, {per_hand[-1]:.1f} s; "
                      f"page row {rows[-1] if rows else None}", flush=True)
                nxt = page.locator(".st-key-pl_next_hand button")
                page.wait_for_function("""() => document.querySelector('[data-testid="pl-ranks"]')
                    || document.querySelector('.st-key-pl_next_hand button')""", timeout=60_000)
                if page.locator('[data-testid="pl-ranks"]').count():
                    break
                before = _turn(page)
                nxt.click()
                clock.taps += 1
                expect(page.locator('[data-testid="pl-over"]')).to_have_count(0, timeout=60_000)
                _wait_step(page, before["events"] if before["events"] else "-1")
                if hand > args.hands + 5:
                    raise RuntimeError("the game did not end")
        finally:
            browser.close()
    return gid, rows, per_hand


def replayed(log: Path) -> dict[str, Any]:
    istaka = Path(sys.executable).parent / "istaka"  # the command line as a user runs it
    out = subprocess.run([str(istaka), "replay", "--json", str(log)], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        raise RuntimeError(f"istaka replay failed: {out.stderr.strip()[-500:]}")
    games = json.loads(out.stdout)["games"]
    assert len(games) == 1, games
    return dict(games[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=11)
    ap.add_argument("--bots", default="expert", choices=["expert", "greedy", "solver", "random"])
    ap.add_argument("--seed", default="bench-1")
    ap.add_argument("--lang", default="en", choices=["tr", "en"])
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=800)
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"Debian's Chromium is not installed at {CHROMIUM}", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.hands} hands of 101, bots "
          f"{args.bots}, seed {args.seed}, {args.width}x{args.height} {args.lang}", flush=True)
    clock = Clock()
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="istaka-play-bench-") as d:
        db = Path(d) / "bench.duckdb"
        store.connect(db, seed=False).close()
        with streamlit_server(db, Path(d) / "server.log") as url:
            try:
                gid, rows, per_hand = play(url, db, args, clock)
            except Exception:
                log = (Path(d) / "server.log").read_text(errors="replace")
                at = log.rfind("Traceback")
                print("the server's last traceback:\n" + (log[at:at + 3000] if at >= 0 else log[-1500:]))
                raise
        log = play_games.folder(str(db)) / f"{gid}.jsonl"
        game = replayed(log)
        server_log = (Path(d) / "server.log").read_text(errors="replace")
    hands = game["hands"]
    engine = [[h["hand"], *[h["scores"][k] + sum(p["points"] for p in h["penalties"] if p["seat"] == k)
                           for k in range(4)]] for h in hands]
    differ = [(a, b) for a, b in zip(rows, engine) if a != b]
    if len(rows) != len(engine):
        differ.append((f"{len(rows)} rows on the page", f"{len(engine)} hands in the log"))
    print(f"game {gid}: {len(rows)} hands on the page, {len(hands)} in the log, replay valid {game['valid']}, "
          f"agrees {game['agrees']}; totals page {[sum(r[k + 1] for r in rows) for k in range(4)]} "
          f"engine {game['totals']}")
    print(f"opened by clicks in {clock.opened} of {len(rows)} hands; the page refused {len(clock.refused)} of the "
          f"person's taps{': ' + clock.refused[0] if clock.refused else ''}; {clock.lost} taps unanswered in 30 s "
          f"and sent again")
    print(f"taps {clock.taps}; a tap answered (draws and per tiles) median {statistics.median(clock.answered) * 1000:.0f} ms "
          f"over {len(clock.answered)} (target <= 300 ms); discard to your turn median "
          f"{statistics.median(clock.to_turn):.2f} s over {len(clock.to_turn)} (target <= 1.5 s); "
          f"{statistics.median(per_hand):.1f} s a hand (median), {time.perf_counter() - t_all:.0f} s in all")
    if "Traceback" in server_log:
        print("the server printed a traceback:\n" + server_log[-2000:])
        differ.append(("traceback", "server"))
    ok = not differ and game["valid"] and game["agrees"] and len(rows) == args.hands
    print("OK: every hand's scores equal the page's" if ok else f"MISMATCH: {differ}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
