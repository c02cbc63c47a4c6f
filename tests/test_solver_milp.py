"""The solver against an independent integer program (scipy.optimize.milp) on 1,380 random
positions: real 22-tile deals, dense racks (two colours and both okeys), positions with table
melds to lay off onto (L2, L3, L6), taken discards (P2), opened players' turns, and opened turns
with okeys on the table to take (S1, S2). Zero disagreements allowed on (value, rack penalty,
tiles left)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("scipy")

from analysis.game import melds as M  # noqa: E402
from analysis.game import HandState, Opening, TableMeld  # noqa: E402
from analysis.game import PRESETS  # noqa: E402
from analysis.solver import best_points_opening, best_turn  # noqa: E402
from analysis.game import FACES, FALSE_OKEY, Placed, Tile, full_set, okey_of  # noqa: E402
from tests.solver_milp import milp_opening  # noqa: E402

R101 = PRESETS["101"]


def deal(rng: random.Random, n: int = 22) -> tuple[list[Tile], Tile, list[Tile]]:
    bag = list(full_set().elements())
    rng.shuffle(bag)
    ind = next(t for t in bag if not t.is_joker)
    bag.remove(ind)
    return bag[:n], okey_of(ind), bag[n:]


def dense(rng: random.Random, n: int = 22) -> tuple[list[Tile], Tile]:
    ind = rng.choice(FACES)
    okey = okey_of(ind)
    cols = rng.sample("RYBK", 2)
    pool = [t for t in FACES for _ in range(2) if t.colour in cols and t != okey and t != ind]
    return rng.sample(pool, n - 2) + [okey, okey], okey


def random_table(rng: random.Random, okey: Tile, k: int, okeys: int = 2) -> tuple[TableMeld, ...]:
    """k random table melds holding at most ``okeys`` okeys (T1: two exist)."""
    out = []
    for i in range(k):
        if rng.random() < 0.5:
            c = rng.choice("RYBK")
            a = rng.randint(1, 11)
            b = min(13, a + rng.randint(2, 4))
            faces = [Tile(c, x) for x in range(a, b + 1)]
        else:
            x = rng.randint(1, 13)
            faces = [Tile(c, x) for c in rng.sample("RYBK", rng.choice((3, 3, 4)))]
        placed = [Placed(f, f) for f in faces]
        if okeys and rng.random() < 0.2:
            okeys -= 1
            j = rng.randrange(len(placed))
            placed[j] = Placed(okey, faces[j], True)
        kind, ordered = M.classify(placed)
        out.append(TableMeld(i, 1, kind, tuple(ordered), (1,) * len(ordered)))
    return tuple(out)


def _same(rack, okey, plan, **kw) -> None:
    want = milp_opening(rack, okey, **kw)
    if want is None:  # the taken tile fits in no opening (P2): nothing to place
        assert plan.value == 0 and not plan.melds and not plan.layoffs and not plan.reaches
        return
    got = (plan.value, plan.penalty, len(plan.left))
    assert got == want, ([str(t) for t in rack], str(okey), kw.get("take"), got, want, plan.to_dict())


@pytest.mark.parametrize("block", range(4))
def test_deals_match_the_integer_program(block: int) -> None:
    rng = random.Random(1000 + block)
    for _ in range(100):
        rack, okey, _ = deal(rng)
        _same(rack, okey, best_points_opening(rack, okey, rules=R101))


@pytest.mark.parametrize("block", range(3))
def test_dense_racks_match_the_integer_program(block: int) -> None:
    rng = random.Random(2000 + block)
    for _ in range(100):
        rack, okey = dense(rng)
        _same(rack, okey, best_points_opening(rack, okey, rules=R101))


@pytest.mark.parametrize("block", range(3))
def test_table_layoffs_and_takes_match_the_integer_program_L6_P2(block: int) -> None:
    rng = random.Random(3000 + block)
    for _ in range(100):
        rack, okey, rest = deal(rng, rng.choice((14, 18, 21)))
        table = random_table(rng, okey, rng.randint(1, 6))
        take = None
        if rng.random() < 0.5:
            take = next(t for t in rest if t != okey)
        ends = {}
        if rng.random() < 0.3 and table:
            ends = {(0, "high"): 1}
        plan = best_points_opening(rack, okey, rules=R101, table=table, take=take,
                                   end_counts=tuple(ends.items()))
        full = rack + ([take] if take is not None else [])
        _same(full, okey, plan, take=take, table=table, end_used=ends)


@pytest.mark.parametrize("block", range(2))
def test_opened_turns_match_the_integer_program(block: int) -> None:
    """Points openers: new melds and lay-offs minimising the rack penalty (no okey on the table,
    so no swaps; the MILP's turn mode)."""
    rng = random.Random(4000 + block)
    for _ in range(50):
        rack, okey, _ = deal(rng, rng.choice((8, 12, 16, 21)))
        table = tuple(m for m in random_table(rng, okey, rng.randint(1, 10))
                      if not any(p.wild for p in m.tiles))
        table = tuple(TableMeld(i, m.owner, m.kind, m.tiles, m.placers) for i, m in enumerate(table))
        st = HandState(rules=R101, hand=1, starter=0, indicator=okey, okey=okey,
                       racks=(tuple(rack), (), (), ()), deck=None, deck_count=40,
                       discards=((), (), (), ()), table=table,
                       opened=(Opening("points", 120), None, None, None), turn=0, phase="play")
        plan = best_turn(st, 0)
        want = milp_opening(rack, okey, table=table, mode="turn")
        assert (plan.penalty, len(plan.left)) == want[1:], ([str(t) for t in rack], plan.to_dict(), want)


@pytest.mark.parametrize("block", range(3))
def test_opened_turns_with_okey_swaps_match_the_integer_program_S1_S2(block: int) -> None:
    """Points openers with okeys on the table and the tiles they stand for in the rack: swaps (S1;
    S2, a group of three completed to four colours) are scored on the rack they leave, and a
    freed okey that is not placed again is charged (E5). Small racks make P5 bind; every third
    position is an opening turn without lay-offs (101-classic, L6), where swaps stay allowed."""
    rng = random.Random(5000 + block)
    for i in range(60):
        rack, okey, rest = deal(rng, rng.choice((0, 1, 2, 4, 8, 13)))
        rack = [t for t in rack if t != okey]  # the okeys lie on the table
        table = random_table(rng, okey, rng.randint(1, 8), okeys=2)
        rack += [FALSE_OKEY if p.face == okey else p.face  # T5: J is the okey's own face
                 for m in table for p in m.tiles if p.wild and rng.random() < 0.8]
        rack = [t for k, t in enumerate(rack) if rack[:k].count(t) < 2]  # T1
        rack = rack or [next(t for t in rest if t != okey)]
        l6 = i % 3 == 2
        st = HandState(rules=PRESETS["101-classic"] if l6 else R101, hand=1, starter=0, indicator=okey,
                       okey=okey, racks=(tuple(rack), (), (), ()), deck=None, deck_count=40,
                       discards=((), (), (), ()), table=table,
                       opened=(Opening("points", 120), None, None, None), turn=0, phase="play",
                       opened_this_turn=l6)
        plan = best_turn(st, 0)
        want = milp_opening(rack, okey, table=() if l6 else table, mode="turn", swaps=table)
        assert (plan.penalty, len(plan.left)) == want[1:], ([str(t) for t in rack], str(okey), l6,
                                                           [str(m) for m in table], plan.to_dict(), want)
