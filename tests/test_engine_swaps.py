"""Okey swaps from groups (S2) and runs (S1), applied to crafted states."""

from __future__ import annotations

import pytest

from analysis.game import HandState, IllegalMove, Opening, TableMeld, apply
from analysis.game import resolve
from analysis.game import Placed, Tile, okey_of
from analysis.game.tiles import tiles


def _state(table: list[list[str]], rack: str, indicator: str = "R5") -> HandState:
    """Seat 1 to play, already opened, with ``table`` melds owned by seat 0."""
    ind = Tile.parse(indicator)
    okey = okey_of(ind)
    melds = []
    for i, m in enumerate(table):
        ps = []
        for x in m:
            phys, _, face = x.partition(">")
            ps.append(Placed(Tile.parse(phys), Tile.parse(face or phys), bool(face)))
        kind = "group" if len({p.face.number for p in ps}) == 1 else "run"
        melds.append(TableMeld(i, 0, kind, tuple(ps), (0,) * len(ps)))
    return HandState(rules=resolve("101"), hand=1, starter=0, indicator=ind, okey=okey,
                     racks=((), tuple(tiles(rack)), (), ()), deck=None, deck_count=10,
                     discards=((), (), (), ()), table=tuple(melds),
                     opened=(Opening("points", 101), Opening("points", 102), None, None),
                     turn=1, phase="play")


def _swap(s: HandState, meld: int, ts: str) -> HandState:
    return apply(s, {"type": "swap", "seat": 1, "meld": meld, "tiles": ts.split()})


def _refused(s: HandState, meld: int, ts: str) -> str:
    """The rule ID the engine cites when it refuses the swap."""
    with pytest.raises(IllegalMove) as e:
        _swap(s, meld, ts)
    return e.value.rule


def test_three_tile_group_needs_both_missing_colours_S2() -> None:
    s = _state([["Y12", "B12", "R6>R12"]], "R12 K12 K3")
    assert _refused(s, 0, "R12") == "S2"
    after = _swap(s, 0, "R12 K12")
    assert sorted(map(str, after.racks[1])) == ["K3", "R6"]
    assert [str(p) for p in after.table[0].tiles] == ["R12", "Y12", "B12", "K12"]
    assert [p for p in after.penalties if p.rule == "X6"][0].seat == 0  # S3: seat 0 placed it


def test_full_group_with_two_okeys_gives_both_up_only_together_S2() -> None:
    # docs/rules.md S2 from [000] "dört rengin hepsi tamamlanmalıdır": four real colours after
    # the swap; one of two okeys out of a group of four is refused (S2)
    s = _state([["Y12", "B12", "R6>R12", "R6>K12"]], "K12 R12 B3")
    assert _refused(s, 0, "K12") == "S2"
    after = _swap(s, 0, "R12 K12")
    assert [str(p) for p in after.table[0].tiles] == ["R12", "Y12", "B12", "K12"]
    assert sorted(map(str, after.racks[1])) == ["B3", "R6", "R6"]


def test_group_swap_refuses_a_colour_already_there_S2() -> None:
    s = _state([["Y12", "B12", "R6>R12"]], "Y12 K12 K3")
    assert _refused(s, 0, "Y12 K12") == "S2"


def test_run_swap_needs_the_face_the_okey_stands_for_S1() -> None:
    s = _state([["B3", "R6>B4", "B5"]], "B4 B6 K1")
    assert _refused(s, 0, "B6") == "S1"
    after = _swap(s, 0, "B4")
    assert "R6" in map(str, after.racks[1]) and str(after.table[0]) == "B3 B4 B5"


def test_a_second_open_in_the_opening_turn_adds_to_the_same_opening_O1() -> None:
    s = _state([], "R1 R2 R3 K10 K11 K12 K13 B5")
    s = HandState(**{**s.__dict__, "opened": (Opening("points", 101), None, None, None)})
    s = apply(s, {"type": "open", "seat": 1, "melds": [["R1", "R2", "R3"]]})
    s = apply(s, {"type": "open", "seat": 1, "melds": [["K10", "K11", "K12", "K13"]]})
    assert s.opened[1] == Opening("points", 6 + 46) and s.opened_this_turn
    with pytest.raises(IllegalMove) as e:  # 52 < 102: under the threshold, not taken back
        apply(s, {"type": "discard", "seat": 1, "tile": "B5"})
    assert e.value.rule == "O1"
