"""The Python rollout model's meld finder (:mod:`.sim`, the reference; the compiled model of
``rollout.c`` runs the same kernel search in C, with the table's lay-off slots): the exact
solver's search (the C kernel) on count vectors.

The model's players open, place and keep tiles by the best placement the solver finds, as the
``solver`` and ``expert`` bots do, not by the quick finder's first runs or groups: a model that
opens later than real players would make every unopened position look worse than it is.

The kernel is called directly (no table slots, no pairs), the hot path of every rollout; where it
is not built (``ISTAKA_PURE=1``) or its tables are too small, the solver's Python search answers.
"""

from __future__ import annotations

from analysis.solver.encoding import search_keep_one
from analysis.solver.problem import Problem
from analysis.solver.search import KERNEL, deal_groups

WILD = 52
RUN, GROUP = 0, 1
K1, K2 = 1 << 16, 1 << 6  # value first, then the value of the real tiles placed, then tile count

Meld = tuple[int, int, int, int]  # the model's table entry: RUN, colour, lo, hi / GROUP, number, mask, size
Runs = list[tuple[int, int, int, tuple[int, ...]]]  # colour, first, last (0-based), okey numbers
Groups = list[tuple[int, tuple[int, ...], int]]  # number (0-based), real colours, okeys


def _weights(okv: int) -> tuple[int, int, int, int]:
    return (K1 + K2, 1, K1, okv * K2 + 1)


def _kernel(c: list[int], wild: int, okv: int, req: int) -> tuple[int, Runs, Groups] | None:
    """(score, runs, groups) of the kernel's best placement (None: ``req`` cannot be placed)."""
    assert KERNEL is not None
    out = KERNEL.search(bytes(c[:52]), wild, *_weights(okv), True, False, req, [], [])
    if out is None:
        return None
    score, chosen, runs, _ = out
    groups: Groups = []
    for x in chosen:  # numbers: (0, number, tiles per colour, okeys, lay-offs); no run ends without slots
        _, n, g, k, _ = x
        if any(g):
            groups += deal_groups(n, g, k)  # groups of 3-4 distinct colours (M2), as the solver deals them
    return score, list(runs), groups


def _search(c: list[int], okv: int, req: int) -> tuple[Runs, Groups] | None:
    """The best placement keeping a tile to discard (P5), as ``search_keep_one`` finds it."""
    n = sum(c)
    wild = c[WILD]
    if KERNEL is None or wild > 4 or max(c[:52]) > 3:
        sol = search_keep_one(Problem(c[:52], wild, _weights(okv), True, False, None if req < 0 else req), n)
        return None if sol is None else (sol.runs, sol.groups)
    got = _kernel(c, wild, okv, req)
    if got is None:
        return None
    _, runs, groups = got
    used = sum(b - a + 1 for _, a, b, _ in runs) + sum(len(cs) + k for _, cs, k in groups)
    if used < n:
        return runs, groups
    # everything fits: the best over leaving out each distinct tile, cheapest first, while one can win
    ar, br, aw, bw = _weights(okv)
    ww = max(aw * 13 + bw, aw + bw)
    total = sum(c[f] * (ar * (f % 13 + 1) + br) for f in range(52)) + wild * ww
    outs = sorted([(ar * (f % 13 + 1) + br, f) for f in range(52) if c[f]] + ([(ww, WILD)] if wild else []))
    best: tuple[int, Runs, Groups] | None = None
    for w, f in outs:
        if best is not None and total - w <= best[0]:
            break
        c[f] -= 1
        try:
            got = _kernel(c, c[WILD], okv, req)
        finally:
            c[f] += 1
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    return None if best is None else (best[1], best[2])


def best_placement(c: list[int], okv: int, req: int = -1) -> tuple[int, list[Meld], list[int]] | None:
    """The most valuable runs and groups of the rack counts ``c`` (52 faces and okeys at 52),
    keeping a tile to discard (P5): (value, melds, counts left). ``req``: a face that must be
    placed (P2, a taken discard); None when it cannot be. ``okv``: the okey's number (ties).

    Answers are remembered: the candidates of one decision are played in the same worlds, so the
    other seats meet the same racks again and again until the candidates' games part."""
    key = (bytes(c), okv, req)
    hit = _SEEN.get(key)
    if hit is None:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        hit = _SEEN[key] = _placement(c, okv, req)
    if hit is _NONE:
        return None
    value, melds, left = hit
    return value, list(melds), list(left)


_NONE: tuple = ()
_SEEN: dict[tuple[bytes, int, int], tuple] = {}
_SEEN_MAX = 200_000


def _placement(c: list[int], okv: int, req: int) -> tuple:
    got = _search(c, okv, req)
    if got is None:
        return _NONE
    runs, groups = got
    left = list(c)
    value = 0
    melds: list[Meld] = []
    for col, a, b, wl in runs:
        base = col * 13
        for n in range(a, b + 1):
            if n in wl:
                left[WILD] -= 1
            else:
                left[base + n] -= 1
        value += (a + b + 2) * (b - a + 1) // 2
        melds.append((RUN, col, a + 1, b + 1))
    for n, cols, k in groups:
        mask = 0
        for col in cols:
            left[col * 13 + n] -= 1
            mask |= 1 << col
        for col in [x for x in range(4) if x not in cols][:k]:  # the okeys stand for missing colours
            mask |= 1 << col
        left[WILD] -= k
        size = len(cols) + k
        value += (n + 1) * size
        melds.append((GROUP, n + 1, mask, size))
    return value, tuple(melds), tuple(left)


__all__ = ["best_placement"]
