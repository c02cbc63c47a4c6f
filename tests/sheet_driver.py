"""Keeping a score sheet by taps in a real browser: shared by tests/test_browser_sheet.py
and bench/sheet_taps.py. Every tap (a click, or a focus to type a number) is counted and timed
from the tap until the page's script has run to its end."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

PHONE = {"width": 390, "height": 844}
# in the page: the time of a tap, and when the script run it caused has ended
_WATCH = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const w = window.__ist = {t0: performance.now(), ran: false, done: null};
  const obs = new MutationObserver(() => {
    const st = app.getAttribute('data-test-script-state');
    if (st === 'running') w.ran = true;
    else if (w.ran && st === 'notRunning') { w.done = performance.now(); obs.disconnect(); }
  });
  obs.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


@dataclass
class Round:
    """One round as the table tells it: finisher seat or "exhausted", the unopened seats, the value
    left per opened seat, the finish kinds, penalties (seat, rule)."""

    fin: int | str
    unopened: tuple[int, ...] = ()
    left: dict[int, int] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    penalties: tuple[tuple[int, str], ...] = ()

    def scores(self) -> list[int]:
        """The written scores in `101` by the rule texts (E4-E6, X1: 101 a penalty)."""
        m = 2 ** len(self.kinds)
        out = []
        for s in range(4):
            if s == self.fin:
                out.append(-101 * m)
            elif s in self.unopened:
                out.append(202 * (m if self.fin != "exhausted" else 1))
            else:
                out.append(self.left[s] * (m if self.fin != "exhausted" else 1))
        for s, _ in self.penalties:
            out[s] += 101
        return out


class Driver:
    def __init__(self, page: Any, base: str) -> None:
        self.pg = page
        self.base = base
        self.taps = 0
        self.latencies: list[float] = []
        self.labels: list[str] = []  # what each tap was, beside its latency
        self.unseen = 0  # taps whose rerun the page did not report (not timed)
        self.retaps = 0  # taps repeated because the first was lost (see option)

    def settle(self, timeout: float = 30_000) -> None:
        from playwright.sync_api import expect

        expect(self.pg.locator('[data-testid="stApp"]')).to_have_attribute(
            "data-test-script-state", "notRunning", timeout=timeout)

    def timed(self, action: Any, label: str = "") -> None:
        """Run ``action`` (one tap) and wait for the rerun it causes to end; its latency is from
        the tap until the page's script has run to its end, as the page itself saw it."""
        self.pg.evaluate(_WATCH)
        action()
        try:
            self.pg.wait_for_function("() => window.__ist.done !== null", timeout=5_000)
        except Exception:  # noqa: BLE001  (a tap whose rerun was not seen: no latency to count)
            pass
        ms = self.pg.evaluate("() => window.__ist.done === null ? null : window.__ist.done - window.__ist.t0")
        self.settle()
        if ms is None:
            self.unseen += 1
        else:
            self.latencies.append(ms / 1000)
            self.labels.append(label)
        self.taps += 1

    def open(self, query: str) -> None:
        self.pg.goto(f"{self.base}/sheet?{query}", wait_until="domcontentloaded")
        from playwright.sync_api import expect

        expect(self.pg.locator("h1").first).to_be_visible(timeout=30_000)
        self.settle()
        self.pg.wait_for_timeout(300)

    def reveal(self, loc: Any) -> None:
        """Scroll ``loc`` into view. The element found can be drawn anew by a rerun (the fragment of
        the round redraws its widgets) before the scroll reaches it; then the page is let settle
        and the locator found again, up to three times."""
        from playwright.sync_api import Error

        for attempt in range(3):
            try:
                loc.scroll_into_view_if_needed()
                return
            except Error as e:
                if "not attached" not in str(e) or attempt == 2:
                    raise
                self.settle()

    def tap(self, selector: str) -> None:
        loc = self.pg.locator(selector).first
        self.reveal(loc)
        self.timed(loc.click, selector)

    def type_number(self, key: str, value: int) -> None:
        loc = self.pg.locator(f".st-key-{key} input").first
        self.reveal(loc)

        def act() -> None:
            loc.click()
            loc.fill(str(value))
            loc.press("Enter")
        self.timed(act, key)

    def option(self, key: str, text: str) -> None:
        """Tap the button of a segmented control or pills that reads ``text``, and see it picked.
        On a loaded box a tap can land on a button a rerun is redrawing and be lost (then the
        widgets that depend on it never come): a button not picked 10 s after its tap is tapped
        again, up to twice; such a repeat is counted in ``retaps``, not as a user's tap."""
        from playwright.sync_api import expect

        sel = f'.st-key-{key} button:has(p:text-is("{text}"))'
        for attempt in range(3):
            self.tap(sel)
            try:
                expect(self.pg.locator(sel).first).to_have_attribute("data-selected", "true", timeout=10_000)
                return
            except AssertionError:
                if attempt == 2:
                    raise
                self.taps -= 1
                self.retaps += 1

    def start(self, names: list[str], hands: int = 11) -> str:
        self.open("lang=tr")
        for s, n in enumerate(names):
            loc = self.pg.locator(f".st-key-n_name{s} input")
            loc.fill(n)
            loc.press("Tab")
            self.settle()
        self.type_number("n_hands_101", hands)
        self.tap(".st-key-n_start button")
        self.pg.wait_for_function("() => location.search.includes('sheet=')", timeout=30_000)
        self.pg.locator(".st-key-fin").wait_for(timeout=30_000)  # the sheet's own view has been drawn
        self.settle()
        from urllib.parse import parse_qs, urlparse

        return parse_qs(urlparse(self.pg.url).query)["sheet"][0]

    def enter(self, r: Round, names: list[str]) -> int:
        """Enter one round and save it; the taps it took."""
        before = self.taps
        self.option("fin", "Taşlar bitti" if r.fin == "exhausted" else names[int(r.fin)])
        for k in r.kinds:
            self.option("kinds", {"okey": "okey attı", "elden": "elden", "pairs": "çiftten"}[k])
        for s in r.unopened:
            self.option(f"op{s}", "Açmadı")
        for s, v in sorted(r.left.items()):
            self.type_number(f"left{s}", v)
        for s, rule in r.penalties:
            self.tap(f'.st-key-pen{s} button:has-text("{rule} ")')
        self.tap(".st-key-save button")
        return self.taps - before

    def summary(self) -> str:
        return str(self.pg.locator('[data-testid="stCode"]').last.inner_text())
