"""The direct reading of the table and the worlds dealt from it (analysis/evaluate/reading.py, the
``dealt`` belief): the deal's law, by hand and against the compiled dealer; every world keeps what
the seat knows; only the seat's view is read; a discard moves the reading; the bench reads the
library's model; the belief is wired (evaluator, bots, command line, the review's version)."""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import permutations
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from analysis.evaluate import belief as B
from analysis.evaluate import candidates, core, price
from analysis.evaluate import reading as R
from analysis.game import HandState, Tile
from analysis.game.replay import read_and_replay
from analysis.players import View
from analysis.selfplay.bots import BOTS
from belief_cases import mid_hand, shuffled_hidden

ROOT = Path(__file__).resolve().parents[1]
COMPILED = hasattr(B.fast.COMPILED, "deal")


@cache
def sample_states() -> tuple[HandState, ...]:
    """Every 7th state of the sample's first three games where a seat must draw (all presets)."""
    games, _ = read_and_replay(str(ROOT / "data/sample/games.jsonl.gz"), keep_steps=True)
    out = []
    for g in games[:3]:
        for h in g.hands[:2]:
            out += [s.state for s in h.steps[::7] if s.state is not None and s.state.phase == "draw"]
    return tuple(out)


def setup(view: View, known: dict[int, list[Tile]] | None = None) -> tuple[core.CodeWorlds, dict[int, list[Tile]]]:
    unseen, pinned = core.unseen_tiles(view, known)
    return core.CodeWorlds(view, unseen, pinned), pinned


# ---- the deal's law ---------------------------------------------------------------------------------


def exact_law(pool: list[int], free: list[int], mult: np.ndarray) -> dict[tuple[tuple[int, ...], ...], Fraction]:
    """Every outcome of the deal (each seat's sorted codes) with its chance, by enumerating the
    shuffled orders and, for each tile, where it goes: seat s with weight free left x mult, the deck
    with weight its room (exact fractions; an independent statement of the law)."""
    mult_f = [[Fraction(float(x)) for x in row] for row in mult]
    orders = list(permutations(range(len(pool))))
    out: dict[tuple[tuple[int, ...], ...], Fraction] = {}

    def go(order: tuple[int, ...], k: int, left: list[int], room: int, held: list[list[int]], p: Fraction) -> None:
        if k == len(order):
            key = tuple(tuple(sorted(h)) for h in held)
            out[key] = out.get(key, Fraction(0)) + p
            return
        c = pool[order[k]]
        ws = [left[s] * mult_f[s][c] for s in range(4)]
        tot = sum(ws) + room
        for s in range(4):
            if ws[s]:
                left[s] -= 1
                held[s].append(c)
                go(order, k + 1, left, room, held, p * ws[s] / tot)
                held[s].pop()
                left[s] += 1
        if room:
            go(order, k + 1, left, room - 1, held, p * room / tot)

    for order in orders:
        go(order, 0, list(free), len(pool) - sum(free), [[] for _ in range(4)], Fraction(1, len(orders)))
    return out


def test_a_tiny_deal_by_hand() -> None:
    """Two tiles A (code 0) and B (code 1), one place in seat 1, one in the deck; seat 1's odds for A
    are 3. Order A B (1/2): A goes to seat 1 with 3 / (3 + 1). Order B A (1/2): B goes there with
    1 / (1 + 1), else A does. So seat 1 holds A with 1/2 x 3/4 + 1/2 x 1/2 = 5/8."""
    mult = np.ones((4, 53))
    mult[1, 0] = 3.0
    law = exact_law([0, 1], [0, 1, 0, 0], mult)
    assert law[((), (0,), (), ())] == Fraction(5, 8) and law[((), (1,), (), ())] == Fraction(3, 8)


def test_a_small_deal_matches_its_exact_law_over_many_deals() -> None:
    """Two copies of A, one B, one C; seats 1 and 2 with one and two places, one tile to the deck;
    seat 1 likes A (x4), seat 2 dislikes it (x0.25) and likes C (x2). The frequencies of 40,000
    deals (compiled where built) are within 4.5 standard errors of the exact law; every deal keeps
    the sizes."""
    pool = [0, 0, 1, 2]
    free = [0, 1, 2, 0]
    mult = np.ones((4, 53))
    mult[1, 0], mult[2, 0], mult[2, 2] = 4.0, 0.25, 2.0
    law = exact_law(pool, free, mult)
    assert sum(law.values()) == 1
    n = 40_000
    got: dict[tuple[tuple[int, ...], ...], int] = {}
    for racks, deck in R.deal_many(pool, bytes(212), free, mult, random.Random(11), n):
        a = np.frombuffer(racks, dtype=np.uint8).reshape(4, 53)
        key = tuple(tuple(c for c in range(53) for _ in range(a[s, c])) for s in range(4))
        assert [len(k) for k in key] == free and len(deck) == 1
        got[key] = got.get(key, 0) + 1
    assert set(got) <= set(law)
    for key, p in law.items():
        q = float(p)
        assert abs(got.get(key, 0) / n - q) <= 4.5 * (q * (1 - q) / n) ** 0.5, key


def test_with_every_multiplier_one_the_deal_is_uniform() -> None:
    """No reading, no lean: the chance a seat holds a face is the exact uniform (hypergeometric) one."""
    view = View.of(mid_hand(), mid_hand().turn)
    codes, _ = setup(view)
    free = codes.free()
    n = 3000
    racks = B.racks_of(R.deal_many(codes.pool, codes.base, free, np.ones((4, 53)), random.Random(2), n))
    cnt = np.bincount(np.asarray(codes.pool), minlength=53)[:52].astype(float)
    for s in range(4):
        if not free[s]:
            continue
        pe = R.exact_uniform(cnt, len(codes.pool), free[s])
        freq = (racks[:, s, :52] > 0).mean(axis=0)
        assert np.all(np.abs(freq - pe) <= 4.5 * np.sqrt(pe * (1 - pe) / n) + 1e-9)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_compiled_dealer_deals_the_python_references_worlds(seed: int) -> None:
    """The same worlds from the same generator, and the generator left where the reference leaves
    it: random multipliers (tiny and large), a known tile, the okey's code among the pool."""
    if not COMPILED:
        pytest.skip("the compiled model is not built")
    view = View.of(mid_hand(), mid_hand().turn)
    other = (view.seat + 1) % 4
    codes, _ = setup(view, {other: [core.unseen_tiles(view)[0][0]]})
    rng = np.random.default_rng(seed)
    mult = np.exp(rng.normal(0, 3, size=(4, 53)))
    a, b = random.Random(seed), random.Random(seed)
    a.random()
    b.random()
    want = [R.deal_one(codes.pool, codes.base, codes.free(), mult, a) for _ in range(37)]
    got = R.deal_many(codes.pool, codes.base, codes.free(), mult, b, 30) + R.deal_many(
        codes.pool, codes.base, codes.free(), mult, b, 7)
    assert got == want and a.getstate() == b.getstate()
    assert R.deal_many(codes.pool, codes.base, codes.free(), mult, random.Random(4), 5, compiled=False) == \
        R.deal_many(codes.pool, codes.base, codes.free(), mult, random.Random(4), 5)
    with pytest.raises(ValueError, match="deal"):
        B.fast.COMPILED.deal(random.Random(1).getstate()[1], bytes(codes.pool), codes.base, bytes([0, 200, 0, 0]),
                             mult.tobytes(), 1)


# ---- every world keeps what the seat knows -----------------------------------------------------------


def test_every_dealt_world_keeps_counts_rack_sizes_and_known_tiles() -> None:
    """Over sample positions of every preset, with a take the seat saw pinned to the next seat's
    rack: the viewer's rack as it is, each other rack its size and its known tiles, the deck its
    count, and every unseen tile dealt exactly once (the racks and deck hold the pool and the known
    tiles, nothing else)."""
    for k, st in enumerate(sample_states()):
        view = View.of(st, st.turn)
        nxt = (view.seat + 1) % 4
        unseen = core.unseen_tiles(view)[0]
        known = {nxt: [unseen[k % len(unseen)]]} if view.rack_sizes[nxt] else None
        codes, pinned = setup(view, known)
        dw = R.DealtWorlds(view, codes.pool, codes.base, codes.free(), random.Random(k))
        okey = st.okey
        base = np.frombuffer(codes.base, dtype=np.uint8).reshape(4, 53).astype(int)
        pool = np.bincount(np.asarray(codes.pool, dtype=np.int64), minlength=53)
        for _ in range(20):
            racks_b, deck = dw.draw()
            racks = np.frombuffer(racks_b, dtype=np.uint8).reshape(4, 53).astype(int)
            assert racks[view.seat].tolist() == base[view.seat].tolist()
            for s in range(4):
                assert racks[s].sum() == view.rack_sizes[s]
                for t in pinned.get(s, []):
                    assert racks[s, B.fast.code(t, okey)] >= 1
            assert len(deck) == st.deck_count
            dealt = (racks - base).sum(axis=0) + np.bincount(np.frombuffer(deck, dtype=np.uint8), minlength=53)
            assert dealt.tolist() == pool.tolist()
            assert (racks >= base).all()


# ---- only the seat's view -----------------------------------------------------------------------------


def test_changing_hidden_racks_changes_nothing_the_dealt_belief_gives() -> None:
    st = mid_hand()
    seat = st.turn
    other = shuffled_hidden(st, seat)
    assert other.racks != st.racks and other.racks[seat] == st.racks[seat]
    a, b = View.of(st, seat), View.of(other, seat)
    pa = price(a, candidates(a), seed="h", worlds=32, belief="dealt", parts=True)
    pb = price(b, candidates(b), seed="h", worlds=32, belief="dealt", parts=True)
    assert [e.values for e in pa] == [e.values for e in pb] and [e.parts for e in pa] == [e.parts for e in pb]
    ca, _ = setup(a)
    cb, _ = setup(b)
    wa = R.DealtWorlds(a, ca.pool, ca.base, ca.free(), random.Random(9))
    wb = R.DealtWorlds(b, cb.pool, cb.base, cb.free(), random.Random(9))
    assert [wa.draw() for _ in range(40)] == [wb.draw() for _ in range(40)]


def test_the_dealt_belief_changes_the_worlds() -> None:
    """Dealt worlds are not the uniform ones (prefix stability: tests/test_belief.py, every belief)."""
    view = View.of(mid_hand(), mid_hand().turn)
    cands = candidates(view)
    dealt = price(view, cands, seed=4, worlds=40, belief="dealt")
    assert [e.values for e in dealt] != [e.values for e in price(view, cands, seed=4, worlds=40, belief="uniform")]


# ---- a discard moves the reading -----------------------------------------------------------------------


def _with_discards(st: HandState, seat: int, viewer: int, faces: tuple[str, ...]) -> HandState:
    """``st`` with tiles of ``faces`` taken from the hidden racks and put on ``seat``'s discard pile."""
    racks = [list(r) for r in st.racks]
    moved = []
    for f in faces:
        t = Tile.parse(f)
        src = next(s for s in range(4) if s != viewer and t in racks[s])
        racks[src].remove(t)
        moved.append(t)
    discards = list(st.discards)
    discards[seat] = tuple(discards[seat]) + tuple(moved)
    return replace(st, racks=tuple(tuple(r) for r in racks), discards=tuple(discards))


def test_a_seat_that_discarded_two_12s_is_less_likely_to_hold_a_12_than_uniform() -> None:
    """Hand-made: two 12s taken from the hidden racks and put on the next seat's pile. The fitted
    reading of ``101`` puts every 12 in its rack below the exact uniform chance (the two on its pile
    and the other colours' alike), and the worlds dealt from it hold a 12 there less often than
    uniform worlds do (by more than four standard errors over 4,000 of each)."""
    st = mid_hand()
    viewer = st.turn
    seat = (viewer + 1) % 4
    hidden = [t for s in range(4) if s != viewer for t in st.racks[s] if t.number == 12 and not t.is_joker]
    faces = tuple(sorted({str(t) for t in hidden}))[:2]
    assert len(faces) == 2
    view = View.of(_with_discards(st, seat, viewer, faces), viewer)
    coef = R.coefficients("101")
    assert coef is not None and view.rules.variant == "101"
    okey = st.okey
    twelves = [f for f in range(52) if f % 13 == 11 and f != B.fast.code(okey, okey)]
    codes, pinned = setup(view)
    pins = {s: [B.fast.code(t, okey) for t in p] for s, p in pinned.items()}
    pe, dm = R.chances(codes.pool, codes.free(), pins, R.seat_features(view), coef)[seat]
    assert all(dm[f] < pe[f] for f in twelves if 0 < pe[f] < 1) and any(0 < pe[f] < 1 for f in twelves)
    n = 4000
    dw = R.DealtWorlds(view, codes.pool, codes.base, codes.free(), random.Random(3), coef=coef)
    racks = B.racks_of([dw.draw() for _ in range(n)])
    uni = B.racks_of(R.deal_many(codes.pool, codes.base, codes.free(), np.ones((4, 53)), random.Random(3), n))
    held = (racks[:, seat, twelves] > 0).any(axis=1).mean()
    held_u = (uni[:, seat, twelves] > 0).any(axis=1).mean()
    assert held < held_u - 4 * np.sqrt(held_u * (1 - held_u) / n)


# ---- the bench reads the library's model -------------------------------------------------------------


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_belief_ceiling", ROOT / "bench" / "belief_ceiling.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_bench_and_the_library_give_the_same_features_and_predictions() -> None:
    """One definition: the bench's features are the library's, and its rows (one small 51 game) are
    the library's features, exact uniform chance and direct model's chance, position by position."""
    bench = _bench()
    assert bench.FEATURES is R.FEATURES and not hasattr(bench, "deal") and not hasattr(bench, "irls")
    coef = R.coefficients("51")
    assert coef is not None
    got = bench.cells("51", 1, 1, 4, "reading-test", coef, worlds=4)
    rows = []
    for _, _, st in bench.BB._positions(bench.BB._games("51", 1, 1, "reading-test", ["solver"] * 4, None), 4):
        v = View.of(st, st.turn)
        codes, pinned = setup(v)
        X = R.seat_features(v)
        pins = {s: [B.fast.code(t, st.okey) for t in p] for s, p in pinned.items()}
        read = R.chances(codes.pool, codes.free(), pins, X, coef)
        rows += [(X[s], read[s][0], read[s][1]) for s in X]
    assert got["positions"] > 0 and len(rows) * 52 == len(got["pe"])
    assert np.array_equal(np.concatenate([x for x, _, _ in rows]), got["X"])
    assert np.array_equal(np.concatenate([p for _, p, _ in rows]), got["pe"])
    assert np.array_equal(np.concatenate([d for _, _, d in rows]), got["dm"])
    inner = (got["pe"] > 0) & (got["pe"] < 1)
    want = R.sigmoid(R.logit(got["pe"]) + got["X"] @ coef)
    assert np.allclose(got["dm"][inner], want[inner])


# ---- the coefficients, the wiring, the review's version ---------------------------------------------


def test_every_preset_key_has_coefficients_and_the_others_fall_back() -> None:
    doc = R.fitted()
    assert doc["features"] == R.NAMES
    for key in ("101", "101-classic", "51", "101-partners"):
        assert key in doc["coef"] and len(doc["coef"][key]) == len(R.NAMES)
    assert np.array_equal(R.coefficients("51-partners"), R.coefficients("51"))  # type: ignore[arg-type]
    assert np.array_equal(R.coefficients("101-classic-partners"), R.coefficients("101-classic"))  # type: ignore[arg-type]
    assert np.array_equal(R.coefficients("house"), R.coefficients("101"))  # type: ignore[arg-type]


def test_the_dealt_belief_is_opt_in_and_wired_everywhere() -> None:
    from analysis.cli import evaluate as cli_evaluate

    assert B.BELIEFS == (B.TABLE, B.UNIFORM, B.DEALT) and cli_evaluate.BELIEFS == B.BELIEFS
    assert core.BELIEF == B.TABLE or core.BELIEF in B.BELIEFS  # the default is the table belief, unless set
    assert BOTS["expert-dealt"].belief == "dealt" and BOTS["expert"].belief is None


def test_the_reviews_version_covers_the_reading_only_where_it_deals_the_worlds() -> None:
    """Adding or refitting the reading's coefficients leaves the table and uniform beliefs' digest
    of the model file as it was; a review priced by dealt worlds follows them (and names itself)."""
    from analysis.review import model

    doc = {"models": {"101": {"discard_joins": 0.45}}, "opens_next": {"101": [[0.1, 0.2]]}}
    dealt = dict(doc, dealt={"features": ["bias"], "coef": {"101": [0.1]}, "about": "x"})
    refit = dict(doc, dealt={"features": ["bias"], "coef": {"101": [0.2]}, "about": "x"})
    for b in (B.TABLE, B.UNIFORM):
        assert model.belief_models(json.dumps(doc), b) == model.belief_models(json.dumps(dealt), b) \
            == model.belief_models(json.dumps(refit), b)
    assert model.belief_models(json.dumps(dealt), B.DEALT) != model.belief_models(json.dumps(refit), B.DEALT)
    assert model.belief_models(json.dumps(dealt), B.DEALT) != model.belief_models(json.dumps(dealt), B.TABLE)
    assert model.belief_models(json.dumps(dict(dealt, about="y")), B.DEALT) == \
        model.belief_models(json.dumps(dealt), B.DEALT)  # the note is not a price


def test_istaka_evaluate_prices_a_decision_on_dealt_worlds_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``--belief dealt`` judges the decision on dealt worlds: the output names the belief, and the
    prices are those of the dealt worlds, not the uniform ones."""
    from analysis.cli import main
    from analysis.game import read_file, replay_game

    sample = ROOT / "data/sample/games.jsonl.gz"
    game = replay_game(next(g for g in read_file(sample).games if g.id == "kahve-2026-09-07-1"), keep_steps=True)
    steps = game.hands[0].steps
    k = next(i for i in range(20, len(steps) - 1) if steps[i + 1].event.get("type") == "discard"
             and steps[i].state.turn_base is not None and len(set(steps[i].state.racks[steps[i].state.turn])) > 3)
    monkeypatch.setattr(core, "BELIEF", core.BELIEF)  # the command sets it for its process: put back after
    args = ["evaluate", str(sample), "--game", "kahve-2026-09-07-1", "--hand", str(game.hands[0].hand), "--step", str(k),
            "--kind", "discard", "--worlds", "8", "--json"]
    got = {}
    for b in ("dealt", "uniform"):
        assert main([*args, "--belief", b]) == 0
        got[b] = json.loads(capsys.readouterr().out)
    assert got["dealt"]["belief"] == "dealt" and got["uniform"]["belief"] == "uniform"
    assert [c["expected"] for c in got["dealt"]["candidates"]] != [c["expected"] for c in got["uniform"]["candidates"]]
