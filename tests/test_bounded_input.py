"""Bounded memory and caps at the reader: hostile input that each rule alone allows."""

from __future__ import annotations

from hostile_logs import takeback_flood

from analysis.game.log import read_lines
from analysis.game.replay import replay_game


def test_a_second_takeback_in_one_turn_is_refused_so_steps_stay_bounded_O6() -> None:
    r = read_lines(takeback_flood(300).splitlines())
    hand = replay_game(r.games[0], keep_steps=True).hands[0]
    assert hand.result == "invalid"
    assert hand.error is not None and hand.error["rule"] == "O6" and hand.error["line"] == 6
    assert "one takeback" in hand.error["message"]
    assert len(hand.steps) <= 4  # open, takeback, open: not 600 states each holding the last's table


def test_one_takeback_a_turn_is_still_legal_O6() -> None:
    r = read_lines(takeback_flood(1).splitlines())
    hand = replay_game(r.games[0], keep_steps=True).hands[0]
    assert hand.error is None, hand.error
