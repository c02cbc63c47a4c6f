"""Crafted positions where the Python rollout model was wrong and the compiled one
plays the rule: siler at the discard that ends the opening turn (O8), an opening seen with its
lay-offs (O1, L6), a pairs opener's okey in a pair (T4, O4), X6 for an okey left on the table
(S1, S3), declaring before pairs in 101-classic (O10); and the seat-view test on the compiled
path."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_evaluate import position, test_sampling_reads_only_the_seat_view, tiles

from analysis.evaluate import candidates, core, evaluate, fast
from analysis.evaluate.proof import model_hand
from analysis.game import HandState, Opening, resolve
from analysis.players import View

pytestmark = pytest.mark.skipif(fast.COMPILED is None, reason="the compiled rollout is not built")


def _with_rules(st: HandState, **overrides: object) -> HandState:
    return replace(st, rules=resolve(st.rules.variant, overrides))


def _seat_turn(evs: list[dict], seat: int) -> list[dict]:
    """The seat's events up to and including its first discard."""
    out = []
    for e in evs:
        if e.get("seat") == seat:
            out.append(e)
            if e["type"] == "discard":
                break
    return out


def _by_label(evals: list, prefix: str):  # type: ignore[no-untyped-def]
    return next(e for e in evals if e.candidate.label.startswith(prefix))


def test_a_150_point_opening_now_is_101_better_with_siler_O8() -> None:
    # 159 points of runs: R8-R13, Y8-Y13, B10-B12 (indicator K4: okey K5, none held)
    rack = "R8 R9 R10 R11 R12 R13 Y8 Y9 Y10 Y11 Y12 Y13 B10 B11 B12 R1 Y3 B5 K7 R4 K1 Y5"
    st = position(rack=rack, sizes={1: 21, 2: 21, 3: 21}, indicator="K4", deck=30)
    v_on = View.of(st, 0)
    v_off = View.of(_with_rules(st, siler=False), 0)
    cs_on, cs_off = candidates(v_on, "place"), candidates(v_off, "place")
    assert [c.label for c in cs_on][0].startswith("open 1")
    got = {}
    for model in ("compiled", "python"):
        on = _by_label(evaluate(v_on, cs_on, seed=2, worlds=12, model=model), "open")
        off = _by_label(evaluate(v_off, cs_off, seed=2, worlds=12, model=model), "open")
        got[model] = [a - b for a, b in zip(on.values, off.values)]
    assert got["compiled"] == [-101] * 12  # credited at the discard that ends the opening turn
    assert got["python"] == [0] * 12  # the Python model started after the engine's placing: no credit


def test_a_rack_that_opens_only_with_its_layoffs_is_seen_opening_O1_L6() -> None:
    # melds R10-R13 (46), Y9-Y11 (30), B7-B9 (24) = 100 < 120 (seat 1 opened 119, O2); lay-offs K12
    # (run K9-K11) and R12 (group Y12 B12 K12) make it 124 (O1 counts the opening turn's lay-offs)
    rack = "R10 R11 R12 R13 Y9 Y10 Y11 B7 B8 B9 K12 R12 R2 R6 Y1 Y5 B4 K1 K5 Y3 R4 B2"
    st = position(rack=rack, sizes={1: 15, 2: 21, 3: 21}, table=[(1, "K9 K10 K11"), (1, "Y12 B12 K12")],
                  opened={1: 119}, indicator="B13", deck=9)
    assert st.points_threshold(0) == 120
    vals, _, evs = model_hand(st, list(st.racks), list(st.deck))
    turn = _seat_turn(evs, 0)
    kinds = [e["type"] for e in turn]
    assert kinds[0] == "open" and kinds.count("layoff") == 2 and kinds[-1] == "discard"
    melds = sum(sum(int(t[1:]) for t in m) for m in turn[0]["melds"])
    assert melds < 120 <= melds + 12 + 12
    # "wait" with two turns left: the compiled model opens on the next turn with the lay-offs; the
    # Python model, seeing melds only, stays unopened (202 at hand end)
    v = View.of(st, 0)
    cs = candidates(v, "place")
    waited_py = _by_label(evaluate(v, cs, seed=1, worlds=10, model="python"), "wait")
    waited_c = _by_label(evaluate(v, cs, seed=1, worlds=10, model="compiled"), "wait")
    assert waited_c.mean < waited_py.mean - 50


def test_a_pairs_openers_okey_makes_a_pair_T4_O4() -> None:
    # seat 0 opened with pairs; the okey (indicator B9 -> B10) pairs with his highest single
    rack = "B10 R13 Y2 K4 R6 B1 Y8"
    st = position(rack=rack, sizes={1: 14, 2: 14, 3: 14}, deck=30)
    st = replace(st, opened=(Opening("pairs", 5), None, None, None))
    _, _, evs = model_hand(st, list(st.racks), list(st.deck))
    turn = _seat_turn(evs, 0)
    pairs = [p for e in turn if e["type"] == "meld" for p in e.get("pairs", [])]
    assert ["R13", "B10>R13"] in pairs
    # the same seat's expected hand: the Python model kept the okey dead (+101 and doubled value)
    v = View.of(st, 0)
    cs = candidates(v, "discard")
    py = min(e.mean for e in evaluate(v, cs, seed=3, worlds=10, model="python"))
    c = min(e.mean for e in evaluate(v, cs, seed=3, worlds=10, model="compiled"))
    assert c < py - 50


def test_a_swap_that_takes_your_okey_from_the_table_is_charged_X6() -> None:
    # seat 0 laid K9 K10 K11 B10>K12 (okey B10 standing for K12); seat 1, opened, holds K12 and
    # moves next: he swaps it in and seat 0 pays 101 (S3, X6)
    rack = "R2 R5 Y7 Y11 B3 K1"
    st = position(rack=rack, sizes={1: 9, 2: 14, 3: 14}, table=[(0, "K9 K10 K11 B10>K12")],
                  opened={0: 120, 1: 110}, known={1: "K12"}, deck=30)
    known = {1: tiles("K12")}
    got = {}
    for model in ("compiled", "python"):
        on = evaluate(View.of(st, 0), candidates(View.of(st, 0), "discard"), seed=4, worlds=10, known=known,
                      model=model)
        st_off = _with_rules(st, x6=False)
        off = evaluate(View.of(st_off, 0), candidates(View.of(st_off, 0), "discard"), seed=4, worlds=10,
                       known=known, model=model)
        got[model] = {a.candidate.label: [x - y for x, y in zip(a.values, b.values)] for a, b in zip(on, off)}
    # every world both evaluations played (a candidate may be dropped after 8, successive elimination)
    assert all(len(d) >= 8 and set(d) == {101} for d in got["compiled"].values())
    assert all(len(d) >= 8 and set(d) == {0} for d in got["python"].values())  # no swaps in the Python model
    _, _, evs = model_hand(st, list(st.racks), list(st.deck))
    assert {"type": "penalty", "seat": 0, "points": 101, "reason": "X6"} in evs


def test_101_classic_rollouts_declare_before_opening_with_pairs_O10() -> None:
    rack = "R1 R1 Y4 Y4 B7 B7 K10 K10 R13 R13 Y2 Y2 B5 K8 R11 Y9 B12 K3 R6 Y12 B2"
    st = position(rack=rack, sizes={1: 21, 2: 21, 3: 21}, phase="draw", variant="101-classic", deck=30)
    assert not st.declared[0]
    _, _, evs = model_hand(st, list(st.racks), list(st.deck))
    turn = _seat_turn(evs, 0)
    kinds = [e["type"] for e in turn]
    assert kinds[0] == "declare" and "open" in kinds
    assert "pairs" in turn[kinds.index("open")]


def test_sampling_reads_only_the_seat_view_on_the_compiled_path() -> None:
    assert core.MODEL == "compiled" and fast.COMPILED is not None
    test_sampling_reads_only_the_seat_view()


def test_the_clairvoyant_bot_is_registered_and_plays_legal_hands_from_the_true_world() -> None:
    import analysis.evaluate.clairvoyant as cv
    from analysis.selfplay import BOTS, GameSpec, Player, play_game

    assert BOTS["clairvoyant"] is cv.ClairvoyantBot
    seen: list[int] = []
    real = fast.Position.value

    def counted(self, *a, **k):  # type: ignore[no-untyped-def]
        seen.append(1)
        return real(self, *a, **k)

    fast.Position.value = counted  # type: ignore[method-assign]
    try:
        for variant in ("101", "51"):
            bots = ("clairvoyant", "solver", "clairvoyant", "solver")
            rec = play_game(GameSpec(f"cv-{variant}", tuple(Player(f"P{k}", b) for k, b in enumerate(bots)), variant,
                                     None, "cv", hands=1))
            assert rec.refused == 0 and rec.finals[-1].result in ("finish", "exhausted", "void")
    finally:
        fast.Position.value = real  # type: ignore[method-assign]
    assert seen  # it priced its decisions in the true world, not by sampling


def test_worlds_drawn_as_codes_are_the_worlds_of_sample_world() -> None:
    import random

    st = position(rack="R1 R2 R3 Y7 Y8 B4 B4 K9 K10 K11 R13 Y2 B13 K1", sizes={1: 14, 2: 13, 3: 13}, deck=20,
                  known={2: "Y13"})
    v = View.of(st, 0)
    unseen, pinned = core.unseen_tiles(v, {2: tiles("Y13")})
    assert pinned == {2: tiles("Y13")}
    codes = core.CodeWorlds(v, unseen, pinned)
    pos = fast.Position(st, 0)
    a, b = random.Random("w"), random.Random("w")
    for _ in range(5):
        racks, deck = core.sample_world(v, unseen, pinned, b)
        assert codes.draw(a) == pos.world(racks, deck)


def test_the_compiled_model_counts_its_searches_by_kind() -> None:
    """bench/evaluate.py reads these counters to say where a rollout's time goes."""
    rack = "R8 R9 R10 R11 R12 R13 Y8 Y9 Y10 Y11 Y12 Y13 B10 B11 B12 R1 Y3 B5 K7 R4 K1 Y5"
    st = position(rack=rack, sizes={1: 21, 2: 21, 3: 21}, indicator="K4", deck=30)
    v = View.of(st, 0)
    fast.search_stats()  # from here
    evs = evaluate(v, candidates(v, "place"), seed=3, worlds=8, model="compiled")
    got = fast.search_stats()
    assert got is not None and got["plays"] == sum(e.n for e in evs)
    kinds = got["by_kind"]
    assert sum(kinds.values()) == got["searches"] > 0
    assert kinds["opening"] > 0 and kinds["opened"] > 0  # the other seats open, then place
    assert all(got["seconds"][k] > 0 for k in kinds if kinds[k])
    assert fast.search_stats()["plays"] == 0  # read once: the counters start again
