"""The Player page (dashboard/views/player.py) through AppTest: both languages, the filters
(preset, source, days), two players side by side, and its Practise links opening Practice on
one kind of mistake."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import apptest_helpers as ui
import pytest
from streamlit.testing.v1 import AppTest
from test_i18n import ENGLISH, INTERNAL, TURKISH, _texts, _words

import profile_games as pg
from analysis import store
from analysis.review.taxonomy import BY_KEY, KIND_OF
from analysis.store import mistake_kinds as mk

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield pg.build(tmp_path_factory.mktemp("pp"))


@pytest.fixture
def env(db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return db


def _open(lang: str = "en", **params: object) -> AppTest:
    return ui.open_page(AppTest.from_file(APP, default_timeout=120), "player", lang=lang, **params)


def _tables(at: AppTest, testid: str) -> list[str]:
    return [m.value for m in at.markdown if f'data-testid="{testid}"' in m.value]


def _totals(at: AppTest) -> dict[str, int]:
    """Per player, the reviewed hands its line above the kinds table counts."""
    out = {}
    for m in at.markdown:
        hit = re.match(r"^(.+?)\\?: (\d+) (?:reviewed hands|incelenmiş el)", m.value)
        if hit:
            out[hit.group(1)] = int(hit.group(2))
    return out


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_page_in_each_language_shows_only_its_words(env: Path, lang: str) -> None:
    at = _open(lang, pp_player="Mehmet", pp_other="Ali")
    text = "\n".join(_texts(at))
    wrong = sorted(_words(text) & set(ENGLISH if lang == "tr" else TURKISH))
    assert not wrong, wrong
    assert not sorted(set(INTERNAL.findall(text)))
    kinds = _tables(at, "pp-kinds")
    assert len(kinds) == 2  # the two players side by side
    name = BY_KEY["penalty_discards"].name(lang)
    assert name in kinds[0]  # Mehmet's costliest kind, in the page's language
    style = _tables(at, "pp-style")[0]
    assert ">Mehmet<" in style and ">Ali<" in style and (">Uzman<" if lang == "tr" else ">Expert<") in style
    assert ("Açma oranı" if lang == "tr" else "Opening rate") in style
    text = re.sub(r"<[^>]+>", "", style)
    if lang == "tr":  # Turkish numbers: a decimal comma and the percent sign first
        assert re.search(r"%\d+ \[\d+; \d+\]", text) and not re.search(r"\d\.\d", text)
        assert re.search(r"\d,\d\d \[\d,\d\d; \d,\d\d\]", text)
    else:
        assert re.search(r"\d+% \[\d+, \d+\]", text) and re.search(r"\d\.\d\d \[\d\.\d\d, \d\.\d\d\]", text)
    with store.reading(env) as con:
        want = mk.kinds_summary(con, ["Mehmet", "Ali"], variant="101")
    assert _totals(at) == want.groupby("player").hands.first().to_dict()


def test_filters_by_preset_source_and_days(env: Path) -> None:
    at = _open("en", pp_player="Ali")
    assert _totals(at) == {"Ali": 9}  # 101: every source
    at.selectbox(key="pp_variant").select("51").run()
    assert _totals(ui.ok(at)) == {"Ali": 2}
    at.selectbox(key="pp_variant").select("101").run()
    pills = next(w for w in at.button_group if w.key == "pp_sources")
    pills.set_value(["played"]).run()
    assert _totals(ui.ok(at)) == {"Ali": 2}
    pills = next(w for w in at.button_group if w.key == "pp_sources")
    pills.set_value(["recorded", "selfplay"]).run()
    assert _totals(ui.ok(at)) == {"Ali": 7}
    import datetime as dt

    at.date_input(key="pp_from").set_value(dt.date(2026, 10, 13)).run()
    assert _totals(ui.ok(at)) == {"Ali": 3}  # pg-4 (recorded, the 20th) and pg-5 (self-play, the 21st)
    at.date_input(key="pp_to").set_value(dt.date(2026, 10, 19)).run()
    assert _totals(ui.ok(at)) == {}  # nothing reviewed: the page says so
    assert any("Ali" in i.value for i in at.info)
    # the style counts the score sheet's hands too (a sheet has no moves, so no review)
    pills = next(w for w in at.button_group if w.key == "pp_sources")
    pills.set_value(["sheet"]).run()
    at.date_input(key="pp_from").set_value(None).run()
    at.date_input(key="pp_to").set_value(None).run()
    style = _tables(ui.ok(at), "pp-style")[0]
    row = re.search(r'<tr data-metric="opening_rate">(.*?)</tr>', style).group(1)
    assert re.fullmatch(r"Opening rate100% \[\d+, 100\].*", re.sub(r"<[^>]+>", "", row)), row


def test_the_trend_by_week_and_by_game(env: Path) -> None:
    at = _open("en", pp_player="Mehmet", pp_other="Zeynep")
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    import json

    spec = json.loads(charts[0].proto.spec)
    assert spec["layout"]["xaxis"]["title"]["text"] == "Week"
    assert {t["name"] for t in spec["data"]} >= {"All kinds", BY_KEY["penalty_discards"].en}
    by = next(w for w in at.button_group if w.key == "pp_by")
    by.set_value("game").run()
    spec = json.loads(ui.ok(at).get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["xaxis"]["title"]["text"] == "Game order"
    x = spec["data"][0]["x"]
    import base64

    assert (list(base64.b64decode(x["bdata"])) if isinstance(x, dict) else x) == [1, 2, 3, 4, 5]  # five 101 games


def _links(table: str) -> dict[str, str]:
    return {m.group(1): unescape(m.group(2)) for m in
            re.finditer(r'<tr data-kind="([a-z_]+)">.*?<a href="(practice\?[^"]+)" target="_self">', table)}


def test_a_kinds_practise_link_opens_practice_on_that_kind(env: Path) -> None:
    at = _open("en", pp_player="Mehmet")
    links = _links(_tables(at, "pp-kinds")[0])
    assert "penalty_discards" in links
    q = parse_qs(urlsplit(links["penalty_discards"]).query)
    assert q == {"pr_player": ["Mehmet"], "pr_kind": ["penalty_discards"], "lang": ["en"]}
    with store.reading(env) as con:
        want = mk.kind_positions(con, "Mehmet", "penalty_discards")
    assert len(want) >= 2
    pr = ui.open_page(AppTest.from_file(APP, default_timeout=120), "practice",
                      **{k: v[0] for k, v in q.items()})
    assert pr.selectbox(key="pr_kind").value == "penalty_discards"
    cats = {BY_KEY[KIND_OF[c]].key: c for c in want.category}
    for i in range(len(want)):
        cap = next(c.value for c in pr.caption if "Position" in c.value)
        assert f"Position {i + 1} / {len(want)}" in cap, cap
        assert any(word in cap for word in ("X3", "X4", "X5", "okey", "laid off", "opened")), cap
        pr.button(key="pr_next").click().run()
        ui.ok(pr)
    assert set(cats) == {"penalty_discards"}
    # all kinds again: Practice's own list of the player's positions
    from analysis.review import PRACTICE_CATEGORIES
    from analysis.store import queries

    with store.reading(env) as con:
        every = queries.practice_positions(con, "Mehmet", list(PRACTICE_CATEGORIES))
    pr.selectbox(key="pr_kind").select("").run()
    cap = next(c.value for c in ui.ok(pr).caption if "Position" in c.value)
    assert f"Position 1 / {len(every)} " in cap, cap


def test_a_kind_without_positions_says_so(env: Path) -> None:
    with store.reading(env) as con:
        empty = [k for k in BY_KEY if not len(mk.kind_positions(con, "Zeynep", k))]
    assert empty
    pr = ui.open_page(AppTest.from_file(APP, default_timeout=120), "practice", pr_player="Zeynep",
                      pr_kind=empty[0], lang="en")
    assert any("no positions of this kind" in i.value for i in pr.info)


def test_the_skill_line_from_the_splits_istaka_profile_made(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before ``istaka profile`` the page says the skill line is not made yet; after it, each
    player's luck-adjusted points a hand with its interval, as the profile computed them."""
    from analysis.cli import main
    from analysis.store import skill_cache

    monkeypatch.setattr(skill_cache, "SKILL_VALUES", "quick")  # the cache of --quick splits (rollouts are slow)
    at = _open("en", pp_player="Ali", pp_other="Zeynep")
    assert [c.value for c in at.caption if "no skill line yet" in c.value] == [  # five games and the score sheet
        "Ali: no skill line yet. The command line's istaka profile makes it (6 games waiting).",
        "Zeynep: no skill line yet. The command line's istaka profile makes it (6 games waiting)."]
    assert main(["profile", "Ali", "--db", str(env), "--variant", "101", "--quick", "--no-progress"]) == 0
    with store.reading(env) as con:
        from analysis.store.profile import profile

        want = profile(con, "Ali", variant="101", values="quick")["skill"]
    at = _open("en", pp_player="Ali", pp_other="Zeynep")
    line = next(m.value for m in at.markdown if m.value.startswith("Ali: ") and "luck-adjusted" in m.value)
    adj = want["adjusted"]
    assert f"{adj['mean']:.1f} luck-adjusted points a hand \\[{adj['low']:.1f}, {adj['high']:.1f}\\]" in line, line
    assert f"{want['hands']} hands in {want['games']} games" in line
    assert any("Zeynep: no skill line yet" in c.value for c in at.caption)  # only Ali's splits were made
    assert any(c.key == "pp_skill_0" for c in at.get("plotly_chart"))
