"""AppTests of the panel "Ellerinde ne var / What they hold" (dashboard/board/table_view.py) on
Replay, Studies and the Play page's hints, in both languages: the panel's seats, held and needed
tiles and the dangers of the viewer's discards carry exactly the numbers
:func:`analysis.evaluate.panel.read_table` gives for the same view and seed; the words are the
page's language. The hidden-information test: two logs that differ only in another seat's rack
(full logs in one player's view, and the seat-view logs cut from them) give the same panel."""

from __future__ import annotations

import html as H
import io
import re
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import empty_board, make_game, write_log
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.evaluate.panel import read_table
from analysis.game import read_file, replay_game, write
from analysis.game.cut import cut_view
from analysis.players import View
from analysis.review.spots import seed_game
from analysis.store import studies as S
from dashboard.state import play_games, table_read
from dashboard.words import table_words
from dashboard.words.text import md_text

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
GID = "th-1"
PLAYERS = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
TITLE = {"tr": "Ellerinde ne var", "en": "What they hold"}


# ---- reading the panel back from the page ----------------------------------------------------


def _attrs(tag: str) -> dict[str, str]:
    return {k: H.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', tag)}


def panel(at: AppTest) -> dict[str, Any] | None:
    """The panel drawn on the page, as :meth:`TableRead.to_dict` writes it (without ``worlds``),
    and the percentages it prints."""
    page = next((m.value for m in at.markdown if 'data-testid="th-panel"' in m.value), None)
    if page is None:
        return None
    root = _attrs(re.search(r'<div class="ist-th" ([^>]*)>', page).group(1))  # type: ignore[union-attr]
    out: dict[str, Any] = {"seat": int(root["seat"]), "ess": float(root["ess"]), "proposals": int(root["proposals"]),
                           "se": float(root["se"]), "seats": [], "dangers": [], "shown": []}
    for block in page.split('<div class="th-seat" ')[1:]:
        a = _attrs(block.split(">", 1)[0])
        held = [(x["held"], float(x["p"]), float(x["u"])) for x in
                (_attrs(m) for m in re.findall(r'<span class="th-cell[^"]*" (data-held[^>]*)>', block))]
        needs = [(x["need"], float(x["p"])) for x in
                 (_attrs(m) for m in re.findall(r'<span class="th-cell[^"]*" (data-need[^>]*)>', block))]
        out["seats"].append({"seat": int(a["seat"]), "opened": a["opened"] == "1",
                             "opens_next": float(a["opens"]) if "opens" in a else None,
                             "held": [list(h) for h in held], "needs": [list(n) for n in needs]})
    for m in re.findall(r'<span class="th-cell[^"]*" (data-testid="th-danger"[^>]*)>', page):
        a = _attrs(m)
        out["dangers"].append({"tile": a["tile"], "opening": float(a["opening"]), "finish": float(a["finish"]),
                               "layoff": a["layoff"] == "1"})
    out["shown"] = re.findall(r'<span class="th-num">([^<]*)</span>', page)  # every chance as printed
    out["sure"] = H.unescape(re.search(r'data-testid="th-sure">([^<]*)<', page).group(1))  # type: ignore[union-attr]
    return out


def expected(state: Any, seat: int, seed: str) -> dict[str, Any]:
    want = read_table(View.of(state, seat), seed=seed, worlds=table_read.WORLDS).to_dict()
    want.pop("worlds")
    return want


def check(got: dict[str, Any] | None, want: dict[str, Any], lang: str) -> None:
    """The panel holds every seat, tile and danger of ``want`` with the same numbers, printed in
    ``lang``'s percent form."""
    assert got is not None, "no panel on the page"
    shown, sure = got.pop("shown"), got.pop("sure")
    assert got == want
    printed = [p for s in want["seats"] for p in [h[1] for h in s["held"]] + [n[1] for n in s["needs"]]]
    assert shown == [table_words.pct(p, lang) for p in printed]
    assert all(x.startswith("%") if lang == "tr" else x.endswith("%") for x in shown)
    n, ess, se = want["proposals"], round(want["ess"]), round(100 * want["se"])
    assert sure.startswith(f"{n} örnek dünyadan, etkin büyüklük {ess}" if lang == "tr"
                           else f"From {n} sampled worlds, effective size {ess}"), sure
    assert f"±{se} " in sure
    assert len(want["seats"]) == 3 and want["dangers"], want  # something to compare


def one_language(at: AppTest, lang: str) -> None:
    """The panel's words are the page's language (the deny-lists of tests/test_i18n.py)."""
    from test_i18n import ENGLISH, TURKISH

    page = next(m.value for m in at.markdown if 'data-testid="th-panel"' in m.value)
    intro = [c.value for c in at.caption if c.value.startswith("As ")
             or "gözünden, yalnızca" in c.value]
    assert len(intro) == 1, [c.value for c in at.caption]  # whose view, in the page's language
    text = H.unescape(re.sub(r"<[^>]+>", " ", page)) + " " + intro[0]
    words = {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}
    wrong = words & set(ENGLISH if lang == "tr" else TURKISH)
    assert not wrong, wrong


def open_panel(at: AppTest, key: str) -> AppTest:
    """Open the panel's expander (it reads only while open), as a click on it does."""
    at.session_state[key] = True
    at.run()
    return ui.ok(at)


# ---- a stored game --------------------------------------------------------------------------


def _game(swap: bool = False) -> list[dict[str, Any]]:
    """One hand where seat 1 opens and the others draw and throw; ``swap``: seats 2 and 3 have
    exchanged the first tiles of their racks, tiles neither ever shows (the same events follow)."""
    evs = make_game(GID, seed=7, hands=1, modes=["open"], players=PLAYERS)
    if swap:
        racks = evs[1]["racks"]
        shown = {str(e.get("tile")) for e in evs[2:]}
        i = next(k for k in range(21) if racks[2][k] != racks[3][k] and racks[2][k] not in shown
                 and racks[3][k] not in shown)
        racks[2][i], racks[3][i] = racks[3][i], racks[2][i]
    return evs


def _db(path: Path, log: Path, study: bool = False) -> Path:
    con = store.connect(path, seed=False)
    store.import_paths(con, [str(log)], workers=1)
    if study:  # seat 2 at step 9 (in a seat-view log of seat 0, a hidden seat)
        res = replay_game(read_file(log).games[0], keep_steps=True)
        S.create(con, "Ders", [S.Item(res.game, 1, 9, 2, "okunacak konum")])
    con.close()
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("thpanel")
    out = {}
    for name, swap in (("a", False), ("b", True)):
        full = write_log(d / f"{name}.jsonl", [_game(swap)])
        g = read_file(full).games[0]
        buf = io.StringIO()
        write([cut_view(g, 0, shown=True)], buf)
        view = d / f"{name}-view.jsonl"
        view.write_text(buf.getvalue(), encoding="utf-8")
        out[name] = _db(d / f"{name}.duckdb", full, study=name == "a")
        out[name + "-view"] = _db(d / f"{name}-view.duckdb", view, study=name == "a")
        out[name + "-log"], out[name + "-view-log"] = full, view
    return out


def _state(log: Path, hand: int, step: int) -> tuple[Any, str]:
    res = replay_game(read_file(log).games[0], keep_steps=True)
    h = next(x for x in res.hands if x.hand == hand)
    return h.steps[step].state, seed_game(res)


def _replay(db: Path, monkeypatch: pytest.MonkeyPatch, lang: str, game: str = GID, **params: Any) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=game, hand=1, lang=lang,
                      **params)
    return open_panel(at, "th_replay")


# ---- Replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_panel_shows_read_tables_numbers_for_the_picked_seat(logs: dict[str, Path], lang: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    at = _replay(logs["a"], monkeypatch, lang, step=9, seat=2)  # the all-racks view: the seat picked above
    assert TITLE[lang] in [e.label for e in at.expander]
    state, game_seed = _state(logs["a-log"], 1, 9)
    assert game_seed == GID
    want = expected(state, 2, f"{GID}:1:9")
    check(panel(at), want, lang)
    one_language(at, lang)
    page = ui.html(at)
    assert ("Mehmet (yer 2)" if lang == "tr" else "Mehmet (seat 2)") not in page  # the viewer is not a row
    for name, seat in (("Ayşe", 1), ("Zeynep", 3), ("Ali", 0)):
        assert (f"{name} (yer {seat})" if lang == "tr" else f"{name} (seat {seat})") in page
    opened = next(s for s in want["seats"] if s["seat"] == 1)
    assert opened["opened"] and opened["opens_next"] is None  # seat 1 opened at its first turn
    assert ("açtı" if lang == "tr" else "opened") in page
    assert ("sırası gelince açar" if lang == "tr" else "opens on its next turn") in page  # seats 0 and 3
    # a dangerous tile of the viewer's rack is framed in red (a lay-off, or 10% or more), a smaller
    # danger dashed; the words name the rule
    nxt = next(s for s in want["seats"] if s["seat"] == 3)  # the seat after the viewer
    base = nxt["opens_next"] or 0.0  # it opens on its next turn anyway this often
    assert (f"o zaten sırası gelince {table_words.pct(base, lang)} açar" if lang == "tr"
            else f"who opens on its next turn anyway: {table_words.pct(base, lang)}") in page
    risk = [d["finish"] + max(0.0, d["opening"] - base) for d in want["dangers"]]
    hot = sum(1 for d, r in zip(want["dangers"], risk) if d["layoff"] or r >= 0.10)
    warm = sum(1 for d, r in zip(want["dangers"], risk) if not d["layoff"] and 0.03 <= r < 0.10)
    assert page.count('class="th-cell th-hot"') == hot
    assert page.count('class="th-cell th-warm"') == warm
    assert page.count('class="th-cell th-safe"') == len(want["dangers"]) - hot - warm
    assert hot and warm  # this position has both
    # a held tile is green where the table makes it likelier than a uniform deal by more than ±
    lifted = sum(1 for x in want["seats"] for _, p, u in x["held"] if p - u > want["se"])
    assert page.count('class="th-cell th-up"') == lifted
    assert (">X5</a>" in page) == any(d["opening"] for d in want["dangers"])  # 101 charges X5: linked


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_replay_panel_in_one_players_view_reads_that_seat(logs: dict[str, Path], lang: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(logs["a"]))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=GID, hand=1, step=14, seat=3,
                      lang=lang)
    at.toggle(key="pov").set_value(True).run()
    open_panel(at, "th_replay")
    state, _ = _state(logs["a-log"], 1, 14)
    check(panel(at), expected(state, 3, f"{GID}:1:14"), lang)
    # the next step: a new reading (the expander stays open)
    at.button(key="b_next").click().run()
    ui.ok(at)
    state, _ = _state(logs["a-log"], 1, 15)
    check(panel(at), expected(state, 3, f"{GID}:1:15"), lang)


def test_the_panel_reads_nothing_while_closed(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(logs["a"]))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=GID, hand=1, step=9, lang="en")
    assert "What they hold" in [e.label for e in at.expander]
    assert panel(at) is None
    assert 'data-testid="th-panel"' not in ui.html(at)


def test_the_panel_at_the_hands_end_says_there_is_nothing_to_read(logs: dict[str, Path],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    last = len(replay_game(read_file(logs["a-log"]).games[0], keep_steps=True).hands[0].steps) - 1
    at = _replay(logs["a"], monkeypatch, "en", step=last)
    assert panel(at) is None
    assert md_text("The hand is over: nothing left to read.") in [c.value for c in at.caption]


# ---- the hidden-information test ------------------------------------------------------------


def test_hidden_racks_of_a_log_do_not_change_the_panel(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs that differ only in seats 2 and 3's racks: one player's view of seat 0 reads the same
    table from both (full logs, and the seat-view logs cut from them), while seat 2's own reading,
    which sees its rack, differs (the comparison can tell the two apart)."""
    a_state, _ = _state(logs["a-log"], 1, 12)
    b_state, _ = _state(logs["b-log"], 1, 12)
    assert a_state.racks[2] != b_state.racks[2] and a_state.racks[0] == b_state.racks[0]
    assert logs["a-view-log"].read_text() != logs["b-view-log"].read_text()  # the shown racks at the end

    got = {}
    for name in ("a", "b"):
        monkeypatch.setenv("ISTAKA_DB", str(logs[name]))
        at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=GID, hand=1, step=12, seat=0,
                          lang="en")
        at.toggle(key="pov").set_value(True).run()
        got[name] = panel(open_panel(at, "th_replay"))
        got[name + "-view"] = panel(_replay(logs[name + "-view"], monkeypatch, "en",
                                            game=read_file(logs[name + "-view-log"]).games[0].id, step=12))
        got[name + "-2"] = panel(_replay(logs[name], monkeypatch, "en", step=12, seat=2))
    assert got["a"] is not None and got["a"] == got["b"]
    assert got["a-view"] is not None and got["a-view"] == got["b-view"]
    assert got["a-view"] == got["a"]  # the seat view is read with the full game's seed: the same worlds
    assert got["a-2"] != got["b-2"]
    check(got["a"], expected(a_state, 0, f"{GID}:1:12"), "en")


def test_a_seat_view_log_is_read_for_its_own_seat_only(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat-view log's Replay reads the log's seat, whichever seat is picked for turns."""
    gid = read_file(logs["a-view-log"]).games[0].id
    at = _replay(logs["a-view"], monkeypatch, "tr", game=gid, step=12, seat=2)
    got = panel(at)
    assert got is not None and got["seat"] == 0


# ---- Studies --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_study_panel_reads_the_studied_seat(logs: dict[str, Path], lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(logs["a"]))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    with store.reading(logs["a"]) as con:
        sid = S.find(con, "Ders")
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "study", study=sid, item=1, lang=lang)
    assert TITLE[lang] in [e.label for e in at.expander]
    open_panel(at, "th_study")
    state, _ = _state(logs["a-log"], 1, 9)
    check(panel(at), expected(state, 2, f"{GID}:1:9"), lang)
    one_language(at, lang)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_study_of_a_hidden_seat_in_a_seat_view_log_reads_nothing(logs: dict[str, Path], lang: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(logs["a-view"]))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    with store.reading(logs["a-view"]) as con:
        sid = S.find(con, "Ders")
    at = open_panel(ui.open_page(AppTest.from_file(APP, default_timeout=120), "study", study=sid, item=1, lang=lang),
                    "th_study")
    assert panel(at) is None
    said = ("Bu kayıt Ali gözünden: yalnızca Ali için okunur." if lang == "tr"
            else "This log is Ali's view: it is read for Ali only.")
    assert md_text(said) in [c.value for c in at.caption]  # a name from a log, escaped


# ---- the Play page's hints ------------------------------------------------------------------


@pytest.fixture
def play_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return empty_board(tmp_path / "play.duckdb", monkeypatch)


def _my_turn(at: AppTest) -> dict[str, str]:
    m = re.search(r'data-testid="pl-turn" ([^>]*)', ui.html(at))
    assert m, "no turn line"
    return _attrs(m.group(1))


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_play_hints_show_the_panel_for_the_persons_seat(play_db: Path, lang: str) -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pl_pause_in"] = False  # the bots' turns at once
    ui.open_page(at, "play", lang=lang)
    for k in (1, 2, 3):
        at.selectbox(key=f"pl_bot_{k}").set_value("greedy")
    at.text_input(key="pl_seed_in").input("42")
    at.button(key="pl_start").click().run()
    ui.ok(at)
    gid = at.query_params["play"]
    gid = gid[0] if isinstance(gid, list) else gid
    assert TITLE[lang] not in [e.label for e in at.expander]  # hints off: no panel
    for _ in range(3):  # two turns of the person's: the bots have drawn and thrown in between
        turn = _my_turn(at)
        assert turn["mine"] == "1", turn
        if turn["phase"] == "draw":
            next(b for b in at.button if b.key and b.key.startswith("pl_draw~")).click().run()
        next(b for b in at.button if b.key and b.key.startswith("tile-")).click().run()
        ui.ok(at)
    at.toggle(key="pl_train_in").set_value(True).run()
    assert TITLE[lang] in [e.label for e in at.expander]
    open_panel(at, "th_play")
    g = play_games.load(str(play_db), gid)
    assert g is not None and len(g.events) >= 12
    s = g.state()
    assert s is not None and s.turn == 0 and not s.over
    check(panel(at), expected(s, 0, table_read.play_seed(g.seed, g.hand, len(g.events))), lang)
    one_language(at, lang)
    g = play_games.load(str(play_db), gid)
    assert g is not None and g.hinted  # help, like a hint: the game's log says so


def test_the_words_have_both_languages_with_the_same_fields() -> None:
    import string

    def fields(x: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(x) if f}

    assert table_words.STRINGS
    for key, (tr, en) in table_words.STRINGS.items():
        assert tr.strip() and en.strip(), key
        assert fields(tr) == fields(en), key
