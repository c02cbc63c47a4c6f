"""Fixed, honest pricing of the deep review: a decision is priced on a fixed, seeded set
of worlds drawn apart from the ranking pass, never stopped early; a cost is charged only when its
paired interval excludes zero; forced decisions are recorded and never graded; the recommended
move is never one the pricing worlds show worse than a third candidate.

Crafted hands use tests/golden/builder.py, `101` with indicator Y6 (okey Y7)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from golden.build import KIT1, tiles_of
from golden.builder import LogFile

from analysis.evaluate import Evaluation, candidates, core, draw_candidate, evaluate, price, take_candidate
from analysis.game import HandState, Tile, read_file, replay_game
from analysis.players import View
from analysis.review import Choice, Decision, GameReview, HandReview
from analysis.review.deep import CONFIRM, grade_decision

W = 16  # pricing worlds in these tests: every rule below holds at any number


def replayed_state(f: LogFile, tmp_path: Path, line: int) -> HandState:
    p = tmp_path / "t.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    res = replay_game(read_file(p).games[0], keep_steps=True)
    assert res.valid, [h.error for h in res.hands]
    steps = res.hands[0].steps
    return steps[next(i for i, s in enumerate(steps) if s.line == line) - 1].state


def take_to_finish(tmp_path: Path) -> HandState:
    """Seat 1, opened with KIT1, holds R11 R12 Y1 and may take R13: taking it finishes."""
    f = LogFile()
    g = f.game("price-take", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "R13 *", 1: tiles_of(KIT1) + " R11 R12 Y1", 2: "*", 3: "*"},
               seed=12)
    h.discard(0, next(t for t in h.rack(0) if t != "R13"))
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, h.last_drawn)
    h.cycle([2, 3])
    h.draw(0)
    h.discard(0, "R13")
    line = h.take(1, "R13")
    return replayed_state(f, tmp_path, line)


DRAW = [{"type": "draw", "seat": 1}]


def test_a_decision_priced_twice_with_the_same_seed_gives_the_same_cost(tmp_path: Path, monkeypatch: Any) -> None:
    # the confirmation mechanism on worlds where this cost passes the screen: uniform ones (the
    # belief's resampled worlds price this take within its interval on W worlds)
    monkeypatch.setattr(core, "BELIEF", "uniform")
    state = take_to_finish(tmp_path)
    one = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    two = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert one is not None and one.to_dict() == two.to_dict()
    # screened on W, priced again on 4W and charged on the 3W after the screen's
    assert one.worlds == (CONFIRM - 1) * W and one.cost > 0 and one.ci is not None


def test_every_candidate_is_priced_on_the_same_worlds_with_no_ranking_screen(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every legal candidate is priced on the same fixed worlds (no screen of a few worlds decides
    which ones are priced); a cost that passes is priced again on CONFIRM times the worlds, the
    first ones included, for the played move and the contenders for best, and shown on the worlds
    after the screen's (on uniform worlds, where this cost passes the screen on W)."""
    import analysis.review.deep as deep

    monkeypatch.setattr(core, "BELIEF", "uniform")
    state = take_to_finish(tmp_path)
    calls: list[tuple[int, int]] = []
    real = deep.price

    def spy(view, cands, **k):  # type: ignore[no-untyped-def]
        calls.append((len(cands), k["worlds"]))
        return real(view, cands, **k)

    monkeypatch.setattr(deep, "price", spy)
    c = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert c is not None and c.cost > 0
    assert calls[0] == (2, W) and calls[1] == (2, CONFIRM * W)  # draw and take, on W then on 4W
    assert all(x["n"] == (CONFIRM - 1) * W for x in c.candidates)


def test_a_discard_prices_every_legal_discard_and_its_parts_add_up() -> None:
    """Every distinct tile the seat may discard is a priced candidate (none left out by a screen),
    and each candidate's parts (the hand-end score, the penalties by rule) add up to its price."""
    from analysis.game import read_and_replay
    from analysis.review.spots import hand_spots

    sample = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
    hr = read_and_replay(str(sample), keep_steps=True)[0][0].hands[0]
    spot = next(s for turn in hand_spots(hr) for s in turn if s.kind == "discard" and s.step > 20)
    state = hr.steps[spot.step].state
    view = View.of(state, spot.seat)
    legal = {str(t) for t in view.rack if view.legal({"type": "discard", "seat": spot.seat, "tile": str(t)}) is not None}
    c = grade_decision(state, spot.seat, "discard", list(spot.played), seed="s", worlds=W)
    assert c is not None and len(legal) > 3
    assert {x["events"][0]["tile"] for x in c.candidates} == legal
    for x in c.candidates:
        assert sum(x["parts"].values()) == pytest.approx(x["expected"], abs=0.05)
        assert set(x["rates"]) == {"finish", "next_opens", "next_finishes"}


def test_pricing_plays_every_candidate_in_every_world_where_the_ranking_pass_stops(tmp_path: Path) -> None:
    state = take_to_finish(tmp_path)
    view = View.of(state, 1)
    cands = [draw_candidate(1), take_candidate(1, Tile.parse("R13"))]
    ranked = evaluate(view, cands, seed="s", worlds=40)
    assert min(e.n for e in ranked) < 40  # the ranking pass drops the clear loser early
    priced = price(view, cands, seed="s", worlds=40)
    assert [e.n for e in priced] == [40, 40]
    assert price(view, cands, seed="s", worlds=40) == priced  # seeded: the same worlds again


def test_pricing_plays_the_same_model_as_the_ranking_pass(tmp_path: Path) -> None:
    """The compiled model prices where it is built (price() once played the Python reference
    model while evaluate() ranked on the compiled one): each world's value is the compiled
    model's on the same seeded worlds."""
    import random

    from analysis.evaluate import fast
    from analysis.evaluate.core import sample_world, unseen_tiles

    if fast.COMPILED is None:
        pytest.skip("the compiled rollout model is not built")
    state = take_to_finish(tmp_path)
    view = View.of(state, 1)
    cands = [draw_candidate(1), take_candidate(1, Tile.parse("R13"))]
    priced = price(view, cands, seed="s", worlds=W, belief="uniform")  # the worlds rebuilt below are uniform
    pos = fast.Position(view.state, view.seat)
    rng = random.Random("price:s")
    unseen, pinned = unseen_tiles(view)
    want: list[list[int]] = [[], []]
    for _ in range(W):
        racks, deck = sample_world(view, unseen, pinned, rng)
        world = pos.world(racks, deck)
        for i, c in enumerate(cands):
            want[i].append(pos.value(world, c.kind, c.events, None))
    assert [list(e.values) for e in priced] == want
    assert price(view, cands, seed="s", worlds=W, model="compiled", belief="uniform") == priced
    assert [e.n for e in price(view, cands, seed="s", worlds=W, model="python")] == [W, W]  # the reference still runs


def _ev(c, values):  # type: ignore[no-untyped-def]
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1))
    return Evaluation(c, m, sd / math.sqrt(n), n, tuple(values))


def test_a_cost_whose_interval_goes_through_zero_is_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import analysis.review.deep as deep

    state = take_to_finish(tmp_path)
    noisy = [0, 100, 0, 100] * 4  # played - best: +50 / -50 alternating around a mean of +10
    best = [40, 40, 40, 40] * 4

    def fake(view, cands, *, seed, worlds, known, start=(), **_):  # type: ignore[no-untyped-def]
        vals = {"take": best, "draw": [b + d - 40 for b, d in zip(best, noisy)]}
        return [_ev(c, vals[c.kind]) for c in cands]

    monkeypatch.setattr(deep, "price", fake)
    c = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert c is not None and c.expected_played - c.expected_best == pytest.approx(10.0)
    assert c.ci is not None and c.ci > 10 and c.cost == 0  # 10 ± 26: not charged

    def clear(view, cands, *, seed, worlds, known, start=(), **_):  # type: ignore[no-untyped-def]
        vals = {"take": [40] * worlds, "draw": [70 + (i % 2) for i in range(worlds)]}
        return [_ev(x, vals[x.kind]) for x in cands]

    monkeypatch.setattr(deep, "price", clear)
    c = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert c is not None and c.cost == pytest.approx(30.5) and 0 < c.ci < c.cost


def test_a_cost_is_charged_at_the_price_of_the_confirming_worlds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Screened on W worlds, a cost is priced again on CONFIRM * W and charged only if its interval
    excludes zero on the worlds after the screen's, at their price: a screen's lucky noise is not
    what gets charged, nor any part of it."""
    import analysis.review.deep as deep

    state = take_to_finish(tmp_path)
    best = [40] * (CONFIRM * W)
    calls: list[int] = []

    def screen_then(confirmed):  # type: ignore[no-untyped-def]
        def fake(view, cands, *, seed, worlds, known, start=(), **_):  # type: ignore[no-untyped-def]
            calls.append(worlds)
            played = [70 + (i % 2) for i in range(worlds)] if worlds == W else confirmed
            return [_ev(c, (best[:worlds] if c.kind == "take" else played)) for c in cands]
        return fake

    monkeypatch.setattr(deep, "price", screen_then([40 + (60 if i % 4 == 0 else -10) for i in range(CONFIRM * W)]))
    c = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert calls == [W, CONFIRM * W]  # 30.5 on the screen, 7.5 ± 15.5 on the confirming worlds
    assert c is not None and c.cost == 0 and c.worlds == (CONFIRM - 1) * W
    assert c.expected_played - c.expected_best == pytest.approx(7.5)

    calls.clear()
    monkeypatch.setattr(deep, "price", screen_then([40 + 12 + (i % 2) for i in range(CONFIRM * W)]))
    c = grade_decision(state, 1, "take", DRAW, seed="s", budget=0.0, worlds=W)
    assert calls == [W, CONFIRM * W] and c is not None and c.cost == pytest.approx(12.5)  # not the screen's 30.5


def test_the_confirming_worlds_begin_with_the_screening_worlds(tmp_path: Path) -> None:
    state = take_to_finish(tmp_path)
    view = View.of(state, 1)
    cands = [draw_candidate(1), take_candidate(1, Tile.parse("R13"))]
    short, long = price(view, cands, seed="s", worlds=W), price(view, cands, seed="s", worlds=CONFIRM * W)
    assert [e.values for e in short] == [e.values[:W] for e in long]
    # the deep pass extends the screen's prices: only the worlds after the first W are played
    assert price(view, cands, seed="s", worlds=CONFIRM * W, start=short) == long
    with pytest.raises(ValueError, match="same candidates"):
        price(view, cands[::-1], seed="s", worlds=CONFIRM * W, start=short)


def test_a_discard_that_cannot_be_kept_is_forced_and_not_graded(tmp_path: Path) -> None:
    """Seat 2, unopened, may take seat 1's Y1: nothing it holds opens with it (P2), so take = draw."""
    f = LogFile()
    g = f.game("price-forced", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "*", 1: tiles_of(KIT1) + " Y1 Y13 R12", 2: "*", 3: "*"},
               seed=11)
    h.discard(0, h.rack(0)[0])
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    line = h.draw(2)
    state = replayed_state(f, tmp_path, line)
    view = View.of(state, 2)
    assert [c.kind for c in candidates(view, "draw")] == ["draw", "take"]  # the take is legal...
    c = grade_decision(state, 2, "take", [{"type": "draw", "seat": 2}], seed="s", budget=0.0, worlds=W)
    assert c is not None and c.forced == "take_returned" and c.cost == 0 and not c.graded  # ...and pointless


def test_forced_decisions_are_left_out_of_accuracy_and_decision_counts() -> None:
    graded = Choice("discard", 5, 9, "discard K3", "discard R2", 60.0, 20.0, 5.0, 40.0, [], [], ci=10.0, worlds=W)
    forced = [Choice("take", 3, 8, "draw", "draw", 0.0, 0.0, 0.0, 0.0, [], [], forced="take_returned"),
              Choice("place", 4, 8, "wait", "wait", 0.0, 0.0, 0.0, 0.0, [], [], forced="single")]
    d = Decision(1, 1, 0, 0, 4, 6, 8, "draw", None, False, {}, {}, 202, 202, [], [*forced, graded])
    gr = GameReview("g", "101", ["A", "B", "C", "D"], [HandReview(1, 1, "finish", [d])], depth="deep")
    s = gr.summary()[0]
    assert s["graded"] == 1 and s["forced"] == 2
    assert s["accuracy"] == 0.0  # the one real decision was a mistake; the forced ones do not dilute it
    assert s["rates"] == {"10": 100.0, "30": 100.0, "100": 0.0}


def test_a_single_legal_move_is_recorded_as_forced(tmp_path: Path) -> None:
    """Seat 0's rack holds no run, group or pair: waiting is its only placing (O1, O3)."""
    loose = "R1 R3 R5 R7 R9 R11 R13 B2 B4 B6 B8 B10 B12 K1 K3 K5 K7 K9 K11 K13 Y2 Y4"
    f = LogFile()
    g = f.game("price-single", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: loose, 1: "*", 2: "*", 3: "*"}, seed=3)
    line = h.discard(0, "R1")
    state = replayed_state(f, tmp_path, line)
    assert [c.label for c in candidates(View.of(state, 0), "place")] == ["wait"]
    c = grade_decision(state, 0, "place", [], seed="s", budget=0.0, worlds=W)
    assert c is not None and c.forced == "single" and c.cost == 0 and c.worlds == 0 and not c.graded


def test_parts_are_read_in_the_same_call_as_the_play_so_threads_cannot_mix_them() -> None:
    """The server prices in several threads at once; each play returns its own parts (a second
    call reading the model's shared state could see another thread's play)."""
    import threading

    from analysis.game import read_and_replay
    from analysis.review.spots import hand_spots

    sample = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
    hr = read_and_replay(str(sample), keep_steps=True)[0][0].hands[0]
    spots = [s for turn in hand_spots(hr) for s in turn if s.kind == "discard"][:6]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for s in spots[k::2]:
                view = View.of(hr.steps[s.step].state, s.seat)
                from analysis.evaluate import candidates

                price(view, candidates(view, "discard"), seed=f"t{k}", worlds=24, parts=True)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("game", [0, 1, 2, 3, 6])
def test_the_compiled_parts_are_the_python_parts(game: int) -> None:
    """A play's parts built by the compiled model in the play's own call (Position.value_parts) are
    those Python builds from the play's raw parts (Position.parts): every kind of candidate, on the
    sample's 101, 51 and 101-classic games, partners among them (the team's value, the seat's own)."""
    from analysis.evaluate import fast
    from analysis.evaluate.core import CodeWorlds, unseen_tiles
    from analysis.game import read_and_replay
    from analysis.review.spots import hand_spots

    if fast.COMPILED is None:
        pytest.skip("the compiled model is not built")
    sample = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
    res = read_and_replay(str(sample), keep_steps=True)[0][game]
    import random

    rng = random.Random(game)
    seen: set[str] = set()
    checked = 0
    for hr in res.hands[:2]:
        for turn in hand_spots(hr):
            for s in turn:
                view = View.of(hr.steps[s.step].state, s.seat)
                kind = {"take": "draw"}.get(s.kind, s.kind)
                cands = candidates(view, kind) if kind in ("draw", "discard", "place") else []
                if not cands:
                    continue
                pos = fast.Position(view.state, view.seat)
                unseen, pinned = unseen_tiles(view)
                codes = CodeWorlds(view, unseen, pinned)
                for _ in range(3):
                    world = codes.draw(rng)
                    for c in cands[:6]:
                        tile = c.tile if c.kind == "discard" else None
                        v, start, last = pos.play(world, c.kind, c.events, tile, parts=True)
                        assert pos.value_parts(world, c.kind, c.events, tile) == (v, pos.parts(v, start, last))
                        seen.add(c.kind)
                        checked += 1
    assert checked > 500 and seen == {"draw", "take", "discard", "place"}, (checked, seen)
