"""The reference for analysis/solver/pairs.py: the exact search over the faces of a rack that the
closed form replaced, kept for tests/test_solver_pairs.py.

A DP over the rack's faces: its state is (okeys used, twin used, pairs, the needed tile placed),
its value the penalty saved. Left-over wild tiles pair with each other at the end, the costliest
two first (the search it was cut from always paired two okeys first, which loses when an override
makes the okey cheaper than the indicator twin).
"""

from __future__ import annotations

from collections.abc import Sequence

from analysis.game import FALSE_OKEY, Placed, Rules, Tile

_BIG = 1 << 20


def pairs_reference(rack: Sequence[Tile], okey: Tile, rules: Rules, twin: Tile | None,
                    need: Tile | None) -> list[list[Placed]] | None:
    """The most pairs, then the lowest rack penalty as a pairs opener (E5), keeping a tile (P5).

    Okeys complete pairs (M4); a shown indicator twin does too (O7), in pairs only. ``need`` must
    lie in a pair as a real tile (P2). None when ``need`` cannot be paired.
    """
    okeys = sum(1 for t in rack if t == okey)
    twins = sum(1 for t in rack if twin is not None and t == twin)
    twins = min(twins, 1)
    faces: dict[Tile, int] = {}
    skipped_twin = 0
    for t in rack:
        if t == okey:
            continue
        if twin is not None and t == twin and skipped_twin < twins:
            skipped_twin += 1
            continue
        f = okey if t.is_joker else t
        faces[f] = faces.get(f, 0) + 1
    cap = (len(rack) - 1) // 2  # P5
    vo, vt = 2 * okey.number + rules.okey_in_rack, 2 * (twin.number if twin else 0)
    need_face = (okey if need.is_joker else need) if need is not None else None
    # state (okeys used, twin used, pairs, need met) -> (best saved penalty, choices)
    states: dict[tuple, tuple[int, tuple]] = {(0, 0, 0, need_face is None): (0, ())}
    for f, c in faces.items():
        v = 2 * f.number
        new: dict[tuple, tuple[int, tuple]] = {}
        for (o, w, n, met), (sc, ch) in states.items():
            opts = [(0, 0, 0, 0)]  # (reals, okeys, twins, pairs)
            if c >= 2:
                opts.append((2, 0, 0, 1))
            for ro in range(1, min(c, 2) + 1):  # each single real tile with an okey or the twin
                for uo in range(ro + 1):
                    ut = ro - uo
                    opts.append((ro, uo, ut, ro))
            for r, uo, ut, pr in opts:
                if o + uo > okeys or w + ut > twins or n + pr > cap:
                    continue
                key = (o + uo, w + ut, n + pr, met or (f == need_face and r > 0))
                s2 = sc + r * v + uo * vo + ut * vt
                if key not in new or new[key][0] < s2:
                    new[key] = (s2, ch + ((f, r, uo, ut),) if r else ch)
        states = new
    best = None
    for (o, w, n, met), (sc, ch) in states.items():
        if not met:
            continue
        # left-over okeys and twin pair with each other (any face; shown as the okey's face)
        extra = []
        lo, lt = okeys - o, twins - w
        while n < cap and lo + lt >= 2:
            if lo >= 2 and (lt == 0 or vo >= vt):
                extra.append((2, 0))
                lo -= 2
                sc += 2 * vo
            else:
                extra.append((1, 1))
                lo -= 1
                lt -= 1
                sc += vo + vt
            n += 1
        score = n * _BIG + sc
        if best is None or score > best[0]:
            best = (score, ch, extra)
    if best is None:
        return None
    out: list[list[Placed]] = []
    for f, r, uo, ut in best[1]:
        real = Placed(FALSE_OKEY if f == okey else f, f)
        wilds = [Placed(okey, f, True)] * uo + [Placed(twin, f, True)] * ut  # type: ignore[arg-type]
        if r == 2 and not wilds:
            out.append([real, real])
        else:
            for i in range(r):
                out.append([real, wilds[i]])
    for no, nt in best[2]:
        out.append([Placed(okey, okey, True)] * no + [Placed(twin, okey, True)] * nt)  # type: ignore[arg-type]
    return out


__all__ = ["pairs_reference"]
