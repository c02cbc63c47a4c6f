"""A recording holds a whole game (analysis.game.record): hand after hand, the starter
moving on (D2), the planned count (G1), undo across hands, the file form, and the game as one
seat-view log that replays like any other; O10 declarations and O7 shows checked by the engine."""

from __future__ import annotations

import pytest
import seatview_cases as SC

from analysis.game import GameLog, replay_game
from analysis.game.record import Recording, RecordError

# hand 2 (starter seat 1): the viewer holds Y1-Y13 and K5-K12; seat 1 lays R1-R13 and B1-B8 down
# from his 22 tiles at once (127 points) and throws Y9, the copy the viewer does not hold: a finish
RACK_2 = SC.run("Y", 1, 13) + SC.run("K", 5, 12)
FINISH_2 = [{"type": "open", "seat": 1, "melds": [SC.run("R", 1, 13), SC.run("B", 1, 8)]},
            {"type": "discard", "seat": 1, "tile": "Y9"}]


def _moves() -> list[dict]:
    c = SC._viewer_finishes(SC._seat1_opens(SC.Case("g")))
    return [{k: v for k, v in e.items() if k not in ("game", "hand")} for e in c.events[2:]]


def _hand1(rules: dict | None = None) -> Recording:
    r = Recording("kayit-20260101-000000", rules=rules, players=["Ben", "P2", "P3", "P4"])
    r.indicator, r.racks[0] = "K3", list(SC.RACK_A)
    r.deal()
    for m in _moves():
        r.add(m)
    return r


def _deal2(r: Recording) -> None:
    r.indicator, r.racks[0] = "K3", list(RACK_2)
    r.deal()


def test_a_game_of_two_hands_is_one_seat_view_log_the_starter_moving_on() -> None:
    r = _hand1()
    assert r.over and not r.game_over and r.planned == 11
    r.scores = [-101, 45, 202, 202]
    first = r.totals()
    assert first == [-101, 45, 202, 202]
    r.next_hand()
    assert (r.hand, r.starter, r.dealt, r.events, r.indicator) == (2, 1, False, [], None)
    assert r.totals() == first  # the game's totals: the hands played
    _deal2(r)
    assert r.state().turn == 1 and r.state().hand == 2
    for m in FINISH_2:
        r.add(m)
    assert r.over
    evs = r.log_events()
    assert [e["type"] for e in evs].count("hand") == 2 and [e["type"] for e in evs].count("end") == 2
    assert [e["starter"] for e in evs if e["type"] == "hand"] == [0, 1]
    assert all(e["racks"][1:] == [None, None, None] for e in evs if e["type"] == "hand")
    assert evs[0]["view"] == 0 and evs[0]["hands"] == 11
    g = replay_game(GameLog(r.id, "t", 1, evs[0], list(enumerate(evs[1:], 2))))
    assert g.valid and [h.result for h in g.hands] == ["finish", "finish"]
    assert g.hands[1].finisher == 1
    assert r.totals() == g.totals and r.totals() != first
    assert [h.hand for h in r.finished_hands()] == [1, 2]


def test_next_hand_waits_for_the_end_and_the_planned_count_ends_the_game() -> None:
    r = Recording("kayit-20260101-000001", rules={"hands": 2})
    r.indicator, r.racks[0] = "K3", list(SC.RACK_A)
    r.deal()
    with pytest.raises(RecordError) as e:
        r.next_hand()
    assert e.value.rule == "E1"
    for m in _moves():
        r.add(m)
    r.next_hand()
    _deal2(r)
    for m in FINISH_2:
        r.add(m)
    assert r.game_over
    with pytest.raises(RecordError) as e:
        r.next_hand()
    assert e.value.rule == "G1"


def test_the_deal_of_a_later_hand_is_checked_d1() -> None:
    r = _hand1()
    r.next_hand()
    r.indicator, r.racks[0] = "K3", list(SC.RACK_A)  # 22 tiles: seat 0 no longer starts (21, D1)
    with pytest.raises(RecordError) as e:
        r.deal()
    assert e.value.rule == "D1" and not r.dealt


def test_undo_goes_back_across_hands_and_the_file_form_keeps_the_game() -> None:
    r = _hand1()
    r.scores = [-101, 45, 202, 202]
    r.next_hand()
    _deal2(r)
    r.add(FINISH_2[0])
    back = Recording.from_dict(r.to_dict())  # a reload: the states are rebuilt from the events
    assert back.to_dict() == r.to_dict()
    assert back.state().racks[1] == r.state().racks[1] and len(back.states()) == 2
    assert back.undo()["type"] == "open"
    assert back.undo() == {"type": "hand"}
    back.indicator, back.racks = None, [[], [], [], []]
    assert back.undo() == {"type": "next_hand"}  # hand 1 is in progress again, at its end
    assert (back.hand, back.starter, back.over, back.done) == (1, 0, True, [])
    assert back.scores == [-101, 45, 202, 202]
    assert back.undo()["type"] == "discard" and not back.over


def test_the_saved_log_leaves_an_unfinished_hand_out() -> None:
    r = _hand1()
    r.next_hand()
    _deal2(r)
    r.add(FINISH_2[0])
    kept = r.log_events(unfinished=False)
    assert [e["hand"] for e in kept if e["type"] == "hand"] == [1]
    assert [e["hand"] for e in r.log_events() if e["type"] == "hand"] == [1, 2]


def test_declaring_pairs_is_needed_where_the_preset_says_so_o10() -> None:
    r = Recording("kayit-20260101-000002", variant="101-classic")
    r.indicator, r.racks[0] = "K3", list(SC.RACK_A)
    r.deal()
    r.add({"type": "discard", "seat": 0, "tile": "Y9"})
    r.add({"type": "draw", "seat": 1})
    pairs = [["Y10", "Y10"], ["Y11", "Y11"], ["Y12", "Y12"], ["Y13", "Y13"], ["K9", "K9"]]
    with pytest.raises(RecordError) as e:
        r.add({"type": "open", "seat": 1, "pairs": pairs})
    assert e.value.rule == "O10" and len(r.events) == 2
    r.add({"type": "declare", "seat": 1, "what": "pairs"})
    r.add({"type": "open", "seat": 1, "pairs": pairs})
    assert r.state().opened[1] is not None
    with pytest.raises(RecordError) as e:
        r.add({"type": "declare", "seat": 1, "what": "pairs"})
    assert e.value.rule == "O10"


def test_showing_the_gosterge_twin_is_checked_o7() -> None:
    r = Recording("kayit-20260101-000003")
    r.indicator, r.racks[0] = "K3", list(SC.RACK_A)
    r.deal()
    with pytest.raises(RecordError) as e:  # the viewer does not hold K3
        r.add({"type": "show", "seat": 0, "tile": "K3"})
    assert e.value.rule == "O7"
    r.add({"type": "show", "seat": 2, "tile": "K3"})  # a hidden seat shows the other copy
    assert r.state().shown[2]
    with pytest.raises(RecordError) as e:
        r.add({"type": "show", "seat": 2, "tile": "K3"})
    assert e.value.rule == "O7"
    c = Recording("kayit-20260101-000004", variant="101-classic")
    c.indicator, c.racks[0] = "K3", list(SC.RACK_A)
    c.deal()
    with pytest.raises(RecordError) as e:
        c.add({"type": "show", "seat": 2, "tile": "K3"})
    assert e.value.rule == "O7"
