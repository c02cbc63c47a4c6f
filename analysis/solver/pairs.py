"""The best pairs opening (M4, O3, O7, P2, P5) in closed form.

Most pairs first, then the lowest rack penalty as a pairs opener (E5), keeping a tile to discard
(P5). Every tile placed saves its penalty, so the answer is which tiles to place: natural pairs
(both copies of a face), single tiles completed by a wild tile (an okey, M4, or the shown
indicator twin, O7) and wild tiles paired with each other. With ``u`` wild tiles, ``k`` single
tiles and ``p`` natural pairs there are ``p + (u + k) / 2`` pairs, and for each of the few
(u, k) the best choice is plain: the ``p`` highest natural pairs, the ``k`` highest faces left as
singles (a natural pair not placed may give one), the ``u`` costliest wild tiles. The exact
search over faces that this replaces is kept as the reference in tests/pairs_reference.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from analysis.game import FACES, FALSE_OKEY, Placed, Rules, Tile

_NUM = {t: t.number for t in FACES}
_ORDER = {t: t.index for t in FACES} | {FALSE_OKEY: 52}  # the order of the tiles left
_REAL = {t: Placed(t, t) for t in FACES}  # a real tile standing for itself
_FALSE = {t: Placed(FALSE_OKEY, t) for t in FACES}  # a false okey as the okey's face t (T5)
_WILD: dict[tuple[Tile, Tile], Placed] = {}

Choice = tuple[tuple[int, int], list[Tile], list[Tile], int]


def _wild(w: Tile, face: Tile) -> Placed:
    p = _WILD.get((w, face))
    if p is None:
        p = _WILD[(w, face)] = Placed(w, face, True)
    return p


def _top(a: list[Tile], b: list[Tile], k: int) -> list[Tile]:
    """The ``k`` highest faces of two lists sorted high first."""
    out: list[Tile] = []
    i = j = 0
    num = _NUM
    while len(out) < k:
        if j >= len(b) or (i < len(a) and num[a[i]] >= num[b[j]]):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


def _choose(nat: list[Tile], sing: list[Tile], wvals: list[int], cap: int, fixed: int,
            fixed_wilds: int, fixed_gain: int) -> Choice | None:
    """((pairs, penalty saved), natural pairs, single tiles, wild tiles used) with ``fixed`` pairs
    already made from ``fixed_wilds`` wild tiles, saving ``fixed_gain``. ``nat`` and ``sing`` are
    sorted high first, ``wvals`` (the penalty each wild tile saves) too."""
    free = len(wvals) - fixed_wilds
    if free < 0 or cap < fixed:
        return None
    num = _NUM
    m = min(free, len(sing))
    most = len(nat) + m + (free - m) // 2
    n = min(cap - fixed, most)
    if n == most and not (free - m) & 1:
        # every natural pair, and every wild tile: next to the highest singles, then in pairs
        # (the penalty saved matters only to compare ways of placing a taken tile, P2)
        gain = (fixed_gain + sum(wvals) + 4 * sum([num[f] for f in nat])
                + 2 * sum([num[f] for f in sing[:m]])) if fixed else 0
        return (fixed + n, gain), nat, sing[:m], len(wvals)
    best: tuple[int, int, list[Tile], int] | None = None
    nsum = [0]  # prefix sums of the natural pairs' numbers
    for f in nat:
        nsum.append(nsum[-1] + num[f])
    for u in range(free + 1):
        wgain = fixed_gain + sum(wvals[:fixed_wilds + u])
        for k in range(u, -1, -2):  # the wild tiles not next to a single pair up
            p = n - ((u + k) >> 1)
            if p < 0 or p > len(nat) or k > len(sing) + len(nat) - p:
                continue
            singles = _top(sing, nat[p:], k)
            gain = wgain + 4 * nsum[p] + 2 * sum([num[f] for f in singles])
            if best is None or gain > best[0]:
                best = (gain, p, singles, fixed_wilds + u)
    if best is None:
        return None
    return (fixed + n, best[0]), nat[:best[1]], best[2], best[3]


def pairs_plan(rack: Sequence[Tile], okey: Tile, rules: Rules, twin: Tile | None,
               need: Tile | None) -> tuple[list[list[Placed]], list[Tile]] | None:
    """(pairs, tiles left): the most pairs, then the lowest rack penalty as a pairs opener (E5),
    keeping a tile to discard (P5). Okeys complete pairs (M4); a shown indicator twin does too
    (O7), in pairs only. ``need`` must lie in a pair as a real tile (P2): None when it cannot."""
    cnt: dict[Tile, int] = {}
    get = cnt.get
    for t in rack:
        cnt[t] = get(t, 0) + 1
    okeys = cnt.pop(okey, 0)
    jokers = cnt.pop(FALSE_OKEY, 0)
    if jokers:
        cnt[okey] = jokers  # T5: a false okey is the okey's face
    wilds = [okey] * okeys
    wvals = [2 * okey.number + rules.okey_in_rack] * okeys  # E5 of an okey kept by a pairs opener
    if twin is not None and cnt.get(twin):
        cnt[twin] -= 1  # O7: one shown twin is wild in pairs
        tv = 2 * twin.number
        i = sum(1 for v in wvals if v >= tv)
        wilds.insert(i, twin)
        wvals.insert(i, tv)
    nat = [f for f, c in cnt.items() if c >= 2]
    sing = [f for f, c in cnt.items() if c & 1]
    cap = (len(rack) - 1) >> 1  # P5
    forced = ""
    nf = okey
    free = len(wvals)
    m = min(free, len(sing))
    if need is None and len(nat) + m + (free - m) // 2 <= cap and not (free - m) & 1:
        # the common case: every natural pair, every wild tile next to the highest singles
        if 0 < m < len(sing):
            sing.sort(key=_NUM.__getitem__, reverse=True)
        best: Choice | None = ((0, 0), nat, sing[:m], free)
    elif need is None:
        nat.sort(key=_NUM.__getitem__, reverse=True)
        sing.sort(key=_NUM.__getitem__, reverse=True)
        best = _choose(nat, sing, wvals, cap, 0, 0, 0)
        if best is None:
            return [], sorted(rack, key=_ORDER.__getitem__)
    else:  # P2: the needed tile in a natural pair, or next to a wild tile
        nat.sort(key=_NUM.__getitem__, reverse=True)
        sing.sort(key=_NUM.__getitem__, reverse=True)
        nf = okey if need is FALSE_OKEY else need
        c = cnt.get(nf, 0)
        best = None
        if c >= 2:
            rest = [f for f in nat if f is not nf]
            best, forced = _choose(rest, sing, wvals, cap, 1, 0, 4 * nf.number), "pair"
            if wvals:  # one copy next to a wild tile, the other one free to be a single
                more = sorted(sing + [nf], key=_NUM.__getitem__, reverse=True)
                alt = _choose(rest, more, wvals, cap, 1, 1, 2 * nf.number)
                if alt is not None and (best is None or alt[0] > best[0]):
                    best, forced = alt, "wild"
        elif c == 1 and wvals:
            best = _choose(nat, [f for f in sing if f is not nf], wvals, cap, 1, 1, 2 * nf.number)
            forced = "wild"
        if best is None:
            return None
    _, naturals, singles, u = best
    if forced == "pair":
        naturals = [nf] + naturals
    elif forced == "wild":
        singles = [nf] + singles
    real = [_REAL[f] for f in naturals]
    if jokers >= 2 and okey in naturals:
        real[naturals.index(okey)] = _FALSE[okey]
    out: list[list[Placed]] = [[r, r] for r in real]
    for f, w in zip(singles, wilds):
        out.append([_FALSE[f] if f is okey else _REAL[f], _wild(w, f)])
    for i in range(len(singles), u, 2):  # two wild tiles, shown as the okey's face
        out.append([_wild(wilds[i], okey), _wild(wilds[i + 1], okey)])
    everything = not forced and naturals is nat and u == len(wilds)
    if everything and 2 * len(nat) + len(sing) + u == len(rack):
        left = sing[len(singles):]  # every natural pair and wild tile placed: singles are left
    else:
        for f in naturals:
            cnt[f] -= 2
        for f in singles:
            cnt[f] -= 1
        left = [f for f, c in cnt.items() if c]
        for f in [f for f, c in cnt.items() if c > 1]:
            left += [f] * (cnt[f] - 1)
    if jokers and okey in left:  # the okey's face left is a false okey (T5)
        left = [FALSE_OKEY if f is okey else f for f in left]
    left += wilds[u:]
    left.sort(key=_ORDER.__getitem__)
    return out, left


__all__ = ["pairs_plan"]
