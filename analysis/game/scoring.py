"""Hand-end scoring (E4-E8), game totals and match points (G1-G4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rules import Rules
from .tiles import Tile, tile_value

if TYPE_CHECKING:
    from .state import HandState, Opening


@dataclass(frozen=True, slots=True)
class FinishInfo:
    result: str  # finish or exhausted
    finisher: int | None
    kinds: tuple[str, ...]  # okey, elden, pairs
    others_open: bool  # did anybody but the finisher open (E7 (1))


def rack_points(rules: Rules, rack: Sequence[Tile], opening: Opening, okey: Tile) -> tuple[int, int]:
    """E5 for an opened player: (tile sum, doubled for a pairs opener; okeys held)."""
    total = sum(tile_value(t, okey) for t in rack)
    if opening.kind == "pairs":
        total *= 2
    okeys = sum(1 for t in rack if t == okey)
    return total, okeys


def multiplier(rules: Rules, info: FinishInfo) -> tuple[int, int]:
    """(finisher's multiplier, opponents' multiplier) for a finish (E6, E7)."""
    k = set(info.kinds)
    if rules.multipliers == "E7":
        fin = (2 if "pairs" in k else 1) * (2 if "okey" in k else 1)
        return fin, fin * (1 if info.others_open else 2)
    m = (2 if "okey" in k else 1) * (2 if "elden" in k else 1) * (2 if "pairs" in k else 1)
    return m, m


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One seat's hand-end score and what it is made of (E4-E8), for a reader to follow.

    ``why``: ``finisher`` (−finisher_bonus × mult), ``partner`` (0, E8), ``unopened``
    (unopened_penalty × mult, E5), ``rack`` (tiles, doubled for a pairs opener, × mult, plus
    okey_in_rack per okey held, not multiplied: E5) or ``nobody_opened`` (0, E4).
    """

    seat: int
    score: int
    why: str
    rule: str
    mult: int = 1  # the finish multiplier applied (E6, E7); 1 for none
    tiles: int = 0  # an opened rack's tile sum (E5), before doubling
    doubled: bool = False  # the tile sum doubled: he opened with pairs (E5)
    okeys: int = 0  # okeys left in the rack (E5)
    okey_points: int = 0  # what they add (okeys × okey_in_rack)


def explain_hand(rules: Rules, info: FinishInfo, racks: Sequence[Sequence[Tile]],
                 opened: Sequence[Opening | None], okey: Tile) -> tuple[ScoreLine, ...]:
    """Hand-end scores per seat with their parts, in-game penalties excluded (E4-E8)."""
    sums = [sum(tile_value(t, okey) for t in rack) for rack in racks]
    okeys = [sum(1 for t in rack if t == okey) for rack in racks]
    return explain_counts(rules, info, sums, [op.kind if op is not None else None for op in opened], okeys)


def explain_counts(rules: Rules, info: FinishInfo, left: Sequence[int | None],
                   opened: Sequence[str | None], okeys: Sequence[int]) -> tuple[ScoreLine, ...]:
    """The same scores from what a table counts (a score sheet): ``left`` each seat's tile sum
    (T6, an okey at its face), ``opened`` "points", "pairs" or None, ``okeys`` okeys left in each
    rack. An opened seat's ``left`` is only read where E5 scores his rack (never None there)."""
    def rack(s: int, mult: int) -> ScoreLine:
        tiles = left[s] or 0
        doubled = opened[s] == "pairs"
        extra = okeys[s] * rules.okey_in_rack  # the okey charge is not multiplied (E5, E6)
        return ScoreLine(s, tiles * (2 if doubled else 1) * mult + extra, "rack", "E5", mult=mult,
                         tiles=tiles, doubled=doubled, okeys=okeys[s], okey_points=extra)

    if info.result == "exhausted":
        if all(o is None for o in opened):
            return tuple(ScoreLine(s, 0, "nobody_opened", "E4") for s in range(4))
        return tuple(ScoreLine(s, rules.unopened_penalty, "unopened", "E5") if opened[s] is None
                     else rack(s, 1) for s in range(4))
    assert info.finisher is not None
    fin_mult, opp_mult = multiplier(rules, info)
    lines = []
    for s in range(4):
        if s == info.finisher:
            lines.append(ScoreLine(s, -rules.finisher_bonus * fin_mult, "finisher", "E5", mult=fin_mult))
        elif rules.esli and s == (info.finisher + 2) % 4:
            lines.append(ScoreLine(s, 0, "partner", "E8"))
        elif opened[s] is None:
            lines.append(ScoreLine(s, rules.unopened_penalty * opp_mult, "unopened", "E5", mult=opp_mult))
        else:
            lines.append(rack(s, opp_mult))
    return tuple(lines)


def explain_state(state: HandState) -> tuple[ScoreLine, ...] | None:
    """The score lines of a hand that ended by a finish or an exhausted deck (None otherwise):
    the same parts the engine summed into ``state.scores``."""
    if state.result == "finish" and state.finisher is not None:
        others = any(state.opened[s] is not None for s in range(4) if s != state.finisher)
        info = FinishInfo("finish", state.finisher, tuple(state.finish_kinds), others)
    elif state.result == "exhausted":
        info = FinishInfo("exhausted", None, (), True)
    else:
        return None
    return explain_hand(state.rules, info, state.racks, state.opened, state.okey)


def score_hand(rules: Rules, info: FinishInfo, racks: Sequence[Sequence[Tile]],
               opened: Sequence[Opening | None], okey: Tile) -> tuple[int, ...]:
    """Hand-end scores per seat, in-game penalties excluded (E4-E8)."""
    return tuple(line.score for line in explain_hand(rules, info, racks, opened, okey))


def match_points(totals: Sequence[int], hands: int) -> list[int]:
    """G3: 1st +N, 2nd +N//2, 3rd -N//2, 4th -N by lowest total; ties share the better rank."""
    award = [hands, hands // 2, -(hands // 2), -hands]
    return [award[sum(1 for u in totals if u < t)] for t in totals]


def team_totals(totals: Sequence[int]) -> tuple[int, int]:
    """G4: seats 0+2 against 1+3."""
    return totals[0] + totals[2], totals[1] + totals[3]
