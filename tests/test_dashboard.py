"""AppTests of every dashboard page, asserting on what the user sees, against a real DuckDB
filled (through the store's import) with the hand-written logs of tests/dashboard_logs.py."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from dashboard_logs import SEAT1, make_game, many_games, write_log
from store_logs import stored
import apptest_helpers as ui
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("dash")
    games = [make_game("dash-1", hands=2, seed=3, players=["Ali", EVIL, "Mehmet", "Zeynep"])] + many_games(12)
    log = write_log(d / "games.jsonl", games)
    yield stored(d / "dash.duckdb", log)


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=60)


_ok, _open, _html = ui.ok, ui.open_page, ui.html  # shared with the other AppTests


def _step(at: AppTest) -> int:
    m = re.search(r'data-testid="ist-step" data-step="(\d+)"', _html(at))
    assert m, "no step label"
    return int(m.group(1))


def _frame(at: AppTest, column: str) -> Any:
    """The first data frame on the page with this column."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _read(db: Path, fn: str, *args: Any, **kw: Any) -> Any:
    from analysis.store import queries
    from analysis import store

    with store.reading(db) as con:
        return getattr(queries, fn)(con, *args, **kw)


# ---- Replay ---------------------------------------------------------------------------------

def test_replay_next_button_moves_the_step_label_and_the_board(app: AppTest) -> None:
    at = _open(app, "replay")
    at.selectbox(key="game").select("dash-1").run()
    assert _step(_ok(at)) == 0
    assert "Adım 0 / 24" in _html(at)
    for want in (1, 2, 3):
        at.button(key="b_next").click().run()
        assert _step(_ok(at)) == want
    assert at.slider(key="step").value == 3
    # step 3: seat 1 opened with 109 (K9 K10 K11 okey-as-K12 · Y7 B7 K7 · B10-B13)
    html = _html(at)
    assert "açtı: 109 sayı" in html
    assert 'title="okey (R6) = K12"' in html  # the okey on the table says what it stands for
    at.button(key="b_prev").click().run()
    assert _step(_ok(at)) == 2


def test_replay_draws_every_tile_of_the_known_dealt_rack(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1")
    html = _html(at)
    seat1 = html.split('data-seat="1"', 1)[1].split('data-seat="2"', 1)[0]
    rack = re.findall(r'data-tile="([A-Z0-9]+)"', seat1.split("ist-discards")[0])
    assert sorted(rack) == sorted(SEAT1)
    assert re.search(r'class="ist-tile[^"]* okey"[^>]*data-tile="R6"', seat1)  # R6 is the okey under gösterge R5
    assert "Gösterge" in html


def test_replay_link_opens_at_its_step_and_end_shows_the_score_table(app: AppTest, db: Path) -> None:
    at = _open(app, "replay", game="dash-1", hand=1, step=8)
    assert _step(at) == 8
    assert "açtı: 5 çift" in _html(at)
    at.button(key="b_last").click().run()
    assert _step(_ok(at)) == 24
    assert "bitirdi" in _html(at)
    hands = _read(db, "game_hands", "dash-1")
    scores = [int(x) for x in hands.iloc[0]["scores"]]
    table = at.dataframe[0].value
    assert table["El puanı"].tolist() == scores
    assert any("Çarpan: bitiren ×1" in m.value for m in at.markdown)


def test_replay_page_down_jumps_to_the_chosen_seats_next_turn(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1")
    at.selectbox(key="seat").select(3).run()
    at.button(key="b_nturn").click().run()
    assert _step(_ok(at)) == 7  # seat 3 draws at step 7
    at.button(key="b_nturn").click().run()
    assert _step(_ok(at)) == 16  # and next at step 16 (then lays off K8 and swaps K12 for the okey)
    at.button(key="b_pturn").click().run()
    assert _step(_ok(at)) == 7


def test_player_names_from_a_log_are_escaped_in_the_html(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1")
    html = _html(at)
    assert EVIL not in html and "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    at.button(key="b_last").click().run()
    assert "<img" not in _html(_ok(at))


# ---- Games ----------------------------------------------------------------------------------

def test_games_player_filter_narrows_the_list(app: AppTest, db: Path) -> None:
    at = _open(app, "games")
    total = len(_read(db, "list_games"))
    assert at.dataframe[0].value.shape[0] == total
    at.selectbox(key="f_player").select("Deniz").run()
    want = _read(db, "list_games", player="Deniz")
    assert 0 < len(want) < total
    shown = at.dataframe[0].value
    assert sorted(shown["Oyun"]) == sorted(want["game"])
    assert f"{len(want)} oyun ({total} içinden)" in _html(_ok(at))


def test_games_upload_imports_good_games_and_lists_bad_lines(app: AppTest, tmp_path: Path) -> None:
    good = make_game("up-1", seed=9)
    text = "\n".join(json.dumps(e) for e in good) + "\n"
    text += '{"type":"game","game":"up-2","variant":"101","players":["A","B","C","D"]}\n{not json\n'
    at = _open(app, "games")
    at.file_uploader(key="upload").set_value(("upload.jsonl", text.encode(), "application/json")).run()
    _ok(at)
    summary = _frame(at, "Sayı")  # the import summary: a table in words, not a JSON dump
    stored_n = dict(zip(summary.iloc[:, 0], summary.iloc[:, 1]))["Kaydedilen"]
    assert int(stored_n) >= 1 and "seconds" not in summary.to_string()
    said = [m.value for m in list(at.success) + list(at.warning)]
    assert any(f"{stored_n} kaydedildi" in m for m in said), said
    errors = _frame(at, "Satır")  # the upload's errors (the first such table)
    assert (errors["Dosya"] == "upload.jsonl").any()  # the uploaded name, not a temporary path
    assert str(len(good) + 2) in errors["Satır"].tolist()  # the broken line, by its number in the file
    assert "Bu satır okunamıyor" in " ".join(map(str, errors.iloc[:, -1]))  # the reader's words, in Turkish
    assert "None" not in errors.to_string() and "istaka-upload-" not in errors.to_string()
    assert "up-1" in _html(at) and "replay?game=up-1" in _html(at)  # a link to the new game


def _upload_lines(at: AppTest) -> list[str]:
    """The upload's errors as the page lists them, their Markdown escapes and HTML entities read."""
    box = next(m.value for m in at.markdown if m.value.startswith("- **"))
    return [html.unescape(re.sub(r"\\(.)", r"\1", x)) for x in box.split("\n")]


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_games_upload_errors_are_whole_plain_sentences_every_bad_line_and_a_cut_file(app: AppTest, lang: str) -> None:
    """An upload's errors read like the page, not like a parser: the line, the game, what is wrong
    in the page's language; every bad line of a game (not only its first); a gzip file cut short
    said as such in full (a table cell cut that sentence)."""
    import gzip

    bad = [{"type": "game", "game": "up-bad", "variant": "101", "players": ["A", "B", "C", "D"]}]
    text = "\n".join(json.dumps(e) for e in make_game("up-ok", seed=3) + bad)
    text += '\n{"type":"hand","game":"up-bad","hand":1,"starter":tru}\n{"type":"draw","game":"up-bad"}\n'
    text += '{"type":"draw","game":"up-bad","hand":1,"seat":0,"tile":5}\n'
    whole = gzip.compress(text.encode() + "\n".join(json.dumps(e) for e in make_game("up-cut", seed=4)).encode())
    at = _open(app, "games") if lang == "tr" else ui.open_page(app, "games", lang="en")
    at.file_uploader(key="upload").set_value(("cut.jsonl.gz", whole[: len(whole) - 30], "application/gzip")).run()
    _ok(at)
    lines = _upload_lines(at)
    n = text.count("\n")
    if lang == "tr":
        assert lines[:3] == [
            f"- **Satır {n - 2} · oyun up-bad** — Bu satır okunamıyor (51. karakterde bozuluyor): satır bozuk ya da "
            "yarım kalmış; kayıttaki satırların tamamı birer JSON nesnesi olmalı.",
            f"- **Satır {n - 1} · oyun up-bad · alan: el numarası** — Bu çekiş olayında el numarası alanı eksik.",
            f"- **Satır {n} · oyun up-bad · alan: taş** — Bu çekiş olayında taş alanı bir taş (ör. R7) olmalı; "
            "yazılan: 5."]
        assert lines[3].endswith("— Dosya bu satırdan sonra kesik (yarım indirilmiş ya da kopyalanmış olabilir): "
                                 "geri kalanı okunamadı; önceki oyunlar alındı.")
    else:
        assert lines[2] == (f"- **Line {n} · game up-bad · field 'tile'** — The 'tile' field of the 'draw' event "
                            "must be a tile (e.g. R7); it holds 5.")
        assert "The file is cut off after this line" in lines[3]
    assert len(lines) == 4 and not any("not JSON" in x or "column" in x for x in lines)


def test_games_upload_refuses_a_wrong_file_name(app: AppTest) -> None:
    from dashboard.state.uploads import check

    assert check("x.csv", 10, "en") is not None
    assert check("x.jsonl.gz", 10, "en") is None
    assert "limit" in (check("x.jsonl", 51 * 1024 * 1024, "en") or "")


# ---- Opening lab ----------------------------------------------------------------------------

def test_lab_draws_the_typed_rack_and_its_best_openings(app: AppTest) -> None:
    at = _open(app, "opening_lab")
    rack = "K9 K10 K11 K12 Y7 B7 K7 B10 B11 B12 B13 R1 Y3 B5 K2"
    at.text_input(key="rack").input(rack).run()
    html = _html(_ok(at))
    drawn = re.findall(r'data-tile="([A-Z0-9]+)"', html.split("ist-rack", 1)[1].split("</div>", 1)[0])
    assert sorted(drawn) == sorted(rack.split())
    assert "En iyi per açılışı: 109 sayı (eşik 101)" in html
    assert "eşiği geçiyor" in html


def test_lab_picker_adds_a_tile_and_refuses_a_third_copy(app: AppTest) -> None:
    at = _open(app, "opening_lab")
    at.button(key="pick_B7").click().run()
    at.button(key="pick_B7").click().run()
    assert at.text_input(key="rack").value == "B7 B7"
    at.button(key="pick_B7").click().run()
    assert any("T1" in e.value for e in _ok(at).warning) and not at.error


# ---- Players --------------------------------------------------------------------------------

def _decode(arr: Any) -> list[float]:
    if isinstance(arr, dict) and "bdata" in arr:
        return np.frombuffer(base64.b64decode(arr["bdata"]), dtype=np.dtype(arr["dtype"])).tolist()
    return list(arr)


def test_players_cumulative_chart_matches_the_database(app: AppTest, db: Path) -> None:
    at = _open(app, "players")
    charts = at.get("plotly_chart")
    assert len(charts) == 7
    spec = json.loads(charts[0].proto.spec)
    scores = _read(db, "player_hand_scores", variant="101")
    assert spec["data"]
    for trace in spec["data"]:
        want = scores[scores["player"] == html.unescape(trace["name"])]["cumulative"].tolist()
        assert want and _decode(trace["y"]) == want
    stats = at.dataframe[0].value
    assert set(stats["Oyuncu"]) == {html.unescape(tr["name"]) for tr in spec["data"]}


def test_players_page_escapes_a_player_name_in_chart_legends(app: AppTest) -> None:
    at = _open(app, "players")
    at.multiselect(key="p_players").select(EVIL).run()
    spec = _ok(at).get("plotly_chart")[0].proto.spec
    assert "<img" not in spec and "&lt;img" in spec


# ---- Language ---------------------------------------------------------------------------------

def test_english_switch_keeps_turkish_game_terms(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1", step=8)
    assert "El tekrarı" in [t.value for t in at.title]
    at.segmented_control(key="lang").set_value("en").run()
    _ok(at)
    assert "Hand replay" in [t.value for t in at.title]
    html = _html(at)
    assert "opened: 5 çift" in html and "Gösterge" in html


# ---- links keep their state, the panels say everything in words ------------------

def test_replay_link_to_the_newest_game_keeps_its_game_in_the_url(app: AppTest, db: Path) -> None:
    """The first game of the list is the select box's default: the URL must still name it, or a
    later import of a newer game would open another game from the same link."""
    first = str(_read(db, "list_games")["game"].iloc[0])
    at = _open(app, "replay", game=first, hand=1, step=3)
    assert _step(at) == 3
    assert at.query_params["game"] == [first] or at.query_params["game"] == first
    at.button(key="b_next").click().run()
    assert _step(_ok(at)) == 4 and str(at.query_params["step"]).strip("[]'") == "4"


def test_replay_with_an_unknown_game_in_the_link_says_so(app: AppTest) -> None:
    at = _open(app, "replay", game="no-such-game")
    assert any("no-such-game" in w.value for w in at.warning)


def test_replay_chance_to_open_says_when_the_seat_can_open_already(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1", hand=1, step=2)  # seat 1 has drawn; its rack opens with 109
    html = _html(at)
    assert "bu sırada açabilir" in html and "%100" not in html


def test_replay_dangerous_discards_are_tiles_with_rule_and_cost(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1", hand=1, step=16)  # seat 3's turn: per on the table
    html = _html(at)
    assert "x4x5" not in html
    panel = html.split('data-testid="ist-danger"', 1)[1]
    items = re.findall(r'data-danger="(X[45])".*?data-tile="(\w+)".*?atılırsa ceza (\d+)', panel)
    assert items and all(r == "X5" or int(c) == 101 for r, _, c in items)


def test_lab_notes_siler_for_a_big_opening(app: AppTest) -> None:
    at = _open(app, "opening_lab", rack=" ".join(f"{c}{n}" for c in "RBKY" for n in range(10, 14)))
    assert any("Siler" in i.value and "O8" in i.value for i in _ok(at).info)
    at.text_input(key="rack").input("R1 R2 R3 R4").run()
    assert not any("Siler" in i.value for i in _ok(at).info)


def test_lab_explains_a_bad_and_an_oversized_rack(app: AppTest) -> None:
    at = _open(app, "opening_lab", rack="R1 Q9")
    assert any("Q9" in e.value and "Okunamayan" in e.value for e in at.warning) and not at.error
    at = _open(AppTest.from_file(APP, default_timeout=60), "opening_lab", rack=" ".join(["R1"] * 30), lang="en")
    assert any("30 tiles" in e.value for e in at.warning)


def test_games_result_filter_shows_words_and_keeps_filters_in_the_url(app: AppTest) -> None:
    at = _open(app, "games")
    box = at.selectbox(key="f_result")
    assert "geçerli" in box.options and "valid" not in box.options
    at.selectbox(key="f_player").select("Deniz").run()
    assert str(_ok(at).query_params["f_player"]).strip("[]'") == "Deniz"


def test_players_colour_stays_with_the_player_whatever_the_selection(app: AppTest) -> None:
    at = _open(app, "players")

    def colours() -> dict[str, str]:
        spec = json.loads(at.get("plotly_chart")[0].proto.spec)
        return {html.unescape(tr["name"]): tr["line"]["color"] for tr in spec["data"]}

    before = colours()
    names = sorted(before)
    at.multiselect(key="p_players").set_value(names[1:]).run()
    after = colours()
    assert after and all(after[n] == before[n] for n in after)


def test_replay_remembers_hand_and_step_per_game_across_pages(app: AppTest) -> None:
    at = _open(app, "replay", game="dash-1", hand=1, step=5)
    at.switch_page("views/games.py").run()
    at.switch_page("views/replay.py").run()
    assert _step(_ok(at)) == 5  # back on the Replay: the same game, hand and step
    other = [g for g in at.selectbox(key="game").options if g != "dash-1"][0]
    at.switch_page("views/games.py").run()
    at.session_state["game"] = other  # another page (Review) picked another game
    at.switch_page("views/replay.py").run()
    assert _step(_ok(at)) == 0  # that game opens at its start, not at dash-1's step


@pytest.mark.parametrize("lang,words", [("tr", "çizilemedi"), ("en", "could not be drawn")])
def test_a_failing_page_shows_one_line_in_its_language_and_logs_the_details(
        app: AppTest, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, lang: str, words: str) -> None:
    """No user ever sees a traceback: a page's exception becomes one line in the page's language
    (no file path, no stack), and the details go to the server's log."""
    from dashboard.state import suggest

    def boom(*_a: Any, **_k: Any) -> None:
        raise KeyError("/srv/secret/path.py")

    monkeypatch.delenv("ISTAKA_RAISE_ERRORS", raising=False)
    monkeypatch.setattr(suggest, "solve", boom)
    at = _open(app, "replay", game="dash-1", hand=1, step=3, lang=lang)
    assert not at.exception
    assert len(at.error) == 1 and words in at.error[0].value and "/srv/secret" not in at.error[0].value
    assert any("/srv/secret" in r.getMessage() or (r.exc_info and "/srv/secret" in str(r.exc_info[1]))
               for r in caplog.records)
