"""The closed-form pairs opening (analysis/solver/pairs.py) against the exact search
it replaced (tests/pairs_reference.py) and against positions worked out by hand (M4, O3, O7, P2,
P5, E5). Agreement is on (pairs, rack penalty as a pairs opener, tiles left); every plan is also
checked to be real pairs of the rack's own tiles, holding the taken tile."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from pairs_reference import pairs_reference

from analysis.game import FACES, FALSE_OKEY, PRESETS, Tile, full_set, okey_of, resolve
from analysis.solver import best_pairs_opening, rack_penalty
from analysis.solver.pairs import pairs_plan

R101 = PRESETS["101"]


def t(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


def _check(rack: list[Tile], okey: Tile, twin: Tile | None, need: Tile | None, found) -> None:
    """A plan is real pairs of the rack's own tiles, keeps one (P5) and holds the taken tile."""
    assert found is not None
    pairs, left = found
    used = Counter(p.physical for pr in pairs for p in pr)
    assert used + Counter(left) == Counter(rack), (pairs, left)
    assert len(left) >= 1 or not rack  # P5
    for a, b in pairs:
        assert a.face == b.face, (a, b)  # M4
        for p in (a, b):
            wild = p.physical == okey or (twin is not None and p.physical == twin and p.wild)
            assert p.wild == wild and (p.wild or p.face == (okey if p.physical == FALSE_OKEY else p.physical))
    if twin is not None:
        assert sum(1 for pr in pairs for p in pr if p.wild and p.physical == twin) <= 1  # one twin
    if need is not None:
        nf = okey if need == FALSE_OKEY else need
        assert any(not p.wild and p.face == nf for pr in pairs for p in pr), "P2: the taken tile"


def _summary(rack, okey, rules, pairs) -> tuple | None:
    if pairs is None:
        return None
    left = list(rack)
    for pr in pairs:
        for p in pr:
            left.remove(p.physical)
    return len(pairs), rack_penalty(left, okey, rules, pairs=True), len(left)


def _random_case(rng: random.Random) -> tuple:
    bag = list(full_set().elements())
    rng.shuffle(bag)
    ind = next(x for x in bag if not x.is_joker)
    bag.remove(ind)
    okey = okey_of(ind)
    n = rng.choice((1, 2, 3, 4, 5, 8, 11, 14, 15, 21, 22))
    if rng.random() < 0.4:  # pair-rich: few faces, both okeys and false okeys
        faces = rng.sample([f for f in FACES if f != ind], rng.randint(1, 12))
        pool = [f for f in faces for _ in range(2)] + [okey, okey, FALSE_OKEY, FALSE_OKEY]
        rng.shuffle(pool)
        rack = pool[:n]
    else:
        rack = bag[:n]
    twin = None
    if rng.random() < 0.3:  # the indicator's other copy, shown (O7)
        twin = ind
        if ind not in rack and rng.random() < 0.7:
            rack = rack + [ind]
    rules = R101 if rng.random() < 0.7 else resolve("101", {"okey_in_rack": rng.choice((0, 5, 101))})
    need = None
    if rng.random() < 0.4:
        cand = [x for x in rack if x != okey]
        need = rng.choice(cand) if cand else None
    return rack, okey, twin, rules, need


@pytest.mark.parametrize("seed", range(3))
def test_closed_form_matches_the_exact_search(seed: int) -> None:
    rng = random.Random(13_000 + seed)
    for _ in range(1500):
        rack, okey, twin, rules, need = _random_case(rng)
        found = pairs_plan(rack, okey, rules, twin, need)
        want = _summary(rack, okey, rules, pairs_reference(rack, okey, rules, twin, need))
        got = None if found is None else _summary(rack, okey, rules, found[0])
        assert got == want, ([str(x) for x in rack], str(okey), twin, need, got, want)
        if found is not None:
            _check(rack, okey, twin, need, found)
            assert found[1] == sorted(found[1], key=lambda x: 52 if x == FALSE_OKEY else x.index)


# indicator Y6: the okey is Y7, J counts as Y7
HAND = [
    # natural R5 R5, K9 completed by the okey; B3 left: 2 x 3 = 6
    ("R5 R5 B3 K9 Y7", None, None, (2, 6, 1), "R101"),
    # three tiles keep one (P5): R5 with the okey (left R5, 10) beats R5 R5 (left the okey, 14 + 101)
    ("R5 R5 Y7", None, None, (1, 10, 1), "R101"),
    # the false okey pairs with its twin as Y7 Y7; the okey completes K13 (the highest single)
    ("J J K13 B2 Y7", None, None, (2, 4, 1), "R101"),
    # P2: the taken B2 must be in a pair: B2 with the okey, K13 left (26)
    ("J J K13 B2 Y7", None, "B2", (2, 26, 1), "R101"),
    # two okeys and nothing to complete: they pair with each other
    ("Y7 Y7 R1", None, None, (1, 2, 1), "R101"),
    # O7: the shown twin Y6 completes R12; one pair only, R3 left
    ("Y6 R12 R3", "Y6", None, (1, 6, 1), "R101"),
    # two okeys and the twin, one pair (P5): the okeys pair, the twin is kept (2 x 6 = 12 < 2 x 7 + 101)
    ("Y7 Y7 Y6", "Y6", None, (1, 12, 1), "R101"),
    # the same without the okey charge (override): 2 x 6 kept still beats 2 x 7
    ("Y7 Y7 Y6", "Y6", None, (1, 12, 1), "cheap"),
]


@pytest.mark.parametrize("rack,twin,need,want,rules", HAND)
def test_pairs_worked_by_hand_M4_O7_P2_P5(rack: str, twin: str | None, need: str | None,
                                          want: tuple, rules: str) -> None:
    r = R101 if rules == "R101" else resolve("101", {"okey_in_rack": 0})
    okey = Tile.parse("Y7")
    _hand_case(rack, okey, twin, need, want, r)


def test_a_cheap_okey_pairs_with_the_twin_rather_than_with_the_other_okey_O7_E5() -> None:
    """Indicator K13, okey K1, twin K13; with no okey charge (override) an okey kept costs 2 x 1
    and the twin 2 x 13: the pair is okey + twin, an okey is kept (the old search paired the two
    okeys and kept the twin, 26)."""
    _hand_case("K1 K1 K13", Tile.parse("K1"), "K13", None, (1, 2, 1), resolve("101", {"okey_in_rack": 0}))


def _hand_case(rack: str, okey: Tile, twin: str | None, need: str | None, want: tuple, r) -> None:
    tw = Tile.parse(twin) if twin else None
    nd = Tile.parse(need) if need else None
    found = pairs_plan(t(rack), okey, r, tw, nd)
    assert _summary(t(rack), okey, r, found[0] if found else None) == want
    _check(t(rack), okey, tw, nd, found)


def test_a_taken_tile_that_cannot_be_paired_gives_no_pairs_opening_P2() -> None:
    okey = Tile.parse("Y7")
    assert pairs_plan(t("R5 R5 B3 K9"), okey, R101, None, Tile.parse("B3")) is None
    plan = best_pairs_opening(t("R5 R5 K9"), okey, rules=R101, take=Tile.parse("B3"))
    assert plan.count == 0 and not plan.reaches and plan.pairs == []


def test_best_pairs_opening_reaches_the_threshold_O3() -> None:
    okey = Tile.parse("Y7")
    rack = t("R1 R1 R2 R2 R3 R3 R4 R4 B9 Y7 K2 K5")
    plan = best_pairs_opening(rack, okey, rules=R101)
    assert (plan.count, plan.reaches, [str(x) for x in plan.left]) == (5, True, ["K2", "K5"])
    assert not best_pairs_opening(rack, okey, rules=R101, threshold=6).reaches
