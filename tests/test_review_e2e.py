"""Move review end to end: a simulated 11-hand game with known mistakes injected, stored,
annotated by `istaka analyze`, read back through the queries and the HTML report; and the chance
to open checked against an exact count."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from store_logs import stored

from analysis.selfplay import bots

from analysis.store import queries

from analysis import store
from analysis.players import SolverBot, View
from analysis.cli import main
from analysis.game import new_hand
from analysis.review import SOLVER_VERSION
from analysis.review import chance_to_open, unseen_tiles
from analysis.game import PRESETS
from analysis.selfplay import GameSpec, Player, play_game
from analysis.solver import best_pairs_opening, best_points_opening
from analysis.game import Tile, full_set
from analysis.game.tiles import tiles

EVIL = "<b>Mal</b>&"


class ThrowerBot(SolverBot):
    """The solver bot, except that it throws the okey whenever it holds one and another tile
    would have cost nothing (an injected X3 mistake). Every throw is written down."""

    kind = "thrower"
    throws: ClassVar[list[tuple[int, int]]] = []  # (hand, rack size)

    def discard(self, v: View) -> Tile:
        rack = v.rack
        free = [t for t in rack if t != v.okey and v.state.fits_table(t) is None]
        if v.okey in rack and len(rack) > 1 and free:
            ThrowerBot.throws.append((v.state.hand, len(rack)))
            return v.okey
        return super().discard(v)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    mp = pytest.MonkeyPatch()
    mp.setitem(bots.BOTS, "thrower", ThrowerBot)
    ThrowerBot.throws = []
    try:
        spec = GameSpec("e2e-1", (Player("Sol", "solver"), Player("Ran", "random"), Player(EVIL, "thrower"),
                                  Player("Dom", "random")), "101", None, "11", "2026-10-01T20:00:00+00:00")
        rec = play_game(spec)
    finally:
        mp.undo()
    d = tmp_path_factory.mktemp("rv")
    log = d / "g.jsonl"
    log.write_text("".join(rec.lines()), encoding="utf-8")
    db = stored(d / "rv.duckdb", log)
    assert main(["analyze", "--db", str(db), "--no-progress"]) == 0
    return {"db": db, "log": log, "throws": list(ThrowerBot.throws), "hands": rec.hands_played}


def _read(db: Path, fn: str, *args: Any, **kw: Any) -> Any:
    with store.reading(db) as con:
        return getattr(queries, fn)(con, *args, **kw)


def test_a_random_seat_costs_far_more_than_a_solver_seat(game: dict[str, Any]) -> None:
    seats = _read(game["db"], "game_review", "e2e-1").set_index("seat")
    assert game["hands"] >= 11 and seats.loc[0, "hands"] >= 11
    random_cost = min(seats.loc[1, "cost"], seats.loc[3, "cost"])
    assert random_cost > 3 * seats.loc[0, "cost"] + 100, seats
    assert seats.loc[0, "agreement"] > max(seats.loc[1, "agreement"], seats.loc[3, "agreement"]) + 10


def test_every_injected_okey_throw_is_found_as_an_okey_discard(game: dict[str, Any]) -> None:
    assert game["throws"], "the seed should make the thrower hold an okey at least once"
    ms = _read(game["db"], "game_mistakes", "e2e-1")
    x3 = ms[(ms.seat == 2) & (ms.category == "okey_discard")]
    assert len(x3) == len(game["throws"]) and set(x3.cost) == {101}
    assert sorted(x3.hand) == sorted(h for h, _ in game["throws"])
    assert set(x3.player) == {EVIL}


def test_analyze_skips_games_annotated_by_this_version_and_redoes_other_versions(
        game: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    db = game["db"]
    assert main(["analyze", "--db", str(db), "--no-progress"]) == 0
    assert "0 annotated" in capsys.readouterr().out
    con = store.connect(db, seed=False)
    try:
        con.execute("UPDATE review_games SET version = 'old'")
    finally:
        con.close()
    assert _read(db, "review_status")["by_version"] == {"old": 1}
    assert main(["analyze", "--db", str(db), "--no-progress", "--jobs", "2"]) == 0
    assert "1 annotated" in capsys.readouterr().out
    assert _read(db, "review_status")["by_version"] == {SOLVER_VERSION: 1}
    # the rows were replaced, not added to
    dec = _read(db, "game_decisions", "e2e-1")
    assert not dec.duplicated(["ord", "turn"]).any()


def test_player_trends_and_categories_match_the_game_rows(game: dict[str, Any]) -> None:
    trend = _read(game["db"], "player_review", EVIL)
    cats = _read(game["db"], "player_mistakes", EVIL).set_index("category")
    assert list(trend.game) == ["e2e-1"]
    assert cats.loc["okey_discard", "mistakes"] == len(game["throws"])
    assert cats["cost"].sum() == trend.cost.iloc[0]
    pos = _read(game["db"], "practice_positions", EVIL, ["okey_discard"])
    assert len(pos) == len(game["throws"]) and (pos.cost == 101).all()


def test_report_is_standalone_html_with_tiles_and_escaped_names(game: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    assert main(["report", "e2e-1", "--db", str(game["db"]), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<script" not in text and "http" not in text
    assert EVIL not in text and "&lt;b&gt;Mal&lt;/b&gt;&amp;" in text
    assert text.count('class="t') > 50  # tiles drawn
    ms = _read(game["db"], "game_mistakes", "e2e-1")
    assert text.count('data-category="okey_discard"') == (ms.category == "okey_discard").sum()
    assert text.count('<div class="m"') == len(ms)
    assert main(["report", "nope", "--log", str(game["log"]), "--out", str(out)]) == 2


# ---- chance to open ---------------------------------------------------------------------------

def _small_state() -> tuple[Any, int]:
    """Seat 1 (101, okey Y7) holds KIT1 less K8 and junk: 84 points, it needs K8 (or some luck);
    all but ten tiles are in the discard piles, so every draw can be enumerated."""
    rules = PRESETS["101"]
    rack = tiles("R6 R7 R8 B6 B7 B8 K6 K7 R10 B10 K10 B1 B2 B3 K1 K2 K3 Y1 Y3 Y9 R12")
    pool = tiles("K8 Y2 B13 K13 R13 Y12 B5 R4 K11 J")
    rest = full_set()
    rest[Tile.parse("Y6")] -= 1
    for t in rack + pool:
        rest[t] -= 1
    others = sorted(rest.elements())
    racks = [others[:22], rack, others[22:43], others[43:64]]
    s = new_hand(rules, 1, 0, Tile.parse("Y6"), racks)
    pile = others
    s = replace(s, racks=((), tuple(rack), (), ()), discards=(tuple(pile), (), (), ()), turn=1, phase="draw")
    return s, 1


def _exact(state: Any, seat: int, k: int) -> float:
    pool = unseen_tiles(state, seat)
    hit = n = 0
    rack = list(state.racks[seat])
    for combo in itertools.combinations(pool, k):
        r = rack + list(combo)
        ok = best_points_opening(r, state.okey, rules=state.rules, threshold=101).reaches or \
            best_pairs_opening(r, state.okey, rules=state.rules, threshold=5).reaches
        hit += ok
        n += 1
    return hit / n


def test_chance_to_open_matches_an_exact_count_on_a_small_case() -> None:
    state, seat = _small_state()
    assert len(unseen_tiles(state, seat)) == 10
    exact = {k: _exact(state, seat, k) for k in (1, 3, 5)}
    assert 0 < exact[1] < exact[3] < exact[5] < 1
    full = chance_to_open(state, seat, samples=1000)  # every subset fits the budget: counted
    assert full is not None and full.exact and full.p == (exact[1], exact[3], exact[5])
    est = chance_to_open(state, seat, samples=150, seed=7)  # 252 subsets > 150: sampled
    assert est is not None and not est.exact and est.samples == 150
    for k, p, se in zip(est.draws, est.p, est.se):
        assert se == pytest.approx((p * (1 - p) / 150) ** 0.5)
        assert abs(p - exact[k]) <= 4 * max(se, 0.01), (k, p, exact[k], se)


def test_chance_is_none_once_opened_and_one_when_the_rack_already_opens() -> None:
    state, seat = _small_state()
    full_rack = state.racks[seat] + (Tile.parse("K8"),)
    opens = replace(state, racks=tuple(full_rack if s == seat else r for s, r in enumerate(state.racks)))
    c = chance_to_open(opens, seat)
    assert c is not None and c.p == (1.0, 1.0, 1.0) and c.exact
    from analysis.game import Opening

    done = replace(state, opened=(None, Opening("points", 105), None, None))
    assert chance_to_open(done, seat) is None


def test_unseen_tiles_are_only_what_the_seat_cannot_see() -> None:
    state, seat = _small_state()
    pool = unseen_tiles(state, seat)
    seen = list(state.racks[seat]) + list(state.discards[0]) + [state.indicator]
    assert sorted(pool + seen) == sorted(full_set().elements())


def test_parallel_analyze_writes_the_same_annotations_as_one_process(tmp_path: Path) -> None:
    from analysis.selfplay import specs, write_records

    log = tmp_path / "two.jsonl"
    write_records([play_game(s) for s in specs(2, bots=("solver", "random", "greedy", "random"), seed=9, hands=2)],
                  str(log))
    db = tmp_path / "two.duckdb"
    from analysis.store import analyze

    con = store.connect(db, seed=False)
    try:
        store.import_paths(con, [str(log)], workers=1)
        one = analyze(con, jobs=1)
        a = con.execute("SELECT * EXCLUDE (player) FROM review_mistakes ORDER BY ALL").fetchall()
        two = analyze(con, jobs=2, force=True)
        b = con.execute("SELECT * EXCLUDE (player) FROM review_mistakes ORDER BY ALL").fetchall()
    finally:
        con.close()
    assert one.annotated == two.annotated == 2 and one.decisions == two.decisions > 0
    assert a == b


@pytest.mark.parametrize("jobs", [1, 2])
def test_analyze_loads_the_games_as_it_goes_not_all_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            jobs: int) -> None:
    """An archive's pending games are read a few at a time (a window of four per worker), so
    memory does not grow with the archive."""
    from analysis.selfplay import specs, write_records
    from analysis.store import analyze, reviews

    log = tmp_path / "many.jsonl"
    write_records([play_game(s) for s in specs(24, bots=("greedy",) * 4, seed=4, hands=1)], str(log))
    con = store.connect(tmp_path / "many.duckdb", seed=False)
    loaded: list[str] = []
    at_write: list[int] = []
    real_load, real_write = reviews.load_gamelog, reviews.write

    def load(c: Any, gid: str) -> Any:
        loaded.append(gid)
        return real_load(c, gid)

    def write(c: Any, buf: Any) -> None:
        at_write.append(len(loaded))
        real_write(c, buf)

    monkeypatch.setattr(reviews, "load_gamelog", load)
    monkeypatch.setattr(reviews, "write", write)
    try:
        store.import_paths(con, [str(log)], workers=1)
        s = analyze(con, jobs=jobs, batch=1)
        n = con.execute("SELECT count(*) FROM review_games").fetchall()[0][0]
    finally:
        con.close()
    assert s.annotated == n == 24 and len(loaded) == 24
    assert at_write[0] <= (1 if jobs == 1 else 4 * jobs + 1)  # the first result was written long before the last load
