"""Runs of one colour (M3): a DP over the numbers 1-13 whose state is the lengths of the runs still
open (capped at 3) and the okeys used, split into pieces no okey-bridged run can join, each
piece's answer (best weight per okey count) memoised across calls; and plans rebuilt from it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .problem import NEG, Solution, Weights

_PIECE_CACHE: dict[tuple, tuple[int, ...]] = {}
CACHE_LIMIT = 400_000


def _dp(a: int, cnt: tuple[int, ...], W: int, wt: Weights, req: int, runs: bool, pairs: bool,
        trace: bool = False):
    """Best weight per okeys used (0..W) for runs/pairs over numbers a..a+len(cnt)-1 of one colour.

    State after each number: (open run lengths capped at 3, ascending; okeys used; required met).
    With ``trace`` also returns the per-number choices to rebuild the best plan.
    """
    ar, br, aw, bw = wt
    states: dict[tuple, int] = {((), 0, req < 0): 0}
    parents: list[dict] = []
    for i, c in enumerate(cnt):
        n = a + i + 1
        rw, ww = ar * n + br, aw * n + bw
        new: dict[tuple, int] = {}
        par: dict = {}
        at_req = i == req
        for key, sc in states.items():
            S, u, sat = key
            tk = (S, c, W - u, runs, pairs)
            trans = _TRANS.get(tk)
            if trans is None:
                trans = _TRANS[tk] = _transitions(*tk)
            for S2, f, p, r, k in trans:
                s2 = sc + r * rw + k * ww
                nk = (S2, u + k, sat or (at_req and r > 0))
                if new.get(nk, NEG) < s2:
                    new[nk] = s2
                    if trace:
                        par[nk] = (key, f, p, r)
        states = new
        if trace:
            parents.append(par)
    best = [NEG] * (W + 1)
    ends: list = [None] * (W + 1)
    for key, sc in states.items():
        S, u, sat = key
        if sat and (not S or S[0] == 3) and sc > best[u]:
            best[u] = sc
            ends[u] = key
    if not trace:
        for u in range(1, W + 1):  # at most u okeys
            if best[u] < best[u - 1]:
                best[u] = best[u - 1]
        return tuple(best)
    return best, ends, parents


_TRANS: dict[tuple, tuple] = {}


def _transitions(S: tuple[int, ...], c: int, wl: int, runs: bool, pairs: bool) -> tuple:
    """From open runs S with c real tiles and wl okeys available at a number: every
    (next open runs, run coverage f, pairs p, reals used r, okeys used k)."""
    out: list[tuple] = []
    ls = len(S)
    avail = c + wl
    for f in range(avail + 1 if runs else 1):
        if f >= ls:
            S2 = (1,) * (f - ls) + tuple([3 if x >= 2 else x + 1 for x in S])
        else:
            e = ls - f  # close e runs; only runs of length 3+ may close (M3)
            if S[ls - e] != 3:
                continue
            S2 = tuple([3 if x >= 2 else x + 1 for x in S[:ls - e]])
        for p in range((avail - f) // 2 + 1 if pairs else 1):
            use = f + 2 * p
            rlo = max(use - wl, p)  # a pair holds at least one real tile (wild-wild pairs are global)
            for r in range(rlo, min(c, use) + 1):
                out.append((S2, f, p, r, use - r))
    return tuple(out)


def _pieces(cnt: list[int], W: int, runs: bool) -> list[tuple[int, int]]:
    """(start, end) ranges of one colour, widened by W for okeys, that no run can join (0-based)."""
    pos = [i for i in range(13) if cnt[i]]
    out: list[tuple[int, int]] = []
    if not pos:
        return out
    reach = W if runs else 0
    s = e = pos[0]
    for p in pos[1:]:
        if p - e - 1 <= reach:
            e = p
        else:
            out.append((s, e))
            s = e = p
    out.append((s, e))
    return [(max(0, s - reach), min(12, e + reach)) for s, e in out]


def conv(x: tuple[int, ...] | list[int], y: tuple[int, ...] | list[int], W: int) -> list[int]:
    out = [NEG] * (W + 1)
    for i in range(W + 1):
        xi = x[i]
        if xi == NEG:
            continue
        for j in range(W + 1 - i):
            if y[j] != NEG and xi + y[j] > out[i + j]:
                out[i + j] = xi + y[j]
    return out


_COLOUR_CACHE: dict[tuple, list[int]] = {}


def colour_best(cnt: list[int], W: int, wt: Weights, req: int, runs: bool, pairs: bool) -> list[int]:
    """Best weight of one colour's runs/pairs per okeys allowed (0..W); ``req`` 0-based or -1."""
    if not W:
        wt = (wt[0], wt[1], 0, 0)  # okey weights do not matter without okeys
    key = (tuple(cnt), W, wt, req, runs, pairs)
    hit = _COLOUR_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_COLOUR_CACHE) > CACHE_LIMIT:
        _COLOUR_CACHE.clear()
    out = _COLOUR_CACHE[key] = _colour_best(cnt, W, wt, req, runs, pairs)
    return out


def _colour_best(cnt: list[int], W: int, wt: Weights, req: int, runs: bool, pairs: bool) -> list[int]:
    total: list[int] = [0] * (W + 1)
    found_req = req < 0
    for a, b in _pieces(cnt, W, runs):
        if b - a < 2 and not pairs and not (a <= req <= b):
            continue  # too short for a run
        sub = tuple(cnt[a:b + 1])
        r = req - a if a <= req <= b else -1
        if r >= 0:
            found_req = True
        key = (a, sub, W, wt, r, runs, pairs)
        v = _PIECE_CACHE.get(key)
        if v is None:
            if len(_PIECE_CACHE) > CACHE_LIMIT:
                _PIECE_CACHE.clear()
            v = _PIECE_CACHE[key] = _dp(a, sub, W, wt, r, runs, pairs)
        total = conv(total, v, W)
    if not found_req:
        return [NEG] * (W + 1)
    return total


def colour_plan(cnt: list[int], W: int, k: int, wt: Weights, req: int, runs: bool, pairs: bool,
                colour: int, sol: Solution) -> None:
    """Write into ``sol`` the runs and pairs of one colour reaching colour_best(...)[k]."""
    if not W:
        wt = (wt[0], wt[1], 0, 0)
    pieces = [(a, b) for a, b in _pieces(cnt, W, runs) if b - a >= 2 or pairs or a <= req <= b]
    keys = []
    vecs = []
    for a, b in pieces:
        r = req - a if a <= req <= b else -1
        key = (a, tuple(cnt[a:b + 1]), W, wt, r, runs, pairs)
        keys.append(key)
        v = _PIECE_CACHE.get(key)
        if v is None:
            v = _PIECE_CACHE[key] = _dp(*key)
        vecs.append(v)
    # split the k okeys between the pieces
    target = colour_best(cnt, W, wt, req, runs, pairs)[k]
    alloc = split_okeys(vecs, k, target) if k else [0] * len(vecs)
    for key, u in zip(keys, alloc):
        tk = key + (u,)
        hit = _TRACE_CACHE.get(tk)
        if hit is None:
            if len(_TRACE_CACHE) > CACHE_LIMIT:
                _TRACE_CACHE.clear()
            hit = _TRACE_CACHE[tk] = _trace(key, u)
        for st, en, wl in hit[0]:
            sol.runs.append((colour, st, en, wl))
        for f, w in hit[1]:
            sol.pairs.append((colour * 13 + f, w))


_TRACE_CACHE: dict[tuple, tuple[list, list]] = {}


def _trace(pkey: tuple, u: int) -> tuple[list, list]:
    """Runs (start, end, okey numbers) and pairs (number, okeys) of a piece's best plan with
    at most u okeys (the best is reached with some exact count <= u)."""
    a, cnt, W, wt, r, runs, pairs = pkey
    best, ends, parents = _dp(a, cnt, W, wt, r, runs, pairs, trace=True)
    u = max(range(u + 1), key=lambda x: best[x])
    out_runs: list = []
    out_pairs: list = []
    for _ in (1,):
        key = ends[u]
        open_runs: list[list] = []  # [start, okeys]
        choices = []
        for i in range(len(parents) - 1, -1, -1):
            prev, f, p, r = parents[i][key]
            choices.append((i, f, p, r, key[1] - prev[1]))
            key = prev
        choices.reverse()
        for i, f, p, r, kw in choices:
            n = a + i  # 0-based number
            # okeys at this number: fill pairs' second tiles first, then run positions
            reals_for_runs = min(f, r - p)  # one real per pair first (wild-wild pairs are global)
            pair_wild = kw - (f - reals_for_runs)
            ls = len(open_runs)
            if f < ls:  # close the longest (earliest started) runs
                open_runs.sort(key=lambda x: x[0])
                for st, wl in open_runs[:ls - f]:
                    out_runs.append((st, n - 1, tuple(wl)))
                open_runs = open_runs[ls - f:]
            else:
                open_runs.extend([n, []] for _ in range(f - ls))
            for j, run in enumerate(open_runs):
                if j >= reals_for_runs:
                    run[1].append(n)
            for q in range(p):
                w = 1 if q < pair_wild else 0
                out_pairs.append((n, w))
        for st, wl in open_runs:
            out_runs.append((st, a + len(parents) - 1, tuple(wl)))
    return out_runs, out_pairs


def split_okeys(vecs: Sequence[Sequence[int]], k: int, target: int) -> list[int]:
    """Okeys per piece so that the pieces' best weights sum to ``target`` with at most k okeys."""
    def rec(i: int, left: int, need: int) -> list[int] | None:
        if i == len(vecs):
            return [] if need == 0 else None
        for u in range(left + 1):
            if vecs[i][u] == NEG:
                continue
            rest = rec(i + 1, left - u, need - vecs[i][u])
            if rest is not None:
                return [u] + rest
        return None
    out = rec(0, k, target)
    assert out is not None, "piece split not found"
    return out


# ---- slots: groups, group lay-offs and run-end lay-offs -------------------------------------------

