"""One legal and one illegal case per rule ID of docs/rules.md, as small logs replayed by the CLI.

Every log is composed with tests/golden/builder.py (tiles conserved) and written to tmp_path;
expected outcomes come from docs/rules.md. Where docs/rules.md leaves the rule ID of a refusal open
(e.g. an escalated threshold: O1 or O2), the test accepts the plausible IDs and says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden import build
from golden.build import KIT0, KIT1, KIT2, tiles_of, without
from golden.builder import LogFile, physical, replay, run

from analysis.game import tiles as T

# ---------------------------------------------------------------------------------------------
# helpers


def go(f: LogFile, tmp_path: Path, name: str = "t") -> tuple[int, dict[str, Any]]:
    p = tmp_path / f"{name}.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    rc, out, err = replay(p)
    assert out is not None, f"exit {rc}: {err[-2000:]}"
    return rc, out


def hand(out: dict[str, Any], g: int = 0, h: int = 0) -> dict[str, Any]:
    assert not out["errors"], out["errors"]
    return out["games"][g]["hands"][h]


def pens(hv: dict[str, Any]) -> list[tuple[int, int, str]]:
    return sorted((p["seat"], p["points"], p["rule"]) for p in hv["penalties"])


def invalid(hv: dict[str, Any], line: int | set[int], *rules: str) -> None:
    assert hv["result"] == "invalid", hv
    lines = line if isinstance(line, set) else {line}
    assert hv["error"]["line"] in lines, hv["error"]
    assert hv["error"]["rule"] in rules, hv["error"]


def fine(hv: dict[str, Any]) -> None:
    assert hv["error"] is None, hv["error"]
    assert hv["result"] != "invalid", hv


def okey_of(indicator: str) -> str:
    return str(T.okey_of(T.tile(indicator)))


def safe(h: Any, seat: int, avoid: str = "") -> str:
    """Some tile of the seat's rack that is neither an okey nor J nor in ``avoid``."""
    ok = okey_of(h.indicator)
    bad = set(avoid.split()) | {ok, "J"}
    for t in h.rack(seat):
        if t not in bad:
            return t
    raise AssertionError("no safe tile")


def phys(melds: list[str]) -> str:
    return " ".join(physical(t) for m in melds for t in m.split())


def new(variant: str = "101", rules: dict | None = None, hands: int = 1) -> tuple[LogFile, Any]:
    f = LogFile()
    return f, f.game("t", variant=variant, rules=rules, hands=hands)


def opening(melds: list[str] | None = None, pairs: list[str] | None = None, variant: str = "101",
            rules: dict | None = None, indicator: str = "Y6", rack1: str | None = None,
            deck: str = "Y1 Y2 Y3 Y4 Y5 Y8", racks: dict[int, str] | None = None,
            discard: bool = True, declare: bool = False):
    """Seat 0 discards, seat 1 draws, opens and discards the drawn tile.

    Returns (file, hand, line of the open, line of the discard)."""
    f, g = new(variant, rules)
    rk = {1: rack1 or phys(melds or pairs or []) + " *"}
    rk.update(racks or {})
    h = g.hand(1, starter=0, indicator=indicator, racks=rk, deck=deck)
    h.discard(0, safe(h, 0, deck))
    if declare:
        h.declare(1)
    h.draw(1)
    ln = h.open(1, melds=melds, pairs=pairs)
    dl = h.discard(1, h.last_drawn) if discard else None
    return f, h, ln, dl


KIT1_FULL = tiles_of(KIT1) + " Y11 Y12 Y13"


# ---------------------------------------------------------------------------------------------
# T: tiles


def test_full_set_is_106_tiles_T1() -> None:
    assert sum(T.full_set().values()) == 106
    assert T.tile("J").is_joker and str(T.tile("K13")) == "K13"
    for bad in ("R14", "R0", "X5", "J2"):
        with pytest.raises(T.NotationError):
            T.tile(bad)


def test_a_third_copy_of_a_tile_is_refused_T1(tmp_path: Path) -> None:
    f, h, _, _ = opening(melds=KIT1, rack1=KIT1_FULL)
    fine(hand(go(f, tmp_path)[1]))
    # Same hand, but one of seat 2's tiles becomes a third R6 (T1: two copies of each face).
    line = h.line
    ev = json.loads(f.lines[line - 1])
    r2 = ev["racks"][2]
    victim = next(t for t in r2 if t != "R6")
    r2[r2.index(victim)] = "R6"
    f.lines[line - 1] = json.dumps(ev)
    invalid(hand(go(f, tmp_path, "bad")[1]), line, "T1", "D1")


def test_indicator_cannot_be_a_false_okey_T2(tmp_path: Path) -> None:
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    fine(hand(go(f, tmp_path)[1]))
    ev = json.loads(f.lines[h.line - 1])
    # put the J where it lay and the indicator Y6 in its place
    for where in ev["racks"] + [ev["deck"]]:
        if "J" in where:
            where[where.index("J")] = "Y6"
            break
    ev["indicator"] = "J"
    f.lines[h.line - 1] = json.dumps(ev)
    invalid(hand(go(f, tmp_path, "bad")[1]), h.line, "T2")


def test_indicator_13_gives_okey_1_T3(tmp_path: Path) -> None:
    assert okey_of("K13") == "K1" and okey_of("R5") == "R6"
    melds = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8", "R10 B10 K10", "B1 B2 B3", "K1>K1 K2 K3"]
    f, h, ln, _ = opening(melds=melds, indicator="K13")
    fine(hand(go(f, tmp_path)[1]))
    # with indicator K12 the okey is K13: K1 is a plain tile and cannot stand for anything
    f, _h, ln, _ = opening(melds=melds, indicator="K12")
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "T3", "T4")


def test_okey_is_wild_in_a_meld_T4(tmp_path: Path) -> None:
    melds = ["R6 R7 Y7>R8", "B6 B7 B8", "K6 K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]
    f, h, ln, _ = opening(melds=melds)
    fine(hand(go(f, tmp_path)[1]))
    bare = ["R6 R7 Y7"] + melds[1:]  # an okey face inside a meld must say what it stands for
    f, _h, ln, _ = opening(melds=bare)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "T4")


def test_false_okey_is_the_okey_face_T5(tmp_path: Path) -> None:
    # indicator Y6: okey Y7, so J is Y7 and fits Y8 Y9
    melds = ["J Y8 Y9"] + KIT1[:-1]
    f, h, ln, _ = opening(melds=melds)
    fine(hand(go(f, tmp_path)[1]))
    with pytest.raises(T.NotationError):
        T.parse_placed("J>R9", T.tile("Y7"))
    bad = ["R7 R8 J>R9", "B6 B7 B8", "K6 K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3", "Y8 Y9 Y10"]
    f, _h, ln, _ = opening(melds=bad)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "T5", "T4", "M3")


def test_okey_and_false_okey_count_as_what_they_stand_for_T6(tmp_path: Path) -> None:
    # 39 + 36 + 26 = 101 only if the okey counts as K13 (own face 7 would give 94)
    f, h, ln, dl = opening(melds=["R13 B13 Y7>K13", "R12 B12 K12", run("R", 5, 8)])
    fine(hand(go(f, tmp_path)[1]))
    # 52 + 36 + (5 + 6 + 7) = 106 only if J counts as the okey face Y7
    f, h, ln, dl = opening(melds=["R13 B13 K13 Y13", "R12 B12 K12", "Y5 Y6 J"])
    fine(hand(go(f, tmp_path, "j")[1]))
    # 39 + 36 + 22 = 97: under 101
    f, _h, _ln, dl = opening(melds=["R13 B13 Y7>K13", "R12 B12 K12", run("R", 4, 7)])
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1")


# ---------------------------------------------------------------------------------------------
# D, P: dealing and turns


def test_racks_hold_21_and_22_tiles_D1(tmp_path: Path) -> None:
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    fine(hand(go(f, tmp_path)[1]))
    ev = json.loads(f.lines[h.line - 1])
    ev["deck"].append(ev["racks"][2].pop())  # seat 2 with 20 tiles
    f.lines[h.line - 1] = json.dumps(ev)
    invalid(hand(go(f, tmp_path, "bad")[1]), h.line, "D1")


def test_racks_hold_14_and_15_tiles_in_51_D1(tmp_path: Path) -> None:
    f, g = new("51")
    h = g.hand(1, starter=0, indicator="R5", racks={})
    h.discard(0, safe(h, 0))
    fine(hand(go(f, tmp_path)[1]))
    ev = json.loads(f.lines[h.line - 1])
    ev["racks"][0].append(ev["deck"].pop())  # starter with 16
    f.lines[h.line - 1] = json.dumps(ev)
    invalid(hand(go(f, tmp_path, "bad")[1]), h.line, "D1")


def test_play_passes_to_the_next_seat_D2(tmp_path: Path) -> None:
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    h.draw(1)
    fine(hand(go(f, tmp_path)[1]))
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    ln = h.draw(2)  # seat 2 draws out of turn
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "D2", "P1")


def test_next_hand_starter_is_the_next_seat_D2(tmp_path: Path) -> None:
    for starter, ok in ((1, True), (3, False)):
        f, g = new(hands=2)
        build._elden(f, "", "Y8", g=g, n=1)
        h = g.hand(2, starter=starter, indicator="Y6", racks={})
        h.discard(starter, safe(h, starter))
        out = go(f, tmp_path, f"s{starter}")[1]
        fine(hand(out, 0, 0))
        if ok:
            fine(hand(out, 0, 1))
        else:
            invalid(hand(out, 0, 1), h.line, "D2")


def test_a_turn_is_one_draw_then_one_discard_P1(tmp_path: Path) -> None:
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    h.draw(1)
    h.discard(1, h.last_drawn)
    fine(hand(go(f, tmp_path)[1]))
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    h.draw(1)
    ln = h.draw(1)  # a second draw in one turn
    invalid(hand(go(f, tmp_path, "two")[1]), ln, "P1")
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, safe(h, 0))
    ln = h.discard(1, safe(h, 1))  # discard without drawing
    invalid(hand(go(f, tmp_path, "nodraw")[1]), ln, "P1")


def test_unopened_take_must_open_with_the_tile_P2(tmp_path: Path) -> None:
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "K9 *"}, deck="Y1")
    h.discard(0, "K9")
    h.take(1, "K9")
    h.ret(1, "K9")  # cannot open: returns it and draws (no penalty)
    h.draw(1)
    h.discard(1, "Y1")
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    assert pens(hv) == []
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "K9 *"}, deck="Y1")
    h.discard(0, "K9")
    h.take(1, "K9")
    ln = h.discard(1, safe(h, 1, "K9"))
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "P2")


def test_discarded_okey_cannot_be_taken_P3(tmp_path: Path) -> None:
    # legal: an opened player takes a plain discard freely
    f, h, _, _ = opening(melds=KIT1, rack1=KIT1_FULL, racks={0: "K12 Y1 *"})
    h.cycle([2, 3])
    h.draw(0)
    h.discard(0, "Y1")
    h.take(1, "Y1")
    h.discard(1, "Y1")
    fine(hand(go(f, tmp_path)[1]))
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "Y7 *"})
    h.discard(0, "Y7")
    ln = h.take(1, "Y7")
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "P3")


def _p4(variant: str) -> tuple[LogFile, int]:
    pairs1 = ["K12 K12", "K13 K13", "Y13 Y13", "Y12 Y12", "Y10 Y10"]
    f, g = new(variant)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: tiles_of(pairs1) + " B7 *", 2: without(KIT2, "B7") + " K5 Y1"}, deck="Y2")
    h.discard(0, safe(h, 0, "B7 Y2"))
    if variant == "101-classic":
        h.declare(1)
    h.draw(1)
    h.open(1, pairs=pairs1)
    h.discard(1, "B7")
    ln = h.take(2, "B7")
    h.open(2, melds=KIT2)
    h.discard(2, "K5")
    return f, ln


def test_classic_pairs_openers_discards_cannot_be_taken_P4(tmp_path: Path) -> None:
    f, ln = _p4("101")
    fine(hand(go(f, tmp_path)[1]))
    f, ln = _p4("101-classic")
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "P4")


def test_placing_must_leave_a_tile_to_discard_P5(tmp_path: Path) -> None:
    melds = [run("R", 1, 6)] + KIT0[1:]  # 22 tiles: nothing left to discard
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6", racks={1: without(KIT0, "K13") + " R6"}, deck="K13")
    h.discard(0, safe(h, 0))
    h.draw(1)
    ln = h.open(1, melds=melds)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "P5")
    f2 = LogFile()
    build._elden(f2, "t", "Y8")  # 21 tiles laid, the 22nd discarded
    fine(hand(go(f2, tmp_path)[1]))


# ---------------------------------------------------------------------------------------------
# M: melds and pairs


def _bad_meld(tmp_path: Path, bad: str, rule: str, good: str) -> None:
    base = KIT1[:3] + ["B1 B2 B3", "K1 K2 K3"]  # 75
    f, h, ln, _ = opening(melds=base + [good, "R13 B13 K13"])
    fine(hand(go(f, tmp_path, "good")[1]))
    f, _h, ln, _ = opening(melds=base + [bad, "R13 B13 K13"])
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, rule)


def test_meld_has_at_least_three_tiles_M1(tmp_path: Path) -> None:
    _bad_meld(tmp_path, "R10 B10", "M1", "R10 B10 K10")


def test_group_has_no_colour_twice_M2(tmp_path: Path) -> None:
    _bad_meld(tmp_path, "R10 B10 B10", "M2", "R10 B10 Y10")


def test_run_is_consecutive_and_one_is_only_low_M3(tmp_path: Path) -> None:
    _bad_meld(tmp_path, "R11 R12 R1", "M3", "R10 R11 R12")
    f, h, ln, _ = opening(melds=KIT1[:3] + ["R12 R13 R1", "B11 B12 B13"])
    invalid(hand(go(f, tmp_path, "wrap")[1]), ln, "M3")
    f, _h, ln, _ = opening(melds=KIT1[:4] + ["B1 B2 B4"])
    invalid(hand(go(f, tmp_path, "gap")[1]), ln, "M3")


def test_pair_is_two_identical_tiles_okey_may_complete_M4(tmp_path: Path) -> None:
    good = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 Y7>R5"]
    f, h, ln, _ = opening(pairs=good)
    fine(hand(go(f, tmp_path)[1]))
    bad = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 B5"]
    f, _h, ln, _ = opening(pairs=bad)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "M4")


def test_meld_value_is_the_sum_of_its_tiles_M5(tmp_path: Path) -> None:
    f, h, ln, dl = opening(melds=["R13 B13 K13", "R12 B12 K12", run("R", 5, 8)])  # 39+36+26 = 101
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    f, _h, _ln, dl = opening(melds=["R13 B13 K13", "R12 B12 K12", run("R", 3, 7)])  # 39+36+25 = 100
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1")


# ---------------------------------------------------------------------------------------------
# O: opening


def test_opening_turn_counts_same_turn_layoffs_O1(tmp_path: Path) -> None:
    # 39 + 36 + 15 = 90, then R7 R8 laid off the same turn: 105 >= 101 (O1, L6 allows it)
    for tiles_, ok in (("R7 R8", True), ("R7", False)):
        f, g = new()
        h = g.hand(1, starter=0, indicator="Y6",
                   racks={1: "R13 B13 K13 R12 B12 K12 R4 R5 R6 R7 R8 *"}, deck="Y1")
        h.discard(0, safe(h, 0, "Y1"))
        h.draw(1)
        h.open(1, melds=["R13 B13 K13", "R12 B12 K12", "R4 R5 R6"])
        h.layoff(1, 2, tiles_)
        dl = h.discard(1, "Y1")
        hv = hand(go(f, tmp_path, tiles_.replace(" ", ""))[1])
        if ok:
            fine(hv)
        else:
            invalid(hv, dl, "O1")  # 97


OPEN_106 = ["R9 B9 K9", "R11 B11 K11", "B4 B5 B6 B7", "K2 K3 K4", "Y4 Y5 Y6"]  # 106
OPEN_105 = ["R9 B9 K9", "R11 B11 K11", "B4 B5 B6 B7", "K2 K3 K4 K5", "Y2 Y3 Y4"]  # 105


def _second_opener(kit: list[str], rules: dict | None = None, variant: str = "101",
                   seat1_opens: bool = True) -> tuple[LogFile, int]:
    f, g = new(variant, rules)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: KIT1_FULL, 2: phys(kit) + " *"}, deck="Y1 Y8")
    h.discard(0, safe(h, 0, "Y1 Y8"))
    h.draw(1)
    if seat1_opens:
        h.open(1, melds=KIT1)  # 105
    h.discard(1, "Y1")
    h.draw(2)
    h.open(2, melds=kit)
    dl = h.discard(2, "Y8")
    return f, dl


def test_points_openings_escalate_O2(tmp_path: Path) -> None:
    from golden.builder import face_sum
    assert face_sum(" ".join(OPEN_106)) == 106 and face_sum(" ".join(OPEN_105)) == 105
    f, dl = _second_opener(OPEN_106)
    fine(hand(go(f, tmp_path)[1]))
    f, dl = _second_opener(OPEN_105)
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1", "O2")
    # without katlamali the threshold stays 101
    f, dl = _second_opener(OPEN_105, rules={"katlamali": False})
    fine(hand(go(f, tmp_path, "flat")[1]))


def test_pairs_need_five_and_escalate_O3(tmp_path: Path) -> None:
    five = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    f, h, ln, dl = opening(pairs=five)
    fine(hand(go(f, tmp_path)[1]))
    f, h, _ln, dl = opening(pairs=five[:4])
    invalid(hand(go(f, tmp_path, "four")[1]), dl, "O3")
    # after 6 pairs the next pairs opener needs 7
    six = five + ["B1 B1"]
    for n, ok in ((6, False), (7, True)):
        mine = ["K1 K1", "K2 K2", "K3 K3", "K4 K4", "K5 K5", "K6 K6", "K7 K7"][:n]
        f, g = new()
        h = g.hand(1, starter=0, indicator="Y6",
                   racks={1: phys(six) + " *", 2: phys(mine) + " *"}, deck="Y1 Y2")
        h.discard(0, safe(h, 0, "Y1 Y2"))
        h.draw(1)
        h.open(1, pairs=six)
        h.discard(1, "Y1")
        h.draw(2)
        h.open(2, pairs=mine)
        dl = h.discard(2, "Y2")
        hv = hand(go(f, tmp_path, f"esc{n}")[1])
        if ok:
            fine(hv)
        else:
            invalid(hv, dl, "O3", "O2")


def test_pairs_and_melds_never_mix_in_one_opening_O3(tmp_path: Path) -> None:
    f, g = new()
    pairs1 = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    h = g.hand(1, starter=0, indicator="Y6", racks={1: phys(pairs1) + " R11 R12 R13 *"}, deck="Y1")
    h.discard(0, safe(h, 0, "Y1"))
    h.draw(1)
    h.open(1, pairs=pairs1)
    ln = h.meld(1, melds=["R11 R12 R13"])
    invalid(hand(go(f, tmp_path)[1]), ln, "O3", "O4")


def _after_pairs_opening(later: dict, rules: dict | None = None) -> tuple[LogFile, int]:
    """Seat 1 opens 5 pairs, then (next turn) places ``later``."""
    pairs1 = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    f, g = new(rules=rules)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: phys(pairs1) + " B11 B12 B13 K9 K9 *"}, deck="Y1 Y2 Y3 Y4 Y5")
    h.discard(0, safe(h, 0, "Y1 Y2 Y3 Y4 Y5"))
    h.draw(1)
    h.open(1, pairs=pairs1)
    h.discard(1, "Y1")
    h.cycle([2, 3, 0])
    h.draw(1)
    ln = h.meld(1, **later)
    h.discard(1, "Y5")
    return f, ln


def test_pairs_opener_never_places_melds_O4(tmp_path: Path) -> None:
    f, ln = _after_pairs_opening({"pairs": ["K9 K9"]})
    fine(hand(go(f, tmp_path)[1]))
    f, ln = _after_pairs_opening({"melds": ["B11 B12 B13"]})
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "O4")


def _melds_opener_places_pairs(pairs_opened: bool) -> tuple[LogFile, int]:
    pairs2 = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: tiles_of(KIT1) + " Y12 Y12 Y13", 2: phys(pairs2) + " *"},
               deck="Y1 Y2 Y3 Y4 Y5")
    h.discard(0, safe(h, 0, "Y1 Y2 Y3 Y4 Y5"))
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.draw(2)
    if pairs_opened:
        h.open(2, pairs=pairs2)
    h.discard(2, "Y2")
    h.cycle([3, 0])
    h.draw(1)
    ln = h.meld(1, pairs=["Y12 Y12"])
    h.discard(1, "Y5")
    return f, ln


def test_melds_opener_places_pairs_only_after_a_pairs_opening_O5(tmp_path: Path) -> None:
    f, ln = _melds_opener_places_pairs(True)
    fine(hand(go(f, tmp_path)[1]))
    f, ln = _melds_opener_places_pairs(False)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "O5", "L5")


def test_melds_opener_places_new_melds_without_threshold_O5(tmp_path: Path) -> None:
    f, _h = build._frame("t", "*", "Y1 Y2 Y3 Y4 Y5", lambda h: h.cycle([2]))
    fine(hand(go(f, tmp_path)[1]))  # seat 1 melds Y11 Y12 Y13 (36) on his second turn


def _takeback(rules: dict | None, take_back: bool) -> tuple[LogFile, int]:
    f, g = new(rules=rules)
    h = g.hand(1, starter=0, indicator="Y6", racks={1: "R1 R2 R3 *"}, deck="Y1")
    h.discard(0, safe(h, 0, "Y1"))
    h.draw(1)
    h.open(1, melds=["R1 R2 R3"])
    if take_back:
        h.takeback(1)
    dl = h.discard(1, "Y1")
    return f, dl


def test_failed_opening_is_taken_back_with_penalty_O6(tmp_path: Path) -> None:
    f, dl = _takeback(None, True)
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    assert pens(hv) == [(1, 101, "X2")]
    f, dl = _takeback({"cezali": False}, True)
    hv = hand(go(f, tmp_path, "free")[1])
    fine(hv)
    assert pens(hv) == []
    f, dl = _takeback(None, False)
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1")


def _show(variant: str = "101", show: str = "before", twin_in_meld: bool = False):
    pairs1 = ["R1 R1", "R2 R2", "R4 R4", "R5 R5", "R3 Y6>R3"]
    f, g = new(variant)
    h = g.hand(1, starter=0, indicator="Y6", racks={1: phys(pairs1) + " *"}, deck="Y1")
    h.discard(0, safe(h, 0, "Y1 Y6"))
    sl = h.show(1, "Y6") if show == "before" else None
    if variant == "101-classic":
        h.declare(1)
    h.draw(1)
    if show == "after":
        sl = h.show(1, "Y6")
    ln = h.open(1, pairs=pairs1)
    h.discard(1, "Y1")
    return f, sl, ln


def test_shown_indicator_twin_completes_a_pair_O7(tmp_path: Path) -> None:
    f, sl, ln = _show()
    fine(hand(go(f, tmp_path)[1]))
    f, sl, ln = _show(show="none")
    invalid(hand(go(f, tmp_path, "unshown")[1]), ln, "O7", "T4", "M4")
    f, sl, ln = _show(show="after")
    invalid(hand(go(f, tmp_path, "late")[1]), sl, "O7")
    f, sl, ln = _show(variant="101-classic")
    invalid(hand(go(f, tmp_path, "classic")[1]), sl, "O7")


def test_shown_indicator_twin_is_not_wild_in_melds_O7(tmp_path: Path) -> None:
    f, g = new()
    melds = ["R6 R7 Y6>R8"] + KIT1[1:]
    h = g.hand(1, starter=0, indicator="Y6", racks={1: phys(melds) + " *"}, deck="Y1")
    h.discard(0, safe(h, 0, "Y1 Y6"))
    h.show(1, "Y6")
    h.draw(1)
    ln = h.open(1, melds=melds)
    h.discard(1, "Y1")
    invalid(hand(go(f, tmp_path)[1]), ln, "O7", "T4")


SILER_150 = ["R13 B13 K13 Y13", "R12 B12 K12 Y12", run("R", 3, 7), run("B", 3, 7)]
SILER_149 = ["R13 B13 K13 Y13", "R12 B12 K12 Y12", run("R", 3, 7), "B7 B8 B9"]


def test_siler_strikes_101_at_150_points_O8(tmp_path: Path) -> None:
    f, h, ln, dl = opening(melds=SILER_150, deck="Y1")
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    assert pens(hv) == [(1, -101, "O8")]
    f, h, ln, dl = opening(melds=SILER_149, deck="Y1")
    hv = hand(go(f, tmp_path, "149")[1])
    fine(hv)
    assert pens(hv) == []
    f, h, ln, dl = opening(melds=SILER_150, deck="Y1", rules={"cezali": False})
    assert pens(hand(go(f, tmp_path, "nocez")[1])) == [(1, -101, "O8")]  # not an X penalty
    f, _h, _ln, _dl = opening(melds=SILER_150, deck="Y1", variant="101-classic")
    assert pens(hand(go(f, tmp_path, "classic")[1])) == []


def test_siler_at_seven_pairs_O8(tmp_path: Path) -> None:
    seven = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5", "B1 B1", "B2 B2"]
    f, h, ln, dl = opening(pairs=seven)
    assert pens(hand(go(f, tmp_path)[1])) == [(1, -101, "O8")]
    f, _h, _ln, _dl = opening(pairs=seven[:6])
    hv = hand(go(f, tmp_path, "six")[1])
    fine(hv)
    assert pens(hv) == []


LOW_51 = ["R1 R2 R3 R4", "B1 B2 B3 B4", "K1 K2 K3", "Y1 Y2 Y3"]  # 32, 14 tiles


def test_open_below_threshold_only_when_finishing_O9(tmp_path: Path) -> None:
    # 51: 14 tiles worth 32 laid and the 15th discarded: a finish (E7: nobody else opened)
    f, g = new("51")
    h = g.hand(1, starter=0, indicator="R5", racks={1: phys(LOW_51)}, deck="Y8")
    h.discard(0, safe(h, 0, "Y8"))
    h.draw(1)
    h.open(1, melds=LOW_51)
    h.discard(1, "Y8")
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    assert hv["result"] == "finish" and hv["scores"] == [204, -51, 204, 204]
    # 51, the same 32 without finishing: under 51
    f, h, _ln, dl = opening(melds=LOW_51[:3], variant="51", indicator="R5", deck="Y8")
    invalid(hand(go(f, tmp_path, "51bad")[1]), dl, "O1")
    # 101: no opening below the threshold, not even to finish
    f, g = new()
    low = build.LOW_KIT
    h = g.hand(1, starter=0, indicator="K9", racks={1: without(low, "K5") + " Y8"}, deck="K5")
    h.discard(0, safe(h, 0, "K5"))
    h.draw(1)
    h.open(1, melds=low)
    dl = h.discard(1, "Y8")
    invalid(hand(go(f, tmp_path, "101")[1]), dl, "O1", "O9")


def test_classic_below_threshold_finish_only_elden_O9(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("t", variant="101-classic", hands=1)
    low = build.LOW_KIT
    h = g.hand(1, starter=0, indicator="Y12",
               racks={1: KIT1_FULL.replace("Y11 Y12 Y13", "Y8 Y9 Y12"),
                      2: without(low, "K5") + " Y10"}, deck="Y11 K5")
    h.discard(0, safe(h, 0, "Y11 K5"))
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y11")
    h.draw(2)
    h.open(2, melds=low)  # 66, finishing, but seat 1 has opened: not elden
    dl = h.discard(2, "Y10")
    invalid(hand(go(f, tmp_path)[1]), dl, "O1", "O9")


def test_classic_pairs_need_a_declaration_O10(tmp_path: Path) -> None:
    five = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    f, h, ln, dl = opening(pairs=five, variant="101-classic", declare=True)
    fine(hand(go(f, tmp_path)[1]))
    f, _h, ln, dl = opening(pairs=five, variant="101-classic")
    invalid(hand(go(f, tmp_path, "bad")[1]), {ln, dl}, "O10")


def _partners(seat1_opens: bool) -> tuple[LogFile, int]:
    open3 = ["R12 B12 K12 Y12", "R13 B13 K13", "Y4 Y5 Y6"]  # 102
    f, g = new(rules={"esli": True})
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: KIT1_FULL, 2: tiles_of(KIT2) + " K5", 3: phys(open3) + " *"},
               deck="Y1 Y8 Y2")
    h.discard(0, safe(h, 0, "Y1 Y8 Y2 Y12"))
    h.draw(1)
    if seat1_opens:
        h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.draw(2)
    h.open(2, melds=KIT2)  # 112
    h.discard(2, "Y8")
    h.draw(3)
    h.open(3, melds=open3)
    dl = h.discard(3, "Y2")
    return f, dl


def test_partner_opened_base_threshold_suffices_O11(tmp_path: Path) -> None:
    f, dl = _partners(True)
    fine(hand(go(f, tmp_path)[1]))
    f, dl = _partners(False)  # 102 must beat the other team's 112
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1", "O2", "O11")


def test_team_first_opener_must_beat_other_team_O11(tmp_path: Path) -> None:
    f, dl = _second_opener(OPEN_106, rules={"esli": True})
    fine(hand(go(f, tmp_path)[1]))
    f, dl = _second_opener(OPEN_105, rules={"esli": True})
    invalid(hand(go(f, tmp_path, "bad")[1]), dl, "O1", "O2", "O11")


# ---------------------------------------------------------------------------------------------
# L: laying off


def _layoffs(steps: list[list[tuple[int, str]]], variant: str = "101", extra: str = "R9 R10 R11",
             seat2_layoff: tuple[int, str] | None = None, same_turn: tuple[int, str] | None = None):
    """Seat 1 opens KIT1 (+ `extra` in his rack); then on each later turn plays `steps`."""
    f, g = new(variant)
    rack1 = tiles_of(KIT1) + " " + extra
    n = len(rack1.split())
    rack1 += " *" if n < 21 else ""
    deck = "Y1 Y2 Y3 Y4 Y5 Y8 Y1 Y2 Y3 Y4 Y5 Y8"
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: rack1, 2: (seat2_layoff[1] + " *") if seat2_layoff else "*"}, deck=deck)
    h.discard(0, safe(h, 0, deck + " " + extra))
    h.draw(1)
    h.open(1, melds=KIT1)
    lines = []
    if same_turn:
        lines.append(h.layoff(1, *same_turn))
    h.discard(1, h.last_drawn)
    h.draw(2)
    if seat2_layoff:
        lines.append(h.layoff(2, *seat2_layoff))
    h.discard(2, h.last_drawn)
    h.cycle([3, 0])
    for i, step in enumerate(steps):
        h.draw(1)
        for meld, ts in step:
            lines.append(h.layoff(1, meld, ts))
        h.discard(1, h.last_drawn)  # after the last step this may finish the hand
        if i < len(steps) - 1:
            h.cycle([2, 3, 0])
    return f, lines


def test_only_an_opened_player_lays_off_L1(tmp_path: Path) -> None:
    f, lines = _layoffs([[(0, "R9")]])
    fine(hand(go(f, tmp_path)[1]))
    f, lines = _layoffs([], seat2_layoff=(0, "R9"), extra="Y11 Y12 Y13")
    invalid(hand(go(f, tmp_path, "bad")[1]), lines[0], "L1")


def test_run_takes_ends_group_takes_missing_colours_L2(tmp_path: Path) -> None:
    f, lines = _layoffs([[(0, "R9"), (3, "Y10")]], extra="R9 Y10 R10")
    fine(hand(go(f, tmp_path)[1]))
    f, lines = _layoffs([[(0, "R10")]], extra="R9 Y10 R10")  # R6-R8 takes R5 or R9
    invalid(hand(go(f, tmp_path, "run")[1]), lines[0], "L2")
    f, lines = _layoffs([[(3, "R10")]], extra="R9 Y10 R10")  # the 10 group has its red
    invalid(hand(go(f, tmp_path, "group")[1]), lines[0], "L2")


def test_run_never_goes_past_13_L2(tmp_path: Path) -> None:
    f, g = new()
    melds = ["R11 R12 R13"] + KIT1[1:]
    h = g.hand(1, starter=0, indicator="Y6", racks={1: phys(melds) + " R1 *"}, deck="Y1 Y2 Y3 Y4 Y5")
    h.discard(0, safe(h, 0, "Y1 Y2 Y3 Y4 Y5 R1"))
    h.draw(1)
    h.open(1, melds=melds)
    ln = h.layoff(1, 0, "R1")
    h.discard(1, "Y1")
    invalid(hand(go(f, tmp_path)[1]), ln, "L2")


def test_run_end_cap_two_tiles_per_turn_L3(tmp_path: Path) -> None:
    f, lines = _layoffs([[(0, "R9 R10")], [(0, "R11")]])
    fine(hand(go(f, tmp_path)[1]))
    f, lines = _layoffs([[(0, "R9 R10 R11")]])
    invalid(hand(go(f, tmp_path, "bad")[1]), lines[0], "L3")
    f, lines = _layoffs([[(0, "R9 R10"), (0, "R11")]])
    invalid(hand(go(f, tmp_path, "bad2")[1]), lines[1], "L3")
    # both ends in one turn: two at each end is fine
    f, lines = _layoffs([[(0, "R9 R10"), (0, "R5")]], extra="R9 R10 R5")
    fine(hand(go(f, tmp_path, "ends")[1]))
    # 101-classic has no cap (and no lay-off in the opening turn, L6: here a later turn)
    f, lines = _layoffs([[(0, "R9 R10 R11")]], variant="101-classic")
    fine(hand(go(f, tmp_path, "classic")[1]))


def test_later_layoffs_do_not_raise_the_opening_L4(tmp_path: Path) -> None:
    for kit, ok in ((OPEN_106, True), (OPEN_105, False)):
        f, g = new()
        h = g.hand(1, starter=0, indicator="Y6",
                   racks={1: tiles_of(KIT1) + " R9 B9 Y12", 2: phys(kit) + " *"},
                   deck="Y1 Y8 Y2 Y3 Y10 Y13")
        h.discard(0, safe(h, 0, "Y1 Y8 Y2 Y3 Y10 Y13"))
        h.draw(1)
        h.open(1, melds=KIT1)  # 105
        h.discard(1, "Y1")
        h.cycle([2, 3, 0])
        h.draw(1)
        h.layoff(1, 0, "R9")  # adds nothing to seat 1's opening (L4)
        h.layoff(1, 1, "B9")
        h.discard(1, h.last_drawn)
        h.draw(2)
        h.open(2, melds=kit)
        dl = h.discard(2, h.last_drawn)
        hv = hand(go(f, tmp_path, str(ok))[1])
        if ok:
            fine(hv)
        else:
            invalid(hv, dl, "O1", "O2")


def test_pairs_area_opens_with_the_first_pairs_opening_L5(tmp_path: Path) -> None:
    f, ln = _melds_opener_places_pairs(True)
    fine(hand(go(f, tmp_path)[1]))
    f, ln = _melds_opener_places_pairs(False)
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "L5", "O5")


def test_no_layoff_in_the_opening_turn_in_classic_L6(tmp_path: Path) -> None:
    f, lines = _layoffs([], same_turn=(0, "R9"))
    fine(hand(go(f, tmp_path)[1]))
    f, lines = _layoffs([], same_turn=(0, "R9"), variant="101-classic")
    invalid(hand(go(f, tmp_path, "bad")[1]), lines[0], "L6")
    f, lines = _layoffs([[(0, "R9")]], variant="101-classic")
    fine(hand(go(f, tmp_path, "later")[1]))


# ---------------------------------------------------------------------------------------------
# S: taking the okey

OKEY_KIT1 = ["R6 R7 R8", "B6 B7 B8", "K6 Y7>K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]


def _swap(variant: str = "101", opens: bool = True, give: str = "K7", swapper: int = 2,
          rules: dict | None = None) -> tuple[LogFile, int]:
    f, g = new(variant, rules)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: phys(OKEY_KIT1) + " Y11 " + ("K7 Y12" if swapper == 1 else "Y12 Y13"),
                      2: tiles_of(KIT2) + (" K7" if swapper == 2 else " Y10")},
               deck="Y1 Y8 Y2 K12 K13 Y3")
    h.discard(0, safe(h, 0, "Y1 Y8 Y2 K12 K13 Y3 K7"))
    h.draw(1)
    h.open(1, melds=OKEY_KIT1)
    h.discard(1, "Y1")
    h.draw(2)
    if opens:
        h.open(2, melds=KIT2)
    if swapper == 2:
        ln = h.swap(2, 2, give, gets="Y7", check=give == "K7")  # a wrong tile: not tracked
        h.discard(2, "Y8")
        return f, ln
    h.discard(2, "Y8")
    h.cycle([3, 0])
    h.draw(1)
    ln = h.swap(1, 2, "K7", gets="Y7")
    h.discard(1, "K13")
    return f, ln


def test_opened_player_swaps_the_okey_S1(tmp_path: Path) -> None:
    f, ln = _swap()
    hv = hand(go(f, tmp_path)[1])
    fine(hv)
    assert pens(hv) == [(1, 101, "X6")]
    f, ln = _swap(opens=False)  # unopened and not opening this turn
    invalid(hand(go(f, tmp_path, "unopened")[1]), ln, "S1", "L1")
    f, ln = _swap(give="Y8")  # Y8 is not what the okey stands for (K7)
    invalid(hand(go(f, tmp_path, "wrong")[1]), ln, "S1")


def _group_swap(give: str) -> tuple[LogFile, int]:
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8", "R10 B10 Y7>K10", "B1 B2 B3", "K1 K2 K3"]
    kit2 = KIT2[:3] + ["R1 R2 R3 R4"] + KIT2[4:]  # 107
    f, g = new()
    h = g.hand(1, starter=0, indicator="Y6",
               racks={1: phys(open1) + " Y11 Y12 Y13", 2: phys(kit2) + " K10 Y10"},
               deck="Y1 Y8")
    h.discard(0, safe(h, 0, "Y1 Y8 K10 Y10"))
    h.draw(1)
    h.open(1, melds=open1)
    h.discard(1, "Y1")
    h.draw(2)
    h.open(2, melds=kit2)
    ln = h.swap(2, 3, give, gets="Y7")
    h.discard(2, "Y8")
    return f, ln


def test_group_okey_swap_needs_all_four_colours_S2(tmp_path: Path) -> None:
    f, ln = _group_swap("K10 Y10")
    fine(hand(go(f, tmp_path)[1]))
    f, ln = _group_swap("K10")
    invalid(hand(go(f, tmp_path, "bad")[1]), ln, "S2")


def test_placer_pays_when_another_takes_the_okey_S3(tmp_path: Path) -> None:
    f, ln = _swap()
    assert pens(hand(go(f, tmp_path)[1])) == [(1, 101, "X6")]
    f, ln = _swap(swapper=1)  # taking back your own okey costs nothing
    hv = hand(go(f, tmp_path, "own")[1])
    fine(hv)
    assert pens(hv) == []
    f, _ln = _swap(rules={"cezali": False})
    assert pens(hand(go(f, tmp_path, "nocez")[1])) == []


# ---------------------------------------------------------------------------------------------
# X: in-game penalties


def _discard_in_frame(tile: str, deck: str, variant: str = "101", rules: dict | None = None):
    def middle(h: Any) -> None:
        h.draw(2)
        h.discard(2, tile)
    return build._frame("t", "*", deck, middle, variant=variant, rules=rules)


def test_penalties_only_when_cezali_X1(tmp_path: Path) -> None:
    f, h = _discard_in_frame("Y7", "Y1 Y7 Y3 Y4 Y5")
    assert pens(hand(go(f, tmp_path)[1])) == [(2, 101, "X3")]
    f, _h = _discard_in_frame("Y7", "Y1 Y7 Y3 Y4 Y5", rules={"cezali": False})
    hv = hand(go(f, tmp_path, "off")[1])
    assert pens(hv) == [] and hv["scores"] == [202, -101, 202, 202]


def test_penalty_unit_is_51_in_51_X1(tmp_path: Path) -> None:
    f, g = new("51")
    h = g.hand(1, starter=0, indicator="R5", racks={0: "R6 *"})
    h.discard(0, "R6")  # the okey
    h.draw(1)
    h.discard(1, safe(h, 1))
    assert pens(hand(go(f, tmp_path)[1])) == [(0, 51, "X3")]


def test_failed_opening_taken_back_costs_a_unit_X2(tmp_path: Path) -> None:
    f, dl = _takeback(None, True)
    assert pens(hand(go(f, tmp_path)[1])) == [(1, 101, "X2")]
    f, _dl = _takeback({"cezali": False}, True)
    assert pens(hand(go(f, tmp_path, "off")[1])) == []


def test_discarding_an_okey_costs_a_unit_except_to_finish_X3(tmp_path: Path) -> None:
    f, _h = _discard_in_frame("Y7", "Y1 Y7 Y3 Y4 Y5")
    assert pens(hand(go(f, tmp_path)[1])) == [(2, 101, "X3")]
    f = build.okey_finish()
    hv = hand(go(f, tmp_path, "finish")[1])
    assert hv["result"] == "finish" and pens(hv) == []


def test_discarding_a_tile_that_fits_a_table_meld_X4(tmp_path: Path) -> None:
    f, h = _discard_in_frame("R9", "Y1 R9 Y3 Y4 Y5")  # run end
    assert pens(hand(go(f, tmp_path)[1])) == [(2, 101, "X4")]
    f, h = _discard_in_frame("Y10", "Y1 Y10 Y3 Y4 Y5")  # the group's missing colour
    assert pens(hand(go(f, tmp_path, "group")[1])) == [(2, 101, "X4")]
    f, h = _discard_in_frame("Y2", "Y1 Y2 Y3 Y4 Y5")  # fits nothing
    assert pens(hand(go(f, tmp_path, "none")[1])) == []
    # the finishing tile may fit: seat 1 finishes by discarding R9 onto nothing
    f, _h = build._frame("t", "*", "Y1 Y2 Y3 Y4 R9", lambda h: h.cycle([2]))
    hv = hand(go(f, tmp_path, "finish")[1])
    assert hv["result"] == "finish" and pens(hv) == []


def _x5(variant: str, rules: dict | None = None) -> LogFile:
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8 K9", "R10 B10 K10", run("B", 1, 5)]  # 117
    f, g = new(variant, rules)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K9 *", 1: without(open1, "K9") + " Y11 Y12 Y13 Y4"}, deck="Y1")
    h.discard(0, "K9")
    h.take(1, "K9")
    h.open(1, melds=open1)
    h.discard(1, "Y4")
    return f


def test_next_player_opens_with_your_discard_X5(tmp_path: Path) -> None:
    assert pens(hand(go(_x5("101"), tmp_path)[1])) == [(0, 90, "X5")]
    assert pens(hand(go(_x5("101", {"x5_factor": 20}), tmp_path, "20")[1])) == [(0, 180, "X5")]
    hv = hand(go(_x5("101-classic"), tmp_path, "classic")[1])
    fine(hv)
    assert pens(hv) == []


def test_your_okey_taken_from_the_table_X6(tmp_path: Path) -> None:
    f, ln = _swap()
    assert pens(hand(go(f, tmp_path)[1])) == [(1, 101, "X6")]
    f, _ln = _swap(swapper=1)
    assert pens(hand(go(f, tmp_path, "own")[1])) == []


def _x7(variant: str, tiles_: list[tuple[int, str]]) -> LogFile:
    f, g = new(variant)
    h = g.hand(1, starter=0, indicator="Y6", racks={1: tiles_of(KIT1) + " R9 B9 Y12"},
               deck="Y1 Y2 Y3 Y4 Y5 Y8")
    h.discard(0, safe(h, 0, "Y1 Y2 Y3 Y4 Y5 Y8"))
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.cycle([2, 3, 0])
    h.draw(1)
    for meld, t in tiles_:
        h.layoff(1, meld, t)
    h.takeback(1)
    h.discard(1, "Y5")
    return f


def test_several_layoffs_taken_back_X7(tmp_path: Path) -> None:
    hv = hand(go(_x7("101-classic", [(0, "R9"), (1, "B9")]), tmp_path)[1])
    fine(hv)
    assert pens(hv) == [(1, 101, "X7")]
    hv = hand(go(_x7("101-classic", [(0, "R9")]), tmp_path, "one")[1])
    fine(hv)
    assert pens(hv) == []  # only the last tile may be taken back free
    hv = hand(go(_x7("101", [(0, "R9"), (1, "B9")]), tmp_path, "101")[1])
    assert pens(hv) == []  # X7 is 101-classic only


# ---------------------------------------------------------------------------------------------
# E: end of a hand


def test_hand_ends_with_the_last_tile_or_the_last_draw_E1(tmp_path: Path) -> None:
    f = build.exhausted()
    out = go(f, tmp_path)[1]
    assert hand(out)["result"] == "exhausted" and hand(out, 1)["result"] == "exhausted"
    # nothing may follow the discard that ended the hand
    f = build.exhausted()
    f.lines = f.lines[: f.lines.index(next(x for x in f.lines if '"exhausted-none"' in x))]
    f.lines = [x for x in f.lines if '"type":"end"' not in x]
    ln = f.add({"type": "draw", "game": "exhausted-opener", "hand": 1, "seat": 2, "tile": "Y1"})
    invalid(hand(go(f, tmp_path, "after")[1]), ln, "E1", "P1", "D2")


def test_elden_only_in_the_first_opening_turn_E2(tmp_path: Path) -> None:
    out = go(build.elden(), tmp_path)[1]
    assert hand(out)["finish_kinds"] == ["elden"] and hand(out)["scores"] == [404, -202, 404, 404]
    # seat 1 opened on an earlier turn and nobody else opened: a plain finish
    f, _h = build._frame("t", "*", "Y1 Y2 Y3 Y4 Y5", lambda h: h.cycle([2]))
    hv = hand(go(f, tmp_path, "late")[1])
    assert hv["finish_kinds"] == [] and hv["scores"] == [202, -101, 202, 202]


def test_four_pairs_openers_void_the_hand_E3(tmp_path: Path) -> None:
    out = go(build.void_hand(), tmp_path)[1]
    assert hand(out)["result"] == "void" and hand(out)["scores"] == [0, 0, 0, 0]
    assert hand(out, 0, 1)["hand"] == 1 and hand(out, 0, 1)["result"] == "finish"
    # 51 does not void (E3): the fourth pairs opener discards and play goes on
    f, g = new("51")
    P = {1: ["R1 R1", "R2 R2", "R3 R3", "R4 R4"], 2: ["B1 B1", "B2 B2", "B3 B3", "B4 B4"],
         3: ["K1 K1", "K2 K2", "K3 K3", "K4 K4"], 0: ["R9 R9", "B9 B9", "K9 K9", "R11 R11"]}
    h = g.hand(1, starter=0, indicator="R5",
               racks={s: phys(P[s]) + (" K13 *" if s == 0 else " *") for s in range(4)},
               deck="Y1 Y2 Y3 Y4")
    h.discard(0, "K13")
    for s in (1, 2, 3, 0):
        h.draw(s)
        h.open(s, pairs=P[s])
        h.discard(s, h.last_drawn)
    hv = hand(go(f, tmp_path, "51")[1])
    fine(hv)
    assert hv["result"] == "unfinished"


def test_exhausted_deck_no_bonus_no_multiplier_E4(tmp_path: Path) -> None:
    out = go(build.exhausted(), tmp_path)[1]
    assert hand(out)["scores"] == [202, 120, 202, 202]
    assert hand(out, 1)["scores"] == [0, 0, 0, 0]


def test_unopened_penalty_option_and_okey_in_rack_E5(tmp_path: Path) -> None:
    f, _h = build._frame("t", "*", "Y1 Y2 Y3 Y4 Y5", lambda h: h.cycle([2]), rules={"unopened_penalty": 101})
    assert hand(go(f, tmp_path)[1])["scores"] == [101, -101, 101, 101]
    hv = hand(go(build.normal_finish(), tmp_path, "okey")[1])
    assert hv["scores"] == [-101, 120, 7, 202]  # 3 + 9 + 7 + 101; J = 7


def test_finish_multipliers_table_E6(tmp_path: Path) -> None:
    out = go(build.elden(), tmp_path)[1]
    assert hand(out, 1)["scores"] == [808, -404, 808, 808]
    hv = hand(go(build.pairs_okey(), tmp_path, "p")[1])
    assert hv["scores"] == [808, 92, -404, 632]


def test_51_multipliers_E7(tmp_path: Path) -> None:
    f = build.fifty_one_multipliers()
    out = go(f, tmp_path)[1]
    exp = f.expected()
    for i, g in enumerate(exp["games"]):
        assert hand(out, i)["scores"] == g["hands"][0]["scores"], g["game"]


def test_finishers_partner_scores_zero_E8(tmp_path: Path) -> None:
    hv = hand(go(build.partners(), tmp_path)[1])
    assert hv["scores"] == [-101, 23, 0, 85]
    # the same elden without partners: everybody else 404; with partners seat 3 gets 0
    f = LogFile()
    g = f.game("t", variant="101", rules={"esli": True}, hands=1)
    build._elden(f, "", "Y8", g=g)
    assert hand(go(f, tmp_path, "elden")[1])["scores"] == [404, -202, 404, 0]


# ---------------------------------------------------------------------------------------------
# G: the game


def test_totals_are_the_sum_of_every_hand_G1(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("t", variant="101", hands=2)
    build._elden(f, "", "Y8", g=g, n=1)  # 404 -202 404 404
    build._elden(f, "", "Y7", g=g, n=2, starter=1)  # seat 2 elden with okey: 808 808 -404 808
    h = f.games[0].hand_list
    assert len(h) == 2
    out = go(f, tmp_path)[1]
    assert out["games"][0]["totals"] == [1212, 606, 0, 1212]
    assert out["games"][0]["valid"] is True


def test_worked_example_G2(tmp_path: Path) -> None:
    out = go(build.g2_worked_example(), tmp_path)[1]
    assert hand(out)["scores"] == [-202, 46, 10, 404]
    assert hand(out, 1)["scores"] == [-101, 23, 5, 202]


def test_classic_match_points_G3(tmp_path: Path) -> None:
    out = go(build.classic_match_points(), tmp_path)[1]
    assert out["games"][0]["match_points"] == [-3, 1, -1, 3]
    assert out["games"][1]["match_points"] == [-3, 3, 3, 3]
    out = go(build.g2_worked_example(), tmp_path, "101")[1]
    assert out["games"][0]["match_points"] is None


def test_partners_are_seats_0_2_and_1_3_G4(tmp_path: Path) -> None:
    for starter in (0, 1):
        f = LogFile()
        g = f.game("t", variant="101", rules={"esli": True}, hands=1)
        build._elden(f, "", "Y8", g=g, starter=starter)
        fin = starter + 1
        exp = [0 if s == (fin + 2) % 4 else (-202 if s == fin else 404) for s in range(4)]
        assert hand(go(f, tmp_path, str(starter))[1])["scores"] == exp
