"""AppTests of "Retry this position" and of one player's view , against a
real DuckDB of simulated games annotated by the review.

Checked: a retry link opens the position with what was played hidden; a wrong try is judged in
expected points and followed by a hint that does not name the answer; the best try is judged right
in points; the Replay's button opens the link; Practice retries the chosen player's costliest
positions; a bad link says what was wrong in one line; the one-player view shows no tile of another
rack anywhere on the page (and without it they do show)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.game import HIDDEN, Tile
from analysis.review.deep import grade_decision, seat_knows
from analysis.selfplay import GameSpec, Player, play_game
from analysis.store import analyze, queries
from dashboard.board.tiles_view import tile_key

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
GAME = "rt-a"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("retry")
    spec = GameSpec(GAME, (Player("Sol", "solver"), Player("Ran", "random"), Player("Gre", "greedy"),
                           Player("Rnd", "random")), "101", None, "4", "2026-10-04T20:00:00+00:00", hands=2)
    log = d / "g.jsonl"
    log.write_text("".join(play_game(spec).lines()), encoding="utf-8")
    yield stored(d / "rt.duckdb", log, lambda con: analyze(con))


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=120)


def _replay(db: Path) -> Any:
    with store.reading(db) as con:
        return queries.replay_stored(con, GAME)


def _discard_spot(db: Path) -> tuple[int, int, int, str, str, float]:
    """A position where the seat to move has placed and must discard, and some discard costs
    expected points: (hand, step, seat, a costly tile, the best tile, its cost), graded as the
    retry grades it (same seed, the seat's own view)."""
    res = _replay(db)
    for hr in res.hands:
        for i, s in enumerate(hr.steps):
            st = s.state
            if st.over or st.phase != "play":
                continue
            seat = st.turn
            seed = f"{GAME}:{hr.hand}:{i}:discard"
            known = seat_knows(hr.steps, i, seat)
            for tile in dict.fromkeys(str(x) for x in st.racks[seat]):
                c = grade_decision(st, seat, "discard", [{"type": "discard", "seat": seat, "tile": tile}], seed=seed,
                                   known=known, step=i)
                if c is not None and c.forced is None and c.cost > 0:
                    best = c.best_events[0]["tile"]
                    return hr.hand, i, seat, tile, str(best), c.cost
    raise AssertionError("no costly discard in the game")


def _click_tile(at: AppTest, state: Any, seat: int, tile: str, scope: str = "rt") -> None:
    rack = list(state.racks[seat])
    i = next(j for j, x in enumerate(rack) if str(x) == tile)
    at.button(key=tile_key(rack[i], state.okey, scope, i)).click().run()
    ui.ok(at)


def test_a_wrong_try_gets_a_hint_and_the_best_try_is_judged_right_in_points(app: AppTest, db: Path) -> None:
    hand, step, seat, bad, good, cost = _discard_spot(db)
    state = _replay(db).hands[hand - 1].steps[step].state
    at = ui.open_page(app, "practice", retry=f"{GAME}/{hand}/{step}/{seat}")
    html = ui.html(at)
    assert 'data-testid="rt-board"' in html
    tiles = [b for b in at.button if b.key and b.key.startswith("tile-")]
    assert len(tiles) == len(state.racks[seat])  # the rack drawn as tiles one clicks
    assert all(b.label.isdigit() or b.label == "♣" for b in tiles)  # the number, coloured by the page's CSS
    _click_tile(at, state, seat, bad)
    at.button(key="rt_discard").click().run()
    ui.ok(at)
    assert not at.success
    warn = " ".join(w.value for w in at.warning)
    assert "En iyisi değil" in warn and "puan" in warn and f"{cost:.1f}" in warn, warn
    hint = re.search(r'data-testid="rt-hint">([^<]*)<', ui.html(at))
    assert hint and hint.group(1).startswith("İpucu"), ui.html(at)[-2000:]
    assert good not in hint.group(1)  # a hint, not the answer
    assert 'data-testid="rt-answer"' not in ui.html(at)
    assert any("Kalan deneme: 2" in c.value for c in at.caption)
    _click_tile(at, state, seat, good)
    at.button(key="rt_discard").click().run()
    ui.ok(at)
    ok = " ".join(s.value for s in at.success)
    assert "Doğru" in ok and "beklenen" in ok and "puan" in ok, ok
    assert 'data-testid="rt-answer"' in ui.html(at)  # and now the answer, with the tries in points
    assert at.dataframe and len(at.dataframe[0].value) >= 2


def test_the_answer_is_shown_on_request_after_a_miss_in_english(app: AppTest, db: Path) -> None:
    hand, step, seat, bad, _, _ = _discard_spot(db)
    state = _replay(db).hands[hand - 1].steps[step].state
    at = ui.open_page(app, "practice", retry=f"{GAME}/{hand}/{step}/{seat}", lang="en")
    _click_tile(at, state, seat, bad)
    at.button(key="rt_discard").click().run()
    assert any("Not the best" in w.value for w in ui.ok(at).warning)
    at.button(key="rt_reveal").click().run()
    assert 'data-testid="rt-answer"' in ui.html(ui.ok(at))
    assert "The best move" in ui.html(at)


def test_the_replay_button_opens_the_retry_link(app: AppTest, db: Path) -> None:
    hand, step, seat, _, _, _ = _discard_spot(db)
    at = ui.open_page(app, "replay", game=GAME, hand=hand, step=step)
    at.button(key="b_retry").click().run()
    ui.ok(at)
    assert "Kendi hatalarından alıştırma" in [t.value for t in at.title]
    assert at.query_params["retry"] in ([f"{GAME}/{hand}/{step}/{seat}"], f"{GAME}/{hand}/{step}/{seat}")
    assert 'data-testid="rt-board"' in ui.html(at)


@pytest.mark.parametrize("bad,words", [("nonsense", "okunamadı"), (f"{GAME}/1/99999/0", "adım yok"),
                                       ("no-such/1/1/0", "oyunu yok")])
def test_a_bad_retry_link_says_what_was_wrong(app: AppTest, bad: str, words: str) -> None:
    at = ui.open_page(app, "practice", retry=bad)
    assert any(words in e.value for e in at.error), [e.value for e in at.error]


def test_practice_retries_the_players_costliest_positions(app: AppTest, db: Path) -> None:
    from analysis.review import PRACTICE_CATEGORIES

    with store.reading(db) as con:
        players = ("Ran", "Gre", "Rnd", "Sol")
        by = {p: queries.practice_positions(con, p, list(PRACTICE_CATEGORIES)) for p in players}
    player = max(players, key=lambda p: len(by[p]))
    pos = by[player]
    assert len(pos), "the random and greedy seats make mistakes to practise on"
    assert list(pos["cost"]) == sorted(pos["cost"], reverse=True)  # costliest first
    at = ui.open_page(app, "practice", pr_player=player)
    r = pos.iloc[0]
    assert any(f"Pozisyon 1 / {len(pos)}" in c.value and f"{int(r['cost'])} puan" in c.value for c in at.caption)
    html = ui.html(at)
    assert 'data-testid="rt-board"' in html and f"Oyun {r['game']}, el {int(r['hand'])}, adım {int(r['step'])}" in \
        " ".join(c.value for c in at.caption)
    assert [b for b in at.button if b.key and b.key.startswith("tile-")]
    # a try: the first placing listed (or the first tile discarded) is judged in points
    play = [b for b in at.button if b.key and b.key.startswith("pr_play_")]
    if play:
        play[0].click().run()
    else:
        next(b for b in at.button if b.key and b.key.startswith("tile-")).click().run()
        at.button(key="pr_discard").click().run()
    ui.ok(at)
    assert at.success or at.warning or at.info
    assert "puan" in " ".join(x.value for x in [*at.success, *at.warning, *at.info])


# ---- one player's view ---------------------------------------------------------------------------


def _public(state: Any, viewer: int) -> Counter[str]:
    """Every tile the viewer may see: its rack, every discard pile, the table melds, the indicator
    and the okey (and what it knows of the other racks, counted through its discards seen)."""
    seen: Counter[str] = Counter(str(x) for x in state.racks[viewer])
    for pile in state.discards:
        seen.update(str(x) for x in pile)
    for m in state.table:
        if m is not None:
            seen.update(str(p.physical) for p in m.tiles)
    seen.update([str(state.indicator), str(state.okey)] * 2)
    return seen


def _others_step(db: Path, viewer: int) -> tuple[int, int]:
    """A step in the middle of hand 1 where another seat is to move."""
    hr = _replay(db).hands[0]
    mid = len(hr.steps) // 2
    return hr.hand, next(i for i in range(mid, len(hr.steps)) if not hr.steps[i].state.over
                         and hr.steps[i].state.turn != viewer)


def _leaks(at: AppTest, state: Any, viewer: int) -> list[str]:
    """Tiles of the other racks drawn more often on the page than the viewer could see them."""
    html = ui.html(at)
    drawn = Counter(re.findall(r'data-tile="([^"]+)"', html))
    public = _public(state, viewer)
    secret = Counter(str(x) for s in range(4) if s != viewer for x in state.racks[s] if x is not HIDDEN)
    return sorted(t for t in secret if drawn[t] > public[t])


def test_one_players_view_hides_the_other_racks_and_keeps_the_toggle_in_the_url(app: AppTest, db: Path) -> None:
    viewer = 0
    hand, step = _others_step(db, viewer)
    state = _replay(db).hands[hand - 1].steps[step].state
    plain = ui.open_page(app, "replay", game=GAME, hand=hand, step=step, seat=viewer)
    assert _leaks(plain, state, viewer), "without the toggle the other racks show (the check can fail)"
    at = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=GAME, hand=hand, step=step,
                      seat=viewer)
    at.toggle(key="pov").set_value(True).run()
    ui.ok(at)
    assert _leaks(at, state, viewer) == []
    html = ui.html(at)
    for s in range(4):
        rack = re.search(rf'data-seat="{s}".*?<div class="ist-rack[^"]*"[^>]*>', html, re.S)
        assert rack is not None
        assert ("data-hidden" in rack.group(0)) == (s != viewer), (s, rack.group(0)[-200:])
        if s != viewer:
            assert f'data-hidden="{len(state.racks[s])}"' in rack.group(0)  # the count of tile backs
    assert re.search(r'data-deck="\d+"', html)  # the deck: backs with a count
    again = ui.open_page(AppTest.from_file(APP, default_timeout=120), "replay", game=GAME, hand=hand, step=step,
                         seat=viewer, pov="true")  # the link keeps the view
    assert again.toggle(key="pov").value is True
    assert _leaks(again, state, viewer) == []


def test_the_tile_buttons_are_drawn_by_colour_so_red_and_yellow_differ() -> None:
    from dashboard.board.tiles_view import CSS, tile_label

    r7, y7 = Tile.parse("R7"), Tile.parse("Y7")
    okey = Tile.parse("B3")
    kr, ky = tile_key(r7, okey, "x", 0), tile_key(y7, okey, "x", 1)
    assert kr.startswith("tile-R-") and ky.startswith("tile-Y-") and tile_label(r7) == tile_label(y7) == "7"
    colours = dict(re.findall(r'\[class\*="st-key-tile-([RYBK])-"\] button p\{color:(#[0-9a-f]{6})\}', CSS))
    assert len(set(colours.values())) == 4 and colours["R"] != colours["Y"]
    assert "-ok-" in tile_key(okey, okey, "x", 2)
