"""``istaka evaluate FILE --game ID --hand N --step K [--kind KIND]``: a decision at the Replay page's
step K judged exactly as the deep review judges it (the same spots, candidates, worlds, seed and
knowledge), every legal candidate with the parts that add up to its price."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.evaluate import candidates
from analysis.game import read_file, replay_game
from analysis.players import View

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
GAME = "kahve-2026-09-07-1"


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    g = next(x for x in read_file(SAMPLE).games if x.id == GAME)
    return replay_game(g, keep_steps=True)


@pytest.fixture(scope="module")
def hand(game):  # type: ignore[no-untyped-def]
    return game.hands[0]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["evaluate", str(SAMPLE), "--game", GAME, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_discard_lists_every_legal_tile_best_first_and_marks_the_logged_one(hand, capsys) -> None:
    k = next(i for i in range(1, len(hand.steps)) if hand.steps[i + 1].event.get("type") == "discard"
             and hand.steps[i].state.turn_base is not None)
    j = _run(capsys, "--hand", str(hand.hand), "--step", str(k), "--kind", "discard", "--worlds", "8")
    state = hand.steps[k].state
    logged = hand.steps[k + 1].event
    assert {"game", "hand", "step", "seat", "decision", "played", "candidates", "rack", "cost_parts"} <= set(j)
    assert j["seat"] == state.turn == logged["seat"] and j["decision"] == "discard"
    assert j["played"] == [{"type": "discard", "tile": logged["tile"]}]
    cands = j["candidates"]
    assert cands[0]["expected"] == min(c["expected"] for c in cands)  # the best first
    assert all({"move", "expected", "se", "n", "parts", "rates", "diff", "ci"} <= set(c) for c in cands)
    assert all(c["n"] in (8, 24) for c in cands)  # the pricing worlds; a charged cost's contenders on the 3x after them
    assert [c["move"] for c in cands if c["played"]] == [j["played"]]
    view = View.of(state, state.turn)
    assert len(cands) == len(candidates(view, "discard"))
    for c in cands:  # the parts add up to the price
        assert sum(c["parts"].values()) == pytest.approx(c["expected"], abs=0.05)
    assert sum(j["cost_parts"].values()) == pytest.approx(
        next(c["expected"] for c in cands if c["played"]) - cands[0]["expected"], abs=0.1)


def test_the_verdict_equals_the_deep_reviews_stored_choice(game, hand, capsys) -> None:
    """At the review's worlds and seed, ``istaka evaluate`` prints the deep review's own verdict."""
    from analysis.review.deep import deep_review_hand

    rv = deep_review_hand(game.game, hand, 1, worlds=8)
    choices = [c for d in rv.decisions for c in d.choices if c.graded][:12]
    assert len(choices) >= 6
    for c in choices:
        j = _run(capsys, "--hand", str(hand.hand), "--step", str(c.step), "--kind", c.kind, "--worlds", "8")
        assert j["best"] == c.best and j["cost"] == round(c.cost, 2)
        assert [x["expected"] for x in j["candidates"]] == [x["expected"] for x in c.candidates]
    again = _run(capsys, "--hand", str(hand.hand), "--step", str(choices[0].step), "--kind", choices[0].kind,
                 "--worlds", "8")
    assert again["candidates"] == _run(capsys, "--hand", str(hand.hand), "--step", str(choices[0].step), "--kind",
                                       choices[0].kind, "--worlds", "8")["candidates"]  # seeded: the same answer
    other = _run(capsys, "--hand", str(hand.hand), "--step", str(choices[0].step), "--kind", choices[0].kind,
                 "--worlds", "8", "--salt", "x")
    assert other["candidates"] != again["candidates"]  # other worlds


def test_a_discard_after_placing_nothing_is_reachable_beside_the_wait(game, capsys) -> None:
    """A turn that placed nothing decides twice at the same step: the placing (wait) and the
    discard; ``--kind`` reaches both, the first by default."""
    from analysis.review.spots import spots_at

    hr, k = next((h, i) for h in game.hands for i in range(len(h.steps))
                 if [s.kind for s in spots_at(h, i)] == ["place", "discard"])
    first = _run(capsys, "--hand", str(hr.hand), "--step", str(k), "--worlds", "8")
    disc = _run(capsys, "--hand", str(hr.hand), "--step", str(k), "--worlds", "8", "--kind", "discard")
    assert first["decision"] == "place" and disc["decision"] == "discard"
    assert first["decisions_here"] == disc["decisions_here"] == ["place", "discard"]
    assert all(c["move"][0]["type"] == "discard" for c in disc["candidates"])


def test_the_indicator_twin_shown_at_the_deal_is_graded_O7(capsys) -> None:
    """O7 at the deal: the seat that showed the twin before its first draw is judged at step 0."""
    g = next(x for x in read_file(SAMPLE).games if x.id == "kahve-2026-10-12-55")
    hr = replay_game(g, keep_steps=True).hands[0]
    assert hr.steps[1].event.get("type") == "show"
    assert main(["evaluate", str(SAMPLE), "--game", g.id, "--hand", "1", "--step", "0", "--worlds", "8",
                 "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["decision"] == "show" and {c["label"] for c in j["candidates"]} == {"show", "no show"}
    assert j["forced"] is None


def test_bad_arguments_are_one_line_errors(hand, capsys) -> None:
    assert main(["evaluate", str(SAMPLE), "--game", "nope", "--hand", "1", "--step", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 'nope'" in err
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", "99999"]) == 2
    assert "steps 0 to" in capsys.readouterr().err
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", "3", "--worlds", "0"]) == 2
    assert "--worlds" in capsys.readouterr().err
    k = next(i for i in range(1, len(hand.steps)) if hand.steps[i].state.phase == "draw")
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", str(k), "--kind", "discard"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no discard decision" in err and "take" in err
    assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", "1", "--step", str(k), "--kind", "declare"]) == 2
    assert "O10" in capsys.readouterr().err
