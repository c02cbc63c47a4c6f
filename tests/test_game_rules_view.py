"""A game's rules on the Games and Replay pages: the preset and the log's overrides, team totals
of partner games, and each hand's score explained seat by seat from the engine's own parts."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis.game import (
    PRESETS,
    FinishInfo,
    Opening,
    Tile,
    explain_hand,
    explain_state,
    read_and_replay,
    resolve,
)
from analysis.selfplay import GameSpec, Player, play_game
from dashboard.board import game_rules as gr

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PLAYERS = (Player("Ali", "greedy"), Player("Ayşe", "greedy"), Player("Mehmet", "greedy"), Player("Zeynep", "greedy"))
OVERRIDES = {"esli": True, "katlamali": False, "unopened_penalty": 101}
GAMES = [("101", OVERRIDES), ("51", {"esli": True}), ("101-classic", None), ("101", None)]


def _log(tmp: Path, seeds: range = range(2), hands: int = 4) -> Path:
    lines = []
    for i, (variant, rules) in enumerate(GAMES):
        for seed in seeds:
            lines += play_game(GameSpec(f"gr-{i}-{seed}", PLAYERS, variant, rules, str(seed),
                                        f"2026-11-0{seed + 1}T20:00:00+00:00", hands=hands)).lines()
    path = tmp / "games.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _log(tmp_path_factory.mktemp("gr"))


def _ended(log: Path) -> Iterator[tuple[object, object, object]]:
    games, errors = read_and_replay(str(log), keep_steps=True)
    assert not errors
    for g in games:
        assert g.valid, g.error
        for h in g.hands:
            yield g, h, h.steps[-1].state


# ---- the engine's parts -----------------------------------------------------------------------

def test_explained_lines_sum_to_the_engines_scores_in_every_preset(log: Path) -> None:
    seen = {"finisher": 0, "partner": 0, "unopened": 0, "rack": 0}
    for g, h, state in _ended(log):
        lines = explain_state(state)
        if h.result in ("finish", "exhausted"):
            assert lines is not None
            assert [ln.score for ln in lines] == list(state.scores) == list(h.scores), (g.game, h.hand)
            for ln in lines:
                seen[ln.why] = seen.get(ln.why, 0) + 1
                if ln.why == "rack":
                    assert ln.score == ln.tiles * (2 if ln.doubled else 1) * ln.mult + ln.okey_points
                if ln.why == "partner":
                    assert g.rules.esli and state.finisher == (ln.seat + 2) % 4 and ln.rule == "E8"
        else:
            assert lines is None
    assert all(seen[k] for k in ("finisher", "partner", "unopened", "rack")), seen


def test_the_worked_example_g2_line_by_line() -> None:
    okey = Tile.parse("R6")
    racks = [[], [Tile.parse(x) for x in ("K3", "B9", "Y11")], [Tile.parse("B5")], [Tile.parse("K1")] * 3]
    opened = [Opening("points", 110), Opening("points", 101), Opening("points", 120), None]
    lines = explain_hand(PRESETS["101"], FinishInfo("finish", 0, ("okey",), True), racks, opened, okey)
    assert [ln.score for ln in lines] == [-202, 46, 10, 404]
    assert [(ln.why, ln.mult) for ln in lines] == [("finisher", 2), ("rack", 2), ("rack", 2), ("unopened", 2)]
    text = gr.score_explanation_lines(lines, ["Ali", "Ayşe", "Mehmet", "Zeynep"], PRESETS["101"], "en")
    assert text == ["Ali: -202 — finished: −101 × 2 (E5, E6)", "Ayşe: 46 — tiles left 23 × 2 (E5, E6)",
                    "Mehmet: 10 — tiles left 5 × 2 (E5, E6)", "Zeynep: 404 — never opened: 202 × 2 (E5, E6)"]


def test_a_partner_games_explanation_says_why_an_unopened_partner_scores_0(log: Path) -> None:
    for g, h, state in _ended(log):
        if g.rules.esli and h.result == "finish" and state.opened[(state.finisher + 2) % 4] is None:
            partner = g.players[(state.finisher + 2) % 4]
            en = gr.score_explanation(state, g.players, "en")
            assert f"{partner}: 0 — partner finished ([E8](rules?rule=E8&lang=en))" in en
            tr = gr.score_explanation(state, g.players, "tr")
            assert f"{partner}: 0 — eşi bitirdi ([E8](rules?rule=E8&lang=tr))" in tr
            return
    pytest.fail("no partner game where an unopened partner's partner finished")


# ---- the preset and its overrides ---------------------------------------------------------------

def test_rules_line_names_each_override_with_its_rule() -> None:
    rules = resolve("101", OVERRIDES)
    assert gr.overrides(rules) == {"katlamali": False, "unopened_penalty": 101, "esli": True}
    assert gr.rules_markdown(rules, "tr") == (
        "Kurallar: `101` · katlamalı: kapalı ([O2](rules?rule=O2&lang=tr)) · "
        "açmayana: 101 ([E5](rules?rule=E5&lang=tr)) · eşli ([G4](rules?rule=G4&lang=tr))")
    assert gr.rules_markdown(PRESETS["51"], "en") == "Rules: `51` · the preset as it is"
    assert gr.rules_brief("101", json.dumps(OVERRIDES), "en") == (
        "101 · katlamalı (escalating): off · unopened player gets: 101 · eşli (partners)")
    assert gr.rules_brief("101-classic", None, "tr") == "101-classic"
    assert gr.rules_brief("101", "{not json", "tr") == "101"


def test_every_option_has_words_and_a_documented_rule() -> None:
    from dataclasses import fields

    from analysis.game import Rules
    from dashboard.words import rule_links

    names = {f.name for f in fields(Rules)} - {"variant"}
    assert names == set(gr.OPTIONS)
    assert {rule for _, _, rule in gr.OPTIONS.values()} <= set(rule_links.rule_ids())
    for key, (tr_text, en_text) in gr.STRINGS.items():
        assert set(re.findall(r"{(\w+)}", tr_text)) == set(re.findall(r"{(\w+)}", en_text)), key


# ---- the pages ----------------------------------------------------------------------------------

def _bad_game() -> str:
    """A game whose first hand has an illegal lay-off (onto a meld that does not exist, L1) and
    whose second hand stops in the middle (unfinished)."""
    events = [json.loads(x) for x in play_game(GameSpec("gr-bad", PLAYERS, "101", None, "7",
                                                        "2026-10-01T20:00:00+00:00", hands=2)).lines()]
    draw = next(i for i, e in enumerate(events) if e["type"] == "draw" and e["hand"] == 1)
    events.insert(draw + 1, {"type": "layoff", "game": "gr-bad", "hand": 1, "seat": events[draw]["seat"],
                             "meld": 99, "tiles": ["R1"]})
    second = next(i for i, e in enumerate(events) if e.get("hand") == 2)
    return "".join(json.dumps(e) + "\n" for e in events[:second + 12])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("grdb")
    log = _log(d, range(1), hands=3)
    with log.open("a", encoding="utf-8") as f:
        f.write(_bad_game())
    yield stored(d / "gr.duckdb", log)


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=60)


def test_games_page_shows_each_games_rules_and_partner_team_totals(app: AppTest) -> None:
    at = ui.open_page(app, "games", lang="en")
    df = at.dataframe[0].value
    rules = dict(zip(df["Game"], df["Rules"]))
    assert rules["gr-0-0"] == "101 · katlamalı (escalating): off · unopened player gets: 101 · eşli (partners)"
    assert rules["gr-2-0"] == "101-classic" and rules["gr-1-0"] == "51 · eşli (partners)"
    teams = dict(zip(df["Game"], df["Teams (0+2 · 1+3)"]))
    totals = dict(zip(df["Game"], df["Totals"]))
    a, b, c, d = map(int, totals["gr-0-0"].split())
    assert teams["gr-0-0"] == f"{a + c} · {b + d}"
    assert teams["gr-3-0"] == ""  # not a partner game


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_shows_the_rules_the_teams_and_the_score_line_by_line(app: AppTest, lang: str) -> None:
    at = ui.open_page(app, "replay", game="gr-0-0", hand=1, step=9999, lang=lang)
    caps = [c.value for c in at.caption]
    assert any(c.startswith("Kurallar: `101` · katlamalı: kapalı" if lang == "tr" else
                            "Rules: `101` · katlamalı (escalating): off") for c in caps), caps
    md = [m.value for m in at.markdown]
    team = "Takım toplamları ([G4](rules?rule=G4" if lang == "tr" else "Team totals ([G4](rules?rule=G4"
    assert any(team in m and "0+2" in m for m in md), md
    head = "El puanı nasıl çıktı" if lang == "tr" else "How the hand was scored"
    i = next(i for i, m in enumerate(md) if head in m)
    body = md[i + 1]
    assert body.count("\n- ") + body.startswith("- ") >= 4  # one line per seat
    assert "(rules?rule=E" in body


def test_players_penalty_chart_names_and_links_its_rules(app: AppTest) -> None:
    at = ui.open_page(app, "players", lang="en")
    caps = [c.value for c in at.caption if "(rules?rule=" in c.value]
    assert caps, [c.value for c in at.caption]
    assert re.search(r"\[X[2-7]\]\(rules\?rule=X[2-7]&lang=en\): \w", caps[0])


@pytest.mark.parametrize("hand,lang,want", [(1, "en", "Invalid hand: everyone scores 0 at hand end"),
                                            (2, "tr", "Kaydı yarım kalan el: herkese 0.")])
def test_replay_says_what_an_invalid_or_unfinished_hand_scores(app: AppTest, hand: int, lang: str,
                                                               want: str) -> None:
    at = ui.open_page(app, "replay", game="gr-bad", hand=hand, step=9999, lang=lang)
    assert any(want in m.value for m in at.markdown), [m.value for m in at.markdown][:8]
    if hand == 1:  # the illegal move, its rule linked
        assert at.error and "[[L1](rules?rule=L1&lang=en)]" in at.error[0].value
