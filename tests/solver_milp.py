"""An independent integer-programming formulation of the opening and turn problems.

Test and benchmark reference for analysis/solver.py (scipy.optimize.milp, HiGHS). It builds its
model straight from the physical tiles: one integer variable per candidate meld (every run and
group template, every lay-off a table meld can take) and one per face for the okeys standing for
it. It shares no code with the solver beyond tile parsing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix

COLOURS = "RYBK"


def _face_counts(rack, okey):
    cnt = [0] * 52
    wild = 0
    for t in rack:
        if t == okey:
            wild += 1
        elif t.is_joker:
            cnt[COLOURS.index(okey.colour) * 13 + okey.number - 1] += 1
        else:
            cnt[COLOURS.index(t.colour) * 13 + t.number - 1] += 1
    return cnt, wild


def _swap_options(table, okey):
    """(table meld, faces put in, okeys freed) for every way to take okeys off the table (S1, S2):
    one okey of a run for the tile it stands for; from a group, all of its okeys at once, by
    putting in every colour it misses (four real colours after, docs/rules.md S2)."""
    out = []
    for m in table or ():
        if m is None or m.kind == "pair":
            continue
        wild = [p for p in m.tiles if p.wild and p.physical == okey]
        if m.kind == "run":
            out += [(m.index, [_face_index(p.face)], 1) for p in wild]
        elif wild:
            real = {p.face.colour for p in m.tiles if not p.wild}
            n = m.tiles[0].face.number
            out.append((m.index, [COLOURS.index(c) * 13 + n - 1 for c in COLOURS if c not in real], len(wild)))
    return out


def _face_index(t):
    return COLOURS.index(t.colour) * 13 + t.number - 1


def _templates(table, end_used, cap):
    """(faces, upper bound, group key) for every meld or lay-off the rack could form."""
    out = []
    for c in range(4):
        for s in range(1, 12):
            for e in range(s + 2, 14):
                out.append(([c * 13 + n - 1 for n in range(s, e + 1)], 2, None))
    for n in range(1, 14):
        for drop in range(-1, 4):
            cols = [c for c in range(4) if c != drop]
            out.append(([c * 13 + n - 1 for c in cols], 2, None))
    for m in table or ():
        if m is None or m.kind == "pair":
            continue
        faces = [p.face for p in m.tiles]
        if m.kind == "group":
            n = faces[0].number
            have = {f.colour for f in faces}
            for col in COLOURS:
                if col not in have:
                    out.append(([COLOURS.index(col) * 13 + n - 1], 1, ("group", m.index)))
        else:
            c = COLOURS.index(faces[0].colour)
            lo, hi = faces[0].number, faces[-1].number
            for end, room in (("low", lo - 1), ("high", 13 - hi)):
                k_max = room
                if cap:
                    k_max = min(room, 2 - end_used.get((m.index, end), 0))
                key = (m.index, end)
                for k in range(1, k_max + 1):
                    ns = range(lo - k, lo) if end == "low" else range(hi + 1, hi + 1 + k)
                    out.append(([c * 13 + n - 1 for n in ns], 1, key))
    return out


def milp_opening(rack: Sequence, okey, *, take=None, table=(), end_used=None, cap=True,
                 keep_one=True, okey_in_rack=101, mode="opening", swaps=None):
    """Optimum of the points opening (mode 'opening') or of an opened turn's lay-offs and melds
    (mode 'turn', penalty doubled for a pairs opener is not handled here). ``swaps`` (turn mode):
    the table melds whose okeys may be taken (S1, S2) and then placed or kept; ``table``: the
    melds that take lay-offs (empty where L6 forbids them).

    Returns (value, penalty of what is left, tiles left) of a lexicographically best plan:
    opening: max value, then min penalty, then fewest tiles; turn: min penalty, then fewest tiles.
    """
    cnt, wild = _face_counts(rack, okey)
    sw = _swap_options(swaps, okey) if swaps and mode == "turn" else []
    wild_max = wild + sum(k for _, _, k in sw)
    temps = [t for t in _templates(table, end_used or {}, cap)]
    # keep only templates the rack can fill
    temps = [t for t in temps if sum(1 for f in t[0] if cnt[f] == 0) <= wild_max]
    nt = len(temps)
    # variables: y (nt), z (52 okeys standing for face), u (52 real tiles used), x (swaps)
    ns = len(sw)
    nv = nt + 104 + ns
    okv = okey.number + okey_in_rack
    K1, K2 = 1 << 20, 1 << 6
    c = np.zeros(nv)
    for f in range(52):
        n = f % 13 + 1
        if mode == "opening":
            c[nt + f] = -(n * K1 + okv * K2 + 1)
            c[nt + 52 + f] = -(n * K1 + n * K2 + 1)
        else:
            c[nt + f] = -(okv * K2 + 1)
            c[nt + 52 + f] = -(n * K2 + 1)
    for i, (_, faces, k) in enumerate(sw):  # the tiles put in leave the rack, the okeys come in
        c[nt + 104 + i] = -sum((f % 13 + 1) * K2 + 1 for f in faces) + k * (okv * K2 + 1)
    rows, cols, vals = [], [], []
    lb, ub = [], []
    r = 0
    # coverage of each face = okeys + real tiles used for it
    for i, (faces, _, _) in enumerate(temps):
        for f in faces:
            rows.append(f), cols.append(i), vals.append(1.0)
    for f in range(52):
        rows.append(f), cols.append(nt + f), vals.append(-1.0)
        rows.append(f), cols.append(nt + 52 + f), vals.append(-1.0)
        lb.append(0), ub.append(0)
    r = 52
    for f in range(52):  # all okeys: the rack's and the ones taken off the table
        rows.append(r), cols.append(nt + f), vals.append(1.0)
    for i, (_, _, k) in enumerate(sw):
        rows.append(r), cols.append(nt + 104 + i), vals.append(-float(k))
    lb.append(-np.inf), ub.append(wild)
    r += 1
    for f in range(52):  # real tiles: placed or put in for an okey, at most what the rack holds
        rows.append(r), cols.append(nt + 52 + f), vals.append(1.0)
        for i, (_, faces, _) in enumerate(sw):
            if f in faces:
                rows.append(r), cols.append(nt + 104 + i), vals.append(float(faces.count(f)))
        lb.append(0), ub.append(cnt[f])
        r += 1
    for i, (meld, _, _) in enumerate(sw):  # S2: a group completed by a swap takes no lay-off
        for j, (_, _, key) in enumerate(temps):
            if key == ("group", meld):
                rows.append(r), cols.append(j), vals.append(1.0)
                rows.append(r), cols.append(nt + 104 + i), vals.append(1.0)
                lb.append(0), ub.append(1)
                r += 1
    by_meld: dict = {}
    for i, (meld, _, _) in enumerate(sw):
        by_meld.setdefault(meld, []).append(i)
    for meld, idx in by_meld.items():  # one way per group of three; one swap per okey
        m = next(t for t in swaps if t is not None and t.index == meld)
        if m.kind == "group" and len(m.tiles) == 3:
            for i in idx:
                rows.append(r), cols.append(nt + 104 + i), vals.append(1.0)
            lb.append(0), ub.append(1)
            r += 1
    if keep_one:  # P5, on the rack after the swaps
        for f in range(104):
            rows.append(r), cols.append(nt + f), vals.append(1.0)
        for i, (_, faces, k) in enumerate(sw):
            rows.append(r), cols.append(nt + 104 + i), vals.append(float(len(faces) - k))
        lb.append(-np.inf), ub.append(len(rack) - 1)
        r += 1
    ends = {}
    for i, (_, _, key) in enumerate(temps):
        if key is not None:
            ends.setdefault(key, []).append(i)
    for key in [k for k in ends if k[0] == "group"]:
        del ends[key]  # a missing colour is one template with bound 1
    for idx in ends.values():  # one lay-off per run end
        for i in idx:
            rows.append(r), cols.append(i), vals.append(1.0)
        lb.append(0), ub.append(1)
        r += 1
    if take is not None:
        tf = _face_counts([take], okey)[0].index(1)
        rows.append(r), cols.append(nt + 52 + tf), vals.append(1.0)
        lb.append(1), ub.append(np.inf)
        r += 1
    A = csr_matrix((vals, (rows, cols)), shape=(r, nv))
    lo = np.zeros(nv)
    hi = np.array([t[1] for t in temps] + [wild_max] * 52 + cnt + [1] * ns, dtype=float)
    res = milp(c, constraints=LinearConstraint(A, lb, ub), integrality=np.ones(nv),
               bounds=Bounds(lo, hi), options={"mip_rel_gap": 0})
    if res.status != 0:
        return None
    x = np.round(res.x).astype(int)
    z, u, xs = x[nt:nt + 52], x[nt + 52:nt + 104], x[nt + 104:]
    given = [0] * 52
    freed = 0
    for i, (_, faces, k) in enumerate(sw):
        if xs[i]:
            freed += k
            for f in faces:
                given[f] += 1
    value = int(sum((f % 13 + 1) * (z[f] + u[f]) for f in range(52)))
    real_left = sum((f % 13 + 1) * (cnt[f] - u[f] - given[f]) for f in range(52))
    okeys_left = wild + freed - int(z.sum())
    penalty = int(real_left + okeys_left * okv)
    left = len(rack) - sum(given) + freed - int(z.sum() + u.sum())
    return value, penalty, left
