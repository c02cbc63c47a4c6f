"""The Play page's table driver (analysis.selfplay.table): a person's moves checked by the engine
(each refusal names its rule and changes nothing), bots that play whole hands by themselves, and
the game kept as a full v1 log naming its people."""

from __future__ import annotations

import json

import pytest
from play_cases import OPENER
from play_cases import fixed_game as _game

from analysis.game import read_and_replay
from analysis.game.log import LogFormatError, validate_event
from analysis.game.record import RecordError
from analysis.selfplay.table import LEVELS, PlayGame, deal, new_game


def _refused(g: PlayGame, ev: dict, rule: str) -> None:
    before, n = g.to_dict(), len(g.events)
    with pytest.raises(RecordError) as e:
        g.person(ev)
    assert e.value.rule == rule, str(e.value)
    assert len(g.events) == n and g.to_dict() == before


def test_opening_below_the_threshold_is_refused_at_the_discard_O1() -> None:
    g = _game(OPENER)
    g.person({"type": "open", "seat": 0, "melds": [["R10", "R11", "R12"]]})
    _refused(g, {"type": "discard", "seat": 0, "tile": "B1"}, "O1")
    g.person({"type": "takeback", "seat": 0})  # O6: then the discard goes
    g.person({"type": "discard", "seat": 0, "tile": "B1"})
    assert g.state().turn == 1


def test_melds_and_pairs_never_mix_in_one_opening_O3() -> None:
    g = _game(OPENER)
    _refused(g, {"type": "open", "seat": 0, "melds": [["R10", "R11", "R12"]], "pairs": [["Y1", "Y1"]]}, "O3")


def test_a_tile_not_held_or_not_a_tile_is_refused_P1_T1() -> None:
    g = _game(OPENER)
    _refused(g, {"type": "discard", "seat": 0, "tile": "R1"}, "P1")
    _refused(g, {"type": "discard", "seat": 0, "tile": "X99"}, "T1")
    _refused(g, {"type": "open", "seat": 0, "melds": [["R1", "R2", "R3"]]}, "P1")


def test_layoffs_must_fit_L2_and_take_two_tiles_an_end_L3() -> None:
    g = _game(OPENER)
    g.person({"type": "open", "seat": 0, "melds": [["R10", "R11", "R12", "R13"], ["B10", "B11", "B12", "B13"],
                                                   ["K7", "K8", "K9", "K10"]]})
    _refused(g, {"type": "layoff", "seat": 0, "meld": 0, "tiles": ["Y1"]}, "L2")
    _refused(g, {"type": "layoff", "seat": 0, "meld": 2, "tiles": ["K4", "K5", "K6"]}, "L3")
    g.person({"type": "layoff", "seat": 0, "meld": 2, "tiles": ["K5", "K6"]})
    g.person({"type": "discard", "seat": 0, "tile": "B1"})


def test_okey_taken_from_a_group_only_by_completing_it_S2() -> None:
    rack = "R5 B5 Y10 K5 R10 R11 R12 R13 B10 B11 B12 B13 K8 K9 K10 K11 Y1 Y2 Y3 Y4 Y6 Y7".split()
    g = _game(rack)  # okey Y10
    g.person({"type": "open", "seat": 0, "melds": [["R5", "B5", "Y10>K5"], ["R10", "R11", "R12", "R13"],
                                                   ["B10", "B11", "B12", "B13"], ["K8", "K9", "K10", "K11"]]})
    _refused(g, {"type": "swap", "seat": 0, "meld": 0, "tiles": ["R5"]}, "S2")


def test_taking_needs_the_top_discard_P1_and_an_opening_with_it_P2() -> None:
    g = _game(OPENER, rack1=["Y13"] * 2)
    g.person({"type": "discard", "seat": 0, "tile": "B1"})
    _refused(g, {"type": "take", "seat": 1, "tile": "R1"}, "P1")
    g.person({"type": "take", "seat": 1, "tile": "B1"})
    held = str(g.state().racks[1][0])
    _refused(g, {"type": "discard", "seat": 1, "tile": held}, "P2")
    g.person({"type": "return", "seat": 1, "tile": "B1"})  # P2: given back, then a draw
    g.person({"type": "draw", "seat": 1})
    assert g.state().phase == "play"


def test_out_of_turn_and_a_bots_seat_are_refused() -> None:
    _refused(_game(OPENER), {"type": "draw", "seat": 1}, "P1")
    g = _game(OPENER, seats=["person", "greedy", "greedy", "greedy"])
    before = g.to_dict()
    with pytest.raises(RecordError, match="not a person's seat"):
        g.person({"type": "discard", "seat": 2, "tile": "B1"})
    assert g.to_dict() == before


@pytest.mark.parametrize("variant", ["101", "101-classic", "51", "partners"])
def test_bots_play_a_whole_hand_around_a_person_and_the_log_replays(variant: str, tmp_path) -> None:
    g = new_game("oyun-x", variant=variant, hands=2, seats=["greedy", "person", "random", "solver"],
                 names=["a", "b", "c", "d"], seed="5", starter=0)
    for _ in range(300):
        g.bots_until_person()
        if g.over:
            break
        s = g.state()
        if s.phase == "draw":
            g.person({"type": "draw", "seat": 1})
        g.person({"type": "discard", "seat": 1, "tile": str(g.state().racks[1][-1])})
    assert g.over and g.scores == list(g.state().scores)
    back = PlayGame.from_dict(json.loads(json.dumps(g.to_dict())))
    assert back.totals() == g.totals() and back.people == [1]
    p = tmp_path / "g.jsonl"
    p.write_text("".join(json.dumps(e) + "\n" for e in g.log_events(unfinished=False)))
    res = read_and_replay(str(p))
    games = res[0] if isinstance(res, tuple) else res
    gr = games[0]
    assert gr.valid and gr.agrees, gr.to_dict()
    assert gr.header["people"] == [1] and gr.header["bots"][1] is None
    assert gr.hands[0].totals() == g.finished_hands()[0].totals()


def test_the_deal_is_the_seeds_and_a_reload_plays_on_the_same() -> None:
    assert deal("s", 1, 0, 21, 2) == deal("s", 1, 0, 21, 2) != deal("s", 2, 0, 21, 2)
    a = new_game("oyun-a", seats=["person", "expert", "expert", "expert"], levels=[None, "easy", "easy", "easy"],
                 names=["a", "b", "c", "d"], seed="9", starter=1)
    b = PlayGame.from_dict(json.loads(json.dumps(a.to_dict())))
    assert a.bots_until_person() == b.bots_until_person()
    assert LEVELS["easy"] < LEVELS["medium"] < LEVELS["strong"]


def test_a_log_header_names_its_people_or_is_refused() -> None:
    h = {"type": "game", "game": "g", "variant": "101", "players": ["a", "b", "c", "d"]}
    assert validate_event({**h, "people": [0, 2]})
    for bad in ([4], [0, 0], "0", [True]):
        with pytest.raises(LogFormatError):
            validate_event({**h, "people": bad})


def test_the_hand_count_outside_G1_is_refused() -> None:
    with pytest.raises(RecordError, match="G1"):
        new_game("oyun-h", hands=0, seats=["person"] * 4, names=["a"] * 4, seed="1")
    with pytest.raises(RecordError, match="G1"):
        new_game("oyun-h", hands=101, seats=["person"] * 4, names=["a"] * 4, seed="1")


def test_a_charged_move_writes_the_engines_penalty_into_the_log_X3() -> None:
    g = _game(OPENER[:-1] + ["Y10"])  # Y10: the okey (gösterge Y9)
    g.person({"type": "discard", "seat": 0, "tile": "Y10"})
    assert g.events == [{"type": "discard", "seat": 0, "tile": "Y10"},
                        {"type": "penalty", "seat": 0, "points": 101, "reason": "X3"}]
    assert len(g.states()) == len(g.events) + 1 and g.state().turn == 1
