"""The belief over the hidden tiles (analysis/evaluate/belief.py) and its reading of the table
(analysis/evaluate/panel.py): what moves it, that its weights are weights, its fallback, an exact
small case computed by hand, and that it reads the seat's view alone."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from analysis.evaluate import belief as B
from analysis.evaluate import candidates, core, price
from analysis.evaluate.panel import read_table
from analysis.game import Tile
from analysis.players import View
from analysis.review.model import DEEP_VERSION
from analysis.selfplay.bots import BOTS
from belief_cases import mid_hand, shuffled_hidden


def code(t: str) -> int:
    return Tile.parse(t).index


def racks_with(*hands: str) -> np.ndarray:
    """Worlds x 4 x 53 counts, seat 1 holding each given hand (space-separated tiles)."""
    out = np.zeros((len(hands), 4, 53), dtype=np.uint8)
    for w, h in enumerate(hands):
        for t in h.split():
            out[w, 1, code(t)] += 1
    return out


def sig(**kw: object) -> B.Signals:
    base: dict[str, object] = dict(seat=1, discarded=(), passed=(), opened=True, turns=3, points_needed=101,
                                   pairs_needed=5)
    base.update(kw)
    return B.Signals(**base)  # type: ignore[arg-type]


# ---- what moves the belief ------------------------------------------------------------------------


def test_a_seat_that_passed_on_r7_holding_r6_r8_is_weighed_as_the_model_says() -> None:
    """P1: an opened seat passed on R7. A world where it holds R6 R8 (R7 completes a run) is
    impossible under a model that says a careful player never passes such a tile, and weighed
    by exactly the fitted ratio under the fitted one."""
    racks = racks_with("R6 R8 B2 K11", "R6 B2 K11 Y4")
    s = sig(passed=(code("R7"),))
    strict = {**B.MODEL, "pass_completes_opened": 0.0}
    with np.errstate(divide="ignore"):
        w = B.normalise(B.log_likelihood(racks, [s], {k: max(v, 1e-300) for k, v in strict.items()}))
    assert w[0] == pytest.approx(0.0, abs=1e-12) and w[1] == pytest.approx(1.0)
    fitted = B.model_for("101")
    ll = B.log_likelihood(racks, [s], fitted)
    assert ll[0] - ll[1] == pytest.approx(math.log(fitted["pass_completes_opened"]))


def test_two_discarded_12s_lower_the_weight_of_12_groups() -> None:
    racks = racks_with("B12 K12 Y3 R5", "B3 K7 Y3 R5")
    ll = B.log_likelihood(racks, [sig(discarded=(code("R12"), code("Y12")))], B.model_for("101"))
    assert ll[0] < ll[1]
    assert B.model_for("101")["discard_completes"] < 1  # fitted: a seat rarely throws what completes its meld


def test_an_unopened_seat_that_could_open_is_unlikely() -> None:
    """Not opening: a rack holding 101 points in runs is a world the model doubts for a seat
    still unopened after its turns."""
    big = "R9 R10 R11 R12 R13 B9 B10 B11 B12 B13 K11 K12 K13"  # 55 + 55 + 36 = 146 points
    racks = racks_with(big, "R1 B4 K7 Y10 R3 B6 K9 Y12 R2 B8 K5 Y1 Y6")
    ll = B.log_likelihood(racks, [sig(opened=False, turns=4)], B.model_for("101"))
    assert ll[0] < ll[1]
    points, _ = B.opening_estimate(racks[:, 1, :])
    assert points[0] >= 101 > points[1]


def test_held_lay_offs_lower_an_opened_seats_weight() -> None:
    racks = racks_with("R5 B2", "Y9 B2")
    ll = B.log_likelihood(racks, [sig(fits=(code("R5"),))], B.model_for("101"))
    assert ll[0] < ll[1]


# ---- weights, effective size, fallback ----------------------------------------------------------


def test_weights_sum_to_one_and_tempering_reaches_its_target() -> None:
    rng = np.random.default_rng(3)
    ll = rng.normal(0, 4, size=64)
    w = B.normalise(ll)
    assert w.sum() == pytest.approx(1.0) and (w >= 0).all()
    assert B.ess(np.full(64, 1 / 64)) == pytest.approx(64)
    tw, power, e = B.tempered(ll, 16)
    assert tw.sum() == pytest.approx(1.0)
    assert power < 1 and e >= 16 - 1e-6
    assert B.tempered(np.zeros(64), 16)[1] == 1.0  # nothing to temper


def test_a_block_the_belief_is_too_sure_of_stays_uniform() -> None:
    """Effective-size fallback: a model so sure that even tempered one world takes all keeps the
    block's first uniform proposals."""
    view = View.of(mid_hand(), mid_hand().turn)
    unseen, pinned = core.unseen_tiles(view)
    codes = core.CodeWorlds(view, unseen, pinned)
    extreme = {k: 1e-250 for k in B.MODEL}
    bw = B.BeliefWorlds(view, codes.draw, random.Random("x"), model=extreme)
    got = [bw.draw() for _ in range(B.BLOCK)]
    assert bw.stats.fallback == 1 and bw.stats.ess[0] < B.ESS_FLOOR * B.PROPOSALS
    rng = random.Random("x")
    assert got == [codes.draw(rng) for _ in range(B.PROPOSALS)][:B.BLOCK]


def test_the_fitted_model_resamples_without_falling_back_on_a_sample_position() -> None:
    view = View.of(mid_hand(), mid_hand().turn)
    stats: list[B.Stats] = []
    core.price(view, candidates(view), seed=1, worlds=32, belief="table", stats=stats)
    s = stats[0].summary()
    assert s["blocks"] == 2 and s["fallback"] == 0 and s["ess_median"] >= B.ESS_TARGET * B.PROPOSALS - 1e-6


def test_an_exact_small_posterior_computed_by_hand() -> None:
    """Four worlds, one discard (Y5) by seat 1: world 0 completes a run with it (Y3 Y4), world 1
    only joins it (Y6), worlds 2 and 3 neither. With ratios 0.2 and 0.5 the posterior is
    (0.2, 0.5, 1, 1) / 2.7; systematic resampling of four from it, with the generator's first
    draw u, picks the worlds whose cumulative weight first passes u/4 + k/4."""
    racks = racks_with("Y3 Y4 K1", "Y6 K1 B9", "K1 B9 R13", "B9 R13 K2")
    model = {**B.MODEL, "discard_completes": 0.2, "discard_joins": 0.5}
    w = B.normalise(B.log_likelihood(racks, [sig(discarded=(code("Y5"),))], model))
    assert list(w) == pytest.approx([0.2 / 2.7, 0.5 / 2.7, 1 / 2.7, 1 / 2.7])
    u = random.Random(7).random() / 4
    cum = [0.2 / 2.7, 0.7 / 2.7, 1.7 / 2.7, 1.0]
    want = [next(i for i, c in enumerate(cum) if c > u + k / 4) for k in range(4)]
    assert B.systematic(w, 4, random.Random(7)) == want


# ---- only the seat's view -------------------------------------------------------------------------


def test_changing_hidden_racks_changes_nothing_the_belief_gives() -> None:
    st = mid_hand()
    seat = st.turn
    other = shuffled_hidden(st, seat)
    assert other.racks != st.racks and other.racks[seat] == st.racks[seat]
    a, b = View.of(st, seat), View.of(other, seat)
    ca, cb = candidates(a), candidates(b)
    pa = price(a, ca, seed="h", worlds=32, belief="table", parts=True)
    pb = price(b, cb, seed="h", worlds=32, belief="table", parts=True)
    assert [e.values for e in pa] == [e.values for e in pb]
    assert read_table(a, seed="h").to_dict() == read_table(b, seed="h").to_dict()


def test_the_belief_changes_the_worlds_and_uniform_stays_as_it_was() -> None:
    view = View.of(mid_hand(), mid_hand().turn)
    cands = candidates(view)
    table = price(view, cands, seed=2, worlds=32, belief="table")
    uniform = price(view, cands, seed=2, worlds=32, belief="uniform")
    assert [e.values for e in table] != [e.values for e in uniform]
    unseen, pinned = core.unseen_tiles(view)
    rng = random.Random("price:2")
    codes = core.CodeWorlds(view, unseen, pinned)
    pos = core.fast.Position(view.state, view.seat)
    first = codes.draw(rng)
    c = cands[0]
    assert uniform[0].values[0] == pos.value(first, c.kind, c.events, c.tile if c.kind == "discard" else None)


@pytest.mark.parametrize("belief", ["table", "dealt"])
def test_a_longer_call_starts_with_a_shorter_ones_worlds(belief: str) -> None:
    """Pricing is prefix-stable under every belief (the review's confirming worlds extend its first)."""
    view = View.of(mid_hand(), mid_hand().turn)
    cands = candidates(view)
    short = price(view, cands, seed=4, worlds=16, belief=belief)
    long = price(view, cands, seed=4, worlds=48, belief=belief, start=short)
    again = price(view, cands, seed=4, worlds=48, belief=belief)
    assert [e.values for e in long] == [e.values for e in again]
    assert [e.values[:16] for e in again] == [e.values for e in short]


def test_the_panel_reads_chances_and_dangers() -> None:
    st = mid_hand()
    t = read_table(View.of(st, st.turn), seed=1)
    assert {s.seat for s in t.seats} == {0, 1, 2, 3} - {st.turn}
    for s in t.seats:
        assert (s.opens_next is None) == s.opened
        assert s.opens_next is None or 0 <= s.opens_next <= 1
        assert all(0 <= p <= 1 and 0 <= u <= 1 for _, p, u in s.held)
    assert {d.tile for d in t.dangers} == {str(x) for x in st.racks[st.turn]}
    assert 1 <= t.ess <= t.proposals and 0 < t.se < 1


def test_the_expert_and_its_uniform_twin_are_bots_and_the_review_names_its_belief() -> None:
    assert BOTS["expert-uniform"].belief == "uniform" and BOTS["expert"].belief is None
    assert DEEP_VERSION.startswith(f"deep-{core.BELIEF}-")


@pytest.mark.parametrize("seed", ["a", "b", 7])
def test_a_block_of_proposals_drawn_at_once_is_the_same_as_drawn_one_by_one(seed: object) -> None:
    """The compiled model shuffles a block's proposals as random.shuffle does: the same worlds, and
    the generator left where the one-by-one draws leave it (the resampling draws from it next)."""
    view = View.of(mid_hand(), mid_hand().turn)
    unseen, pinned = core.unseen_tiles(view, {(view.seat + 1) % 4: [unseen_tile(view)]})
    codes = core.CodeWorlds(view, unseen, pinned)
    one, many = random.Random(seed), random.Random(seed)
    one.random()
    many.random()  # a generator already in use
    want = [codes.draw(one) for _ in range(B.PROPOSALS + 3)]
    got = codes.draws(many, B.PROPOSALS) + codes.draws(many, 3)
    assert got == want and one.getstate() == many.getstate()
    bw = B.BeliefWorlds(view, codes.draw, random.Random(seed))
    bm = B.BeliefWorlds(view, codes.draw, random.Random(seed), propose_many=codes.draws)
    assert [bw.draw() for _ in range(2 * B.BLOCK)] == [bm.draw() for _ in range(2 * B.BLOCK)]


def unseen_tile(view: View) -> object:
    """A tile the seat has not seen (pinned to another seat: a take it saw)."""
    return core.unseen_tiles(view)[0][0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_compiled_likelihood_is_the_numpy_ones_to_the_last_bit(seed: int) -> None:
    """The compiled log-likelihood adds the same terms in the same order as the numpy reference:
    random racks (okeys, twins, empty seats) against random signals of every kind, every model."""
    if not hasattr(B.fast.COMPILED, "loglik"):
        pytest.skip("the compiled model is not built")
    rng = np.random.default_rng(seed)
    racks = rng.integers(0, 3, size=(200, 4, 53), dtype=np.uint8) * (rng.random((200, 4, 53)) < 0.25)
    racks[:, :, 52] = rng.integers(0, 3, size=(200, 4))
    racks[:5, 2] = 0
    faces = lambda k: tuple(int(x) for x in rng.integers(0, 52, size=k))  # noqa: E731
    sigs = [B.Signals(seat=s, discarded=faces(int(rng.integers(0, 12))), passed=faces(int(rng.integers(0, 8))),
                      opened=bool(s % 2), turns=int(rng.integers(0, 3)), points_needed=int(rng.integers(20, 140)),
                      pairs_needed=int(rng.integers(3, 8)), fits=faces(int(rng.integers(0, 6))), mid_turn=s == 3)
            for s in (1, 2, 3)]
    for model in (B.MODEL, B.model_for("101"), B.model_for("51"), {**B.MODEL, "discard_joins": 1e-9}):
        fast_ll = B.log_likelihood(racks, sigs, model)
        ref = B.log_likelihood(racks, sigs, model, compiled=False)
        assert fast_ll.tobytes() == ref.tobytes()
    with pytest.raises(ValueError, match="signals"):
        B.fast.COMPILED.loglik(racks.tobytes(), 200, np.asarray([1, 3, 1], dtype=np.int16).tobytes(), (0.0,) * 6)


def test_the_deep_version_follows_the_compiled_rollout_and_the_fitted_ratios_not_the_panels_maps() -> None:
    """A stored review is out of date when anything its prices depend on changes: the compiled
    rollout and kernel (C sources) and the belief's fitted ratios; a refit of the panel's "opens next
    turn" maps, in the same file, does not touch a price."""
    import json

    from analysis.review import model

    names = {p.name for p in model.deep_files()}
    assert {"rollout.c", "core.py", "belief.py", "deep.py"} <= names
    assert {"kernel.c", "kernel_search.h"} <= {p.name for p in model.solver_files()}
    assert all(p.exists() for p in model.deep_files() + model.solver_files())
    doc = {"models": {"101": {"discard_joins": 0.45}}, "opens_next": {"101": [[0.1, 0.2]]}}
    same = dict(doc, opens_next={"101": [[0.1, 0.3]]})
    other = dict(doc, models={"101": {"discard_joins": 0.46}})
    assert model.belief_models(json.dumps(doc)) == model.belief_models(json.dumps(same))
    assert model.belief_models(json.dumps(doc)) != model.belief_models(json.dumps(other))
