"""The deep review's report: the downloaded report is the stored (deep) review
in the page's language, as `istaka report` writes it; decisions without a cost are collapsed so a
long game's report stays short; "only mistakes over N points"; intervals and forced decisions in
the HTML and the JSON."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from browser_helpers import ARGS, CHROMIUM, needs_chromium
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.cli import main
from analysis.review import render
from analysis.review import SEVERITY
from analysis.review.deep import CONFIRM
from analysis.review.lesson import to_json
from analysis.review.moments import key_moments
from analysis.review.report import anchor_id
from analysis.selfplay import GameSpec, Player, play_game
from analysis.store import analyze, load_review
from analysis.game import replay_game
from analysis.store.queries import load_gamelog

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
GAME = "rp-a"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("reviewreport")
    spec = GameSpec(GAME, (Player("Sol", "solver"), Player("Kemal", "random"), Player("Gre", "greedy"),
                           Player("Ran", "random")), "101", None, "5", "2026-10-05T20:00:00+00:00", hands=1)
    log = d / "g.jsonl"
    log.write_text("".join(play_game(spec).lines()), encoding="utf-8")

    def both(con):  # type: ignore[no-untyped-def]
        analyze(con, games=[GAME])  # the quick pass first, then the deep one replaces it
        analyze(con, games=[GAME], deep=True, budget=0.002, worlds=8)

    yield stored(d / "rp.duckdb", log, both)


def _deep(db: Path):  # type: ignore[no-untyped-def]
    with store.reading(db) as con:
        return replay_game(load_gamelog(con, GAME), keep_steps=True), load_review(con, GAME)


def test_the_downloaded_report_is_the_stored_deep_review_in_the_pages_language(db: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The page once said Kemal lost 0 (deep) while the download was the quick report."""
    from dashboard.state import review_data

    monkeypatch.setenv("ISTAKA_DB", str(db))
    res, gr = _deep(db)
    assert gr.depth == "deep"
    for lang in ("tr", "en"):
        assert review_data.report_html(GAME, lang) == render(res, gr, lang=lang)
    calls: list[tuple] = []
    real = review_data.report_html
    monkeypatch.setattr(review_data, "report_html", lambda *a, **k: calls.append(a) or real(*a, **k))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "review", game=GAME, lang="tr")
    ui.ok(at)
    assert calls and calls[-1][:2] == (GAME, "tr")  # the page's game and language, the deep review


def test_the_report_collapses_decisions_without_a_cost(db: Path) -> None:
    """A deep report once wrote every zero-cost decision out in full (112,000 px for 11 hands)."""
    res, gr = _deep(db)
    choices = [c for d in gr.decisions for c in d.choices]
    costly = [c for c in choices if c.cost > 0]
    assert costly and len(costly) < len(choices)
    html = render(res, gr, lang="en")
    assert html.count('<div class="d"') == len(costly)  # only decisions with a cost in full
    quiet = re.findall(r"<details class=\"z\">.*?</details>", html, re.S)
    assert len(quiet) == 1 and quiet[0].count("<li data-kind=") == len(choices) - len(costly)
    # a key moment's decision is written out whatever the floor (its link must land on it)
    moment = {anchor_id(m.ord, m.turn, m.kind) for ms in key_moments(gr, "en") for m in ms}
    pairs = [(c, anchor_id(d.ord, d.turn, c.kind) in moment) for d in gr.decisions for c in d.choices if c.cost > 0]
    others = [c.cost for c, key in pairs if not key] or [c.cost for c, _ in pairs]
    n = math.ceil(min(others))  # a floor the cheapest cost that is no key moment does not pass
    over = [c for c, key in pairs if key or c.cost > n]
    floor = render(res, gr, lang="en", min_cost=n)
    assert floor.count('<div class="d"') == len(over) <= len(costly)
    assert f"only mistakes over {n} points in full" in floor


def test_the_report_shows_intervals_and_forced_decisions(db: Path) -> None:
    res, gr = _deep(db)
    c = max((c for d in gr.decisions for c in d.choices), key=lambda c: c.cost)
    en, tr = render(res, gr, lang="en"), render(res, gr, lang="tr")
    assert f"{c.cost:.0f} ± {c.ci:.0f} points" in en and f"{c.cost:.0f} ± {c.ci:.0f} puan" in tr
    forced = sum(1 for d in gr.decisions for c in d.choices if c.forced)
    assert forced and f"Forced decisions ({forced})" in en and f"Zorunlu kararlar ({forced})" in tr
    assert c.worlds == 8 * (CONFIRM - 1) and f"priced on {c.worlds} worlds" in en and f"{c.worlds} dünyada fiyatlandı" in tr
    assert ("the same 8 fixed worlds; a difference whose interval excludes zero is priced again on "
            f"{8 * (CONFIRM - 1)} more worlds") in en
    assert "8 sabit dünyada" in tr and f"{8 * (CONFIRM - 1)} yeni dünyada yeniden fiyatlandı" in tr


def test_report_json_carries_intervals_worlds_forced_counts_and_rates(db: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", GAME, "--json", "--db", str(db), "--lang", "en"]) == 0
    j = json.loads(capsys.readouterr().out)
    res, gr = _deep(db)
    moments, notes = j.pop("moments"), j.pop("notes")
    assert j == json.loads(json.dumps(to_json(gr, res)))
    assert notes == []  # the coach wrote none on this game (tests/test_notes.py writes some)
    # the key moments the HTML report opens on, per seat, costliest first, lessons in --lang
    want = key_moments(gr, "en")
    assert [[(m["seat"], m["step"], m["cost"], m["lesson"]) for m in seat] for seat in moments] == \
        [[(m.seat, m.step, round(m.cost, 2), m.lesson) for m in seat] for seat in want]
    assert any(moments) and all(m["severity"] in {name for _, name in SEVERITY} for seat in moments for m in seat)
    assert main(["report", GAME, "--json", "--db", str(db), "--lang", "tr"]) == 0
    tr = json.loads(capsys.readouterr().out)["moments"]
    assert [[m["lesson"] for m in seat] for seat in tr] == [[m.lesson for m in seat] for seat in key_moments(gr, "tr")]
    assert j["depth"] == "deep" and j["pricing_worlds"] == 8
    assert j["forced"]["total"] == sum(1 for d in j["decisions"] if d["forced"]) > 0
    graded = [d for d in j["decisions"] if not d["forced"]]
    # screened on 8 worlds; a cost that passed is charged on the (CONFIRM - 1) times as many after them
    assert all(d["worlds"] in (8, 8 * (CONFIRM - 1)) and d["ci"] is not None for d in graded)
    assert all(d["worlds"] == 8 * (CONFIRM - 1) for d in graded if d["cost"] > 0)
    assert all((d["cost"] > 0) == (d["cost"] > d["ci"]) for d in graded)  # charged only clear of zero
    for s in j["seats"]:
        mine = [d["cost"] for d in graded if d["seat"] == s["seat"]]
        assert s["graded"] == len(mine)
        assert s["rates"]["30"] == (round(100 * sum(1 for x in mine if x > 30) / len(mine), 1) if mine else None)
    out = tmp_path / "r.html"
    assert main(["report", GAME, "--out", str(out), "--db", str(db), "--min-cost", "100", "--lang", "tr"]) == 0
    assert "yalnız 100 puandan büyük hatalar ayrıntılı" in out.read_text(encoding="utf-8")


@needs_chromium
def test_a_deep_report_is_short_in_a_real_browser(db: Path, tmp_path: Path) -> None:
    """The report once measured 112,000 px for 11 hands; a one-hand report now fits two laptop screens,
    every decision still there behind a click."""
    from playwright.sync_api import sync_playwright

    res, gr = _deep(db)
    page_file = tmp_path / "r.html"
    page_file.write_text(render(res, gr, lang="tr"), encoding="utf-8")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pg = b.new_page(viewport={"width": 1280, "height": 800})
            pg.goto(page_file.as_uri())
            short = pg.evaluate("document.documentElement.scrollHeight")
            pg.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            whole = pg.evaluate("document.documentElement.scrollHeight")
            phone = b.new_page(viewport={"width": 390, "height": 844})  # nothing runs off a phone's edge
            phone.goto(page_file.as_uri())
            widths = [phone.evaluate("document.scrollingElement.scrollWidth")]
            phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            widths.append(phone.evaluate("document.scrollingElement.scrollWidth"))
        finally:
            b.close()
    assert short <= 2 * 800 < whole, (short, whole)
    assert max(widths) <= 390, widths
