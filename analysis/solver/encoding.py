"""Between physical tiles and the search's count vectors: encoding racks and table slots, decoding
plans back into placed tiles (T5: a false okey plays the okey's face), and the P5 search that
keeps a tile to discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from analysis.game import Rules
from analysis.game import COLOURS, FACES, FALSE_OKEY, Placed, Tile

from . import search as C

if TYPE_CHECKING:
    from analysis.game import TableMeld


def face_slot(t: Tile, okey: Tile) -> int:
    """Count-vector slot of a non-wild physical tile (T5: a false okey is the okey's face)."""
    return (okey if t.is_joker else t).index


INDEX = {t: t.index for t in FACES}
INDEX[FALSE_OKEY] = 52


def encode(rack: Sequence[Tile], okey: Tile) -> tuple[list[int], int]:
    counts = [0] * 53
    for t in rack:
        counts[INDEX[t]] += 1
    oi = INDEX[okey]
    wilds = counts[oi]
    counts[oi] = counts.pop()  # the okey face is made of false okeys only (T5)
    return counts, wilds


def physical(f: int, okey: Tile) -> Tile:
    t = FACES[f]
    return FALSE_OKEY if t == okey else t


def table_slots(table: Sequence["TableMeld | None"], rules: Rules, end_counts: Any) -> tuple[tuple, tuple]:
    """Lay-off slots (L2, L3) of the table melds."""
    used = dict(end_counts or ())
    runs, groups = [], []
    for m in table:
        if m is None or m.kind == "pair":
            continue
        faces = [p.face for p in m.tiles]
        if m.kind == "group":
            have = {f.colour for f in faces}
            miss = tuple(COLOURS.index(c) for c in COLOURS if c not in have)
            if miss:
                groups.append(C.GroupSlot(m.index, faces[0].number - 1, miss))
            continue
        c = COLOURS.index(faces[0].colour)
        lo, hi = faces[0].number, faces[-1].number
        for end, room, step, start in (("low", lo - 1, -1, lo - 2), ("high", 13 - hi, 1, hi)):
            k = min(room, 2 - used.get((m.index, end), 0)) if rules.run_end_cap else room
            if k > 0:
                runs.append(C.RunSlot(m.index, c, tuple(start + step * i for i in range(k))))
    return tuple(runs), tuple(groups)


@dataclass
class Decoded:
    """A plan in placed tiles: melds, pairs, lay-offs by table meld, and the physical tiles used."""

    melds: list[list[Placed]]
    pairs: list[list[Placed]]
    layoffs: list[tuple[int, list[Placed]]]
    used: list[Tile]


_PLACED: dict[tuple[int, Tile, bool], Placed] = {}


def _placed(f: int, okey: Tile, wild: bool) -> Placed:
    key = (f, okey, wild)
    p = _PLACED.get(key)
    if p is None:
        p = _PLACED[key] = Placed(okey, FACES[f], True) if wild else Placed(physical(f, okey), FACES[f])
    return p


def decode(sol: C.Solution, okey: Tile) -> Decoded:
    ok = lambda f: _placed(f, okey, True)  # noqa: E731
    real = lambda f: _placed(f, okey, False)  # noqa: E731
    melds: list[list[Placed]] = []
    for c, a, b, wl in sorted(sol.runs):
        melds.append([ok(c * 13 + n) if n in wl else real(c * 13 + n) for n in range(a, b + 1)])
    for n, cols, k in sorted(sol.groups):
        miss = [c for c in range(4) if c not in cols][:k]
        melds.append(sorted([real(c * 13 + n) for c in cols] + [ok(c * 13 + n) for c in miss],
                            key=lambda p: COLOURS.index(p.face.colour)))
    pairs = []
    for f, w in sorted(sol.pairs):
        if f < 0:
            pairs.append([ok(okey.index), ok(okey.index)])
        else:
            pairs.append([real(f) if i >= w else ok(f) for i in range(2)][::-1])
    layoffs: dict[int, list[Placed]] = {}
    for rs, j, flags in sol.run_layoffs:
        layoffs.setdefault(rs.meld, []).extend(
            ok(rs.colour * 13 + x) if fl else real(rs.colour * 13 + x) for x, fl in zip(rs.numbers[:j], flags))
    for gs, lst in sol.group_layoffs:
        layoffs.setdefault(gs.meld, []).extend(ok(c * 13 + gs.number) if w else real(c * 13 + gs.number)
                                               for c, w in lst)
    lay = [(i, sorted(ts, key=lambda p: (p.face.number, p.face.colour))) for i, ts in sorted(layoffs.items())]
    used = [p.physical for m in melds + pairs for p in m] + [p.physical for _, ts in lay for p in ts]
    return Decoded(melds, pairs, lay, used)


def left_after(rack: Sequence[Tile], used: Sequence[Tile]) -> list[Tile]:
    rest = list(rack)
    for t in used:
        rest.remove(t)  # ValueError: the plan used a tile the rack does not hold (a bug)
    return sorted(rest, key=INDEX.__getitem__)


# ---- the search with P5 ---------------------------------------------------------------------------

def search_keep_one(p: C.Problem, n_tiles: int) -> C.Solution | None:
    """Best placement leaving at least one tile to discard (P5): if everything fits, the best over
    leaving each distinct tile out, cheapest first, stopping once no tile can beat the best."""
    sol = C.search(p)
    if sol is None or sol.used < n_tiles:
        return sol
    ar, br, aw, bw = p.weights
    ww_max = max(aw * 13 + bw, aw + bw)
    real_total = sum(p.counts[f] * (ar * (f % 13 + 1) + br) for f in range(52))
    cands = [(ar * (f % 13 + 1) + br, f) for f in range(52) if p.counts[f]]
    if p.wilds:
        cands.append((ww_max, -1))
    cands.sort()
    best: C.Solution | None = None
    for w, f in cands:
        ub = real_total + p.wilds * ww_max - w
        if best is not None and ub <= best.score:
            break
        q = C.Problem(list(p.counts), p.wilds, p.weights, p.runs, p.pairs, p.required, p.run_slots,
                      p.group_slots)
        if f < 0:
            q.wilds -= 1
        else:
            q.counts[f] -= 1
        s = C.search(q)
        if s is not None and (best is None or s.score > best.score):
            best = s
    return best
