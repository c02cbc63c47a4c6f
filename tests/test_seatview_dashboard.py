"""Seat-view games on the dashboard: Replay draws hidden racks as tile backs with their
counts (``tiles_view.hidden_rack``), says whose view it is, suggests only for the viewer; Review
lists only the viewer's decisions."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis.game import FACES, read_file, write
from analysis.game.cut import cut_view

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"


@pytest.fixture(scope="module")
def view_game() -> tuple[str, int]:
    g = read_file(SAMPLE).games[0]
    return g.id, 1


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, view_game: tuple[str, int]) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("svdash")
    g = next(x for x in read_file(SAMPLE).games if x.id == view_game[0])
    v = cut_view(g, view_game[1], shown=True)
    v.events = [(ln, ev) for ln, ev in v.events if ev["hand"] == 1]  # one hand keeps the test fast
    v.header = {**v.header, "hands": 1}
    buf = io.StringIO()
    write([v], buf)
    (d / "v.jsonl").write_text(buf.getvalue(), encoding="utf-8")

    def review(con) -> None:  # type: ignore[no-untyped-def]
        from analysis import store

        store.analyze(con, jobs=1)

    yield stored(d / "sv.duckdb", d / "v.jsonl", then=review)


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=90)


def test_hidden_rack_draws_one_back_per_tile_and_the_count_in_both_languages() -> None:
    from dashboard.board.tiles_view import hidden_rack

    tr = hidden_rack(21, "tr")
    assert tr.count('class="ist-tile back"') == 21 and "21 gizli taş" in tr and 'data-hidden="21"' in tr
    en = hidden_rack(1, "en", known=[FACES[0]])
    assert en.count('class="ist-tile back"') == 1 and "1 hidden tile" in en and "1 hidden tiles" not in en
    assert 'data-tile="R1"' in en or ">1<" in en  # the known tile is drawn face up


def test_replay_of_a_seat_view_shows_backs_for_the_hidden_racks_and_whose_view(app: AppTest, view_game) -> None:
    gid, seat = view_game
    at = ui.open_page(app, "replay", game=f"{gid}.s{seat}", hand=1, step=3)
    page = ui.html(at)
    counts = [int(x) for x in re.findall(r'data-hidden="(\d+)"', page)]
    assert len(counts) == 3 and all(c >= 20 for c in counts), counts  # three hidden racks, 21 or 22 each
    assert 'data-seat="%d"' % seat in page
    assert any("gözünden" in i.value for i in at.info)


def test_review_of_a_seat_view_lists_only_the_viewing_seat(app: AppTest, db: Path, view_game) -> None:
    from analysis import store
    from analysis.store import queries as Q

    gid, seat = view_game
    with store.reading(db) as con:
        dec = Q.game_decisions(con, f"{gid}.s{seat}")
    assert len(dec) > 3 and set(dec.seat) == {seat}
    at = ui.open_page(app, "review", game=f"{gid}.s{seat}")
    assert not at.exception


@pytest.mark.parametrize("page", ["players", "practice"])
def test_players_and_practice_take_a_seat_view_game_like_any(app: AppTest, db: Path, view_game, page: str) -> None:
    """The Players page and Practice (the viewer's own mistakes) open on a database holding only a
    seat-view game; Practice offers the viewing seat's player."""
    from analysis import store

    gid, seat = view_game
    with store.reading(db) as con:
        player = con.execute("SELECT players[?] FROM games", [seat + 1]).fetchall()[0][0]
    at = ui.open_page(app, page, **({"pr_player": player} if page == "practice" else {}))
    assert not at.exception and not at.error
    if page == "practice":
        assert at.selectbox(key="pr_player").value == player


def test_replay_of_a_seat_view_opens_at_every_step_without_an_error(app: AppTest, view_game) -> None:
    """Every step of a seat-view hand opens in Replay: the suggestions never encode a hidden rack
    (the X5 check needs the next seat's rack, which the viewer cannot know)."""
    gid, seat = view_game
    at = ui.open_page(app, "replay", game=f"{gid}.s{seat}", hand=1, step=0)
    last = int(at.slider(key="step").max)
    assert last > 20
    for step in range(1, last + 1):
        at.slider(key="step").set_value(step).run()
        ui.ok(at)
        assert not at.error, (step, [e.value for e in at.error])
