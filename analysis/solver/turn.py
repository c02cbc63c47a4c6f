"""An opened player's best turn (O4, O5, L1-L6, S1-S2, P5), dangerous discards (X4, X5), and
:func:`solve`, the JSON-ready answer for one seat of an engine state."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from analysis.game import FACES, FALSE_OKEY, HIDDEN, Tile

from . import search as C
from .encoding import INDEX, decode, encode, left_after, search_keep_one, table_slots
from .plans import K2, TurnPlan, best_pairs_opening, best_points_opening, rack_penalty

if TYPE_CHECKING:
    from analysis.game import HandState, TableMeld


def _swap_atoms(table: tuple["TableMeld | None", ...], okey: Tile) -> list[tuple[int, list[int], int]]:
    """(meld, faces to put in, okeys freed) for each okey on the table that can be taken (S1, S2)."""
    atoms = []
    for m in table:
        if m is None or m.kind == "pair":
            continue
        wild = [p for p in m.tiles if p.wild and p.physical == okey]
        if not wild:
            continue
        if m.kind == "run":
            for p in wild:
                atoms.append((m.index, [p.face.index], 1))
        else:  # S2: a group gives its okeys up only when completed to four real colours, all at once
            have = {p.face.colour for p in m.tiles if not p.wild}
            n = m.tiles[0].face.number
            atoms.append((m.index, [FACES[c * 13 + n - 1].index for c, col in enumerate("RYBK")
                                    if col not in have], len(wild)))
    return atoms


def _turn_problem(state: "HandState", seat: int, weights: C.Weights,
                  swapped: tuple) -> tuple[C.Problem, int, int, tuple[list, list[Tile]]]:
    """The placement problem after the swaps ``swapped``: (problem, tiles in rack, weight the
    swaps take out of the rack, (swaps as (meld, tiles), the rack after them)).

    The weight out is the tiles put in less the okeys freed: a freed okey comes into the rack and,
    unless the plan places it again, stays there and is charged like any okey kept (E5)."""
    rules, okey = state.rules, state.okey
    op = state.opened[seat]
    counts, wilds = encode(state.racks[seat], okey)
    n_tiles = len(state.racks[seat])
    given_w = 0
    swaps = []
    full_groups = set()
    ar, br = weights[0], weights[1]
    rack = list(state.racks[seat])
    for meld, faces, freed in swapped:
        given = [FALSE_OKEY if FACES[f] == okey else FACES[f] for f in faces]
        for f, t in zip(faces, given):
            counts[f] -= 1
            given_w += ar * (f % 13 + 1) + br
            rack.remove(t)
        wilds += freed
        given_w -= freed * weights[3]  # turn weights: a wild tile weighs bw wherever it stands
        rack.extend([okey] * freed)
        n_tiles += freed - len(faces)
        swaps.append((meld, given))
        m = state.table[meld]
        if m is not None and m.kind == "group":
            full_groups.add(meld)
    lay_ok = not (state.opened_this_turn and not rules.layoff_opening_turn)  # L6
    runs, groups = table_slots(state.table, rules, state.end_counts) if lay_ok else ((), ())
    groups = tuple(g for g in groups if g.meld not in full_groups)
    # O4, O5, L5; O3: a points opener's opening turn has melds only, never pairs
    pairs_ok = op is not None and (op.kind == "pairs" or (state.anyone_opened_pairs()
                                                         and not state.opened_this_turn))
    runs_ok = op is not None and op.kind == "points"
    p = C.Problem(counts, wilds, weights, runs_ok, pairs_ok, None, runs, groups)
    return p, n_tiles, given_w, (swaps, rack)


def _swap_sets(state: "HandState", seat: int) -> list[tuple]:
    atoms = _swap_atoms(state.table, state.okey)
    counts, _ = encode(state.racks[seat], state.okey)
    out: list[tuple] = [()]
    for k in range(1, len(atoms) + 1):
        for combo in combinations(atoms, k):
            need = [0] * 52
            for _, faces, _ in combo:
                for f in faces:
                    need[f] += 1
            if all(need[f] <= counts[f] for f in range(52)):
                out.append(combo)
    return out


def best_turn(state: "HandState", seat: int) -> TurnPlan:
    """Lay-offs, new melds or pairs and okey swaps leaving the lowest E5 penalty, a tile kept (P5)."""
    op = state.opened[seat]
    if op is None:
        raise ValueError(f"seat {seat} has not opened: ask for an opening instead [L1]")
    rules, okey = state.rules, state.okey
    mult = 2 if op.kind == "pairs" else 1
    weights = (K2 * mult, 1, 0, (okey.number * mult + rules.okey_in_rack) * K2 + 1)
    best = None
    for swapped in _swap_sets(state, seat):
        p, n_tiles, given_w, after = _turn_problem(state, seat, weights, swapped)
        if n_tiles < 1:
            continue
        found = search_keep_one(p, n_tiles)
        if found is None:
            continue
        total = found.score + given_w  # the same rack-penalty scale for every swap set
        if best is None or total > best[0]:
            best = (total, found, after)
    assert best is not None
    _, sol, (swaps, rack) = best
    d = decode(sol, okey)
    left = left_after(rack, d.used)
    return TurnPlan(d.melds, d.pairs, d.layoffs, swaps, left,
                    rack_penalty(left, okey, rules, pairs=op.kind == "pairs"), finishes(state, seat))


def finishes(state: "HandState", seat: int) -> list[str]:
    """How the seat can finish this turn (E1, E6): "normal" (a plain last tile), "okey" (an okey
    as the last tile), plus "elden" / "pairs" when they apply to any finish."""
    count = (0, 1, 0, 1)
    kinds: set[str] = set()
    for swapped in _swap_sets(state, seat):
        p, n_tiles, _, _ = _turn_problem(state, seat, count, swapped)
        if n_tiles < 1:
            continue
        if p.wilds and "okey" not in kinds:
            q = C.Problem(list(p.counts), p.wilds - 1, count, p.runs, p.pairs, None, p.run_slots, p.group_slots)
            s = C.search(q)
            if s is not None and s.used == n_tiles - 1:
                kinds.add("okey")
        if "normal" in kinds:
            continue
        s = search_keep_one(p, n_tiles)
        if s is None or s.used < n_tiles - 1:
            continue
        if s.wilds_used == p.wilds:  # the one tile left is a plain tile
            kinds.add("normal")
            continue
        for f in range(52):
            if p.counts[f]:
                q = C.Problem(list(p.counts), p.wilds, count, p.runs, p.pairs, None, p.run_slots, p.group_slots)
                q.counts[f] -= 1
                s = C.search(q)
                if s is not None and s.used == n_tiles - 1:
                    kinds.add("normal")
                    break
    out: list[str] = [k for k in ("normal", "okey") if k in kinds]
    if out:
        op = state.opened[seat]
        if state.opened_this_turn and not any(state.opened[s] for s in range(4) if s != seat):
            out.append("elden")
        if op is not None and op.kind == "pairs":
            out.append("pairs")
    return out


def _takeable_from(state: "HandState", seat: int) -> bool:
    """P3, P4: may the seat after ``seat`` take ``seat``'s discards at all?"""
    op = state.opened[seat]
    return not (op is not None and op.kind == "pairs" and not state.rules.pairs_discard_takeable)


def dangerous(state: "HandState", seat: int) -> dict[str, list[str]]:
    """X4: rack tiles a table meld would take; X5 (where the preset has it): tiles that would let
    the next player open when his rack is known (never from a seat-view state, whose next rack
    holds HIDDEN tiles: the seat cannot know it)."""
    okey = state.okey
    rack = state.racks[seat]
    distinct = sorted({t for t in rack if t != okey}, key=INDEX.__getitem__)
    x4 = [str(t) for t in distinct if state.fits_table(t) is not None]
    x5: list[str] = []
    nxt = (seat + 1) % 4
    r = state.rules
    if (r.x5 and r.cezali and state.opened[nxt] is None and state.racks[nxt] and HIDDEN not in state.racks[nxt]
            and _takeable_from(state, seat)):
        twin = state.indicator if state.shown[nxt] else None
        for t in distinct:
            pts = best_points_opening(state.racks[nxt], okey, rules=r, take=t, table=state.table,
                                      threshold=state.points_threshold(nxt))
            if pts.reaches or best_pairs_opening(state.racks[nxt], okey, rules=r, take=t, twin=twin,
                                                 threshold=state.pairs_threshold(nxt)).reaches:
                x5.append(str(t))
    return {"x4": x4, "x5": x5}


def solve(state: "HandState", seat: int, *, points_threshold: int | None = None,
          pairs_threshold: int | None = None) -> dict[str, Any]:
    """What applies to ``seat`` now: openings (with the take option) or the best turn, and the
    dangerous discards."""
    rules, okey = state.rules, state.okey
    rack = list(state.racks[seat])
    if HIDDEN in rack:
        raise ValueError(f"seat {seat}'s rack is hidden in this seat-view state: nothing to solve from")
    out: dict[str, Any] = {"seat": seat, "variant": rules.variant, "okey": str(okey),
                           "rack": [str(t) for t in sorted(rack, key=INDEX.__getitem__)]}
    op = state.opened[seat]
    if op is not None:
        out["opened"] = {"kind": op.kind, "value": op.value}
        out["plan"] = best_turn(state, seat).to_dict()
    else:
        pt = state.points_threshold(seat) if points_threshold is None else points_threshold
        qt = state.pairs_threshold(seat) if pairs_threshold is None else pairs_threshold
        twin = state.indicator if state.shown[seat] else None
        must = state.took if (state.took is not None and state.took_unopened) else None
        out["points"] = best_points_opening(rack, okey, rules=rules, threshold=pt, table=state.table,
                                            must_use=must, end_counts=state.end_counts).to_dict()
        out["pairs"] = best_pairs_opening(rack, okey, rules=rules, threshold=qt, twin=twin,
                                          must_use=must).to_dict()
        if rules.declare_pairs and not state.declared[seat]:
            out["pairs"]["declare_first"] = True  # O10
        prev = (seat - 1) % 4
        if (state.phase == "draw" and state.turn == seat and state.takeable == prev and state.discards[prev]
                and not state.returned):
            top = state.discards[prev][-1]
            if top != okey and _takeable_from(state, prev):  # P3, P4
                out["take"] = {
                    "tile": str(top),
                    "points": best_points_opening(rack, okey, rules=rules, threshold=pt, take=top,
                                                  table=state.table).to_dict(),
                    "pairs": best_pairs_opening(rack, okey, rules=rules, threshold=qt, twin=twin,
                                                take=top).to_dict(),
                }
    out["dangerous"] = dangerous(state, seat)
    return out
