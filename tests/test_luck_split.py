"""The luck and skill split of a seat's hand (analysis/review/luck.py): a hand worked by hand, the
sum identity over every hand of the sample, the draws' luck unbiased over simulated hands, and one
hand split with the evaluator itself."""

from __future__ import annotations

import glob
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import pytest

from analysis.game import HandResult, HandState, Tile, replay_game
from analysis.game.log import read_lines
from analysis.game.replay import read_and_replay
from analysis.review.luck import (Decided, HandSplit, QuickValues, draw_odds, mean_ci, skill_line, skill_summary,
                                  split_game, split_hand)
from analysis.review.spots import Spot, hand_spots
from analysis.selfplay.simulate import play_game, specs

SAMPLE = sorted(glob.glob("data/sample/*.jsonl.gz"))


@lru_cache(maxsize=1)
def sample_games() -> tuple:
    out = []
    for f in SAMPLE:
        games, errors = read_and_replay(f, keep_steps=True)
        assert not errors, f
        out += games
    return tuple(out)


def _num(t: Tile, okey: Tile) -> int:
    return 0 if t == okey else (okey.number if t.is_joker else t.number)


# ---- a hand worked by hand -----------------------------------------------------------------------


class Scripted:
    """A value function whose every value is set by the test: the deal 100, each decision's value
    before it 100 + its index, a discard costing 2 of which 1.5 is charged (0.5 left as noise),
    each draw's outcomes 50 but the drawn tile 30."""

    name = "scripted"

    def __init__(self) -> None:
        self.seen: list[Spot] = []

    def position(self, state: HandState, seat: int, *, seed: str, known: Mapping[int, Sequence[Tile]],
                 discard: bool = False) -> float:
        return 100.0

    def decision(self, hr: HandResult, spot: Spot, *, seed: str, known: Mapping[int, Sequence[Tile]]) -> Decided:
        self.seen.append(spot)
        before = 100.0 + len(self.seen)
        if spot.kind == "discard":
            return Decided(before, before + 2.0, 1.5, "played", "best")
        return Decided(before, before, 0.0, "played", "played")

    def draws(self, before: HandState, after: HandState, seat: int, *, seed: str,
              known: Mapping[int, Sequence[Tile]]) -> tuple[dict[Tile, float], dict[Tile, float]]:
        odds = draw_odds(before, seat, known)
        drawn = [t for t in after.racks[seat] if list(after.racks[seat]).count(t) > list(before.racks[seat]).count(t)]
        return {t: (30.0 if t in drawn else 50.0) for t in odds}, odds

    def baseline(self, state: HandState, seat: int) -> float:
        return 90.0


def test_a_hand_worked_by_hand() -> None:
    g = sample_games()[0]
    hr = g.hands[0]
    seat = 1
    vals = Scripted()
    sp = split_hand(g, 0, seat, values=vals)
    spots = [s for turn in hand_spots(hr, frozenset((seat,))) for s in turn]
    assert vals.seen == spots  # every decision of the seat, in order, and only its own
    assert sp.deal == 100.0 and sp.baseline == 90.0 and sp.deal_luck == 10.0
    # each decision: 0 for take/place/show, 1.5 for a discard, its leftover 0.5 as noise
    assert [d.points for d in sp.decisions] == [1.5 if s.kind == "discard" else 0.0 for s in spots]
    dec_noise = [n.points for n in sp.noise_parts if n.at.startswith("decision")]
    assert dec_noise == [0.5] * sum(s.kind == "discard" for s in spots)
    # the first decision is after the others' play from the deal: luck = 101 - 100
    first = sp.luck[0]
    assert first.kind == "play" and first.points == pytest.approx(1.0) and first.expected == 100.0
    # each own draw: observed 30 against an expectation of 30 p + 50 (1 - p), p the drawn tile's chance
    draws = [e for e in sp.luck if e.kind == "draw"]
    assert draws, "the seat drew at least once"
    for e in draws:
        step = e.step
        b = hr.steps[step - 1].state
        t = Tile.parse(e.tile)
        from analysis.review.spots import known, taken_held
        p = draw_odds(b, seat, known(taken_held(hr.steps), step, seat))[t]
        assert e.observed == 30.0
        assert e.expected == pytest.approx(30.0 * p + 50.0 * (1 - p))
        assert e.points == pytest.approx(-20.0 * (1 - p))
    # the hand's end: the actual score less the value after the last decision
    last = sp.luck[-1]
    assert last.kind == "end" and last.observed == sp.actual
    assert last.points == pytest.approx(sp.actual - last.expected)
    assert abs(sp.residual()) < 1e-9
    assert sp.adjusted == pytest.approx(sp.actual - sp.luck_total)
    assert sp.skill == pytest.approx(-1.5 * sum(s.kind == "discard" for s in spots))


def test_quick_values_by_hand() -> None:
    """With the rack-points value function a draw's luck is the drawn tile's number less the mean
    number of the tiles the seat could have drawn, and a discard's cost is the highest tile's
    number less the discarded one's."""
    g = sample_games()[0]
    hr = g.hands[0]
    seat = 2
    sp = split_hand(g, 0, seat, values=QuickValues())
    okey = hr.steps[0].state.okey
    for e in (x for x in sp.luck if x.kind == "draw"):
        b = hr.steps[e.step - 1].state
        from analysis.review.spots import known, taken_held
        odds = draw_odds(b, seat, known(taken_held(hr.steps), e.step, seat))
        mean = sum(p * _num(t, okey) for t, p in odds.items())
        assert e.points == pytest.approx(_num(Tile.parse(e.tile), okey) - mean)
    spots = {(s.step, s.kind): s for turn in hand_spots(hr, frozenset((seat,))) for s in turn}
    for d in sp.decisions:
        if d.kind != "discard":
            continue
        rack = hr.steps[d.step].state.racks[seat]
        t = Tile.parse(spots[(d.step, "discard")].played[0]["tile"])
        assert d.points == pytest.approx(max(_num(x, okey) for x in rack) - _num(t, okey))
    assert abs(sp.residual()) < 1e-9


# ---- the sum identity over the sample ------------------------------------------------------------


def test_parts_add_up_on_every_hand_of_the_sample() -> None:
    n = 0
    for g in sample_games():
        for sp in split_game(g, values=QuickValues()):
            total = sp.deal + sum(e.points for e in sp.luck) + sum(d.points for d in sp.decisions) + sp.noise
            assert abs(total - sp.actual) < 0.01, (g.game, sp.hand, sp.seat)
            assert abs(sum(p.points for p in sp.noise_parts) - sp.noise) < 1e-6
            assert sp.adjusted == pytest.approx(sp.actual - sp.luck_total)
            n += 1
    assert n > 1500  # every seat of every ended hand (a seat-view log: its viewer alone)


def test_a_seat_view_log_splits_its_viewer_only() -> None:
    views = [g for g in sample_games() if g.view is not None]
    assert views
    for g in views:
        got = split_game(g, values=QuickValues())
        assert got and {s.seat for s in got} == {g.view}
        other = (g.view + 1) % 4
        with pytest.raises(ValueError, match="hidden"):
            split_hand(g, 0, other, values=QuickValues())


def test_bad_hand_index_is_one_error() -> None:
    g = sample_games()[0]
    with pytest.raises(ValueError, match="out of range"):
        split_hand(g, 99, 0, values=QuickValues())


# ---- unbiasedness --------------------------------------------------------------------------------


def test_draw_luck_averages_to_zero_over_simulated_hands() -> None:
    """The draws' luck terms are v(drawn) - E[v(draw)] with the expectation over the tiles the seat
    could draw: over many simulated hands their mean is 0 within its interval, though the value
    function (rack points) is a poor estimate of the score."""
    lines: list[str] = []
    for spec in specs(40, seed="luck-unbiased", hands=2):
        lines += play_game(spec).lines()
    res = read_lines(lines)
    terms: list[float] = []
    for gl in res.games:
        g = replay_game(gl, keep_steps=True)
        for sp in split_game(g, values=QuickValues()):
            terms += [e.points for e in sp.luck if e.kind == "draw"]
    assert len(terms) > 1000
    m, lo, hi = mean_ci(terms)
    # 99.9% (3.3 standard errors), so a sound construction fails about once in a thousand runs
    half = (hi - lo) / 2 / 1.96 * 3.3
    assert abs(m) < half, (m, half)
    # and the same terms with a biased expectation (the drawn tile's value left out) do not
    # average to zero: the test can fail
    biased = [t + 0.5 for t in terms]
    assert abs(mean_ci(biased)[0]) > half


# ---- the skill line ------------------------------------------------------------------------------


def test_skill_line_runs_over_games_with_intervals() -> None:
    splits: list[HandSplit] = []
    for g in sample_games()[:6]:
        splits += [s for s in split_game(g, values=QuickValues()) if s.seat == 0]
    line = skill_line(splits)
    assert [p.game for p in line] == list(dict.fromkeys(s.game for s in splits))
    assert line[-1].total_hands == len(splits)
    assert line[-1].low <= line[-1].mean <= line[-1].high
    m, lo, hi = mean_ci([s.adjusted for s in splits])
    assert line[-1].mean == pytest.approx(m) and line[-1].low == pytest.approx(lo)
    summary = skill_summary(splits)
    assert summary["hands"] == len(splits) and summary["adjusted"]["mean"] == round(m, 2)
    assert math.isclose(summary["raw"]["mean"], round(sum(s.actual for s in splits) / len(splits), 2))


# ---- with the evaluator ----------------------------------------------------------------------------


def test_one_hand_with_the_evaluator() -> None:
    from analysis.evaluate import fast
    if fast.COMPILED is None:
        pytest.skip("the compiled rollout is not built")
    g = sample_games()[0]
    sp = split_hand(g, 0, 1, worlds=8)
    assert abs(sp.residual()) < 1e-9
    assert {e.kind for e in sp.luck} >= {"play", "draw", "end"}
    assert all(d.points >= 0 for d in sp.decisions)
    # sampled draws: the expectation is the value the draw was chosen at, the observation the next one's
    draws = [e for e in sp.luck if e.kind == "draw"]
    assert draws and all(e.outcomes == 0 and e.tile for e in draws)
    assert not [n for n in sp.noise_parts if n.at == "draw"]
    again = split_hand(g, 0, 1, worlds=8)
    assert again.to_dict() == sp.to_dict()  # fixed seeds: the same split
    assert HandSplit.from_dict(sp.to_dict()).adjusted == pytest.approx(sp.adjusted, abs=1e-3)
    # enumerated draws: every tile the seat could have drawn, the drawn one among them
    en = split_hand(g, 0, 1, worlds=8, draws="enumerate", draw_worlds=4)
    assert abs(en.residual()) < 1e-9
    assert all(e.outcomes > 10 for e in en.luck if e.kind == "draw")
    assert [e.tile for e in en.luck if e.kind == "draw"] == [e.tile for e in draws]
    # the best-candidate anchor leaves no noise at a decision; the policy's puts the gap there
    assert not [n for n in sp.noise_parts if n.at.startswith("decision")]
    pol = split_hand(g, 0, 1, worlds=8, anchor="policy")
    assert abs(pol.residual()) < 1e-9 and pol.actual == sp.actual
    assert [d.points for d in pol.decisions] == [d.points for d in sp.decisions]  # the same costs
    assert [n for n in pol.noise_parts if n.at.startswith("decision")]


# ---- the command line ----------------------------------------------------------------------------


def test_istaka_profile_prints_the_skill_line(tmp_path, capsys) -> None:
    import json

    from analysis.cli import main

    db = str(tmp_path / "p.duckdb")
    assert main(["import", "data/sample/games.jsonl.gz", "--db", db]) == 0
    capsys.readouterr()
    assert main(["profile", "Emre", "--db", db, "--variant", "101", "--quick", "--json"]) == 0
    prof = json.loads(capsys.readouterr().out)
    sk = prof["skill"]
    assert prof["player"] == "Emre" and sk["hands"] > 50 and sk["games"] >= 5
    assert sk["adjusted"]["low"] <= sk["adjusted"]["mean"] <= sk["adjusted"]["high"]
    assert all(s["player"] == "Emre" and s["variant"] == "101" for s in prof["splits"])
    raw = [s["actual"] for s in prof["splits"]]
    assert sk["raw"]["mean"] == round(sum(raw) / len(raw), 2)
    assert main(["profile", "Emre", "--db", db, "--variant", "101", "--quick", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted points per hand" in text and "raw points per hand" in text and "95%" in text
    assert main(["profile", "Nobody", "--db", db]) == 2
    assert "no player 'Nobody'" in capsys.readouterr().err
    assert main(["profile", "Emre", "--db", db, "--variant", "nope"]) == 2


def test_the_html_report_shows_the_split_of_each_hand(tmp_path) -> None:
    import re

    from analysis.cli import main
    from analysis.review import render, review_game

    g = next(x for x in sample_games() if x.view is not None)
    splits = split_game(g, values=QuickValues())
    for lang, head in (("en", "Luck and skill, hand by hand"), ("tr", "Şans ve beceri, el el")):
        page = render(g, review_game(g), lang=lang, luck=splits)
        assert head in page
        rows = re.findall(r'<tr data-hand="(\d+)" data-seat="(\d)">(.*?)</tr>', page)
        assert [(int(h), int(s)) for h, s, _ in rows] == [(s.hand, s.seat) for s in splits]
        for (_, _, cells), s in zip(rows, splits):
            nums = [float(x.replace(",", ".")) for x in re.findall(r"<td>(?:<b>)?(-?[\d.,]+)", cells)[1:]]
            assert nums == [round(v, 1) for v in (s.deal, s.luck_total - s.deal_luck, s.cost, s.noise, s.actual,
                                                  s.adjusted)]
    assert 'id="luck"' not in render(g, review_game(g), lang="en")  # only when asked
    out = tmp_path / "r.html"
    log = next(f for f in SAMPLE if "view-101" in f)
    gid = next(x.game for x in sample_games() if x.view is not None and "101" == x.variant)
    assert main(["report", gid, "--log", log, "--out", str(out), "--luck", "--lang", "en"]) == 0
    assert out.read_text(encoding="utf-8").count('<tr data-hand="') == 3
