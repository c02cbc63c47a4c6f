"""Key moments: per player the 3–5 costliest decisions of a reviewed game, in
order, ties in game order, each with its lesson in both languages; the HTML report starts with
them; the loss graph's points read from the same review."""

from __future__ import annotations

import re

import pytest

from analysis.review import Choice, Decision, GameReview, HandReview, Mistake, key_moments, render, review_game
from analysis.review.moments import MAX_MOMENTS, MIN_MOMENTS, MORE_OVER, candidates, pick


def _choice(step: int, cost: float, kind: str = "discard", forced: str | None = None, exp: float = 40.0) -> Choice:
    ev = [{"type": "discard", "seat": 0, "tile": "R7"}]
    best = [{"type": "discard", "seat": 0, "tile": "B3"}]
    return Choice(kind, step, step + 10, "R7", "B3", exp + cost, exp, 1.0, cost,
                  [{"move": "B3", "expected": exp, "se": 1.0, "n": 40, "events": best},
                   {"move": "R7", "expected": exp + cost, "se": 1.0, "n": 40, "events": ev, "played": True}],
                  ev, "worse_discard", None, 40, forced)


def _deep(costs_by_seat: dict[int, list[float]], hands: int = 1) -> GameReview:
    """A deep review whose seat s makes one discard decision per cost, in turn order."""
    hrs = []
    turn = 0
    for o in range(1, hands + 1):
        h = HandReview(o, o, "finish")
        for seat, costs in costs_by_seat.items():
            for i, c in enumerate(costs):
                step = 4 * i + seat
                h.decisions.append(Decision(o, o, seat, turn, step, step + 1, step + 10, "draw", None, False, {}, {},
                                            0, 0, [], [_choice(step, c)]))
                turn += 1
        hrs.append(h)
    return GameReview("km", "101", ["Ali", "Ayşe", "Can", "Zeynep"], hrs, depth="deep")


def _costs(ms: list) -> list[float]:
    return [m.cost for m in ms]


def test_key_moments_are_the_costliest_first_three_always_five_at_most() -> None:
    gr = _deep({0: [5, 200, 35, 10, 150, 90, 40, 20], 1: [50, 40, 30, 20, 10], 2: [12, 11, 10, 9, 8, 7]})
    per = key_moments(gr, "en")
    assert _costs(per[0]) == [200, 150, 90, 40, 35]  # the 4th and 5th cost a mistake's 30 or more
    assert _costs(per[1]) == [50, 40, 30]  # a 4th of 20 is under the floor
    assert _costs(per[2]) == [12, 11, 10]  # three always, when there are three
    assert per[3] == []
    for ms in per[:3]:
        assert MIN_MOMENTS <= len(ms) <= MAX_MOMENTS
        assert _costs(ms) == sorted(_costs(ms), reverse=True)


def test_a_fourth_moment_over_the_floor_is_kept_and_one_under_it_is_not() -> None:
    per = key_moments(_deep({0: [80, 70, 60, MORE_OVER, MORE_OVER - 1]}), "en")
    assert _costs(per[0]) == [80, 70, 60, MORE_OVER]


def test_ties_go_in_game_order_and_a_tie_with_the_last_kept_is_kept() -> None:
    gr = _deep({0: [50, 20, 20, 20, 20, 20, 20]}, hands=2)
    ms = key_moments(gr, "en")[0]
    assert _costs(ms) == [50, 50, 20, 20, 20]  # the tie with the third kept, up to five
    assert [(m.ord, m.step) for m in ms] == [(1, 0), (2, 0), (1, 4), (1, 8), (1, 12)]
    again = key_moments(gr, "en")[0]
    assert again == ms  # the same choice every time


def test_fewer_costly_decisions_give_fewer_moments_and_forced_or_free_ones_none() -> None:
    gr = _deep({0: [0, 0, 25, 0], 1: [0, 0]})
    gr.hands[0].decisions[0].choices = [_choice(0, 60, forced="single")]  # forced: not graded, never a moment
    per = key_moments(gr, "en")
    assert _costs(per[0]) == [25] and per[1] == []


def test_each_moment_has_its_lesson_and_replay_step_in_both_languages() -> None:
    gr = _deep({0: [90, 45, 31]})
    en, tr = key_moments(gr, "en")[0], key_moments(gr, "tr")[0]
    assert [m.step for m in en] == [m.step for m in tr] == [0, 4, 8]
    assert "B3" in en[0].lesson and "R7" in en[0].lesson and "instead of" in en[0].lesson
    assert "yerine" in tr[0].lesson
    assert en[0].severity == "mistake" and en[0].player == "Ali" and en[0].hand == 1
    with pytest.raises(ValueError, match="lang"):
        key_moments(gr, "de")


def test_a_quick_review_moment_is_a_turn_shown_at_its_costliest_finding() -> None:
    h = HandReview(1, 3, "finish")
    h.decisions.append(Decision(1, 3, 2, 7, 20, 24, 90, "draw", None, False, {}, {}, 0, 0,
                                [Mistake("missed_layoff", 2, 12, 21, 91), Mistake("okey_discard", 2, 40, 23, 93)]))
    h.decisions.append(Decision(1, 3, 2, 11, 30, 33, 99, "draw", None, False, {}, {}, 0, 0,
                                [Mistake("fed_opening", 2, 0, 31, 99)]))  # a note: no cost
    gr = GameReview("q", "101", ["a", "b", "c", "d"], [h])
    ms = key_moments(gr, "tr")[2]
    assert len(ms) == 1 and ms[0].cost == 52 and ms[0].step == 23 and ms[0].hand == 3 and ms[0].kind == "turn"
    assert ms[0].category == "okey_discard" and "X3" in ms[0].lesson
    assert "okey" in key_moments(gr, "en")[2][0].lesson
    assert len(candidates(gr)) == 1 and pick([]) == []


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    from analysis.game import read_and_replay
    from analysis.selfplay import GameSpec, Player, play_game

    spec = GameSpec("km-sim", (Player("Sol", "solver"), Player("Ran", "random"), Player("Gre", "greedy"),
                               Player("Rnd", "random")), "101", None, "7", "2026-10-07T20:00:00+00:00", hands=3)
    log = tmp_path_factory.mktemp("km") / "g.jsonl"
    log.write_text("".join(play_game(spec).lines()), encoding="utf-8")
    games, errors = read_and_replay(str(log), keep_steps=True)
    assert not errors
    return games[0], review_game(games[0])


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_the_report_starts_with_the_key_moments_and_links_each_to_its_decision(game: tuple, lang: str) -> None:
    res, gr = game
    per = key_moments(gr, lang)
    assert any(per), "the simulated game has no costly decision"
    page = render(res, gr, lang=lang)
    body = page[page.index("<body>"):]
    km = body.index('id="key-moments"')
    assert km < body.index("<table>") and km < body.index("<h2>", km + 40), "the key moments do not come first"
    section = body[km: body.index("</section>")]
    assert ("Önemli anlar" if lang == "tr" else "Key moments") in section
    links = re.findall(r'href="#(d-\d+-\d+-\w+)"', section)
    assert len(links) == sum(len(ms) for ms in per)
    for a in links:  # each moment links to its decision written out below
        assert f'id="{a}"' in body[body.index("</section>"):], a
    for ms in per:
        for m in ms:
            assert f'data-step="{m.step}"' in section


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_key_moment_under_the_reports_floor_is_still_written_out_for_its_link(game: tuple, lang: str) -> None:
    """``istaka report --min-cost N`` collapses decisions costing N or less into a closed list; a key
    moment's link must land on its decision written out, never inside that closed list."""
    res, _ = game
    gr = _deep({0: [50, 40, 30, 20], 1: [8]})  # hand 1 of the simulated game, seat 0 and 1 graded
    per = key_moments(gr, lang)
    assert [m.cost for m in per[1]] == [8]
    page = render(res, gr, lang=lang, min_cost=100)  # every cost is under the floor
    body = page[page.index("</section>"):]
    for ms in per:
        for m in ms:
            a = f'id="d-{m.ord}-{m.turn}-{m.kind}"'
            at = body.index(a)
            assert body[:at].endswith('<details class="dd" '), f"{m.cost}: not written out"
    closed = body[body.index('<details class="z">'):]
    assert closed.count("<li") == 1  # the 20 is no key moment (three costlier ones), so it stays collapsed
