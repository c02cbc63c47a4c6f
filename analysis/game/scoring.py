"""Hand-end scoring (E4-E8), game totals and match points (G1-G4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rules import Rules
from .tiles import Tile, tile_value

if TYPE_CHECKING:
    from .state import Opening


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


def score_hand(rules: Rules, info: FinishInfo, racks: Sequence[Sequence[Tile]],
               opened: Sequence[Opening | None], okey: Tile) -> tuple[int, ...]:
    """Hand-end scores per seat, in-game penalties excluded (E4-E8)."""
    scores = [0, 0, 0, 0]
    if info.result == "exhausted":
        if all(o is None for o in opened):
            return tuple(scores)  # E4: nobody opened, nobody is scored
        for s in range(4):
            op = opened[s]
            if op is None:
                scores[s] = rules.unopened_penalty
            else:
                pts, okeys = rack_points(rules, racks[s], op, okey)
                scores[s] = pts + okeys * rules.okey_in_rack
        return tuple(scores)
    assert info.finisher is not None
    fin_mult, opp_mult = multiplier(rules, info)
    for s in range(4):
        if s == info.finisher:
            scores[s] = -rules.finisher_bonus * fin_mult
            continue
        if rules.esli and s == (info.finisher + 2) % 4:
            scores[s] = 0  # E8
            continue
        op = opened[s]
        if op is None:
            scores[s] = rules.unopened_penalty * opp_mult
        else:
            pts, okeys = rack_points(rules, racks[s], op, okey)
            scores[s] = pts * opp_mult + okeys * rules.okey_in_rack  # the okey charge is not multiplied
    return tuple(scores)


def match_points(totals: Sequence[int], hands: int) -> list[int]:
    """G3: 1st +N, 2nd +N//2, 3rd -N//2, 4th -N by lowest total; ties share the better rank."""
    award = [hands, hands // 2, -(hands // 2), -hands]
    return [award[sum(1 for u in totals if u < t)] for t in totals]


def team_totals(totals: Sequence[int]) -> tuple[int, int]:
    """G4: seats 0+2 against 1+3."""
    return totals[0] + totals[2], totals[1] + totals[3]
