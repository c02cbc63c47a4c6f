"""A small, fast, deliberately non-optimal meld finder for the self-play bots.

The exact search is :mod:`analysis.solver`'s; this one is what a quick human does: lay the
natural runs and groups, then spend okeys on the best two-tile starts. It works on count
vectors (52 faces, colour-major as :attr:`Tile.index`) plus a wild count; a false okey counts
as the okey's face (T5) and is written ``J``; an okey is wild (T4) and written ``R6>K9``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analysis.game import FACES, FALSE_OKEY, Tile

# a meld under construction: (face index, wild?) per tile
Slot = tuple[int, bool]


@dataclass(frozen=True, slots=True)
class Partition:
    """Melds found in a rack, their total value (M5), and what is left."""

    melds: tuple[tuple[Slot, ...], ...]
    value: int
    left: tuple[int, ...]  # face counts left
    wild_left: int

    @property
    def tiles_left(self) -> int:
        return sum(self.left) + self.wild_left


def counts_of(rack: Iterable[Tile], okey: Tile) -> tuple[list[int], int]:
    """(face counts, okeys held): the solver-style encoding of a rack."""
    c = [0] * 52
    wild = 0
    oi = okey.index
    for t in rack:
        if t == okey:
            wild += 1
        elif t.is_joker:
            c[oi] += 1
        else:
            c[t.index] += 1
    return c, wild


def slot_text(s: Slot, okey: Tile) -> str:
    idx, wild = s
    if wild:
        return f"{okey}>{FACES[idx]}"
    return "J" if idx == okey.index else str(FACES[idx])


def slot_physical(s: Slot, okey: Tile) -> Tile:
    idx, wild = s
    if wild:
        return okey
    return FALSE_OKEY if idx == okey.index else FACES[idx]


def meld_text(m: Sequence[Slot], okey: Tile) -> list[str]:
    return [slot_text(s, okey) for s in m]


def meld_value(m: Sequence[Slot]) -> int:
    return sum(i % 13 + 1 for i, _ in m)


def _take_runs(c: list[int], melds: list[list[Slot]]) -> None:
    for col in range(4):
        base = col * 13
        for _ in range(2):
            n = 0
            while n < 13:
                if c[base + n] == 0:
                    n += 1
                    continue
                m = n
                while m < 13 and c[base + m] > 0:
                    m += 1
                if m - n >= 3:
                    for k in range(n, m):
                        c[base + k] -= 1
                    melds.append([(base + k, False) for k in range(n, m)])
                n = m


def _take_groups(c: list[int], melds: list[list[Slot]]) -> None:
    for num in range(12, -1, -1):
        for _ in range(2):
            cols = [col for col in range(4) if c[col * 13 + num] > 0]
            if len(cols) < 3:
                break
            for col in cols:
                c[col * 13 + num] -= 1
            melds.append([(col * 13 + num, False) for col in cols])


def _best_wild_use(c: list[int], wild: int, melds: list[list[Slot]]) -> tuple[int, list[Slot], int | None] | None:
    """The most valuable way to spend one okey (or two on a lone tile): (value gained, meld, index
    of the meld it extends or None)."""
    best: tuple[int, list[Slot], int | None] | None = None

    def offer(v: int, m: list[Slot], ext: int | None = None) -> None:
        nonlocal best
        if best is None or v > best[0]:
            best = (v, m, ext)

    for col in range(4):
        b = col * 13
        for n in range(13):
            if not c[b + n]:
                continue
            if n + 1 < 13 and c[b + n + 1]:
                if n + 2 < 13:
                    offer(3 * n + 6, [(b + n, False), (b + n + 1, False), (b + n + 2, True)])
                elif n - 1 >= 0:
                    offer(3 * n + 3, [(b + n - 1, True), (b + n, False), (b + n + 1, False)])
            if n + 2 < 13 and c[b + n + 2] and not c[b + n + 1]:
                offer(3 * n + 6, [(b + n, False), (b + n + 1, True), (b + n + 2, False)])
    for num in range(13):
        cols = [col for col in range(4) if c[col * 13 + num]]
        if len(cols) == 2:
            miss = next(col for col in range(4) if col not in cols)
            offer(3 * (num + 1), sorted([(col * 13 + num, False) for col in cols] + [(miss * 13 + num, True)]))
    for i, m in enumerate(melds):
        idxs = [s[0] for s in m]
        if idxs[0] // 13 == idxs[-1] // 13 and len({x % 13 for x in idxs}) == len(idxs):  # run
            hi = max(idxs)
            lo = min(idxs)
            if hi % 13 < 12:
                offer(hi % 13 + 2, m + [(hi + 1, True)], i)
            elif lo % 13 > 0:
                offer(lo % 13, [(lo - 1, True)] + m, i)
        elif len(m) == 3:  # group of three
            have = {x // 13 for x in idxs}
            miss = next(col for col in range(4) if col not in have)
            offer(idxs[0] % 13 + 1, m + [(miss * 13 + idxs[0] % 13, True)], i)
    if best is None and wild >= 2:
        for idx in range(51, -1, -1):
            if c[idx]:
                n = idx % 13
                if n <= 10:
                    offer(3 * n + 6, [(idx, False), (idx + 1, True), (idx + 2, True)])
                else:
                    offer(3 * n, [(idx - 2, True), (idx - 1, True), (idx, False)])
                break
    return best


def partition(counts: Sequence[int], wild: int, *, use_wild: bool = True) -> Partition:
    """Runs-first and groups-first greedy partitions; the more valuable one."""
    best: Partition | None = None
    for runs_first in (True, False):
        c = list(counts)
        w = wild
        melds: list[list[Slot]] = []
        if runs_first:
            _take_runs(c, melds)
            _take_groups(c, melds)
        else:
            _take_groups(c, melds)
            _take_runs(c, melds)
        while use_wild and w > 0:
            got = _best_wild_use(c, w, melds)
            if got is None:
                break
            _, m, ext = got
            need = sum(1 for s in m if s[1]) - (sum(1 for s in melds[ext] if s[1]) if ext is not None else 0)
            if need > w:
                break
            for idx, wl in m:
                if not wl and (ext is None or (idx, wl) not in melds[ext]):
                    c[idx] -= 1
            if ext is None:
                melds.append(m)
            else:
                melds[ext] = m
            w -= need
        value = sum(meld_value(m) for m in melds)
        p = Partition(tuple(tuple(m) for m in melds), value, tuple(c), w)
        if best is None or p.value > best.value:
            best = p
    assert best is not None
    return best


def keep_one(p: Partition) -> Partition:
    """P5: when the melds cover every tile, give back the cheapest tile or meld."""
    if p.tiles_left > 0:
        return p
    # a run end of a 4+ run, or the 4th tile of a group, costs least
    best: tuple[int, int, tuple[Slot, ...], Slot] | None = None
    for i, m in enumerate(p.melds):
        if len(m) >= 4:
            is_run = m[0][0] // 13 == m[-1][0] // 13 and m[0][0] != m[-1][0]
            ends = [m[0], m[-1]] if is_run else list(m)
            for s in ends:
                v = s[0] % 13 + 1
                if best is None or v < best[0]:
                    rest = tuple(x for x in m if x is not s)
                    best = (v, i, rest, s)
    melds = list(p.melds)
    left = list(p.left)
    wild_left = p.wild_left
    if best is not None:
        v, i, rest, s = best
        melds[i] = rest
        removed = [s]
    else:
        i = min(range(len(melds)), key=lambda k: meld_value(melds[k]))
        removed = list(melds.pop(i))
        v = meld_value(removed)
    for idx, wl in removed:
        if wl:
            wild_left += 1
        else:
            left[idx] += 1
    return Partition(tuple(melds), p.value - v, tuple(left), wild_left)


def pairs(counts: Sequence[int], wild: int, twin_wild: int = 0) -> list[tuple[int, str]]:
    """Pairs (M4) from a rack: natural pairs, then okeys and a shown twin (O7) on the highest
    singles. Each pair is (face index, completion): ``""`` natural, ``"okey"`` or ``"twin"``."""
    out: list[tuple[int, str]] = []
    singles = []
    for idx in range(52):
        k = counts[idx]
        out.extend((idx, "") for _ in range(k // 2))
        if k % 2:
            singles.append(idx)
    singles.sort(key=lambda i: -(i % 13))
    w, tw = wild, twin_wild
    for idx in singles:
        if w:
            w -= 1
            out.append((idx, "okey"))
        elif tw:
            tw -= 1
            out.append((idx, "twin"))
        else:
            break
    return out


def pair_text(p: tuple[int, str], okey: Tile, indicator: Tile) -> list[str]:
    idx, how = p
    nat = slot_text((idx, False), okey)
    if how == "okey":
        return [nat, f"{okey}>{FACES[idx]}"]
    if how == "twin":
        return [nat, f"{indicator}>{FACES[idx]}"]
    return [nat, nat]
