"""``istaka evaluate FILE --game ID --hand N --step K`` (issue 20, item 6): the decision of the seat
to move at the Replay page's step K, from that seat's view, every candidate priced on the same
fixed worlds, best first, the logged move marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.evaluate import candidates, decision_of, price
from analysis.game import read_file, replay_game
from analysis.players import View

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
GAME = "kahve-2026-09-07-1"


@pytest.fixture(scope="module")
def hand():  # type: ignore[no-untyped-def]
    g = next(x for x in read_file(SAMPLE).games if x.id == GAME)
    return replay_game(g, keep_steps=True).hands[0]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["evaluate", str(SAMPLE), "--game", GAME, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_discard_lists_every_legal_tile_best_first_and_marks_the_logged_one(hand, capsys) -> None:
    k = next(i for i in range(1, len(hand.steps)) if hand.steps[i + 1].event.get("type") == "discard"
             and hand.steps[i].state.turn_base is not None)
    j = _run(capsys, "--hand", str(hand.hand), "--step", str(k), "--worlds", "8")
    state = hand.steps[k].state
    logged = hand.steps[k + 1].event
    assert {"game", "hand", "step", "seat", "decision", "played", "candidates"} <= set(j)
    assert j["seat"] == state.turn == logged["seat"] and j["decision"] == "discard"
    assert j["played"] == [{"type": "discard", "tile": logged["tile"]}]
    cands = j["candidates"]
    assert [c["expected"] for c in cands] == sorted(c["expected"] for c in cands)
    assert all({"move", "expected", "se", "n"} <= set(c) and c["n"] == 8 for c in cands)
    assert [c["move"] for c in cands if c["played"]] == [j["played"]]
    view = View.of(state, state.turn)
    assert len(cands) == len(candidates(view, "discard"))


def test_the_prices_are_the_deep_reviews_fixed_world_prices(hand, capsys) -> None:
    k = next(i for i in range(1, len(hand.steps)) if hand.steps[i].state.phase == "draw"
             and hand.steps[i].state.opened[hand.steps[i].state.turn] is None)
    j = _run(capsys, "--hand", str(hand.hand), "--step", str(k), "--worlds", "8", "--seed", "7")
    state = hand.steps[k].state
    view = View.of(state, state.turn)
    assert j["decision"] == decision_of(view) == "draw"
    from analysis.review.deep import seat_knows

    want = price(view, candidates(view, "draw"), seed=f"{GAME}:{hand.hand}:{k}:7", worlds=8,
                 known=seat_knows(hand.steps, k, state.turn))
    assert sorted(c["expected"] for c in j["candidates"]) == sorted(round(e.mean, 2) for e in want)
    assert {c["move"][0]["type"] for c in j["candidates"]} <= {"draw", "take"}
    again = _run(capsys, "--hand", str(hand.hand), "--step", str(k), "--worlds", "8", "--seed", "7")
    assert again == j  # seeded: the same answer


def test_bad_arguments_are_one_line_errors(hand, capsys) -> None:
    assert main(["evaluate", str(SAMPLE), "--game", "nope", "--hand", "1", "--step", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 'nope'" in err
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", "99999"]) == 2
    assert "steps 0 to" in capsys.readouterr().err
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", "3", "--worlds", "0"]) == 2
    assert "--worlds" in capsys.readouterr().err
