"""Engine bugs found by self-play, each pinned by a small hand (fixes in analysis/engine.py)."""

from __future__ import annotations

import pytest

from analysis.game import IllegalMove, apply, new_hand
from analysis.game import resolve
from analysis.game import Tile
from analysis.game.tiles import tiles


def _group_with_okey_on_table():
    """51 with a 30-point threshold; indicator K11, so the okey is K12 and J counts as K12 (T5).
    Seat 0 opens K12>R12 Y12 B12, everyone passes a turn, seat 0 has drawn again."""
    r = resolve("51", {"open_points": 30})
    racks = [tiles("K12 Y12 B12 R12 J R1 R3 R5 R7 R9 Y1 Y3 Y5 Y7 Y9"),
             tiles("B1 B3 B5 B7 B9 K1 K3 K5 K7 K9 R2 R4 R6 R8"),
             tiles("Y2 Y4 Y6 Y8 B2 B4 B6 B8 K2 K4 K6 K8 R10 R11"),
             tiles("Y10 Y11 B10 B11 K10 R13 Y13 B13 K13 R1 Y1 B1 K1 R3")]
    s = new_hand(r, 1, 0, Tile.parse("K11"), racks)
    for ev in [{"type": "open", "seat": 0, "melds": [["K12>R12", "Y12", "B12"]]}, {"type": "discard", "seat": 0, "tile": "R9"},
               {"type": "draw", "seat": 1, "tile": "B13"}, {"type": "discard", "seat": 1, "tile": "B13"},
               {"type": "draw", "seat": 2, "tile": "K13"}, {"type": "discard", "seat": 2, "tile": "K13"},
               {"type": "draw", "seat": 3, "tile": "Y12"}, {"type": "discard", "seat": 3, "tile": "Y12"},
               {"type": "draw", "seat": 0, "tile": "B12"}]:
        s = apply(s, ev)
    return s


def test_false_okey_completes_a_group_for_an_okey_swap_as_the_okey_face_T5_S2() -> None:
    s = apply(_group_with_okey_on_table(), {"type": "swap", "seat": 0, "meld": 0, "tiles": ["R12", "J"]})
    g = s.table[0]
    assert [str(p) for p in g.tiles] == ["R12", "Y12", "B12", "J"]
    assert [p.face for p in g.tiles][-1] == Tile.parse("K12") and not g.tiles[-1].wild
    assert Tile.parse("K12") in s.racks[0] and Tile.parse("J") not in s.racks[0]


def test_group_swap_still_needs_every_missing_colour_S2() -> None:
    with pytest.raises(IllegalMove) as e:
        apply(_group_with_okey_on_table(), {"type": "swap", "seat": 0, "meld": 0, "tiles": ["R12"]})
    assert e.value.rule == "S2"
