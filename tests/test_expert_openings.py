"""The expert and the judge find every opening the exact search finds (O1, O2, L6, P2).

The quick finder reads the rack alone; asked first, it kept the exact search from positions whose
opening lays tiles off onto the table's melds or that its partition undervalues. The ``solver`` bot
keeps that gate (the sample's games are its own); the expert's placings and takes and the
evaluator's candidates ask the exact search every time.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from analysis.evaluate import ExpertBot, candidates, evaluate
from analysis.game import HandResult, apply, read_file, replay_game
from analysis.players import View, opening_plans

SAMPLE = "data/sample/games.jsonl.gz"
GAME = "kahve-2026-09-13-9"  # hand 5: seat 1 (a solver bot) could open at steps 34, 44 and 54 and waited


@cache
def _hand(game: str, hand: int) -> HandResult:
    g = next(g for g in read_file(SAMPLE).games if replay_game(g).game == game)
    return replay_game(g, keep_steps=True).hands[hand - 1]


def _view(step: int, seat: int) -> View:
    st = _hand(GAME, 5).steps[step].state
    assert st.turn == seat and st.phase == "play" and st.opened[seat] is None
    return View.of(st, seat)


@pytest.mark.parametrize("step", [34, 44, 54])
def test_the_quick_gate_misses_an_opening_the_exact_search_finds_O1(step: int) -> None:
    v = _view(step, 1)
    gated, _ = opening_plans(v, None)
    exact, _ = opening_plans(v, None, exact=True)
    assert not gated.reaches  # the solver bot waited here
    assert exact.reaches and exact.value >= v.points_threshold()


def test_the_evaluator_offers_that_opening_and_it_is_legal() -> None:
    v = _view(34, 1)
    opens = [c for c in candidates(v, "place") if c.label.startswith("open ")]
    assert opens, "the judge must weigh the opening the exact search finds"
    st = v.state
    for e in opens[0].events:
        st = apply(st, dict(e))
    assert st.opened[1] is not None and st.opened[1].kind == "points"


def test_the_expert_opens_where_the_solver_bot_waited() -> None:
    v = _view(34, 1)
    moves = ExpertBot(random.Random(0)).place(v)
    assert moves and moves[0]["type"] == "open" and "melds" in moves[0]


def test_the_expert_takes_a_discard_that_opens_only_by_the_exact_search_P2() -> None:
    """Hand 7 of the first sample game, step 57: K11 opens seat 0's rack, but only by the exact
    search. Taking it is worth about 250 points against drawing, and the expert, which used to
    refuse the take unweighed (P2: no opening would use it), takes it."""
    st = _hand("kahve-2026-09-07-1", 7).steps[57].state
    v = View.of(st, 0)
    t = v.takeable()
    assert st.phase == "draw" and st.turn == 0 and str(t) == "K11"
    assert not opening_plans(v, t)[0].reaches and opening_plans(v, t, exact=True)[0].reaches
    cs = [c for c in candidates(v, "draw") if c.kind in ("draw", "take")]
    draw, take = (e.mean for e in evaluate(v, cs, seed=1, worlds=64))
    assert take < draw - 100
    assert ExpertBot(random.Random(0)).take(v)
