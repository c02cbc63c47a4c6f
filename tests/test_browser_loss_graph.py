"""The loss graph in a real browser : a click on a point of the Review page's
graph opens the Replay at that point's step, and one on the Replay's graph moves the board there.
Reuses the board tests' server and browser fixtures (tests/test_browser_board.py: two simulated
`101` games, analysed)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from browser_helpers import needs_chromium
from test_browser_board import IDLE, browser, site  # noqa: F401  (the shared module fixtures)

pytestmark = needs_chromium

# the point of the last trace (drawn on top) farthest from every other point on the screen, so
# that the click can only pick it; its customdata is [hand, step, seat]
_PICK = """(key) => {
  const gd = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const traces = [...gd.querySelectorAll('.scatterlayer .trace')];
  const centre = (el) => { const b = el.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; };
  const all = traces.flatMap((tr, i) => [...tr.querySelectorAll('.points path')].map((el, j) => ({i, j, c: centre(el)})));
  const last = traces.length - 1;
  let best = null;
  for (const p of all.filter((p) => p.i === last)) {
    const d = Math.min(...all.filter((q) => q !== p).map((q) => Math.hypot(q.c[0] - p.c[0], q.c[1] - p.c[1])));
    const step = Number(document.querySelector('[data-testid="ist-step"]')?.dataset.step ?? -1);
    const target = gd.data[last].customdata[p.j][1];
    if (target > 0 && target !== step && (best === null || d > best.d)) best = {...p, d};
  }
  return {trace: best.i, point: best.j, gap: best.d, data: gd.data[last].customdata[best.j]};
}"""


def _click_a_point(pg: Any, key: str) -> list[int]:
    """Click the chart's most isolated point; its [hand, step, seat]."""
    pick = pg.evaluate(_PICK, key)
    assert pick["gap"] > 6, f"no point far enough from the others to click alone: {pick}"
    point = pg.locator(f".st-key-{key} .scatterlayer .trace").nth(pick["trace"]).locator(".points path") \
        .nth(pick["point"])
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    assert box is not None
    pg.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return list(pick["data"])


def test_a_click_on_a_graph_point_opens_its_step_from_the_review_and_on_the_replay(site: dict[str, Any],
                                                                            browser: Any) -> None:
    from playwright.sync_api import expect

    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        game = site["ids"][-1]
        pg.goto(f"{site['url']}/review?game={quote(game)}&lang=en", wait_until="domcontentloaded")
        pg.wait_for_selector(".st-key-lg_review .js-plotly-plot .scatterlayer .points path", timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        hand, step, seat = _click_a_point(pg, "lg_review")
        marker = pg.locator('[data-testid="ist-step"]')
        expect(marker).to_have_attribute("data-step", str(step), timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        for part in ("/replay?", f"hand={hand}", f"step={step}", f"seat={seat}"):  # a link that opens it again
            expect(pg).to_have_url(re.compile(re.escape(part)), timeout=30_000)
        # and on the Replay, the hand's own graph moves the board to the step clicked
        pg.wait_for_selector(".st-key-lg_replay .js-plotly-plot .scatterlayer .points path", timeout=60_000)
        _, step2, _ = _click_a_point(pg, "lg_replay")
        expect(marker).to_have_attribute("data-step", str(step2), timeout=60_000)
        pg.wait_for_selector(IDLE, timeout=60_000)
        pg.wait_for_timeout(500)
        assert marker.get_attribute("data-step") == str(step2)  # it stays there: no click replayed
        log = site["log"].read_text(errors="replace")
        assert "Traceback" not in log, log[-2000:]
    finally:
        pg.close()
