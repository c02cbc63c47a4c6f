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
from dataclasses import dataclass, field
from itertools import product
from types import ModuleType
from typing import Any

NEG = -(1 << 62)
Weights = tuple[int, int, int, int]  # ar, br, aw, bw


@dataclass(frozen=True, slots=True)
class RunSlot:
    """A table run end (L2) that may take 1..cap tiles of ``colour`` at ``numbers[:k]`` (0-based)."""

    meld: int
    colour: int
    numbers: tuple[int, ...]  # outward from the run: for the low end lo-1, lo-2, ...


@dataclass(frozen=True, slots=True)
class GroupSlot:
    """A table group (L2) of ``number`` (0-based) missing ``colours``."""

    meld: int
    number: int
    colours: tuple[int, ...]


@dataclass(slots=True)
class Problem:
    counts: list[int]  # 52 faces
    wilds: int
    weights: Weights
    runs: bool = True  # new runs and groups may be placed
    pairs: bool = False  # new pairs may be placed (O4, O5, L5)
    required: int | None = None  # P2: a real tile of this face must be placed
    run_slots: tuple[RunSlot, ...] = ()
    group_slots: tuple[GroupSlot, ...] = ()


@dataclass(slots=True)
class Solution:
    score: int
    runs: list[tuple[int, int, int, tuple[int, ...]]] = field(default_factory=list)  # colour, a, b, okey numbers
    groups: list[tuple[int, tuple[int, ...], int]] = field(default_factory=list)  # number, real colours, okeys
    pairs: list[tuple[int, int]] = field(default_factory=list)  # face, okeys in it (0..2)
    run_layoffs: list[tuple[RunSlot, int, tuple[bool, ...]]] = field(default_factory=list)  # slot, k, okey flags
    group_layoffs: list[tuple[GroupSlot, tuple[tuple[int, bool], ...]]] = field(default_factory=list)
    used: int = 0
    wilds_used: int = 0


# ---- per-colour run DP ---------------------------------------------------------------------------

_PIECE_CACHE: dict[tuple, tuple[int, ...]] = {}
_CACHE_LIMIT = 400_000


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


def _conv(x: tuple[int, ...] | list[int], y: tuple[int, ...] | list[int], W: int) -> list[int]:
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
    if len(_COLOUR_CACHE) > _CACHE_LIMIT:
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
            if len(_PIECE_CACHE) > _CACHE_LIMIT:
                _PIECE_CACHE.clear()
            v = _PIECE_CACHE[key] = _dp(a, sub, W, wt, r, runs, pairs)
        total = _conv(total, v, W)
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
    alloc = _split(vecs, k, target) if k else [0] * len(vecs)
    for key, u in zip(keys, alloc):
        tk = key + (u,)
        hit = _TRACE_CACHE.get(tk)
        if hit is None:
            if len(_TRACE_CACHE) > _CACHE_LIMIT:
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


def _split(vecs: Sequence[Sequence[int]], k: int, target: int) -> list[int]:
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
    if len(_NUM_CACHE) > _CACHE_LIMIT:
        _NUM_CACHE.clear()
    _NUM_CACHE[key] = out
    return out


_RUN_SLOT_CACHE: dict[tuple, list[Option]] = {}


def _run_slot_options(rs: RunSlot, counts: list[int], W: int, wt: Weights) -> list[Option]:
    key = (rs, tuple(counts[rs.colour * 13 + x] for x in rs.numbers), W, wt)
    hit = _RUN_SLOT_CACHE.get(key)
    if hit is None:
        if len(_RUN_SLOT_CACHE) > _CACHE_LIMIT:
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
        if len(_RUNNABLE_CACHE) > _CACHE_LIMIT:
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
    """The compiled search (analysis/_kernel.c), or None: not built, or ISTAKA_PURE=1 set to keep
    to this module's search."""
    if os.environ.get("ISTAKA_PURE"):
        return None
    try:
        from . import _kernel as kernel
    except ImportError:
        return None
    return kernel


_kernel = _load_kernel()


def search(p: Problem) -> Solution | None:
    """The best placement of ``p`` (None when the required face cannot be placed)."""
    if _kernel is not None and p.wilds <= 4 and max(p.counts) <= 3:
        try:
            return _kernel_search(p)
        except OverflowError:  # past the kernel's tables (more okeys, slots or options)
            pass
    return search_py(p)


def _kernel_search(p: Problem) -> Solution | None:
    """The same search, compiled (analysis/_kernel.c)."""
    assert _kernel is not None
    out = _kernel.search(bytes(p.counts), p.wilds, *p.weights, p.runs, p.pairs,
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
            vec = _conv(vec, v, wrem)
        if wpair and wrem >= 2:
            vec = _conv(vec, [0, 0, wpair] + [wpair] * (wrem - 2), wrem)
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
    alloc = _split(vecs, W, need) if W else [0] * 5
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
    """Deal g[c] tiles of each colour and k okeys at number n (-1: okeys only) into groups of 3-4
    distinct colours (M2)."""
    T = sum(g) + k
    if not T:
        return
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
    for grp, w in zip(groups, wl):
        sol.groups.append((n, tuple(grp), w))

