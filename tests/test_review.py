"""Move review: a crafted position for every mistake category (docs/review-design.md), its cost worked
out by hand from docs/rules.md E5/X1-X7, and the best play in the same position graded clean.

Logs are composed with tests/golden/builder.py (tiles conserved), `101` with indicator Y6: the
okey is Y7 and the false okey J counts as Y7. Exposure = what the seat would be written if the
hand ended after its placing: 202 unopened, else its rack's E5 value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from golden.build import KIT0, KIT1, tiles_of, without
from golden.builder import LogFile, run

from analysis.game import read_file, replay_game
from analysis.review import CATEGORIES, GameReview, Mistake, review_game, severity, split_turns


def review(f: LogFile, tmp_path: Path) -> GameReview:
    p = tmp_path / "t.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    rr = read_file(p)
    assert not rr.errors, rr.errors
    res = replay_game(rr.games[0])
    assert res.valid, [h.error for h in res.hands]
    return review_game(res)


def found(gr: GameReview, seat: int, category: str) -> list[Mistake]:
    return [m for d in gr.decisions if d.seat == seat for m in d.mistakes if m.category == category]


def seat_cats(gr: GameReview, seat: int) -> set[str]:
    return {m.category for d in gr.decisions if d.seat == seat for m in d.mistakes}


def hand1(rules: dict[str, Any] | None = None, **racks: str) -> tuple[LogFile, Any]:
    f = LogFile()
    g = f.game("rv", variant="101", rules=rules, hands=1)
    deck = racks.pop("deck", "")
    h = g.hand(1, starter=0, indicator="Y6", racks={int(k[1]): v for k, v in racks.items()}, deck=deck)
    return f, h


JUNK = "Y1 Y3 Y9 R12"  # 1 + 3 + 9 + 12 = 25: no meld, no pair, nothing on the table takes them


# ---- openings --------------------------------------------------------------------------------

def _opening_rack(play: str, tmp_path: Path) -> GameReview:
    # seat 1 holds KIT1 (105) + Y11 Y12 Y13 (36): 141 with the drawn Y2 left over
    f, h = hand1(s0="R4 *", s1=tiles_of(KIT1) + " Y11 Y12 Y13", deck="Y2 Y4 Y5 Y8")
    h.discard(0, "R4")  # R4 joins nothing of seat 1's: no take to grade
    h.draw(1)
    if play == "best":
        h.open(1, melds=KIT1 + ["Y11 Y12 Y13"])
    elif play == "weaker":
        h.open(1, melds=KIT1)
    h.discard(1, "Y2")
    return review(f, tmp_path)


def test_not_opening_when_the_rack_reaches_101_is_a_missed_opening_O1(tmp_path: Path) -> None:
    gr = _opening_rack("none", tmp_path)
    [m] = found(gr, 1, "missed_opening")
    # best: 141 points, Y2 left: exposure 2; not opening: 202 (E5) -> 200
    assert m.cost == 200 and m.detail["value"] == 141 and m.severity == "blunder"
    assert seat_cats(gr, 1) == {"missed_opening"}


def test_the_best_opening_is_graded_clean(tmp_path: Path) -> None:
    gr = _opening_rack("best", tmp_path)
    d = next(d for d in gr.decisions if d.seat == 1)
    assert d.agrees and d.exposure_played == d.exposure_best == 2 and d.played["opening"]["value"] == 141


def test_opening_without_a_meld_the_rack_holds_is_a_weaker_opening_O1(tmp_path: Path) -> None:
    gr = _opening_rack("weaker", tmp_path)
    [m] = found(gr, 1, "weaker_opening")
    # 105 played, Y11 Y12 Y13 Y2 left (38) against 141 with Y2 left (2): 36
    assert m.cost == 36 and m.detail["value"] == 105 and m.detail["best_value"] == 141


def test_drawing_when_the_previous_discard_would_open_is_a_missed_take_P2(tmp_path: Path) -> None:
    # without K8 the rack makes 84 at most; K6-K7-K8 with the discarded K8 gives KIT1's 105
    f, h = hand1(s0="K8 *", s1=without(KIT1, "K8") + " " + JUNK, deck="Y11 Y4 Y5")
    h.discard(0, "K8")
    h.draw(1)
    h.discard(1, "Y11")
    gr = review(f, tmp_path)
    [m] = found(gr, 1, "missed_take")
    # taking K8: 105 opened, JUNK (25) left; drawing: 202
    assert m.cost == 202 - 25 and m.detail["tile"] == "K8"
    assert "missed_opening" not in seat_cats(gr, 1)
    d = next(d for d in gr.decisions if d.seat == 1)
    assert d.choice == "draw" and d.take_opens is True


def test_taking_the_discard_and_opening_is_graded_clean(tmp_path: Path) -> None:
    f, h = hand1(s0="K8 *", s1=without(KIT1, "K8") + " " + JUNK, deck="Y11 Y4 Y5")
    h.discard(0, "K8")
    h.take(1, "K8")
    h.open(1, melds=KIT1)
    h.discard(1, "R12")
    gr = review(f, tmp_path)
    d = next(d for d in gr.decisions if d.seat == 1)
    assert d.choice == "take" and d.agrees, d.mistakes


PAIRS_RACK = "R11 R11 R12 R12 R13 R13 B11 B11 B12 B12 B13 B13 K1 K1 K2 K2 K4 K4 Y1 Y1 Y2"


def test_opening_melds_where_pairs_leave_less_is_melds_over_pairs_O3(tmp_path: Path) -> None:
    # melds: R11-13 x2, B11-13 x2 = 144, left K1 K1 K2 K2 K4 K4 Y1 Y1 Y2 Y2 = 20;
    # pairs: 10 of the 11 pairs (P5), Y1 Y1 left: 2 x 2 = 4, siler (O8, >= 7 pairs) -101: -97
    f, h = hand1(s0="K9 *", s1=PAIRS_RACK, deck="Y2 Y4 Y5")
    h.discard(0, "K9")
    h.draw(1)
    h.open(1, melds=["R11 R12 R13", "R11 R12 R13", "B11 B12 B13", "B11 B12 B13"])
    h.discard(1, "K4")
    gr = review(f, tmp_path)
    [m] = found(gr, 1, "melds_over_pairs")
    # played exposure: left K1 K1 K2 K2 K4 Y1 Y1 Y2 Y2 + K4 before the discard = 20
    assert m.cost == 20 - (-97) and m.detail["value"] == 10


def test_opening_pairs_where_melds_leave_less_is_pairs_over_melds_O3(tmp_path: Path) -> None:
    # pairs: R13 B13 K13 Y13 R5 (5) leave R1-3 B1-3 K1-3 B8 K10 R11 = 47, doubled 94 (E5);
    # melds: two groups of 13 (104) + three runs 1-3 (18) = 122 leave R5 R5 B8 K10 R11 = 39
    rack = "R13 R13 B13 B13 K13 K13 Y13 Y13 R1 R2 R3 B1 B2 B3 K1 K2 K3 R5 R5 B8 K10"
    f, h = hand1(s0="K9 *", s1=rack, deck="R11 Y4 Y5")
    h.discard(0, "K9")
    h.draw(1)
    h.open(1, pairs=["R13 R13", "B13 B13", "K13 K13", "Y13 Y13", "R5 R5"])
    h.discard(1, "R11")
    gr = review(f, tmp_path)
    [m] = found(gr, 1, "pairs_over_melds")
    assert m.cost == 94 - 39 and m.detail["value"] == 122
    assert "weaker_opening" not in seat_cats(gr, 1)


# ---- an opened seat's turn -------------------------------------------------------------------

def _opened(tmp_path: Path, spare: str, deck: str, second: Any) -> GameReview:
    """Seat 1 opens KIT1 on his first turn keeping ``spare``; ``second(h)`` plays his second turn."""
    f, h = hand1(s0="K4 *", s1=tiles_of(KIT1) + " " + spare, s2="*", s3="*", deck=deck)
    h.discard(0, "K4")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, h.last_drawn)
    h.cycle([2, 3, 0])
    h.draw(1)
    second(h)
    return review(f, tmp_path)


def test_keeping_a_tile_a_table_run_takes_is_a_missed_layoff_L1(tmp_path: Path) -> None:
    # spare R12 Y2 B12; he draws R9, which R6-R7-R8 takes (meld 0); he throws Y2 instead
    gr = _opened(tmp_path, "R12 Y2 B12", "Y1 Y4 Y5 Y8 R9", lambda h: h.discard(1, "Y2"))
    [m] = found(gr, 1, "missed_layoff")
    assert m.cost == (12 + 2 + 12 + 9) - (12 + 2 + 12)  # 9: R9 stays in the rack


def test_laying_off_is_graded_clean(tmp_path: Path) -> None:
    def play(h: Any) -> None:
        h.layoff(1, 0, "R9")
        h.discard(1, "Y2")
    gr = _opened(tmp_path, "R12 Y2 B12", "Y1 Y4 Y5 Y8 R9", play)
    assert not {"missed_layoff", "missed_swap", "missed_finish"} & seat_cats(gr, 1)


def test_not_finishing_when_the_best_turn_finishes_is_a_missed_finish_E1(tmp_path: Path) -> None:
    # spare R12 B12 Y2; he draws K12: R12 B12 K12 and the Y2 discard would finish
    gr = _opened(tmp_path, "R12 B12 Y2", "Y1 Y4 Y5 Y8 K12", lambda h: h.discard(1, "K12"))
    [m] = found(gr, 1, "missed_finish")
    assert m.cost == (12 + 12 + 2 + 12) - 2 + 101  # rack difference + the finisher's 101 (E6)


def test_not_taking_the_table_okey_is_a_missed_swap_S1(tmp_path: Path) -> None:
    # seat 1 opens with the okey Y7 standing for K7; seat 2 opens 108 (KIT2 without Y1 Y2) and
    # on his next turn draws K7 and holds K7 K12 K13 R13 B12: K7 for the okey, then the okey
    # makes a meld. (Corrected: K7 is drawn on that turn, so the swap is first missed there; with
    # K7 in the rack at the opening turn the swap was missed there, and is charged there, once.)
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 Y7>K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]
    kit2 = ["R9 B9 K9", "R11 B11 K11", "Y3 Y4 Y5", run("R", 2, 5), "B4 B5 B6 B7"]  # 108
    f, h = hand1(s0="K4 *", s1="R6 R7 R8 B6 B7 B8 K6 Y7 K8 R10 B10 K10 B1 B2 B3 K1 K2 K3 *",
                 s2=tiles_of(kit2) + " B12 K12 K13 R13", deck="Y1 K12 Y2 Y8 Y9 K7 B11")
    h.discard(0, "K4")
    h.draw(1)
    h.open(1, melds=open1)
    h.discard(1, "Y1")
    h.draw(2)  # K12
    h.open(2, melds=kit2)
    h.discard(2, "K12")
    h.cycle([3, 0, 1])
    h.draw(2)  # K7
    h.discard(2, "R13")
    gr = review(f, tmp_path)
    [m] = found(gr, 2, "missed_swap")
    # played: K7 K12 K13 R13 B12 = 57 left; best: K7 in, then R13 K13 Y7>B13 with K12 B12
    # left = 24 (K11-K13 would leave 25, B12 K12 okey 26)
    assert m.cost == 57 - 24


def test_an_okey_left_in_an_opened_rack_at_the_end_is_okey_kept_E5(tmp_path: Path) -> None:
    # seat 1 opens four groups (129) keeping nine tiles no meld takes; on his second turn he draws
    # the okey Y7 (best: Y1 K1 Y7>R1 as a group); he places nothing and seat 2 finishes: +101 for
    # the okey (E5), apart from the lay-off difference (Y7's own 7, Y1, K1: 9). (Corrected:
    # the old scenario held the okey at the opening turn, where it was missed and is charged, once.)
    kit = ["R13 B13 K13", "R11 B11 K11", "R10 B10 K10", "R9 B9 K9"]
    junk = "Y1 Y4 K5 R2 B6 R7 B3 Y12 K1"
    f, h = hand1({"katlamali": False}, s0="K4 *", s1=tiles_of(kit) + " " + junk, s2=without(KIT0, "K13") + " Y8",
                 deck="K2 Y2 Y5 Y6 Y7 K13")
    h.discard(0, "K4")
    h.draw(1)  # K2
    h.open(1, melds=kit)
    h.discard(1, "K2")
    h.cycle([2, 3, 0])
    h.draw(1)  # Y7, the okey
    h.discard(1, "B3")
    h.draw(2)  # K13
    h.open(2, melds=KIT0)
    h.discard(2, "Y8")
    gr = review(f, tmp_path)
    assert not found(gr, 1, "weaker_opening")
    [m] = found(gr, 1, "okey_kept")
    assert m.cost == 101 and m.detail["okeys"] == 1
    [lay] = found(gr, 1, "missed_layoff")
    assert lay.cost == (7 + 101 + 1 + 1) - 101


# ---- discards and penalties ------------------------------------------------------------------

def test_discarding_the_okey_with_free_tiles_is_an_okey_discard_X3(tmp_path: Path) -> None:
    f, h = hand1(s0="K4 *", s2=JUNK + " *", deck="Y2 Y7 Y4")
    h.discard(0, "K4")
    h.cycle([1])
    h.draw(2)  # the okey
    h.discard(2, "Y7")
    gr = review(f, tmp_path)
    [m] = found(gr, 2, "okey_discard")
    assert m.cost == 101 and m.detail["rule"] == "X3"


def test_discarding_a_tile_the_table_takes_is_a_layoff_discard_X4(tmp_path: Path) -> None:
    f, h = hand1(s0="K4 *", s1=tiles_of(KIT1) + " Y11 Y12 Y13", s2=JUNK + " *", deck="Y2 R9 Y4")
    h.discard(0, "K4")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y2")
    h.draw(2)  # R9: R6-R7-R8 takes it
    h.discard(2, "R9")
    gr = review(f, tmp_path)
    [m] = found(gr, 2, "layoff_discard")
    assert m.cost == 101 and "Y1" in m.detail["free"]


def test_a_discard_the_next_player_opens_with_is_fed_opening_X5(tmp_path: Path) -> None:
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8 K9", "R10 B10 K10", run("B", 1, 5)]
    f, h = hand1(s0="K9 *", s1=without(open1, "K9") + " Y11 Y12 Y13 Y4", deck="Y1 Y2")
    h.discard(0, "K9")
    h.take(1, "K9")
    h.open(1, melds=open1)
    h.discard(1, "Y4")
    gr = review(f, tmp_path)
    [m] = found(gr, 0, "fed_opening")
    assert m.cost == 10 * 9 and m.detail["tile"] == "K9"  # X5: 10 x the tile's value
    assert m.detail["hindsight"] is True  # no seat sees the next rack: the deep pass makes it a note


def test_an_opening_taken_back_is_a_failed_opening_X2(tmp_path: Path) -> None:
    f, h = hand1(s0="K4 *", s2="R1 R2 R3 *", deck="Y1 Y2 Y3")
    h.discard(0, "K4")
    h.cycle([1])
    h.draw(2)
    h.open(2, melds=["R1 R2 R3"])
    h.takeback(2)
    h.discard(2, h.last_drawn)
    gr = review(f, tmp_path)
    [m] = found(gr, 2, "failed_opening")
    assert m.cost == 101 and m.detail["rule"] == "X2"


# ---- missed once, new checks ------------------------------------------------------

def test_a_missed_opening_still_there_next_turn_is_not_charged_again(tmp_path: Path) -> None:
    # seat 1 can open 141 (Y2 left: 2) and draws and throws twice; the second turn holds the
    # same opening with Y4 drawn and thrown: charged once, 202 - 2, where it was first missed
    f, h = hand1(s0="R4 *", s1=tiles_of(KIT1) + " Y11 Y12 Y13", deck="Y2 Y4 Y5 Y8 Y9")
    h.discard(0, "R4")
    h.draw(1)
    h.discard(1, "Y2")
    h.cycle([2, 3, 0])
    h.draw(1)  # Y9
    h.discard(1, "Y9")
    gr = review(f, tmp_path)
    ms = found(gr, 1, "missed_opening")
    assert [m.cost for m in ms] == [200] and ms[0].step < gr.decisions[-1].start


def test_a_missed_layoff_still_there_next_turn_is_not_charged_again(tmp_path: Path) -> None:
    # seat 1 keeps R9 (R6-R7-R8 takes it) on his second turn (9), and again on his third
    def play(h: Any) -> None:
        h.discard(1, "Y2")
        h.cycle([2, 3, 0])
        h.draw(1)  # Y3
        h.discard(1, "Y3")
    gr = _opened(tmp_path, "R12 Y2 B12", "Y1 Y4 Y5 Y8 R9 Y9 Y10 Y11 Y3", play)
    assert [m.cost for m in found(gr, 1, "missed_layoff")] == [9]


def test_a_missed_finish_whose_plan_does_not_finish_is_not_flagged(tmp_path: Path, monkeypatch: Any) -> None:
    # the solver says some line finishes (plan.finishes) but the plan it shows leaves two tiles:
    # the review must not show a missed finish with a plan that does not finish
    import dataclasses
    import importlib

    grade = importlib.import_module("analysis.review.grade")
    real = grade.turn_plan

    def lying(state: Any, seat: int) -> Any:
        plan = real(state, seat)
        if len(plan.left) >= 2:
            return dataclasses.replace(plan, finishes=["normal"])
        return plan

    monkeypatch.setattr(grade, "turn_plan", lying)
    gr = _opened(tmp_path, "R12 Y2 B12", "Y1 Y4 Y5 Y8 R9", lambda h: h.discard(1, "Y2"))
    assert not found(gr, 1, "missed_finish")
    [m] = found(gr, 1, "missed_layoff")
    assert m.cost == 9
    d = next(d for d in gr.decisions if d.seat == 1 and d.opened_before)
    assert d.best["turn"]["finishes"] == [] and d.best["turn"]["other_line_finishes"] == ["normal"]


def _take_or_draw(tmp_path: Path, take: bool) -> GameReview:
    """Seat 1 opens KIT1 keeping R12 B12 Y2; two turns on, seat 0 throws K12."""
    f, h = hand1(s0="K4 K12 *", s1=tiles_of(KIT1) + " R12 B12 Y2", s2="*", s3="*", deck="Y1 Y3 Y4 Y8 Y5")
    h.discard(0, "K4")
    h.draw(1)  # Y1
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.cycle([2, 3])
    h.draw(0)
    h.discard(0, "K12")
    if take:
        h.take(1, "K12")
        h.meld(1, melds=["R12 B12 K12"])
        h.discard(1, "Y2")
    else:
        h.draw(1)  # Y5
        h.discard(1, "Y5")
    return review(f, tmp_path)


def test_drawing_where_the_previous_discard_finishes_is_a_missed_take_finish(tmp_path: Path) -> None:
    gr = _take_or_draw(tmp_path, take=False)
    [m] = found(gr, 1, "missed_take_finish")
    # taking K12: R12 B12 K12, Y2 left (2) and thrown; drawing Y5 leaves R12 B12 Y2 Y5 (31), no
    # finish: 31 - 2 + the finisher's 101 (E6)
    assert m.cost == 31 - 2 + 101 and m.detail["tile"] == "K12"
    assert seat_cats(gr, 1) == {"missed_take_finish"}


def test_taking_the_discard_and_finishing_is_graded_clean_and_feeds_a_finish(tmp_path: Path) -> None:
    gr = _take_or_draw(tmp_path, take=True)
    assert not seat_cats(gr, 1) & {"missed_take_finish", "missed_finish", "missed_layoff"}
    # seat 0 threw the K12 seat 1 finished with: hindsight; a normal finish writes unopened seat
    # 0 its 202, no more than the hand ending would have: cost 0, a note
    [m] = found(gr, 0, "fed_finish")
    assert m.cost == 0 and m.detail["hindsight"] is True and m.detail["finisher"] == 1


def test_an_unopened_seat_that_could_take_and_finish_at_once_is_a_missed_take_finish(tmp_path: Path) -> None:
    # seat 1 holds KIT1 + R12 B12 Y2; taking K12 opens 141 (KIT1 + R12 B12 K12) leaving Y2 to
    # throw: a finish (elden, E2). Before the draw the best opening left R12 B12 Y2 (26); he drew
    # Y5 and threw it: 26 - 2 + the finisher's 101, and no missed opening on top (charged once)
    f, h = hand1(s0="K12 *", s1=tiles_of(KIT1) + " R12 B12 Y2", deck="Y5 Y4 Y8")
    h.discard(0, "K12")
    h.draw(1)
    h.discard(1, "Y5")
    gr = review(f, tmp_path)
    [m] = found(gr, 1, "missed_take_finish")
    assert m.cost == 26 - 2 + 101 and m.detail["tile"] == "K12" and m.detail["value"] == 141
    assert seat_cats(gr, 1) == {"missed_take_finish"}


def test_the_last_discard_before_the_deck_runs_out_throws_the_highest_dead_tile(tmp_path: Path) -> None:
    # the deck holds exactly the 20 tiles below; seat 1 opens KIT1 keeping R12 Y2 Y4 and draws
    # the 1st, 5th, 9th, 13th and 17th; after the 17th (Y11) three tiles are left, so his turn
    # does not come back; he throws Y2 and keeps R12: R12 Y4 Y11 (27) written against Y2 Y4 Y11
    # (17) had he thrown R12, the highest tile no table meld takes (E4, E5)
    deck = "Y1 Y3 Y5 Y8 Y9 Y12 R1 R2 R3 R4 R13 B11 B12 B13 K11 K12 Y11 K13 R11 Y13"
    f, h = hand1(s0="K4 *", s1=tiles_of(KIT1) + " R12 Y2 Y4", s2="*", s3="*", deck=deck)
    h.discard(0, "K4")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    for _ in range(3):
        h.cycle([2, 3, 0, 1])
    h.cycle([2, 3, 0])
    h.draw(1)  # Y11
    h.discard(1, "Y2")
    h.cycle([2, 3, 0])
    gr = review(f, tmp_path)
    assert gr.hands[0].result == "exhausted"
    [m] = found(gr, 1, "last_discard")
    assert m.cost == 27 - 17 and m.detail["best_tile"] == "R12" and m.detail["deck"] == 3


def test_an_unopened_discard_from_the_best_opening_is_broke_opening(tmp_path: Path) -> None:
    # KIT1 without K1 K2 K3 makes 99 against 101; throwing B7 breaks B6-B7-B8: the best left is
    # R6 B6 K6 + R8 B8 K8 (or the R and K runs) + R10 B10 K10 + B1-B3 = 78; Y-tiles were free
    rack = "R6 R7 R8 B6 B7 B8 K6 K7 K8 R10 B10 K10 B1 B2 B3 Y11 Y13 R12 Y2 Y4 B12"
    f, h = hand1(s0="R4 *", s1=rack, deck="Y1 Y3 Y5")
    h.discard(0, "R4")
    h.draw(1)
    h.discard(1, "B7")
    gr = review(f, tmp_path)
    [m] = found(gr, 1, "broke_opening")
    assert (m.detail["value"], m.detail["after"], m.detail["threshold"]) == (99, 78, 101)
    assert m.cost == 0 and m.severity == "note"


def test_throwing_a_tile_outside_the_best_opening_breaks_nothing(tmp_path: Path) -> None:
    rack = "R6 R7 R8 B6 B7 B8 K6 K7 K8 R10 B10 K10 B1 B2 B3 Y11 Y13 R12 Y2 Y4 B12"
    f, h = hand1(s0="R4 *", s1=rack, deck="Y1 Y3 Y5")
    h.discard(0, "R4")
    h.draw(1)
    h.discard(1, "Y13")
    assert "broke_opening" not in seat_cats(review(f, tmp_path), 1)


# ---- bookkeeping -----------------------------------------------------------------------------

def test_every_category_has_a_definition_and_a_test() -> None:
    src = "".join(p.read_text(encoding="utf-8") for p in sorted(Path(__file__).parent.glob("test_review*.py")))
    for cat, text in CATEGORIES.items():
        assert text and f'"{cat}"' in src, cat


def test_severity_bands() -> None:
    assert [severity(c) for c in (0, 1, 29, 30, 99, 100, 500)] == [
        "note", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_turns_run_from_the_draw_to_the_discard_for_every_seat(tmp_path: Path) -> None:
    gr = _opening_rack("best", tmp_path)
    p = tmp_path / "t.jsonl"
    res = replay_game(read_file(p).games[0])
    turns = split_turns(res.hands[0].steps)
    assert [t.seat for t in turns] == [0, 1]
    assert len(gr.decisions) == 2 and gr.decisions[0].choice == "start" and gr.decisions[1].choice == "draw"


@pytest.mark.parametrize("variant", ["51", "101-classic"])
def test_other_presets_review_without_errors(variant: str, tmp_path: Path) -> None:
    from analysis.selfplay import play_game, specs

    [spec] = specs(1, variant=variant, bots=("solver", "random", "greedy", "random"), seed=3, hands=2)
    p = tmp_path / "g.jsonl"
    p.write_text("".join(play_game(spec).lines()), encoding="utf-8")
    res = replay_game(read_file(p).games[0])
    gr = review_game(res)
    assert gr.decisions and all(m.cost >= 0 for d in gr.decisions for m in d.mistakes)
