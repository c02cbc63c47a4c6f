"""The chance to win the game (analysis/review/winprob.py): exact at the end (G1), ties split, equal
totals get equal chances, worked cases by hand (one hand left; G3 match points; G4 teams), the
course of a game, determinism and the committed model file."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from analysis.game import read_and_replay, resolve
from analysis.review import winprob as wp

ROOT = Path(__file__).resolve().parents[1]
R101, CLASSIC, R51 = resolve("101"), resolve("101-classic"), resolve("51")
ESLI = resolve("101", {"esli": True})


def _random_model(key: str, seed: int = 3, n: int = 300) -> wp.HandModel:
    """Hands shaped like real ones: a finisher at -101, the others 0-250 (so that ties and swings occur)."""
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 250, size=(n, 4))
    hands[np.arange(n), rng.integers(0, 4, size=n)] = -101
    return wp.HandModel(key, hands.astype(np.int64), 1)


ONE = wp.HandModel("101", np.array([[0, 100, 100, 100]]))  # a hand: one seat 0, the others 100


def test_the_end_of_the_game_is_exact_the_lowest_total_wins_G1() -> None:
    c = wp.chance(R101, [310, -40, 122, 500], 0)
    assert c.exact and c.win == (0.0, 1.0, 0.0, 0.0)
    assert wp.chance(R51, [-3, 40, 12, 90], 0).win == (1.0, 0.0, 0.0, 0.0)


def test_a_tie_for_the_lowest_total_at_the_end_splits_the_win() -> None:
    assert wp.chance(R101, [50, 50, 120, 50], 0).win == pytest.approx((1 / 3, 1 / 3, 0, 1 / 3))
    assert wp.chance(R101, [7, 7, 7, 7], 0).win == (0.25, 0.25, 0.25, 0.25)


def test_the_end_of_a_partners_game_is_the_teams_totals_G4() -> None:
    c = wp.chance(ESLI, [300, 0, -200, 150], 0)  # team 0+2: 100, team 1+3: 150
    assert c.sides == ((0, 2), (1, 3)) and c.totals == (100, 150)
    assert c.exact and c.win == (1.0, 0.0) and c.of_seat(2) == 1.0 and c.of_seat(3) == 0.0
    assert wp.chance(ESLI, [100, 0, 0, 100], 0).win == (0.5, 0.5)


def test_g3_match_points_at_the_end_are_the_engines() -> None:
    from analysis.game import match_points

    t = [120, 40, 40, 300]
    c = wp.chance(CLASSIC, t, 0, planned=11)
    assert c.match_points == tuple(float(x) for x in match_points(t, 11))
    assert wp.chance(R101, t, 0, planned=11).match_points is None  # 101 has no match points


def test_one_hand_left_worked_by_hand() -> None:
    # the hand puts 0 on one seat (each equally likely) and 100 on the others. From 0, 50, 200, 200:
    # 0 on seat 0 -> 0, 150, 300, 300; on seat 1 -> 100, 50, 300, 300 (seat 1 wins); on seat 2 or 3
    # seat 0 still wins: 3/4 for seat 0, 1/4 for seat 1, whatever the seed
    for seed in (0, 1, 7):
        c = wp.chance(R101, [0, 50, 200, 200], 1, model=ONE, samples=50, seed=seed)
        assert not c.exact and c.win == pytest.approx((0.75, 0.25, 0.0, 0.0), abs=1e-12)


def test_expected_match_points_worked_by_hand_G3() -> None:
    # the four cases above in a 3-hand 101-classic game: awards 3, 1, -1, -3 (ties share the better rank)
    # 0 on seat 0: 3, 1, -1, -1; seat 1: 1, 3, -1, -1; seat 2: 3, 1, -1, -3; seat 3: 3, 1, -3, -1
    c = wp.chance(CLASSIC, [0, 50, 200, 200], 1, planned=3, model=ONE, samples=50)
    assert c.match_points == pytest.approx((2.5, 1.5, -1.5, -1.5), abs=1e-12)


def test_teams_one_hand_left_worked_by_hand_G4() -> None:
    # the zero lands on team 0+2 or team 1+3 half the time each: 50+100 vs 0+200 (0+2 wins) or
    # 50+200 vs 0+100 (1+3 wins); from 120 against 0 team 1+3 wins either way (220 > 200)
    m = wp.HandModel("101+esli", np.array([[0, 100, 100, 100]]))
    assert wp.chance(ESLI, [0, 0, 50, 0], 1, model=m, samples=50).win == pytest.approx((0.5, 0.5), abs=1e-12)
    assert wp.chance(ESLI, [60, 0, 60, 0], 1, model=m, samples=50).win == (0.0, 1.0)


def test_no_change_to_come_keeps_a_tie_split() -> None:
    still = wp.HandModel("101", np.zeros((5, 4), dtype=np.int64))
    assert wp.chance(R101, [0, 0, 100, 100], 4, model=still).win == (0.5, 0.5, 0.0, 0.0)


@pytest.mark.parametrize("left", [1, 3, 10])
def test_equal_totals_get_equal_chances_whatever_the_seats(left: int) -> None:
    m = _random_model("101")
    c = wp.chance(R101, [150, 20, 150, 310], left, model=m)
    assert c.win[0] == pytest.approx(c.win[2], abs=1e-12)
    c = wp.chance(R101, [60, 60, 60, 60], left, model=m)
    assert c.win == pytest.approx((0.25,) * 4, abs=1e-12)
    assert sum(c.win) == pytest.approx(1.0)


def test_the_chance_follows_the_totals_not_the_seat() -> None:
    m = _random_model("101")
    t = [90, -40, 210, 35]
    base = wp.chance(R101, t, 4, model=m)
    for perm in itertools.permutations(range(4)):
        moved = wp.chance(R101, [t[perm[i]] for i in range(4)], 4, model=m)
        assert moved.win == pytest.approx(tuple(base.win[perm[i]] for i in range(4)), abs=1e-12)


def test_equal_team_totals_get_equal_chances_G4() -> None:
    m = _random_model("51+esli")
    c = wp.chance(resolve("51", {"esli": True}), [200, 30, -50, 140], 5, model=m)  # 150 against 170
    assert c.win[0] > c.win[1]
    c = wp.chance(resolve("51", {"esli": True}), [200, 30, -30, 140], 5, model=m)  # 170 each
    assert c.win == pytest.approx((0.5, 0.5), abs=1e-12)


def test_more_hands_left_make_a_lead_less_sure_and_a_seed_repeats() -> None:
    m = _random_model("101")
    lead = [wp.chance(R101, [0, 150, 150, 150], k, model=m).win[0] for k in (1, 4, 12)]
    assert lead[0] > lead[1] > lead[2] > 0.25
    a = wp.chance(R101, [0, 150, 150, 150], 4, model=m, seed=5)
    b = wp.chance(R101, [0, 150, 150, 150], 4, model=m, seed=5)
    assert a == b


def test_bad_input_is_one_error() -> None:
    with pytest.raises(ValueError, match="G1"):
        wp.chance(R101, [0, 0, 0, 0], -1)
    with pytest.raises(ValueError, match="four totals"):
        wp.chance(R101, [0, 0, 0], 2)
    with pytest.raises(ValueError, match="partners"):
        wp.chance(R101, [0, 0, 0, 0], 2, model=wp.HandModel("101+esli", np.zeros((1, 4), dtype=np.int64)))


def test_the_committed_models_cover_every_preset_with_and_without_partners() -> None:
    models = wp.load_models()
    for variant in ("101", "101-classic", "51"):
        for esli in (False, True):
            m = models[wp.model_key(variant, esli)]
            assert len(m.hands) >= 1000 and m.games >= 100
    # a hand's scores as the engine writes them: in 51 lower than in 101 (E5, E7)
    assert models["51"].hands.mean() < models["101"].hands.mean()
    # and made by the bench, as the file says
    about = json.loads(wp.MODEL_FILE.read_text(encoding="utf-8"))["about"]
    assert "bench/winprob.py" in about["made_by"]


def test_a_damaged_model_file_is_one_error_naming_the_field(tmp_path: Path) -> None:
    p = tmp_path / "m.json"
    p.write_text('{"models": {"101": {"games": 1, "hands": [[1, 2, 3]]}}}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"m\.json: field 'models\.101\.hands'"):
        wp.load_models(p)
    p.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read"):
        wp.load_models(p)


def test_fit_and_write_then_read_back(tmp_path: Path) -> None:
    games, _ = read_and_replay(str(ROOT / "data" / "sample" / "games.jsonl.gz"))
    plain = [g for g in games if g.variant == "101" and g.rules is not None and not g.rules.esli]
    m = wp.fit(plain, "101", False)
    assert len(m.hands) == sum(1 for g in plain for h in g.hands if h.result in ("finish", "exhausted"))
    p = tmp_path / "m.json"
    wp.write_models([m], p, about={"made_by": "test"})
    back = wp.load_models(p)["101"]
    assert back.games == len(plain) and (back.hands == m.hands).all()


def test_the_course_of_a_sample_game_starts_even_and_ends_exact() -> None:
    games, _ = read_and_replay(str(ROOT / "data" / "sample" / "games.jsonl.gz"))
    for g in games[:6]:
        pts = wp.course(g)
        done = [h for h in g.hands if h.result in wp.DONE]
        assert [p.done for p in pts] == list(range(len(done) + 1))
        first = pts[0].chance
        assert first.hands_left == g.planned_hands
        assert first.win == pytest.approx((1 / len(first.win),) * len(first.win), abs=1e-12)  # all at 0
        for p in pts:
            assert sum(p.chance.win) == pytest.approx(1.0)
        if len(done) == g.planned_hands:
            last = pts[-1].chance
            assert last.exact and last.win == wp.chance(g.rules, g.totals, 0).win  # type: ignore[arg-type]
            assert tuple(g.totals) == pts[-1].totals


def test_a_void_hand_moves_nothing_and_an_unfinished_one_ends_the_course_E3() -> None:
    hands = [(1, "finish", (-101, 40, 202, 30)), (2, "void", (0, 0, 0, 0)), (2, "exhausted", (10, 20, 30, 40)),
             (3, "unfinished", (0, 101, 0, 0))]
    pts = wp.course_from(R101, 5, hands, model=_random_model("101"))
    assert [(p.done, p.hand) for p in pts] == [(0, 0), (1, 1), (2, 2)]
    assert pts[-1].totals == (-91, 60, 232, 70) and pts[-1].chance.hands_left == 3


def test_a_missing_model_file_is_no_model_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(wp.ModelMissing, match="cannot read"):
        wp.model_for(R101, tmp_path / "none.json")
    p = tmp_path / "m.json"
    wp.write_models([_random_model("51")], p)
    with pytest.raises(wp.ModelMissing, match="no win-chance model for 101"):
        wp.model_for(R101, p)
    assert wp.model_for(R51, p).key == "51"
