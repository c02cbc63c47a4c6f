"""The exact placement search behind the solver: count vectors, per-colour run DP, group search.

A problem is a count vector over the 52 faces (a false okey counts as the okey's face, T5), a
number of wild okeys (T4), per-tile weights, and what the table offers (lay-off slots, L1-L3).
The search maximises the total weight of the tiles placed:

* runs (M3) never mix colours, so for a fixed choice of group tiles each colour is solved on its
  own by a DP over the numbers 1-13 whose state is the lengths of the runs still open (capped at
  3) and the okeys used; a colour is split into pieces no okey-bridged run can join, and each
  piece's answer (best weight per okey count) is memoised across calls;
* groups (M2) and lay-offs live at one number or one run end: they form "slots" whose options
  are enumerated depth first with a branch-and-bound on two upper bounds (the runs of the
  untouched rack, and the weight of every tile still unplaced); options that only differ in tiles
  no run, pair or lay-off could take are collapsed to the best one.

Weights are linear in the face number (``real(n) = ar*n + br``, ``okey(n) = aw*n + bw``) so one
search serves the opening (value, then rack penalty, then tile count, folded into one integer),
an opened player's turn (penalty saved) and "can everything be placed" (tile count).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from itertools import product
from types import ModuleType
from typing import Any

from .colours import CACHE_LIMIT, colour_best, colour_plan, conv, split_okeys
from .problem import NEG, GroupSlot, Problem, RunSlot, Solution, Weights

__all__ = ["NEG", "GroupSlot", "Problem", "RunSlot", "Solution", "Weights", "search", "search_py"]

Option = tuple[tuple[tuple[int, int], ...], int, int, Any]  # (face, reals) removed, okeys, weight, detail
_NUM_CACHE: dict[tuple, list[Option]] = {}


def _group_ok(T: int, gmax: int) -> bool:
    """Can T tiles with at most gmax of one colour form groups of 3-4 distinct colours (M2)?"""
    m = max(gmax, (T + 3) // 4)
    return 3 * m <= T


def _number_options(n: int, cc: tuple[int, ...], W: int, wt: Weights, gslots: tuple[GroupSlot, ...],
                    new_groups: bool, contested: tuple[bool, ...]) -> list[Option]:
    key = (n, cc, W, wt, gslots, new_groups, contested)
    hit = _NUM_CACHE.get(key)
    if hit is not None:
        return hit
    ar, br, aw, bw = wt
    rw, ww = ar * (n + 1) + br, aw * (n + 1) + bw
    lay_choices = []  # per (slot, colour): 0 none, 1 real, 2 okey
    for gs in gslots:
        for c in gs.colours:
            lay_choices.append((gs, c))
    best: dict[tuple, tuple[int, tuple, int, object]] = {}
    grange = [range(x + 1) for x in cc] if new_groups else [range(1)] * 4
    for g in product(*grange):
        sg = g[0] + g[1] + g[2] + g[3]
        for k in range(W + 1 if new_groups else 1):
            T = sg + k
            if T and not _group_ok(T, max(g)):
                continue
            for lay in product(range(3), repeat=len(lay_choices)):
                use = list(g)
                kk = k
                for (gs, c), ch in zip(lay_choices, lay):
                    if ch == 1:
                        use[c] += 1
                    elif ch == 2:
                        kk += 1
                if kk > W or any(use[c] > cc[c] for c in range(4)):
                    continue
                tot = sum(use)
                score = tot * rw + kk * ww
                ck = (tuple(use[c] if contested[c] else -1 for c in range(4)), kk)
                old = best.get(ck)
                if old is None or old[0] < score:
                    best[ck] = (score, tuple(use), kk, (g, k, tuple(zip(lay_choices, lay))))
    out: list[Option] = []
    for score, taken, kk, detail in best.values():
        removal = tuple((c * 13 + n, taken[c]) for c in range(4) if taken[c])
        out.append((removal, kk, score, detail))
    out.sort(key=lambda o: -o[2])
    if len(_NUM_CACHE) > CACHE_LIMIT:
        _NUM_CACHE.clear()
    _NUM_CACHE[key] = out
    return out


_RUN_SLOT_CACHE: dict[tuple, list[Option]] = {}


def _run_slot_options(rs: RunSlot, counts: list[int], W: int, wt: Weights) -> list[Option]:
    key = (rs, tuple(counts[rs.colour * 13 + x] for x in rs.numbers), W, wt)
    hit = _RUN_SLOT_CACHE.get(key)
    if hit is None:
        if len(_RUN_SLOT_CACHE) > CACHE_LIMIT:
            _RUN_SLOT_CACHE.clear()
        hit = _RUN_SLOT_CACHE[key] = _run_slot_options_uncached(rs, counts, W, wt)
    return hit


def _run_slot_options_uncached(rs: RunSlot, counts: list[int], W: int, wt: Weights) -> list[Option]:
    ar, br, aw, bw = wt
    out: list[Option] = [((), 0, 0, (rs, 0, ()))]
    for j in range(1, len(rs.numbers) + 1):
        ns = rs.numbers[:j]
        for flags in product((False, True), repeat=j):
            k = sum(flags)
            if k > W or any(not fl and counts[rs.colour * 13 + x] == 0 for x, fl in zip(ns, flags)):
                continue
            score = sum((aw * (x + 1) + bw) if fl else (ar * (x + 1) + br) for x, fl in zip(ns, flags))
            removal = tuple((rs.colour * 13 + x, 1) for x, fl in zip(ns, flags) if not fl)
            out.append((removal, k, score, (rs, j, flags)))
    out.sort(key=lambda o: -o[2])
    return out


_RUNNABLE_CACHE: dict[tuple, tuple[bool, ...]] = {}


def _runnable(cnt: tuple[int, ...], W: int) -> tuple[bool, ...]:
    """Per number of one colour: does some 3-window through it need at most W okeys?"""
    key = (cnt, W)
    hit = _RUNNABLE_CACHE.get(key)
    if hit is None:
        zero = [x == 0 for x in cnt]
        win = [zero[s] + zero[s + 1] + zero[s + 2] <= W for s in range(11)]
        hit = tuple(cnt[n] > 0 and any(win[s] for s in range(max(0, n - 2), min(n, 10) + 1))
                    for n in range(13))
        if len(_RUNNABLE_CACHE) > CACHE_LIMIT:
            _RUNNABLE_CACHE.clear()
        _RUNNABLE_CACHE[key] = hit
    return hit


def _contested(counts: list[int], W: int, p: Problem) -> list[tuple[bool, ...]]:
    """Per number, per colour: could a tile of that face go anywhere but a group at its number?"""
    per = [list(_runnable(tuple(counts[c * 13:c * 13 + 13]), W)) if p.runs else [False] * 13
           for c in range(4)]
    if p.run_slots or p.pairs:
        for rs in p.run_slots:
            for x in rs.numbers:
                per[rs.colour][x] = True
        if p.pairs:
            for f in range(52):
                if counts[f] >= 2 or (counts[f] and W):
                    per[f // 13][f % 13] = True
    return [(per[0][n], per[1][n], per[2][n], per[3][n]) for n in range(13)]


def _usable_weight(counts: list[int], W: int, p: Problem, slots_faces: set[int], rws: list[int]) -> int:
    """Weight of the real tiles some run, pair, group or lay-off could take (an upper bound)."""
    tot = 0
    for c in range(4):
        cnt = tuple(counts[c * 13:c * 13 + 13])
        run = _runnable(cnt, W) if p.runs else (False,) * 13
        for n in range(13):
            f = c * 13 + n
            if cnt[n] and (run[n] or f in slots_faces or (p.pairs and (cnt[n] >= 2 or W))):
                tot += cnt[n] * rws[n]
    return tot


def _load_kernel() -> ModuleType | None:
    """The compiled search (analysis/solver/kernel.c), or None: not built, or ISTAKA_PURE=1 set to keep
    to this module's search."""
    if os.environ.get("ISTAKA_PURE"):
        return None
    try:
        import analysis.solver.kernel as kernel
    except ImportError:
        return None
    return kernel


KERNEL = _load_kernel()  # the compiled module, or None


def search(p: Problem) -> Solution | None:
    """The best placement of ``p`` (None when the required face cannot be placed)."""
    if KERNEL is not None and p.wilds <= 4 and max(p.counts) <= 3:
        try:
            return kernel_search(p)
        except OverflowError:  # past the kernel's tables (more okeys, slots or options)
            pass
    return search_py(p)


def kernel_search(p: Problem) -> Solution | None:
    """The same search, compiled (analysis/solver/kernel.c)."""
    assert KERNEL is not None
    out = KERNEL.search(bytes(p.counts), p.wilds, *p.weights, p.runs, p.pairs,
                         -1 if p.required is None else p.required,
                         [(rs.colour, bytes(rs.numbers)) for rs in p.run_slots],
                         [(gs.number, bytes(gs.colours)) for gs in p.group_slots])
    if out is None:
        return None
    score, chosen, runs, pairs = out
    sol = Solution(score, runs, [], pairs)
    for x in chosen:
        if x[0] == 0:  # a number: new groups and lay-offs onto table groups
            _, n, g, k, lays = x
            _groups(sol, n if any(g) else -1, g, k)
            _group_layoffs(sol, ((p.group_slots[i], c, wild) for i, c, wild in lays))
            sol.used += sum(g) + k + len(lays)
            sol.wilds_used += k + sum(w for _, _, w in lays)
        else:  # a run end
            _, i, j, flags = x
            if j:
                sol.run_layoffs.append((p.run_slots[i], j, flags))
            sol.used += j
            sol.wilds_used += sum(flags)
    _count_used(sol)
    return sol


def search_py(p: Problem) -> Solution | None:
    """The best placement of ``p`` in pure Python: the reference for the kernel, and the search
    where the kernel is not built or its tables are too small."""
    counts = list(p.counts)
    W = p.wilds
    wt = p.weights
    ar, br, aw, bw = wt
    rws = [ar * (n + 1) + br for n in range(13)]
    ww_max = max(aw * 13 + bw, aw + bw)
    slots: list[list[Option]] = []
    contested: list | None = None
    gby: dict[int, list[GroupSlot]] = {}
    for gs in p.group_slots:
        gby.setdefault(gs.number, []).append(gs)
    need = 3 - W
    # high numbers first: their options weigh most, so the bound falls fastest down the search
    for n in range(12, -1, -1):
        cc = (counts[n], counts[13 + n], counts[26 + n], counts[39 + n])
        present = (cc[0] > 0) + (cc[1] > 0) + (cc[2] > 0) + (cc[3] > 0)
        can_group = p.runs and present >= need and present > 0
        gsl = tuple(gby[n]) if n in gby else ()
        can_lay = bool(gsl) and (W > 0 or any(cc[c] for gs in gsl for c in gs.colours))
        if not (can_group or can_lay):
            continue
        if contested is None:
            contested = _contested(counts, W, p)
        opts = _number_options(n, cc, W, wt, gsl, can_group, contested[n])
        if len(opts) > 1 or opts[0][2]:
            slots.append(opts)
    for rs in p.run_slots:
        opts = _run_slot_options(rs, counts, W, wt)
        if len(opts) > 1:
            slots.append(opts)
    req = p.required
    req_c, req_n = (req // 13, req % 13) if req is not None else (-1, -1)
    wpair = 2 * (aw * 13 + bw) if p.pairs else 0

    def leaf_vec(cnts: list[int], wrem: int, req_done: bool) -> list[int]:
        if wrem == 0:
            tot = 0
            for c in range(4):
                r = req_n if (c == req_c and not req_done) else -1
                v0 = colour_best(cnts[c * 13:c * 13 + 13], 0, wt, r, p.runs, p.pairs)[0]
                if v0 == NEG:
                    return [NEG]
                tot += v0
            return [tot]
        vec: list[int] = [0] * (wrem + 1)
        for c in range(4):
            r = req_n if (c == req_c and not req_done) else -1
            v = colour_best(cnts[c * 13:c * 13 + 13], wrem, wt, r, p.runs, p.pairs)
            vec = conv(vec, v, wrem)
        if wpair and wrem >= 2:
            vec = conv(vec, [0, 0, wpair] + [wpair] * (wrem - 2), wrem)
        return vec

    if not slots:
        vec = leaf_vec(counts, W, req is None)
        if max(vec) <= NEG // 2:
            return None
        return _build(p, max(vec), [])
    root = leaf_vec(counts, W, True)  # an upper bound on runs/pairs for any slot choice
    # rest[i][w]: the most the slots i.. can add with at most w okeys (okeys are scarce: summing
    # every slot's best option would count the same okeys again and again)
    rest = [[0] * (W + 1) for _ in range(len(slots) + 1)]
    for i in range(len(slots) - 1, -1, -1):
        nxt, cur = rest[i + 1], rest[i]
        for _, k, sc, _ in slots[i]:
            for w in range(k, W + 1):
                v = sc + nxt[w - k]
                if v > cur[w]:
                    cur[w] = v
    # bound[i][w]: runs of the untouched rack plus the slots i.., sharing w okeys
    bound = [[max(root[w - x] + r[x] for x in range(w + 1)) for w in range(W + 1)] for r in rest]
    slot_faces = {f for opts in slots for o in opts for f, _ in o[0]}
    tiles_w = _usable_weight(counts, W, p, slot_faces, rws)
    best_score = NEG
    best_path: list = []
    path: list = []

    def dfs(i: int, wused: int, score: int, tw: int, req_done: bool) -> None:
        nonlocal best_score, best_path
        wrem = W - wused
        if i == len(slots):
            vec = leaf_vec(counts, wrem, req_done)
            total = score + max(vec)
            if total > best_score:
                best_score = total
                best_path = list(path)
            return
        if score + min(bound[i][wrem], tw + wrem * ww_max) <= best_score:
            return
        for opt in slots[i]:
            removal, k, sc, _ = opt
            if k > wrem:
                continue
            ok = True
            for f, r in removal:
                if counts[f] < r:
                    ok = False
            if not ok:
                continue
            dtw = 0
            rd = req_done
            for f, r in removal:
                counts[f] -= r
                dtw += r * rws[f % 13]
                if f == req:
                    rd = True
            path.append(opt)
            dfs(i + 1, wused + k, score + sc, tw - dtw, rd)
            path.pop()
            for f, r in removal:
                counts[f] += r

    dfs(0, 0, 0, tiles_w, req is None)
    if best_score <= NEG // 2:
        return None
    return _build(p, best_score, best_path)


def _apply_path(p: Problem, sol: Solution, path: list[Option]) -> Solution:
    """Add the groups and lay-offs of the chosen slot options to ``sol``."""
    for removal, k, _, detail in path:
        sol.wilds_used += k
        sol.used += sum(r for _, r in removal) + k
        if isinstance(detail[0], RunSlot):
            rs, j, flags = detail
            if j:
                sol.run_layoffs.append((rs, j, flags))
        else:
            g, kn, lays = detail
            _groups(sol, next(f % 13 for f, _ in removal) if any(g) else -1, g, kn)
            _group_layoffs(sol, ((gs, c, ch == 2) for (gs, c), ch in lays if ch))
    return sol


def _group_layoffs(sol: Solution, lays: Iterable[tuple[GroupSlot, int, bool]]) -> None:
    """Add lay-offs (table group, colour, okey?) to ``sol``, one entry per table group (L2)."""
    by: dict[GroupSlot, list[tuple[int, bool]]] = {}
    for gs, c, wild in lays:
        by.setdefault(gs, []).append((c, wild))
    sol.group_layoffs.extend((gs, tuple(lst)) for gs, lst in by.items())


def _build(p: Problem, score: int, path: list[Option]) -> Solution:
    counts = list(p.counts)
    W = p.wilds
    sol = _apply_path(p, Solution(score), path)
    req_done = p.required is None
    for removal, k, _, _ in path:
        for f, r in removal:
            counts[f] -= r
            if f == p.required:
                req_done = True
        W -= k
    # split the remaining okeys between colours (and a wild pair) as the leaf did
    req_c, req_n = (p.required // 13, p.required % 13) if p.required is not None else (-1, -1)
    vecs = []
    for c in range(4):
        r = req_n if (c == req_c and not req_done) else -1
        vecs.append(colour_best(counts[c * 13:c * 13 + 13], W, p.weights, r, p.runs, p.pairs))
    aw, bw = p.weights[2], p.weights[3]
    wpair = 2 * (aw * 13 + bw) if p.pairs else 0
    vecs.append([0, 0, wpair] + [wpair] * (W - 2) if wpair and W >= 2 else [0] * (W + 1))
    need = score - sum(o[2] for o in path)
    alloc = split_okeys(vecs, W, need) if W else [0] * 5
    for c in range(4):
        r = req_n if (c == req_c and not req_done) else -1
        colour_plan(counts[c * 13:c * 13 + 13], W, alloc[c], p.weights, r, p.runs, p.pairs, c, sol)
    if alloc[4] >= 2:
        sol.pairs.append((-1, 2))
    _count_used(sol)
    return sol


def _count_used(sol: Solution) -> None:
    """Add the tiles and okeys of the solution's runs and pairs to ``used`` and ``wilds_used``."""
    for (_, a, b, wl) in sol.runs:
        sol.used += b - a + 1
        sol.wilds_used += len(wl)
    for _, w in sol.pairs:
        sol.used += 2
        sol.wilds_used += w


def _groups(sol: Solution, n: int, g: tuple[int, ...], k: int) -> None:
    sol.groups.extend(deal_groups(n, g, k))


def deal_groups(n: int, g: Sequence[int], k: int) -> list[tuple[int, tuple[int, ...], int]]:
    """Deal g[c] tiles of each colour and k okeys at number n (-1: okeys only) into groups of 3-4
    distinct colours (M2): (number, real colours, okeys) per group."""
    T = sum(g) + k
    if not T:
        return []
    m = max(max(g), (T + 3) // 4)
    groups: list[list[int]] = [[] for _ in range(m)]
    i = 0
    for c in range(4):
        for _ in range(g[c]):
            groups[i % m].append(c)
            i += 1
    wl = [0] * m
    for _ in range(k):
        j = min(range(m), key=lambda x: len(groups[x]) + wl[x])
        wl[j] += 1
    return [(n, tuple(grp), w) for grp, w in zip(groups, wl)]

