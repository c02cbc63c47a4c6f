"""The compiled search (analysis/solver/kernel.c) against the pure-Python one it replaces.

Both must give the same best score on every problem without table slots, and the kernel's plan
must be a real placement: runs (M3), groups (M2) and pairs (M4) made of the problem's tiles and
okeys (T4), the required face placed (P2), and a weight equal to the score.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from analysis.solver import search as C

ROOT = Path(__file__).resolve().parents[1]


pytestmark = pytest.mark.skipif(bool(os.environ.get("ISTAKA_PURE")),
                                reason="ISTAKA_PURE=1 turns the kernel off")


def test_the_kernel_is_built_and_up_to_date() -> None:
    assert C.KERNEL is not None, "analysis/solver/kernel.c is not built: run pip install -e ."
    so = Path(C.KERNEL.__file__)
    src = ROOT / "analysis" / "solver" / "kernel.c"
    assert so.stat().st_mtime >= src.stat().st_mtime, f"{so.name} is older than {src.name}: rebuild"


def _problem(rng: random.Random) -> C.Problem:
    counts = [0] * 52
    if rng.random() < 0.4:  # a deal-like rack
        colours = list(range(4))
        n = rng.randint(3, 22)
    else:  # dense: one to three colours
        colours = rng.sample(range(4), rng.randint(1, 3))
        n = rng.randint(6, 24)
    for _ in range(n):
        f = rng.choice(colours) * 13 + rng.randrange(13)
        counts[f] = min(2, counts[f] + 1)
    wilds = rng.choice([0, 0, 1, 2])
    weights = rng.choice([(65600, 1, 65536, 14 * 64 + 1), (1, 0, 1, 0), (3, 1, 2, 5), (0, 1, 0, 1),
                          (1, 8, 1, 30)])
    faces = [f for f in range(52) if counts[f]]
    req = rng.choice(faces) if faces and rng.random() < 0.3 else None
    return C.Problem(counts, wilds, weights, rng.random() < 0.85, rng.random() < 0.3, req)


def _slots(rng: random.Random) -> tuple[tuple[C.RunSlot, ...], tuple[C.GroupSlot, ...]]:
    """Lay-off slots of a random table: run ends (up to two tiles, L3, or the whole way) and
    groups of three missing a colour (L2)."""
    runs, groups = [], []
    for m in range(rng.randint(0, 6)):
        if rng.random() < 0.6:
            c, lo = rng.randrange(4), rng.randrange(13)
            hi = min(12, lo + rng.randint(2, 5))
            cap = 2 if rng.random() < 0.7 else 13
            low = tuple(range(lo - 1, max(-1, lo - 1 - cap), -1))
            high = tuple(range(hi + 1, min(13, hi + 1 + cap)))
            runs += [C.RunSlot(m, c, ns) for ns in (low, high) if ns]
        else:
            groups.append(C.GroupSlot(m, rng.randrange(13), (rng.randrange(4),)))
    return tuple(runs), tuple(groups)


def _weight(p: C.Problem, n: int, wild: bool) -> int:
    ar, br, aw, bw = p.weights
    return aw * (n + 1) + bw if wild else ar * (n + 1) + br


def _check(p: C.Problem, sol: C.Solution) -> None:
    """The plan uses only the problem's tiles, forms legal melds and weighs its score."""
    left = list(p.counts)
    wilds = 0
    weight = 0
    placed: set[int] = set()

    def real(f: int) -> None:
        nonlocal weight
        left[f] -= 1
        assert left[f] >= 0, f"face {f} used more often than held"
        placed.add(f)
        weight += _weight(p, f % 13, False)

    def wild(n: int) -> None:
        nonlocal wilds, weight
        wilds += 1
        weight += _weight(p, n, True)

    for c, a, b, wl in sol.runs:
        assert p.runs and b - a >= 2 and 0 <= a and b <= 12, "M3: runs of 3+ within 1-13"
        assert set(wl) <= set(range(a, b + 1))
        for n in range(a, b + 1):
            wild(n) if n in wl else real(c * 13 + n)
    for n, cols, k in sol.groups:
        assert p.runs and 3 <= len(cols) + k <= 4 and len(set(cols)) == len(cols), "M2"
        for c in cols:
            real(c * 13 + n)
        for _ in range(k):
            wild(n)
    for f, w in sol.pairs:
        assert p.pairs, "M4: no pairs here"
        if f < 0:
            wild(12), wild(12)
            continue
        assert w in (0, 1), "a pair holds a real tile"
        real(f)
        wild(f % 13) if w else real(f)
    for rs, j, flags in sol.run_layoffs:  # L2: outward from the run end, no gaps
        assert rs in p.run_slots and 1 <= j <= len(rs.numbers) and len(flags) == j
        for x, fl in zip(rs.numbers[:j], flags):
            wild(x) if fl else real(rs.colour * 13 + x)
    for gs, lst in sol.group_layoffs:  # L2: only the group's missing colours
        assert gs in p.group_slots and len({c for c, _ in lst}) == len(lst)
        for c, fl in lst:
            assert c in gs.colours
            wild(gs.number) if fl else real(c * 13 + gs.number)
    assert wilds <= p.wilds, "T4: more okeys than held"
    assert p.required is None or p.required in placed, "P2: the required face is placed"
    assert weight == sol.score
    assert sol.wilds_used == wilds and sol.used == sum(p.counts) - sum(left) + wilds


SEEDS = [(s, False) for s in range(6)] + [(100 + s, True) for s in range(6)]


@pytest.mark.parametrize("seed,table", SEEDS)
def test_kernel_matches_the_python_search(seed: int, table: bool) -> None:
    """Same best score as the Python search on 400 problems a seed, bare racks and with table
    lay-off slots (L1-L3), and every plan a real placement."""
    assert C.KERNEL is not None
    rng = random.Random(seed)
    for _ in range(400):
        p = _problem(rng)
        if table:
            p.run_slots, p.group_slots = _slots(rng)
        want = C.search_py(p)
        got = C.kernel_search(p)
        assert (want is None) == (got is None), (p, want, got)
        if got is None:
            continue
        assert got.score == want.score, (p, want, got)
        _check(p, got)
        _check(p, want)


def test_kernel_plans_hold_at_the_edges_of_its_tables() -> None:
    """Three copies of a face, up to four okeys, run ends twelve long, two missing colours a
    table group: no crash, and every plan a real placement (the Python search is too slow to
    compare here)."""
    assert C.KERNEL is not None
    rng = random.Random(7)
    for _ in range(300):
        counts = [0] * 52
        for _ in range(rng.randint(0, 30)):
            f = rng.randrange(52)
            counts[f] = min(3, counts[f] + 1)
        run_slots = []
        for m in range(rng.randint(0, 8)):
            start, step = rng.randrange(13), rng.choice((-1, 1))
            reach = (start + step * i for i in range(rng.randint(1, 12)))
            nums = tuple(x for x in reach if 0 <= x <= 12)
            run_slots.append(C.RunSlot(m, rng.randrange(4), nums))
        groups = tuple(C.GroupSlot(10 + m, rng.randrange(13),
                                   tuple(rng.sample(range(4), rng.randint(1, 2))))
                       for m in range(rng.randint(0, 4)))
        faces = [f for f in range(52) if counts[f]]
        req = rng.choice(faces) if faces and rng.random() < 0.3 else None
        p = C.Problem(counts, rng.randint(0, 4), (1, 2, 1, 5), rng.random() < 0.8,
                      rng.random() < 0.4, req, tuple(run_slots), groups)
        try:
            sol = C.kernel_search(p)
        except OverflowError:  # search() then falls back to Python
            continue
        if sol is not None:
            _check(p, sol)


def test_kernel_refuses_what_it_cannot_hold() -> None:
    assert C.KERNEL is not None
    with pytest.raises(ValueError):
        C.KERNEL.search(bytes(51), 0, 1, 0, 1, 0, True, False, -1, [], [])
    with pytest.raises(ValueError):
        C.KERNEL.search(bytes(52), 5, 1, 0, 1, 0, True, False, -1, [], [])
    with pytest.raises(ValueError):
        C.KERNEL.search(bytes(52), 0, 1, 0, 1, 0, True, False, -1, [(0, bytes([13]))], [])
    with pytest.raises(OverflowError):  # five table groups missing a colour at one number
        C.KERNEL.search(bytes(52), 0, 1, 0, 1, 0, True, False, -1, [], [(4, bytes([0]))] * 5)


def test_search_falls_back_to_python_past_the_kernel_tables() -> None:
    """search() gives the Python answer where the kernel refuses (here five table groups of 5s)."""
    groups = tuple(C.GroupSlot(m, 4, (m % 4,)) for m in range(5))
    p = C.Problem([0] * 52, 1, (1, 0, 1, 0), group_slots=groups)
    p.counts[4] = p.counts[13 + 4] = 1  # R5 Y5
    sol = C.search(p)
    assert sol is not None and sol.score == 5 * 3 and len(sol.group_layoffs) == 3
