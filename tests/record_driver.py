"""Records a hand on the "Kayıt / Record" page in a real browser by clicks, counting the
clicks and timing each one from the click to the page showing its answer. Shared by
tests/test_browser_record.py and bench/record_clicks.py.

The hand comes from a full log (a self-play game of the sample): the recorder is told the table,
the gösterge and the recording seat's rack by taps on the picker, then every event in turn — a
tap for the seat's own draws, "drew" for a hidden seat's, "took" for a take, a tap for each
discard, and an opening, meld or lay-off typed into the build box and one button (the typing is
counted apart from the clicks).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from analysis.game import read_file


@dataclass
class Run:
    clicks: int = 0
    typed: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds per click, click to answer
    rec_id: str = ""


def hand_events(path: str, game: str, hand: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``hand`` event and the moves of one hand of a full log."""
    g = next(x for x in read_file(path).games if x.id == game)
    evs = [e for _, e in g.events if e.get("hand") == hand and e["type"] not in ("penalty", "end")]
    return evs[0], evs[1:]


def _idle(page: Any, timeout: float = 30_000) -> None:
    from playwright.sync_api import expect

    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=timeout)


def _click(page: Any, run: Run, selector: str, done: Any) -> None:
    """Click ``selector`` and wait for ``done()`` (a Playwright expectation) to pass: the click's latency."""
    loc = page.locator(selector).first
    loc.wait_for(state="visible", timeout=30_000)
    _idle(page)  # a click while the page re-renders its buttons can reach none (think time, not timed)
    page.wait_for_timeout(100)
    t0 = time.perf_counter()
    loc.click()
    done()
    run.latencies.append(time.perf_counter() - t0)
    run.clicks += 1


def _events_are(page: Any, n: int) -> Any:
    """The page shows ``n`` moves entered (or the hand is over and can be saved)."""
    def check() -> None:
        page.locator(f'[data-testid="rec-turn"][data-events="{n}"], .st-key-rec_save').first.wait_for(
            timeout=30_000)
    return check


def start(page: Any, base: str, run: Run, hand: dict[str, Any], seat: int, players: list[str],
          typed_rack: bool = False) -> None:
    """The table and the deal, by clicks: preset 101, the seat, the starter, gösterge, rack (by
    taps, or typed with ``typed_rack``)."""
    from playwright.sync_api import expect

    page.goto(f"{base}/record?lang=tr", wait_until="domcontentloaded")
    page.locator(".st-key-rec_start button").wait_for(timeout=60_000)
    _idle(page)
    for k, name in enumerate(players):
        box = page.locator(f".st-key-rec_p{k} input")
        box.fill(name)
        box.press("Enter")
        run.typed += 1
        _idle(page)
    for key, value in (("rec_seat_in", str(seat)), ("rec_starter_in", str(hand["starter"]))):
        if value != "0":  # 0 is the default
            _click(page, run, f'.st-key-{key} [role=radio] >> text="{value}"', lambda: _idle(page))
    _click(page, run, ".st-key-rec_start button",
           lambda: expect(page.get_by_text("Göstergeyi seç")).to_be_visible(timeout=30_000))
    run.rec_id = page.url.split("rec=")[1].split("&")[0]
    _click(page, run, f".st-key-pk_{hand['indicator']} button",
           lambda: expect(page.locator('[data-testid="rec-deal"]')).to_have_attribute("data-count", "0", timeout=30_000))
    rack = hand["racks"][seat]
    if typed_rack:
        box = page.locator(".st-key-rec_typed_in input")
        box.fill(" ".join(rack))
        box.press("Enter")
        run.typed += 1
        _idle(page)
        _click(page, run, ".st-key-rec_apply button",
               lambda: expect(page.locator('[data-testid="rec-deal"]')).to_have_attribute(
                   "data-count", str(len(rack)), timeout=30_000))
        rack = []
    for i, tile in enumerate(rack, 1):
        _click(page, run, f".st-key-pk_{tile} button",
               lambda i=i: expect(page.locator('[data-testid="rec-deal"]')).to_have_attribute(
                   "data-count", str(i), timeout=30_000))
    _click(page, run, ".st-key-rec_deal_done button", _events_are(page, 0))


def play(page: Any, run: Run, moves: list[dict[str, Any]], seat: int, first: int = 0, upto: int | None = None) -> int:
    """Enter ``moves[first:upto]``; returns how many moves are entered in all."""
    n = first
    for ev in moves[first:upto]:
        kind, who = ev["type"], ev["seat"]
        done = _events_are(page, n + 1)
        if kind == "draw":
            sel = f".st-key-pk_{ev['tile']} button" if who == seat else ".st-key-rec_drew button"
            _click(page, run, sel, done)
        elif kind == "take":
            _click(page, run, ".st-key-rec_took button", done)
        elif kind == "discard":
            _click(page, run, f".st-key-pk_{ev['tile']} button", done)
        elif kind in ("open", "meld", "layoff"):
            _click(page, run, ".st-key-rec_mode button:has-text('kurar')",
                   lambda: page.locator(".st-key-rec_build_in input").wait_for())
            groups = ev.get("melds") or ev.get("pairs") or [ev["tiles"]]
            box = page.locator(".st-key-rec_build_in input")
            box.fill(" | ".join(" ".join(g) for g in groups))
            box.press("Enter")
            run.typed += 1
            _idle(page)
            if kind == "layoff":
                if ev["meld"] != 0:  # the first table meld is the default (no takebacks in these hands)
                    _click(page, run, f'.st-key-rec_layoff_on [role=radio] >> text="#{ev["meld"]}"',
                           lambda: _idle(page))
                _click(page, run, ".st-key-rec_layoff button", done)
            else:
                _click(page, run, f".st-key-rec_{'pairs' if 'pairs' in ev else 'melds'} button", done)
        else:
            raise ValueError(f"the driver does not enter {kind} events")
        n += 1
        err = page.locator('[data-testid="stAlertContentError"]')
        if err.count():
            raise AssertionError(f"the recorder refused {ev}: {err.first.inner_text()}")
    return n
