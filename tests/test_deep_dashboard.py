"""AppTests of the deep review in the dashboard: the "deep review" button and its
stored result, per seat graded decisions, the decisions of a hand with their top three
candidates, the lesson and the best line, the hand's actual result next to the expected one,
and the Replay panel of the evaluator's top three (stored, or evaluated now), in Turkish and
English, against a real DuckDB with two simulated one-hand games."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.review.lesson import sentence
from analysis.selfplay import GameSpec, Player, play_game
from analysis.store import analyze, load_review
from dashboard.state import deep_data
from dashboard.words.pricing_words import cost_text

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
EVIL = "<b>x</b>"
WORDS = {  # what a user reads, per language
    "tr": {"button": "Derin inceleme", "title": "Derin inceleme: beklenen puan", "expected": "Beklenen puan",
           "panel": "Değerlendiricinin ilk üç kararı", "stored": "derin incelemesinden", "live": "dünya",
           "done": "Derin inceleme bitti", "best_line": "En iyi hamle, bütünüyle", "graded": "Değerlendirilen karar",
           "actual": "Gerçek el puanı", "forced": "zorunlu"},
    "en": {"button": "Deep review", "title": "Deep review: expected points", "expected": "Expected points",
           "panel": "The evaluator's top three decisions", "stored": "deep review (stored)", "live": "worlds",
           "done": "Deep review done", "best_line": "The best line, drawn whole", "graded": "Graded decisions",
           "actual": "Actual hand score", "forced": "forced"},
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("deepdash")
    lines = []
    for gid, seed in (("dv-a", "4"), ("dv-b", "6")):
        spec = GameSpec(gid, (Player("Sol", "solver"), Player(EVIL, "random"), Player("Gre", "greedy"),
                              Player("Ran", "random")), "101", None, seed, f"2026-10-0{seed}T20:00:00+00:00",
                        hands=1)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    # dv-a deep-reviewed with a tiny budget (a few worlds per decision); dv-b never analysed
    yield stored(d / "dv.duckdb", log, lambda con: analyze(con, games=["dv-a"], deep=True, budget=0.002,
                                                                         worlds=8))


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=120)


def _read(at: AppTest) -> str:
    """The page's Markdown and HTML as a user reads it: tags (a rule link, a tile) dropped."""
    return unescape(re.sub(r"<[^>]+>", "", ui.html(at)))


def _review(db: Path, game: str):
    with store.reading(db) as con:
        return load_review(con, game)


def _choices(gr):
    """The hand's graded decisions in turn order, as (decision, choice)."""
    return [(d, c) for h in gr.hands for d in sorted(h.decisions, key=lambda d: d.turn)
            for c in sorted(d.choices, key=lambda c: (c.step, deep_data.KIND_ORDER[c.kind]))]


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_review_shows_every_graded_decision_with_candidates_lesson_and_best_line(app: AppTest, db: Path,
                                                                               lang: str) -> None:
    w = WORDS[lang]
    gr = _review(db, "dv-a")
    assert gr is not None and gr.depth == "deep"
    at = ui.open_page(app, "review", game="dv-a", lang=lang)
    assert w["title"] in [s.value for s in at.subheader]
    seats = _frames(at, w["graded"])[0]
    summary = gr.summary()
    assert list(seats.iloc[:, 2]) == [s["graded"] for s in summary]  # graded decisions per seat
    assert list(seats.iloc[:, 3]) == [round(s["cost"], 1) for s in summary]
    assert EVIL in list(seats.iloc[:, 1]) and "<b>x" not in ui.html(at)  # a name is data, never HTML

    pairs = _choices(gr)
    table = at.dataframe(key="dv_decisions").value
    assert len(table) == len(pairs) > 10  # every graded decision, in turn order
    assert list(table.iloc[:, 0]) == [d.turn + 1 for d, _ in pairs]
    # the cost with its interval ("24 ± 6"), a forced decision said so
    assert list(table.iloc[:, 7]) == [cost_text(c.cost, c.ci, c.worlds, c.forced, lang) for _, c in pairs]
    assert any(" ± " in x for x in table.iloc[:, 7]) and w["forced"] in list(table.iloc[:, 7])
    assert list(table.iloc[:, 9]) == [sentence(c, lang) for _, c in pairs]  # the lesson column
    first = pairs[0][1]
    assert table["▶"].iloc[0] == f"replay?game=dv-a&hand=1&step={first.step}&seat={pairs[0][0].seat}&lang={lang}"

    # the detail opens on the costliest decision: lesson, top three with expected points, the best line
    i = max(range(len(pairs)), key=lambda k: (pairs[k][1].cost, -k))
    _, c = pairs[i]
    assert sentence(c, lang) in _read(at)
    cands = _frames(at, w["expected"])[0]
    want = [x["expected"] for x in c.candidates[:3]] + [x["expected"] for x in c.candidates[3:] if x["played"]]
    assert list(cands[w["expected"]]) == [round(x, 1) for x in want]
    assert "✓" in list(cands.iloc[:, 4])  # what was played is marked
    assert w["best_line"] in ui.html(at) and 'data-testid="dv-line"' in ui.html(at)

    # the hand's actual result next to what the evaluator expected
    res = _frames(at, w["actual"])[0]
    with store.reading(db) as con:
        from analysis.store.queries import replay_stored

        hr = replay_stored(con, "dv-a").hands[0]
    assert list(res.iloc[:, 1]) == hr.totals()
    assert res.iloc[:, 2].notna().all()

    # another decision picked: its lesson and candidates follow
    j = next(k for k in range(len(pairs)) if k != i and pairs[k][1].graded)
    at.selectbox(key="dv_pick_1").select(j).run()
    ui.ok(at)
    assert sentence(pairs[j][1], lang) in _read(at)
    assert len(_frames(at, w["expected"])[0]) >= 2


def test_a_best_line_is_drawn_whole_with_its_melds_and_lay_offs(app: AppTest, db: Path) -> None:
    gr = _review(db, "dv-a")
    pairs = _choices(gr)
    k = next((i for i, (_, c) in enumerate(pairs) if c.kind == "place"
              and any(e.get("type") == "open" for e in c.best_events)), None)
    assert k is not None, "an opening in the hand"
    at = ui.open_page(app, "review", game="dv-a")
    at.selectbox(key="dv_pick_1").select(k).run()
    html = ui.html(ui.ok(at))
    c = pairs[k][1]
    assert 'data-line="open"' in html
    opened = [str(x) for g in c.best_events[0].get("melds", c.best_events[0].get("pairs", [])) for x in g]
    assert all(f'data-tile="{x.split(">")[0]}"' in html for x in opened)
    if any(e.get("type") == "layoff" for e in c.best_events):
        assert 'data-line="layoff"' in html and "İşleme → #" in html


def test_clicking_open_in_replay_goes_to_that_step(app: AppTest, db: Path) -> None:
    gr = _review(db, "dv-a")
    pairs = _choices(gr)
    at = ui.open_page(app, "review", game="dv-a")
    i = max(range(len(pairs)), key=lambda k: (pairs[k][1].cost, -k))
    at.button(key="dv_open").click().run()
    ui.ok(at)
    assert int(re.search(r'data-step="(\d+)"', ui.html(at)).group(1)) == pairs[i][1].step
    assert at.session_state["seat"] == pairs[i][0].seat


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_panel_shows_the_stored_choice_of_a_deep_reviewed_game(app: AppTest, db: Path, lang: str) -> None:
    w = WORDS[lang]
    gr = _review(db, "dv-a")
    d, c = next((d, c) for d, c in _choices(gr) if c.kind == "discard")
    at = ui.open_page(app, "replay", game="dv-a", hand=1, step=c.step, lang=lang)
    heads = [s.value for s in at.subheader]
    assert any(h.startswith(w["panel"]) and gr.players[d.seat] in h for h in heads)
    assert any(w["stored"] in x.value for x in at.caption)
    shown = _frames(at, w["expected"])
    want = [x["expected"] for x in c.candidates[:3]]
    assert any(list(f[w["expected"]])[:3] == [round(x, 1) for x in want] for f in shown)
    assert sentence(c, lang) in _read(at)


def _frames(at: AppTest, column: str) -> list:
    """The tables showing ``column`` (a table that is no widget carries no key in an AppTest)."""
    return [d.value for d in at.dataframe if column in d.value.columns]


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_panel_without_a_deep_review_shows_the_verdict_the_review_would_store(app: AppTest, db: Path,
                                                                                   lang: str) -> None:
    """No deep review stored: the panel judges the step's decision exactly as the deep review does
    (the same candidates, worlds and seed), says so, and shows the same numbers it would store."""
    from analysis.review.deep import deep_review_hand

    w = WORDS[lang]
    at = ui.open_page(app, "replay", game="dv-b", hand=1, step=1, lang=lang)  # before the next seat draws
    frame = _frames(at, w["expected"])[0]
    exp = list(frame[w["expected"]])
    assert 2 <= len(exp) <= 4 and exp[0] == min(exp)  # draw and take, the best first
    assert any(w["live"] in x.value for x in at.caption)
    worlds = int(re.search(r"(\d+) (?:dünya|worlds)", "\n".join(x.value for x in at.caption)).group(1))
    assert worlds in (deep_data.DEEP_WORLDS, 3 * deep_data.DEEP_WORLDS)
    rp = data_replay(db, "dv-b")
    rv = deep_review_hand(rp.game, rp.hands[0], 1, worlds=deep_data.DEEP_WORLDS)
    c = next(c for d in rv.decisions for c in d.choices if c.step == 1)
    assert exp == [round(x["expected"], 1) for x in c.candidates[:len(exp)]]
    assert sentence(c, lang) in _read(at)


def data_replay(db: Path, game: str):  # type: ignore[no-untyped-def]
    """The game replayed with its steps, as the dashboard replays it."""
    from analysis.game import replay_game
    from analysis.store import queries

    with store.reading(db) as con:
        g = queries.load_gamelog(con, game)
    return replay_game(g, keep_steps=True)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_deep_review_button_runs_the_pass_and_stores_it(db: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    w = WORDS[lang]
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    monkeypatch.setenv("ISTAKA_DB", str(copy))
    monkeypatch.setattr(deep_data, "DEEP_WORLDS", 8)  # the page's pass, on fewer pricing worlds than the default
    at = ui.open_page(AppTest.from_file(APP, default_timeout=180), "review", game="dv-b", lang=lang)
    assert at.button(key="dv_run").label == w["button"]
    assert _review(copy, "dv-b") is None
    if lang == "en":
        return  # the run itself once (tr): a few seconds
    at.button(key="dv_run").click().run()
    ui.after_jobs(ui.ok(at))  # queued: the page shows the outcome once it has run
    assert any(w["done"] in s.value for s in at.success)
    gr = _review(copy, "dv-b")
    assert gr is not None and gr.depth == "deep" and sum(len(d.choices) for d in gr.decisions) > 10
    assert len(at.dataframe(key="dv_decisions").value) == sum(len(d.choices) for d in gr.decisions)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_deep_review_and_the_replay_panel_show_only_the_pages_language(app: AppTest, db: Path,
                                                                           lang: str) -> None:
    from test_i18n import ENGLISH, INTERNAL, TURKISH, _texts, _words  # the deny-lists of every page

    gr = _review(db, "dv-a")
    pairs = _choices(gr)
    at = ui.open_page(app, "review", game="dv-a", lang=lang)
    texts = _texts(at)
    k = next(i for i, (_, c) in enumerate(pairs) if c.kind == "place")  # an opening or lay-offs drawn
    at.selectbox(key="dv_pick_1").select(k).run()
    texts += _texts(ui.ok(at))
    step = next(c.step for _, c in pairs if c.kind == "place")
    texts += _texts(ui.open_page(app, "replay", game="dv-a", hand=1, step=step, lang=lang))  # stored
    texts += _texts(ui.open_page(app, "replay", game="dv-b", hand=1, step=1, lang=lang))  # evaluated now
    text = "\n".join(texts)
    wrong = sorted(_words(text) & set(ENGLISH if lang == "tr" else TURKISH))
    assert not wrong, wrong
    assert not sorted(set(INTERNAL.findall(text)))


def test_a_swap_in_a_lesson_names_the_tiles_given_for_the_okey() -> None:
    from analysis.review.lesson import describe

    ev = [{"type": "swap", "seat": 1, "meld": 2, "tiles": ["R5"]}]  # as analysis.players plays a swap
    assert describe(ev, "best turn", "en") == "swapping R5 for the okey"
    assert describe(ev, "best turn", "tr") == "okeyi R5 ile değiştirmek"


def test_a_lesson_never_calls_a_move_the_best_when_it_is_only_within_the_noise() -> None:
    from analysis.review import Choice

    cands = [{"move": "discard R2", "expected": 9.7, "se": 23.2, "n": 7, "played": False,
              "events": [{"type": "discard", "seat": 0, "tile": "R2"}]},
             {"move": "discard K3", "expected": 28.0, "se": 16.2, "n": 7, "played": True,
              "events": [{"type": "discard", "seat": 0, "tile": "K3"}]}]
    c = Choice("discard", 5, 9, "discard K3", "discard R2", 28.0, 9.7, 20.0, 0.0, cands,
               [{"type": "discard", "seat": 0, "tile": "K3"}])
    assert sentence(c, "en") == ("No clear loss: discarding K3 (expected 28 points) is within the sampling noise of "
                                 "the best-looking move, discarding R2 (expected 10 points).")
    assert sentence(c, "tr").startswith("Belirgin bir kayıp yok: K3 atmak (beklenen 28 puan) ile en iyi görünen R2")
    same = Choice("discard", 5, 9, "discard R2", "discard R2", 9.7, 9.7, 0.0, 0.0, cands[:1],
                  [{"type": "discard", "seat": 0, "tile": "R2"}])
    assert sentence(same, "en") == "The best move was played: discarding R2 (expected 10 points)."


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_every_decision_in_full_and_only_those_with_a_cost(app: AppTest, db: Path, lang: str) -> None:
    pairs = _choices(_review(db, "dv-a"))
    at = ui.open_page(app, "review", game="dv-a", lang=lang)
    at.toggle(key="dv_all").set_value(True).run()
    html = ui.html(ui.ok(at))
    from dashboard.words.luck_words import t as luck_t

    def decisions_shown() -> int:  # the decisions' expanders (the hand's luck and skill has one of its own)
        return sum(1 for e in at.expander if e.label != luck_t("lk_title", lang))

    assert decisions_shown() == len(pairs)
    assert all(sentence(c, lang) in _read(at) for _, c in pairs)  # each lesson, with its line drawn
    assert html.count('data-testid="dv-line"') == 2 * len(pairs)  # the best line and the played one
    at.toggle(key="dv_only_costly").set_value(True).run()
    costly = [c for _, c in pairs if c.cost > 0]
    ui.ok(at)
    assert decisions_shown() == len(costly) == len(at.dataframe(key="dv_decisions").value)
    assert costly, "the random seats lose expected points somewhere"


def test_a_line_with_a_show_or_a_declaration_says_it_in_words() -> None:
    from dashboard.board.deep_view import line_html

    evs = [{"type": "show", "seat": 0, "tile": "R5"}, {"type": "declare", "seat": 0}]
    en, tr = line_html(evs, None, 0, ["A", "B", "C", "D"], "en"), line_html(evs, None, 0, ["A", "B", "C", "D"], "tr")
    assert "shows the gösterge R5" in en and "declares çift" in en
    assert "gösterge gösterdi R5" in tr and "çifte gidiyor" in tr
    assert ">show<" not in en + tr and ">declare<" not in en + tr


def test_a_lesson_says_a_show_or_a_declaration_in_words_and_never_an_internal_label() -> None:
    from analysis.review.lesson import describe

    assert describe([{"type": "declare", "seat": 0}], "wait", "tr") == "çifte gideceğini söylemek"
    assert describe([{"type": "show", "seat": 0, "tile": "R5"}], "played", "en") == "showing the gösterge R5"
    assert describe([{"type": "return", "seat": 0, "tile": "R5"}], "played", "en") == "placing nothing"
    assert describe([], "wait", "tr") == "beklemek"
