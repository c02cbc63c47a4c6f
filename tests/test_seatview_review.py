"""Reviews of seat-view logs: only the viewing seat is graded, and its grades are the
full log's: the deep review of ``istaka view``'s cut gives that seat exactly the full log's
choices, costs and labels under the same seed (the cut names its full game in ``of``)."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import pytest

from analysis.game import read_file, replay_game
from analysis.game.cut import cut_view
from analysis.review import review_game
from analysis.review.deep import deep_review_game

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
FAST = 0.0  # the evaluator's minimum worlds: deterministic and quick


def _one_hand(g, seat=None):  # type: ignore[no-untyped-def]
    res = replay_game(g if seat is None else cut_view(g, seat), keep_steps=True)
    return replace(res, hands=res.hands[:1])


def _by_seat(gr, seat):  # type: ignore[no-untyped-def]
    return [asdict(d) for d in gr.decisions if d.seat == seat]


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return read_file(SAMPLE).games[0]


@pytest.fixture(scope="module")
def full_deep(game):  # type: ignore[no-untyped-def]
    return deep_review_game(_one_hand(game), budget=FAST)


@pytest.mark.parametrize("seat", [1, 2])
def test_deep_review_of_a_seat_view_grades_that_seat_exactly_as_the_full_log(game, full_deep, seat: int) -> None:
    view = _one_hand(game, seat)
    assert view.view == seat and view.game != game.id
    gr = deep_review_game(view, budget=FAST)
    mine = _by_seat(gr, seat)
    assert mine and {d.seat for d in gr.decisions} == {seat}  # the others are never graded
    assert sum(len(d["choices"]) for d in mine) > 5
    assert mine == _by_seat(full_deep, seat)


def test_quick_review_of_a_seat_view_grades_only_that_seat_as_the_full_log(game) -> None:
    full = review_game(replay_game(game, keep_steps=True))
    for seat in range(4):
        gr = review_game(replay_game(cut_view(game, seat), keep_steps=True))
        assert {d.seat for d in gr.decisions} == {seat}
        assert _by_seat(gr, seat) == _by_seat(full, seat)
