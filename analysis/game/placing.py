"""Placing tiles: openings and melds, lay-offs, okey swaps and takebacks (O1-O6, M1-M4, L1-L6, S1-S3, X2, X6, X7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import melds as M
from .moves import event_seat, event_tile, remove_tiles, replace_at, start_placing
from .state import HandState, IllegalMove, Opening, Penalty, TableMeld, evolve
from .tiles import NotationError, Placed, Tile, parse_placed


def _parse_group(state: HandState, seat: int, raw: Any, pairs: bool) -> list[Placed]:
    twin = state.indicator if (pairs and state.shown[seat]) else None
    if not isinstance(raw, list):
        raise IllegalMove(f"a {'pair' if pairs else 'meld'} is a list of tiles, got {raw!r}", "M1")
    out = []
    for x in raw:
        try:
            out.append(parse_placed(x, state.okey, twin))
        except NotationError as e:
            msg = str(e)
            rule = msg[msg.rfind("[") + 1:-1] if msg.endswith("]") else "T4"
            if not pairs and isinstance(x, str) and ">" in x and x.split(">")[0].strip().upper() == str(state.indicator):
                rule, msg = "O7", f"{x!r}: the indicator twin counts as an okey only in pairs"
            raise IllegalMove(msg.rsplit(" [", 1)[0], rule) from None
    return out


def _place(state: HandState, ev: Mapping[str, Any], opening: bool) -> HandState:
    """open / meld: new melds or pairs on the table."""
    seat = event_seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before placing tiles", "P1")
    has_melds, has_pairs = "melds" in ev, "pairs" in ev
    if has_melds == has_pairs:
        raise IllegalMove("an opening or placing has either melds or pairs, never both", "O3")
    pairs = has_pairs
    groups = ev["pairs"] if pairs else ev["melds"]
    if not isinstance(groups, list) or not groups:
        raise IllegalMove("nothing to place", "M1")
    cur = state.opened[seat]
    kind = "pairs" if pairs else "points"
    if opening and cur is not None and state.opened_this_turn:
        opening = False  # a second 'open' in the opening turn adds to the same opening (O1)
    if opening:
        if cur is not None:
            raise IllegalMove(f"seat {seat} has already opened; later melds are 'meld' events", "O1")
        if pairs and state.rules.declare_pairs and not state.declared[seat]:
            raise IllegalMove(f"seat {seat} must declare pairs before opening with pairs", "O10")
    else:
        if cur is None:
            raise IllegalMove(f"seat {seat} has not opened: his first placing is the opening", "O1")
        if state.opened_this_turn:
            if cur.kind != kind:
                raise IllegalMove("pairs and melds never mix in one opening", "O3")
        elif cur.kind == "pairs" and not pairs:
            raise IllegalMove(f"seat {seat} opened with pairs and can never place a run or group", "O4")
        elif pairs and not state.anyone_opened_pairs():
            raise IllegalMove("nobody has opened with pairs: there is no pairs area yet", "L5")
    placed: list[TableMeld] = []
    used: list[Tile] = []
    total = 0
    n = len(state.table)
    for raw in groups:
        ts = _parse_group(state, seat, raw, pairs)
        try:
            if pairs:
                ordered, mk = M.check_pair(ts), M.PAIR
            else:
                mk, ordered = M.classify(ts)
        except M.MeldError as e:
            raise IllegalMove(str(e), e.rule) from None
        placed.append(TableMeld(n + len(placed), seat, mk, tuple(ordered), (seat,) * len(ordered)))
        used.extend(p.physical for p in ordered)
        total += 1 if pairs else M.value(ordered)
    rack = remove_tiles(state.racks[seat], used, seat)
    if not rack:
        raise IllegalMove(f"seat {seat} must keep a tile to discard", "P5")
    s = start_placing(state)
    new_open: Opening | None = cur
    if opening or state.opened_this_turn:
        new_open = Opening(kind, (cur.value if cur and state.opened_this_turn else 0) + total)
    s = evolve(s, racks=replace_at(s.racks, seat, rack), table=s.table + tuple(placed),
                placed_this_turn=s.placed_this_turn + tuple(used),
                opened=replace_at(s.opened, seat, new_open),
                opened_this_turn=s.opened_this_turn or opening)
    if pairs and (opening or s.opened_this_turn):
        s = _maybe_void(s, seat)
    return s


def _maybe_void(s: HandState, seat: int) -> HandState:
    """E3: the fourth pairs opener voids the hand at once."""
    op = s.opened[seat]
    if not s.rules.void_all_pairs or op is None or op.value < s.pairs_threshold(seat):
        return s
    if all(o is not None and o.kind == "pairs" for o in s.opened):
        return evolve(s, phase="over", result="void", scores=(0, 0, 0, 0))
    return s


def on_open(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return _place(state, ev, opening=True)


def on_meld(state: HandState, ev: Mapping[str, Any]) -> HandState:
    return _place(state, ev, opening=False)


def _target(state: HandState, ev: Mapping[str, Any]) -> TableMeld:
    i = ev.get("meld")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(state.table) or state.table[i] is None:
        raise IllegalMove(f"there is no table meld {i!r}", "L1")
    return state.table[i]  # type: ignore[return-value]


def on_layoff(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before laying off", "P1")
    if state.opened[seat] is None:
        raise IllegalMove(f"seat {seat} has not opened and cannot lay off", "L1")
    if state.opened_this_turn and not state.rules.layoff_opening_turn:
        raise IllegalMove(f"seat {seat} opened this turn and may lay off only from his next turn", "L6")
    m = _target(state, ev)
    raw = ev.get("tiles")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("a layoff names the tiles it adds", "L1")
    ts = _parse_group(state, seat, raw, pairs=False)
    if m.kind == M.PAIR:
        raise IllegalMove(f"meld {m.index} is a pair: pairs take no lay-offs", "L2")
    counts = dict(state.end_counts)
    if m.kind == M.GROUP:
        number = m.tiles[0].face.number
        colours = {p.face.colour for p in m.tiles}
        for p in ts:
            if p.face.number != number or p.face.colour in colours:
                raise IllegalMove(f"{p} does not fit group {m.index} ({m}): a group takes only its missing colours", "L2")
            colours.add(p.face.colour)
        if len(colours) > 4:
            raise IllegalMove(f"group {m.index} ({m}) cannot hold more than four colours", "L2")
        new_tiles = m.tiles + tuple(ts)
        order = "RYBK"
        new_tiles = tuple(sorted(new_tiles, key=lambda p: order.index(p.face.colour)))
        placers = _placers_after(m, new_tiles, seat)
    else:
        colour = m.tiles[0].face.colour
        lo, hi = m.tiles[0].face.number, m.tiles[-1].face.number
        nums = sorted(p.face.number for p in ts)
        for p in ts:
            if p.face.colour != colour:
                raise IllegalMove(f"{p} does not fit run {m.index} ({m}): wrong colour", "L2")
        low = [x for x in nums if x < lo]
        high = [x for x in nums if x > hi]
        if len(low) + len(high) != len(nums) or (low and low != list(range(lo - len(low), lo))) \
                or (high and high != list(range(hi + 1, hi + 1 + len(high)))):
            raise IllegalMove(f"{' '.join(map(str, ts))} does not extend run {m.index} ({m}) at its ends", "L2")
        if (low and low[0] < 1) or (high and high[-1] > 13):
            raise IllegalMove(f"run {m.index} cannot go below 1 or past 13", "L2")
        if state.rules.run_end_cap:
            for end, k in (("low", len(low)), ("high", len(high))):
                if k and counts.get((m.index, end), 0) + k > 2:
                    raise IllegalMove(f"at most two tiles per run end per turn: run {m.index} ({m}) {end} end", "L3")
        for end, k in (("low", len(low)), ("high", len(high))):
            if k:
                counts[(m.index, end)] = counts.get((m.index, end), 0) + k
        new_tiles = tuple(sorted(m.tiles + tuple(ts), key=lambda p: p.face.number))
        placers = _placers_after(m, new_tiles, seat)
    rack = remove_tiles(state.racks[seat], [p.physical for p in ts], seat)
    if not rack:
        raise IllegalMove(f"seat {seat} must keep a tile to discard", "P5")
    s = start_placing(state)
    op = s.opened[seat]
    if s.opened_this_turn and op is not None and op.kind == "points":
        # O1: same-turn lay-offs count towards a points opening; O4: a pairs opening's value is
        # its number of pairs, always, so they move neither threshold (O2, O3) nor siler (O8)
        op = Opening(op.kind, op.value + M.value(ts))
    return evolve(s, racks=replace_at(s.racks, seat, rack),
                   table=replace_at(s.table, m.index, TableMeld(m.index, m.owner, m.kind, new_tiles, placers)),
                   opened=replace_at(s.opened, seat, op), end_counts=tuple(counts.items()),
                   layoffs_this_turn=s.layoffs_this_turn + len(ts),
                   placed_this_turn=s.placed_this_turn + tuple(p.physical for p in ts))


def _placers_after(m: TableMeld, new_tiles: tuple[Placed, ...], seat: int) -> tuple[int, ...]:
    """Who placed each tile of a meld after ``seat`` added some (S3 needs the okey's placer)."""
    old = list(zip(m.tiles, m.placers))
    out = []
    for p in new_tiles:
        for i, (q, who) in enumerate(old):
            if q == p:
                out.append(who)
                del old[i]
                break
        else:
            out.append(seat)
    return tuple(out)


def on_swap(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    if state.phase != "play":
        raise IllegalMove(f"seat {seat} must draw or take before swapping", "P1")
    if state.opened[seat] is None:
        raise IllegalMove(f"seat {seat} must open before taking an okey from the table", "S1")
    m = _target(state, ev)
    raw = ev.get("tiles")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("a swap names the tiles it puts in", "S1")
    given = [event_tile({"tile": x}) for x in raw]
    okey = state.okey
    wild = [i for i, p in enumerate(m.tiles) if p.wild and p.physical == okey]
    if not wild:
        raise IllegalMove(f"meld {m.index} ({m}) holds no okey to take", "S1"
                          if not any(p.wild for p in m.tiles) else "O7")
    tiles = list(m.tiles)
    placers = list(m.placers)
    freed: list[tuple[Tile, int]] = []
    if m.kind == M.GROUP:
        # S2: each tile either replaces the okey standing for its colour or adds a missing
        # colour, and the group must then hold all four colours as real tiles
        number = m.tiles[0].face.number
        entries = list(zip(m.tiles, m.placers))
        for g in given:
            f = okey if g.is_joker else g  # T5: a false okey is the okey's face
            if f.number != number:
                raise IllegalMove(f"{g} does not belong in group {m.index} ({m})", "S2")
            hit = next((k for k, (p, _) in enumerate(entries)
                        if p.wild and p.physical == okey and p.face.colour == f.colour), None)
            if hit is not None:
                freed.append((entries[hit][0].physical, entries[hit][1]))
                entries[hit] = (Placed(g, f), seat)
            elif f.colour in {p.face.colour for p, _ in entries}:
                raise IllegalMove(f"group {m.index} ({m}) already has {f.colour}{number}", "S2")
            else:
                entries.append((Placed(g, f), seat))
        if not freed or len(entries) != 4 or any(p.wild for p, _ in entries):
            # [000]: "dört rengin hepsi tamamlanmalıdır": four real colours, so every okey comes out
            raise IllegalMove(f"from group {m.index} ({m}) the okey is taken only by completing four real "
                              f"colours, every okey out", "S2")
        order = "RYBK"
        entries.sort(key=lambda x: order.index(x[0].face.colour))
        tiles, placers = [p for p, _ in entries], [w for _, w in entries]
    else:
        for g in given:
            face = okey if g.is_joker else g
            for i in wild:
                if tiles[i].wild and tiles[i].face == face:
                    freed.append((tiles[i].physical, placers[i]))
                    tiles[i] = Placed(g, face)
                    placers[i] = seat
                    break
            else:
                raise IllegalMove(f"{g} is not what an okey in meld {m.index} ({m}) stands for", "S1")
    rack = remove_tiles(state.racks[seat], given, seat)
    rack = rack + tuple(t for t, _ in freed)
    s = start_placing(state)
    pens = s.penalties
    if s.rules.cezali and s.rules.x6:
        for _, who in freed:
            if who != seat:
                pens += (Penalty(who, s.rules.penalty_unit, "X6"),)
    return evolve(s, racks=replace_at(s.racks, seat, rack),
                   table=replace_at(s.table, m.index, TableMeld(m.index, m.owner, m.kind, tuple(tiles), tuple(placers))),
                   penalties=pens)


def on_takeback(state: HandState, ev: Mapping[str, Any]) -> HandState:
    seat = event_seat(state, ev)
    base = state.turn_base
    if state.phase != "play" or base is None:
        raise IllegalMove(f"seat {seat} placed nothing this turn to take back", "O6")
    if state.took_back:
        # [002] "sadece son taşı masadan geri alma hakkı": one takeback a turn, of a failed opening
        # (O6, X2) or of lay-offs (X7); a second would let one turn grow without bound
        raise IllegalMove(f"seat {seat} already took back once this turn; a turn allows one takeback "
                          f"(a failed opening is taken back once, then the turn ends with a discard)", "O6")
    pens = state.penalties
    r = state.rules
    if r.cezali:
        if state.opened_this_turn:
            pens += (Penalty(seat, r.penalty_unit, "X2"),)
        elif r.x7 and state.layoffs_this_turn >= 2:
            pens += (Penalty(seat, r.penalty_unit, "X7"),)
    table = base.table + (None,) * (len(state.table) - len(base.table))
    return evolve(base, table=table, penalties=pens, turn_base=None, last_event=None, took_back=True)

