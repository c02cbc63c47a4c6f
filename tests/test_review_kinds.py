"""Every kind of decision graded, each in a crafted game: an O7 show, an O10
declaration, a choice of per or çift when both open, and a lay-off held back; each kind has its
category in both languages. Indicator Y6 (okey Y7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from golden.build import KIT1, tiles_of
from golden.builder import LogFile

from analysis.evaluate import core
from analysis.game import GameResult, read_file, replay_game
from analysis.review import CATEGORIES, CATEGORY_KIND, Choice, Decision
from analysis.review.deep import _relabel as relabel  # the labelling rule, tested on its own
from analysis.review.deep import deep_review_hand
from analysis.review.kinds import MAX_SUBSETS
from analysis.review.words import CATEGORY_NAME, DEFINITION

W = 8  # pricing worlds: these tests check which decisions exist, not their prices

PAIRS_AND_MELDS = "R10 R10 R11 R12 R12 R13 B10 B10 B11 B12 B13 B13 K11 K11 K12 K13 Y1 Y3 Y5 R2 B4"


def replayed(f: LogFile, tmp_path: Path) -> GameResult:
    p = tmp_path / "t.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    res = replay_game(read_file(p).games[0], keep_steps=True)
    assert res.valid, [h.error for h in res.hands]
    return res


def choices(res: GameResult, seat: int, kind: str) -> list[Choice]:
    hr = deep_review_hand(res.game, res.hands[0], 1, budget=0.0, worlds=W)
    return [c for d in hr.decisions if d.seat == seat for c in d.choices if c.kind == kind]


def test_an_o7_show_is_a_decision_of_its_own(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("k-show", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: "Y6 *", 2: "*", 3: "*"}, seed=4)
    h.discard(0, h.rack(0)[0])
    h.show(1)
    h.draw(1)
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    shows = choices(res, 1, "show")
    assert len(shows) == 1
    c = shows[0]
    assert c.played == "show" and {x["move"] for x in c.candidates} == {"show", "no show"}
    assert c.worlds == W  # priced on the fixed worlds: both lines played out from the show
    # the Python reference model does not use a shown twin: there both score alike everywhere
    assert c.forced in (None, "identical")


# four pairs, the indicator twin Y6 and twelve tiles that make no pair, run or group: shown, the
# twin is wild in pairs (T4, O7) and makes the fifth pair of a çift opening at the first turn
FOUR_PAIRS_AND_TWIN = "R11 R11 B13 B13 K3 K3 Y9 Y9 Y6 R1 R4 R7 B2 B5 B9 K6 K8 K12 Y1 Y4 Y12"


def test_not_showing_a_twin_that_makes_the_fifth_pair_costs_points(tmp_path: Path) -> None:
    """The compiled model plays a shown twin as wild in pairs (fast.py, kind ``show``): not showing
    it here is priced worse than showing it, on the same fixed worlds, by more than the interval."""
    import pytest

    from analysis.evaluate import fast

    if fast.COMPILED is None:
        pytest.skip("the compiled rollout model is not built (the Python model ignores a shown twin)")
    f = LogFile()
    g = f.game("k-show-pairs", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: FOUR_PAIRS_AND_TWIN, 2: "*", 3: "*"}, seed=4)
    h.discard(0, h.rack(0)[0])
    h.draw(1)  # no show
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    hr = deep_review_hand(res.game, res.hands[0], 1, budget=0.0, worlds=32)
    (c,) = [c for d in hr.decisions if d.seat == 1 for c in d.choices if c.kind == "show"]
    rows = {x["move"]: x for x in c.candidates}
    assert c.forced is None and c.played == "no show" and c.best == "show"
    assert rows["no show"]["expected"] > rows["show"]["expected"]
    assert c.ci is not None and c.cost > c.ci > 0  # charged: the paired interval excludes zero
    assert c.category == "worse_show"


def test_an_o10_declaration_is_graded_with_the_pairs_opening_it_allows(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("k-declare", variant="101-classic", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: PAIRS_AND_MELDS, 2: "*", 3: "*"}, seed=4)
    h.discard(0, h.rack(0)[0])
    h.draw(1)
    h.declare(1)
    h.open(1, pairs=["R10 R10", "R12 R12", "B10 B10", "B13 B13", "K11 K11"])
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    place = choices(res, 1, "place")
    assert len(place) == 1 and place[0].graded
    labels = [x["move"] for x in place[0].candidates]
    assert place[0].played.startswith("declare, open") and "pairs" in place[0].played
    assert any(m.startswith("open") and "points" in m for m in labels) or "declare" in labels


def test_per_or_cift_is_a_graded_choice_when_both_open(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("k-kind", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: PAIRS_AND_MELDS, 2: "*", 3: "*"}, seed=4)
    h.discard(0, h.rack(0)[0])
    h.draw(1)
    h.open(1, pairs=["R10 R10", "R12 R12", "B10 B10", "B13 B13", "K11 K11"])
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    place = choices(res, 1, "place")
    assert len(place) == 1 and place[0].graded
    from analysis.evaluate import candidates
    from analysis.players import View

    state = res.hands[0].steps[place[0].step].state
    labels = [c.label for c in candidates(View.of(state, 1), "place")]
    assert any("points" in x for x in labels) and any("pairs" in x for x in labels)
    assert "pairs" in place[0].played


def kit1_second_draw(gid: str, seed: int):
    """Seat 1 opens KIT1 (R6-R8 is meld 0, B6-B8 meld 1) at its first turn, holding R9 B9 Y1
    besides, and has just drawn at its second."""
    f = LogFile()
    g = f.game(gid, variant="101", rules={"x5": False}, hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: tiles_of(KIT1) + " R9 B9 Y1", 2: "*", 3: "*"},
               seed=seed)
    h.discard(0, h.rack(0)[0])
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, h.last_drawn)
    h.cycle([2, 3, 0])
    h.draw(1)
    return f, h


def test_a_held_back_lay_off_is_graded_against_the_best_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 opened KIT1 (R6-R8 is meld 0, B6-B8 meld 1) and holds R9 and B9: it lays off R9 only.
    On uniform worlds: on this test's few worlds the table belief's resampled ones price every
    candidate alike, and the decision is then not graded at all."""
    monkeypatch.setattr(core, "BELIEF", "uniform")
    f, h = kit1_second_draw("k-hold", 11)
    h.layoff(1, 0, "R9")
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    place = [c for c in choices(res, 1, "place") if c.step > 4]
    assert len(place) == 1 and place[0].graded
    c = place[0]
    assert c.played.startswith("best turn holding back B9")  # a candidate of its own, not an extra "played" line
    assert len([x for x in c.candidates if x["move"].startswith("best turn")]) >= 1
    assert MAX_SUBSETS >= 1


def test_each_kind_has_its_category_in_both_languages() -> None:
    for cat in ("worse_show", "worse_declare", "worse_layoffs", "pairs_over_melds", "melds_over_pairs",
                "failed_opening", "missed_finish"):
        assert cat in CATEGORIES and cat in CATEGORY_KIND
        assert all(CATEGORY_NAME[cat]) and all(DEFINITION[cat])
    hold = Choice("place", 4, 8, "best turn holding back B9", "best turn", 40.0, 20.0, 3.0, 20.0,
                  [{"move": "best turn", "expected": 20.0, "se": 2.0, "n": W, "played": False, "events": []}], [],
                  ci=6.0, worlds=W)
    dec = Choice("place", 4, 8, "wait", "declare, open 5 pairs", 90.0, 40.0, 5.0, 50.0,
                 [{"move": "declare, open 5 pairs", "expected": 40.0, "se": 2.0, "n": W, "played": False,
                   "events": [{"type": "declare", "seat": 0, "what": "pairs"}]}], [], ci=8.0, worlds=W)
    show = Choice("show", 1, 3, "no show", "show", 60.0, 40.0, 2.0, 20.0, [], [], ci=4.0, worlds=W)
    d = Decision(1, 1, 0, 2, 4, 6, 8, "draw", None, True, {}, {}, 0, 0, [], [hold, dec, show])
    relabel(d)
    assert [hold.category, dec.category, show.category] == ["worse_layoffs", "worse_declare", "worse_show"]


def opened_turn(seed: int, tmp_path: Path):
    """Seat 1 opened KIT1 and holds R9, B9 (lay-offs), Y1, and the tile its second draw brings
    (seed 1: B1, which joins nothing; seed 11: B10, which lays off after B9)."""
    from analysis.players import View

    f, h = kit1_second_draw("k-hold-expert", seed)
    h.discard(1, h.last_drawn)
    res = replayed(f, tmp_path)
    state = next(s.state for s in res.hands[0].steps if s.state.phase == "play" and s.state.turn == 1
                 and s.state.opened[1] is not None and not s.state.opened_this_turn)
    return View.of(state, 1)


def spied_expert(monkeypatch):
    import random

    from analysis.evaluate import ExpertBot
    from analysis.evaluate import expert as expert_module

    seen: list[list[str]] = []
    real = expert_module.evaluate

    def spy(v, cands, **kw):
        seen.append([c.label for c in cands])
        return real(v, cands, **kw)

    monkeypatch.setattr(expert_module, "evaluate", spy)
    return ExpertBot(random.Random(3), worlds=8), seen


def test_the_expert_weighs_the_same_held_back_lay_offs_on_an_opened_turn(tmp_path: Path, monkeypatch) -> None:
    """The expert's opened turn is a decision of the evaluator's: the best turn,
    nothing, and the best turn holding back R9 or B9 (L1), as the review grades it."""
    v = opened_turn(1, tmp_path)
    bot, seen = spied_expert(monkeypatch)
    events = bot.place(v)
    assert len(seen) == 1
    labels = seen[0]
    assert labels[:2] == ["best turn", "nothing"]
    assert "best turn holding back R9" in labels and "best turn holding back B9" in labels
    assert bot.place(v) == []  # one decision a turn
    assert all(e["type"] == "layoff" for e in events)


def test_the_expert_does_not_weigh_a_best_turn_that_finishes(tmp_path: Path, monkeypatch) -> None:
    v = opened_turn(11, tmp_path)  # R9, B9 B10 laid off leave Y1 to discard: the hand ends (E1)
    bot, seen = spied_expert(monkeypatch)
    events = bot.place(v)
    assert seen == []
    assert [e["tiles"] for e in events] == [["R9"], ["B9", "B10"]]


def test_the_expert_declares_pairs_as_its_rollout_model_does(tmp_path: Path) -> None:
    """O10 (`101-classic`): four pairs, one short of five, declare, as ``rollout.c``'s start of
    turn does, though the rack's runs are worth more than 70% of the threshold (where the solver
    bot's rule would not declare); three pairs, two short, do not."""
    import random

    from analysis.evaluate import ExpertBot
    from analysis.players import SolverBot, View

    def seat_1_to_play(gid: str, rack: str) -> View:
        f = LogFile()
        h = f.game(gid, variant="101-classic", hands=1).hand(
            1, starter=0, indicator="Y6", racks={0: "*", 1: rack, 2: "*", 3: "*"}, seed=4)
        h.discard(0, h.rack(0)[0])
        return View.of(replayed(f, tmp_path).hands[0].steps[-1].state, 1)

    rack = "R1 R1 B2 B2 K3 K3 Y4 Y4 R11 R12 R13 B11 B12 B13 K11 K12 K13 Y8 Y10 R6 B8"  # 108 in runs
    v = seat_1_to_play("k-declare", rack)
    assert not v.state.declared[1] and not v.opened
    assert ExpertBot(random.Random(0)).declare(v)
    assert not SolverBot(random.Random(0)).declare(v)
    v3 = seat_1_to_play("k-declare-3", rack.replace("Y4 Y4", "Y4 Y5"))
    assert not ExpertBot(random.Random(0)).declare(v3)  # three pairs: two short


def test_a_best_turn_that_places_the_okey_is_priced_against_one_that_keeps_it_X6() -> None:
    """Where an opened seat's best turn puts its okey on the table (where a swap can take it, X6 to
    the placer, S3), the review also prices the best turn of the rack without its okeys: legal,
    and the okey stays in the rack."""
    from pathlib import Path

    from analysis.game import read_and_replay
    from analysis.review.deep import judge_spot
    from analysis.review.spots import hand_spots, seed_game

    sample = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
    games, _ = read_and_replay(str(sample), keep_steps=True)
    res = next(r for r in games if r.game == "kahve-2026-09-08-3")
    hr = res.hands[2]
    spot = next(s for t in hand_spots(hr) for s in t if s.kind == "place" and s.step == 61)
    c = judge_spot(seed_game(res), hr, spot, worlds=8)
    assert c is not None
    kept = next(x for x in c.candidates if x["move"] == "best turn keeping the okey")
    best = next(x for x in c.candidates if x["move"] == "best turn")
    state = hr.steps[spot.step].state
    from analysis.evaluate.plans import state_after

    after_kept, after_best = state_after(state, kept["events"]), state_after(state, best["events"])
    assert after_kept is not None and after_best is not None
    okey = state.okey
    assert after_kept.racks[spot.seat].count(okey) == state.racks[spot.seat].count(okey) > 0
    assert after_best.racks[spot.seat].count(okey) < state.racks[spot.seat].count(okey)
    assert "X6" in kept["parts"] and "X6" in best["parts"]
