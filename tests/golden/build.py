"""Write the golden game logs and their hand-computed expectations to tests/data/golden/.

    python tests/golden/build.py

Every expected number below is worked out by hand from docs/rules.md (the arithmetic is in the
comments); nothing here asks the engine. The builder only checks that the tiles add up.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golden.builder import GOLDEN_DIR, LogFile, face_sum, physical, run

# ---------------------------------------------------------------------------------------------
# Kits for `101` with indicator Y6 (okey Y7; the false okey J counts as Y7). Sums by hand.

KIT0 = [run("R", 1, 5), run("B", 1, 5), run("K", 1, 5), "R12 B12 K12", "R13 B13 K13"]
# 15 + 15 + 15 + 36 + 39 = 120 points, 21 tiles (under 150: no siler)
KIT1 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]
# 21 + 21 + 21 + 30 + 6 + 6 = 105 points, 18 tiles. Table ends: R5 R9 B5 B9 K5 K9 Y10 B4 K4
KIT2 = ["R9 B9 K9", "R11 B11 K11", run("Y", 1, 5), run("R", 1, 5), "B4 B5 B6 B7"]
# 27 + 33 + 15 + 15 + 22 = 112 points, 20 tiles

assert face_sum(" ".join(KIT0)) == 120 and face_sum(" ".join(KIT1)) == 105
assert face_sum(" ".join(KIT2)) == 112


def tiles_of(kit: list[str]) -> str:
    return " ".join(kit)


def without(kit: list[str], *drop: str) -> str:
    ts = tiles_of(kit).split()
    for d in drop:
        ts.remove(d)
    return " ".join(ts)


SCENARIOS: dict[str, Callable[[], LogFile]] = {}


def scenario(fn: Callable[[], LogFile]) -> Callable[[], LogFile]:
    SCENARIOS[fn.__name__] = fn
    return fn


# ---------------------------------------------------------------------------------------------
def _g2_hand(f: LogFile, gid: str, last: str) -> tuple:
    """G2: Ali (0) finishes; Ayşe (1) opened, holds 3+9+11; Mehmet (2) opened, holds 5;
    Zeynep (3) never opened. Openings escalate 105 -> 112 -> 120 (O2)."""
    g = f.game(gid, variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: without(KIT0, "K13") + f" R9 {last}",
                      1: tiles_of(KIT1) + " Y3 Y9 Y11",
                      2: tiles_of(KIT2) + " K5",
                      3: "*"},
               deck="Y13 R13 Y12 K13")
    h.discard(0, "R9")
    h.draw(1)  # Y13
    h.open(1, melds=KIT1)  # 105
    h.discard(1, "Y13")  # fits nothing on the table (no Y meld, no 13 group)
    h.draw(2)  # R13
    h.open(2, melds=KIT2)  # 112 >= 106
    h.discard(2, "R13")
    h.draw(3)  # Y12
    h.discard(3, "Y12")
    h.draw(0)  # K13
    h.open(0, melds=KIT0)  # 120 >= 113
    h.discard(0, last)
    return g, h


@scenario
def g2_worked_example() -> LogFile:
    f = LogFile()
    # Ali ends with the okey Y7: x2.  Ayşe (3+9+11)*2 = 46, Mehmet 5*2 = 10, Zeynep 404.
    g, h = _g2_hand(f, "g2-okey", "Y7")
    h.end("finish", scores=[-202, 46, 10, 404])
    h.expect("finish", finisher=0, kinds=["okey"], scores=[-202, 46, 10, 404])
    # Same hand, last tile plain: -101, 23, 5, 202.
    _g, h = _g2_hand(f, "g2-plain", "Y8")
    h.end("finish", scores=[-101, 23, 5, 202])
    h.expect("finish", finisher=0, kinds=[], scores=[-101, 23, 5, 202])
    return f


def _okey_in_rack_hand(f: LogFile, gid: str, last: str, recorded: list[int]) -> tuple:
    """Like G2, but Ayşe keeps the okey Y7 (+101, at face 7) and Mehmet keeps a false okey J
    (counts as the okey's face Y7 = 7)."""
    g = f.game(gid, variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: without(KIT0, "K13") + f" R9 {last}",
                      1: tiles_of(KIT1) + " Y3 Y9 Y7",
                      2: tiles_of(KIT2) + " J",
                      3: "*"},
               deck="Y13 R13 Y12 K13")
    h.discard(0, "R9")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y13")
    h.draw(2)
    h.open(2, melds=KIT2)
    h.discard(2, "R13")
    h.draw(3)
    h.discard(3, "Y12")
    h.draw(0)
    h.open(0, melds=KIT0)
    h.discard(0, last)
    h.end("finish", scores=recorded)
    return g, h


@scenario
def normal_finish() -> LogFile:
    f = LogFile()
    # Plain last tile Y8. Ayşe: 3 + 9 + 7 (okey at own face) = 19, + 101 = 120.
    # Mehmet: J = 7. Zeynep 202. Ali -101.
    _g, h = _okey_in_rack_hand(f, "normal-1", "Y8", [-101, 120, 7, 202])
    h.expect("finish", finisher=0, scores=[-101, 120, 7, 202])
    return f


@scenario
def okey_finish() -> LogFile:
    f = LogFile()
    # Last tile the other okey Y7: x2. Ayşe 19*2 + 101 (not multiplied) = 139; Mehmet 7*2 = 14;
    # Zeynep 404; Ali -202.
    _g, h = _okey_in_rack_hand(f, "okey-1", "Y7", [-202, 139, 14, 404])
    h.expect("finish", finisher=0, kinds=["okey"], scores=[-202, 139, 14, 404])
    return f


# ---------------------------------------------------------------------------------------------
def _elden(f: LogFile, gid: str, last: str, variant: str = "101", starter: int = 0,
           n: int = 1, g=None, kit: list[str] = KIT0, indicator: str = "Y6",
           drawn: str = "K13"):
    """The seat after the starter draws, opens with 21 tiles and discards the 22nd (E2)."""
    if g is None:
        g = f.game(gid, variant=variant, hands=1)
    s = (starter + 1) % 4
    racks = {starter: "R9 *", s: without(kit, drawn) + f" {last}"}
    for o in range(4):
        racks.setdefault(o, "*")
    h = g.hand(n, starter=starter, indicator=indicator, racks=racks, deck=drawn)
    h.discard(starter, "R9")
    h.draw(s, drawn)
    h.open(s, melds=kit)
    h.discard(s, last)
    return g, h


@scenario
def elden() -> LogFile:
    f = LogFile()
    # Elden, plain last tile: x2 -> finisher -202, unopened 404 (E6).
    g, h = _elden(f, "elden-plain", "Y8")
    h.expect("finish", finisher=1, kinds=["elden"], scores=[404, -202, 404, 404])
    # Elden with the okey as last tile: x4 -> -404, 808.
    _g, h = _elden(f, "elden-okey", "Y7")
    h.expect("finish", finisher=1, kinds=["elden", "okey"], scores=[808, -404, 808, 808])
    return f


# ---------------------------------------------------------------------------------------------
PAIRS2_OPEN = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
PAIRS2_LATER = ["B4 B4", "B5 B5", "K4 K4", "K5 K5", "Y1 Y1"]
PAIRS3_OPEN = ["R11 R11", "R12 R12", "R13 R13", "B11 B11", "B12 B12", "B13 B13"]
LEFT3 = "Y2 Y4 Y5 Y8 Y10 Y12 Y13 K12 K13"  # 2+4+5+8+10+12+13+12+13 = 79
assert face_sum(LEFT3) == 79


def _pairs_hand(f: LogFile, gid: str, last: str):
    g = f.game(gid, variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K9 *",
                      1: tiles_of(KIT1) + " Y3 Y9 Y11",
                      2: tiles_of(PAIRS2_OPEN) + " " + tiles_of(PAIRS2_LATER) + " R9",
                      3: tiles_of(PAIRS3_OPEN) + " " + LEFT3},
               deck=f"K12 K13 Y13 Y12 K11 {last}")
    h.discard(0, "K9")
    h.draw(1)
    h.open(1, melds=KIT1)  # 105 in melds: tables 0-5
    h.discard(1, "K12")
    h.draw(2)
    h.open(2, pairs=PAIRS2_OPEN)  # 5 pairs: tables 6-10
    h.discard(2, "K13")
    h.draw(3)
    h.open(3, pairs=PAIRS3_OPEN)  # 6 pairs (pairs escalate 5 -> 6, O3): tables 11-16
    h.discard(3, "Y13")
    h.draw(0)
    h.discard(0, "Y12")
    h.draw(1)
    h.discard(1, "K11")
    h.draw(2)
    h.meld(2, pairs=PAIRS2_LATER)  # more pairs (O4, L5)
    h.layoff(2, 0, "R9")  # a pairs opener lays off onto melds (O4): R6-R8 + R9
    h.discard(2, last)
    return g, h


@scenario
def pairs_finish() -> LogFile:
    f = LogFile()
    # Seat 2 opened with pairs and finishes: x2. Seat 0 unopened 404; seat 1 (melds) 23*2 = 46;
    # seat 3 (pairs opener) 79 doubled for pairs = 158, x2 = 316; finisher -202.
    _g, h = _pairs_hand(f, "pairs-plain", "Y8")
    h.end("finish", scores=[404, 46, -202, 316])
    h.expect("finish", finisher=2, kinds=["pairs"], scores=[404, 46, -202, 316])
    return f


@scenario
def pairs_okey() -> LogFile:
    f = LogFile()
    # Pairs with the okey as last tile: x4. 808; 23*4 = 92; -404; 79*2*4 = 632.
    _g, h = _pairs_hand(f, "pairs-okey", "Y7")
    h.expect("finish", finisher=2, kinds=["okey", "pairs"], scores=[808, 92, -404, 632])
    return f


# ---------------------------------------------------------------------------------------------
@scenario
def exhausted() -> LogFile:
    f = LogFile()
    # One opener: seat 1 opens KIT1 and keeps Y3 Y9 Y7 -> 3 + 9 + 7 + 101 (okey) = 120 (E4, E5).
    # Unopened: 202 each. No bonus, no multiplier. The deck (20 tiles) runs out.
    g = f.game("exhausted-opener", variant="101", rules={"cezali": False}, hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "*", 1: tiles_of(KIT1) + " Y3 Y9 Y7", 2: "*", 3: "*"})
    h.discard(0, h.rack(0)[0])
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, h.last_drawn)
    seats = [2, 3, 0, 1] * 5
    h.cycle(seats[:19])  # draws 2..20: the 20th draw takes the last tile, its discard ends it
    assert not h.deck
    h.end("exhausted", scores=[202, 120, 202, 202])
    h.expect("exhausted", scores=[202, 120, 202, 202])
    # Nobody opens: nobody is scored (E4).
    g = f.game("exhausted-none", variant="101", rules={"cezali": False}, hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={})
    h.discard(0, h.rack(0)[0])
    h.cycle(([1, 2, 3, 0] * 5)[:20])
    assert not h.deck
    h.end("exhausted")
    h.expect("exhausted", scores=[0, 0, 0, 0])
    return f


# ---------------------------------------------------------------------------------------------
@scenario
def void_hand() -> LogFile:
    f = LogFile()
    # katlamali off: pairs stay at 5 for everybody (O2/O3), so no siler (O8) either.
    g = f.game("void-1", variant="101", rules={"katlamali": False}, hands=1)
    P = {1: ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"],
         2: ["B1 B1", "B2 B2", "B3 B3", "B4 B4", "B5 B5"],
         3: ["K1 K1", "K2 K2", "K3 K3", "K4 K4", "K5 K5"],
         0: ["R9 R9", "B9 B9", "K9 K9", "R11 R11", "B11 B11"]}
    h = g.hand(1, starter=0, indicator="Y6",
               racks={s: tiles_of(P[s]) + (" K13 *" if s == 0 else " *") for s in range(4)},
               deck="Y1 Y2 Y3 Y4")
    h.discard(0, "K13")
    for s in (1, 2, 3):
        h.draw(s)
        h.open(s, pairs=P[s])
        h.discard(s, h.last_drawn)
    h.draw(0)
    h.open(0, pairs=P[0])  # the fourth pairs opening: void at once (E3), no discard
    h.end("void")
    h.expect("void", scores=[0, 0, 0, 0])
    # The hand is played again with the same number (E3); the same starter (allowed).
    _elden(f, "void-1", "Y8", n=1, g=g)[1].expect(
        "finish", finisher=1, kinds=["elden"], scores=[404, -202, 404, 404])
    return f


# ---------------------------------------------------------------------------------------------
@scenario
def partners() -> LogFile:
    f = LogFile()
    # esli: 0+2 against 1+3 (G4). Seat 1 opens 105; seat 2 (other team) must beat it: 112.
    # Seat 3's partner has opened, so 101 suffices (O11): 102 although the highest is 112.
    # Seat 0's partner has opened: 120 (>= 101). Seat 0 finishes plainly:
    # -101; seat 1 holds 3+9+11 = 23; seat 2 is the finisher's partner: 0 (E8);
    # seat 3 holds R6 R9 R11 B8 B10 K4 K6 K9 K11 Y1 Y10 = 85.
    g = f.game("partners-1", variant="101", rules={"esli": True}, hands=1)
    open3 = ["R12 B12 K12 Y12", "R13 B13 K13", "Y4 Y5 Y6"]  # 48 + 39 + 15 = 102
    left3 = "R6 R9 R11 B8 B10 K4 K6 K9 K11 Y1 Y10"
    assert face_sum(" ".join(open3)) == 102 and face_sum(left3) == 85
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: without(KIT0, "K13") + " Y13 Y10",
                      1: tiles_of(KIT1) + " Y3 Y9 Y11",
                      2: tiles_of(KIT2) + " K5",
                      3: tiles_of(open3) + " " + left3},
               deck="Y8 Y8 Y12 K13")
    h.discard(0, "Y13")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y8")
    h.draw(2)
    h.open(2, melds=KIT2)
    h.discard(2, "Y8")
    h.draw(3)
    h.open(3, melds=open3)
    h.discard(3, "Y12")  # the 12 group is full: Y12 fits nothing
    h.draw(0)
    h.open(0, melds=KIT0)
    h.discard(0, "Y10")
    h.end("finish", scores=[-101, 23, 0, 85])
    h.expect("finish", finisher=0, scores=[-101, 23, 0, 85])
    return f


# ---------------------------------------------------------------------------------------------
@scenario
def escalation() -> LogFile:
    f = LogFile()
    # O2: points and pairs escalate apart. Seat 1 opens 105 points; seat 2 opens 5 pairs (the
    # points opening does not raise the pairs threshold); seat 3 opens exactly 106 points (the
    # pairs opening does not raise the points threshold); seat 0 opens 6 pairs.
    # Seat 1 then melds Y11 Y12 Y13 and finishes with a plain tile (normal, x1):
    # seat 0 (pairs) keeps Y3 Y3 Y9 Y10 B1 B2 B3 K9 K10 = 50, doubled = 100;
    # seat 2 (pairs) keeps R6 R7 R8 R9 R11 B4 B5 B8 B9 B10 B11 = 88, doubled = 176;
    # seat 3 keeps Y8 Y9 Y10 R10 K1 = 38; seat 1 -101.
    g = f.game("escalation-1", variant="101", hands=1)
    open3 = ["R9 B9 K9", "R11 B11 K11", "B4 B5 B6 B7", "K2 K3 K4", "Y4 Y5 Y6"]
    pairs0 = ["K12 K12", "K13 K13", "R12 R12", "R13 R13", "B12 B12", "B13 B13"]
    pairs2 = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
    left0, left2, left3 = "Y3 Y3 Y9 Y10 B1 B2 B3 K9 K10", "R6 R7 R8 R9 R11 B4 B5 B8 B9 B10 B11", "Y8 Y9 Y10 R10 K1"
    assert face_sum(" ".join(open3)) == 106
    assert (face_sum(left0), face_sum(left2), face_sum(left3)) == (50, 88, 38)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: tiles_of(pairs0) + " " + left0 + " K5",
                      1: tiles_of(KIT1) + " Y11 Y12 Y13",
                      2: tiles_of(pairs2) + " " + left2,
                      3: tiles_of(open3) + " " + left3},
               deck="Y1 Y2 Y13 Y2 Y8")
    h.discard(0, "K5")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.draw(2)
    h.open(2, pairs=pairs2)
    h.discard(2, "Y2")
    h.draw(3)
    h.open(3, melds=open3)
    h.discard(3, "Y13")
    h.draw(0)
    h.open(0, pairs=pairs0)
    h.discard(0, "Y2")
    h.draw(1)
    h.meld(1, melds=["Y11 Y12 Y13"])
    h.discard(1, "Y8")
    h.end("finish", scores=[100, -101, 176, 38])
    h.expect("finish", finisher=1, scores=[100, -101, 176, 38])
    return f


# ---------------------------------------------------------------------------------------------
@scenario
def siler() -> LogFile:
    f = LogFile()
    # O8: seat 1 opens exactly 150 points (13s 52 + 12s 48 + R3-R7 25 + B3-B7 25) -> -101 at
    # once; seat 2 opens 7 pairs -> -101 at once. Seat 1 later melds K1 K2 K3 and finishes
    # plainly: 202, -101, seat 2 keeps K4 K5 K6 Y1 Y2 Y3 Y4 = 25 doubled = 50, 202.
    g = f.game("siler-1", variant="101", hands=1)
    open1 = ["R13 B13 K13 Y13", "R12 B12 K12 Y12", run("R", 3, 7), run("B", 3, 7)]
    pairs2 = ["R9 R9", "R10 R10", "R11 R11", "B9 B9", "B10 B10", "B11 B11", "K9 K9"]
    left2 = "K4 K5 K6 Y1 Y2 Y3 Y4"
    assert face_sum(" ".join(open1)) == 150 and face_sum(left2) == 25
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K10 *", 1: tiles_of(open1) + " K1 K2 K3",
                      2: tiles_of(pairs2) + " " + left2, 3: "*"},
               deck="K11 K13 Y9 Y10 Y8")
    h.discard(0, "K10")
    h.draw(1)
    h.open(1, melds=open1)
    h.discard(1, "K11")
    h.draw(2)
    h.open(2, pairs=pairs2)
    h.discard(2, "K13")  # the 13 group is full
    h.draw(3)
    h.discard(3, "Y9")
    h.draw(0)
    h.discard(0, "Y10")
    h.draw(1)
    h.meld(1, melds=["K1 K2 K3"])
    h.discard(1, "Y8")
    h.expect("finish", finisher=1, scores=[202, -101, 50, 202],
             penalties=[(1, -101, "O8"), (2, -101, "O8")])
    return f


# ---------------------------------------------------------------------------------------------
# A frame for the in-game penalties (101, indicator Y6): seat 1 opens KIT1 on his first turn
# and, on his second, melds Y11 Y12 Y13 and finishes with the tile he drew: 202, -101, 202, 202
# unless a scenario opens somebody else. `middle(h)` plays seat 2's first turn.

def _frame(gid: str, racks2: str, deck: str, middle: Callable, variant: str = "101",
           rules: dict | None = None, racks1: str | None = None, open1: list[str] = KIT1):
    f = LogFile()
    g = f.game(gid, variant=variant, rules=rules, hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K12 *", 2: racks2, 3: "*",
                      1: racks1 or " ".join(physical(t) for t in (tiles_of(open1) + " Y11 Y12 Y13").split())},
               deck=deck)
    h.discard(0, "K12")
    h.draw(1)
    h.open(1, melds=open1)
    h.discard(1, h.last_drawn)
    middle(h)
    h.draw(3)
    h.discard(3, h.last_drawn)
    h.draw(0)
    h.discard(0, h.last_drawn)
    h.draw(1)
    h.meld(1, melds=["Y11 Y12 Y13"])
    h.discard(1, h.last_drawn)
    return f, h


@scenario
def penalty_x2() -> LogFile:
    # Seat 2 lays R1 R2 R3 (6, under 106) and takes it back: 101 (O6, X2).
    def middle(h):
        h.draw(2)
        h.open(2, melds=["R1 R2 R3"])
        h.takeback(2)
        h.discard(2, h.last_drawn)
    f, h = _frame("x2-1", "R1 R2 R3 *", "Y1 Y2 Y3 Y4 Y5", middle)
    h.expect("finish", finisher=1, scores=[202, -101, 202, 202], penalties=[(2, 101, "X2")])
    return f


@scenario
def penalty_x3() -> LogFile:
    # Seat 2 draws the okey Y7 and discards it: 101 (X3), not also X4.
    def middle(h):
        h.draw(2)
        h.discard(2, "Y7")
    f, h = _frame("x3-1", "*", "Y1 Y7 Y3 Y4 Y5", middle)
    h.expect("finish", finisher=1, scores=[202, -101, 202, 202], penalties=[(2, 101, "X3")])
    return f


@scenario
def penalty_x4() -> LogFile:
    # Seat 2 (unopened) discards R9, which fits seat 1's run R6-R8: 101 (X4).
    def middle(h):
        h.draw(2)
        h.discard(2, "R9")
    f, h = _frame("x4-1", "*", "Y1 R9 Y3 Y4 Y5", middle)
    h.expect("finish", finisher=1, scores=[202, -101, 202, 202], penalties=[(2, 101, "X4")])
    return f


@scenario
def penalty_x5() -> LogFile:
    # Seat 0 discards K9; seat 1 takes it and opens with K6-K9 in it: 10 x 9 = 90 to seat 0
    # (X5); with x5_factor 20: 180.
    f = LogFile()
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8 K9", "R10 B10 K10", run("B", 1, 5)]
    assert face_sum(" ".join(open1)) == 117
    for gid, rules, pts in (("x5-10", None, 90), ("x5-20", {"x5_factor": 20}, 180)):
        g = f.game(gid, variant="101", rules=rules, hands=1)
        h = g.hand(1, starter=0, indicator="Y6",
                   racks={0: "K9 *", 1: without(open1, "K9") + " Y11 Y12 Y13 Y4", 2: "*", 3: "*"},
                   deck="Y1 Y2 Y8 Y9")
        h.discard(0, "K9")
        h.take(1, "K9")
        h.open(1, melds=open1)
        h.discard(1, "Y4")
        h.cycle([2, 3, 0])
        h.draw(1)
        h.meld(1, melds=["Y11 Y12 Y13"])
        h.discard(1, "Y9")
        h.expect("finish", finisher=1, scores=[202, -101, 202, 202], penalties=[(0, pts, "X5")])
    return f


@scenario
def penalty_x6() -> LogFile:
    # Seat 1 opens with the okey Y7 standing for K7; seat 2 opens KIT2 (112) and swaps the real
    # K7 in, taking the okey and keeping it: seat 1 pays 101 (X6, S3). At the end seat 2 holds
    # only the okey: 7 + 101 = 108.
    open1 = ["R6 R7 R8", "B6 B7 B8", "K6 Y7>K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]

    def middle(h):
        h.draw(2)  # Y8
        h.open(2, melds=KIT2)
        h.swap(2, 2, "K7", gets="Y7")
        h.discard(2, "Y8")  # fits nothing: Y1-Y5 wants Y6
    f, h = _frame("x6-1", tiles_of(KIT2) + " K7", "Y1 Y8 Y2 K12 Y9", middle, open1=open1)
    h.expect("finish", finisher=1, scores=[202, -101, 108, 202], penalties=[(1, 101, "X6")])
    return f


@scenario
def penalty_x7() -> LogFile:
    # 101-classic: seat 1 (opened) lays off R9 and B9 and takes both back: 101 (X7).
    # Seat 2 then opens with 21 tiles and finishes (not elden: seat 1 has opened): -101;
    # seat 1 keeps R9 B9 Y12 = 30; seats 0 and 3 202.
    f = LogFile()
    g = f.game("x7-1", variant="101-classic", hands=1)
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K12 *", 1: tiles_of(KIT1) + " R9 B9 Y12",
                      2: without(KIT0, "K13") + " Y8", 3: "*"},
               deck="Y1 Y2 Y3 Y4 Y5 K13")
    h.discard(0, "K12")
    h.draw(1)
    h.open(1, melds=KIT1)
    h.discard(1, "Y1")
    h.cycle([2, 3, 0])
    h.draw(1)
    h.layoff(1, 0, "R9")
    h.layoff(1, 1, "B9")
    h.takeback(1)
    h.discard(1, "Y5")
    h.draw(2)  # K13
    h.open(2, melds=KIT0)
    h.discard(2, "Y8")
    h.expect("finish", finisher=2, scores=[202, 30, -101, 202], penalties=[(1, 101, "X7")])
    # Totals 202, 131, -101, 202; N = 1: +1, +0, -0, -1; seats 0 and 3 tie for third and
    # share the third rank's -0 (G3).
    g.match_points = [0, 0, 1, 0]
    return f


# ---------------------------------------------------------------------------------------------
# 51 (indicator R5: okey R6, J counts as R6). 14 tiles, starter 15. E7 multipliers.
K51_OPEN1 = ["K10 K11 K12 K13", "B1 B2 B3"]  # 46 + 6 = 52
K51_LEFT1 = "Y4 Y5 Y8 Y9 R1 R2 R3"  # 4+5+8+9+1+2+3 = 32
K51_MELDS = ["B10 B11 B12 B13", "Y10 Y11 Y12 Y13", "K1 K2 K3", "Y1 Y2 Y3"]  # 104, 14 tiles
K51_PAIRS = ["K7 K7", "K8 K8", "K9 K9", "B7 B7", "B8 B8", "B9 B9", "Y7 Y7"]
assert face_sum(" ".join(K51_OPEN1)) == 52 and face_sum(K51_LEFT1) == 32


@scenario
def fifty_one_multipliers() -> LogFile:
    f = LogFile()
    L = 32
    cases = [
        # name, others opened?, pairs?, okey?, scores
        ("c000", True, False, False, [102, L, -51, 102]),
        ("c010", True, True, False, [204, 2 * L, -102, 204]),
        ("c001", True, False, True, [204, 2 * L, -102, 204]),
        ("c011", True, True, True, [408, 4 * L, -204, 408]),
        ("c100", False, False, False, [204, -51, 204, 204]),
        ("c110", False, True, False, [408, -102, 408, 408]),
        ("c101", False, False, True, [408, -102, 408, 408]),
        ("c111", False, True, True, [816, -204, 816, 816]),
    ]
    for name, others, pairs, okey, scores in cases:
        g = f.game(f"fifty-one-{name}", variant="51", hands=1)
        last = "R6" if okey else "Y6"
        kit = K51_PAIRS if pairs else K51_MELDS
        fin = 2 if others else 1
        racks = {0: "K5 *", fin: tiles_of(kit), 3: "*"}
        if others:
            racks[1] = tiles_of(K51_OPEN1) + " " + K51_LEFT1
        else:
            racks[2] = "*"
        h = g.hand(1, starter=0, indicator="R5", racks=racks,
                   deck=("K4 " if others else "") + last)
        h.discard(0, "K5")
        if others:
            h.draw(1)  # K4: fits nothing (K10-K13 wants K9, B1-B3 wants B4)
            h.open(1, melds=K51_OPEN1)  # 52 >= 51
            h.discard(1, "K4")
        h.draw(fin)
        if pairs:
            h.open(fin, pairs=kit)  # 7 pairs >= 4
        else:
            h.open(fin, melds=kit)  # 104 (> 52 when escalating)
        h.discard(fin, last)
        kinds = (["pairs"] if pairs else []) + (["okey"] if okey else []) + ([] if others else ["elden"])
        h.end("finish", scores=scores)
        h.expect("finish", finisher=fin, kinds=kinds, scores=scores)
    return f


# ---------------------------------------------------------------------------------------------
LOW_KIT = [run("R", 1, 6), run("Y", 1, 5), run("B", 1, 5), run("K", 1, 5)]  # 21+15+15+15 = 66
assert face_sum(" ".join(LOW_KIT)) == 66


@scenario
def classic_match_points() -> LogFile:
    f = LogFile()
    # Game 1, three hands (G3, N = 3: +3, +1, -1, -3).
    g = f.game("classic-1", variant="101-classic", hands=3)
    # Hand 1 (starter 0): seat 1 elden with 120: 404, -202, 404, 404.
    _elden(f, "", "Y8", starter=0, n=1, g=g)[1].expect(
        "finish", finisher=1, kinds=["elden"], scores=[404, -202, 404, 404])
    # Hand 2 (starter 1): seat 2 opens 105 (no escalation in classic); seat 3 opens 120 and
    # finishes plainly: seat 3 -101, seat 2 keeps 3+9+11 = 23, seats 0 and 1 202.
    h = g.hand(2, starter=1, indicator="Y6",
               racks={1: "R9 *", 2: tiles_of(KIT1) + " Y3 Y9 Y11",
                      3: without(KIT0, "K13") + " Y8", 0: "*"},
               deck="Y13 K13")
    h.discard(1, "R9")
    h.draw(2)
    h.open(2, melds=KIT1)
    h.discard(2, "Y13")
    h.draw(3)
    h.open(3, melds=KIT0)
    h.discard(3, "Y8")
    h.expect("finish", finisher=3, scores=[202, 202, 23, -101])
    # Hand 3 (starter 2): seat 3 opens elden with only 66 points (O9: classic, elden only):
    # 404, 404, 404, -202. Indicator K9 (okey K10) so the kit holds no okey.
    _elden(f, "", "Y8", starter=2, n=3, g=g, kit=LOW_KIT, indicator="K9", drawn="K5")[1].expect(
        "finish", finisher=3, kinds=["elden"], scores=[404, 404, 404, -202])
    # Totals: 1010, 404, 831, 101 -> ranks 4, 2, 3, 1.
    g.match_points = [-3, 1, -1, 3]
    # Game 2: three eldens by seats 1, 2, 3: totals 1212, 606, 606, 606 -> a three-way tie for
    # first shares the first rank's +3; seat 0 is last: -3.
    g = f.game("classic-tie", variant="101-classic", hands=3)
    for n in (1, 2, 3):
        _elden(f, "", "Y8", starter=n - 1, n=n, g=g)[1].expect(
            "finish", finisher=n, kinds=["elden"],
            scores=[-202 if s == n else 404 for s in range(4)])
    g.match_points = [-3, 3, 3, 3]
    return f


def main() -> None:
    for name, fn in SCENARIOS.items():
        log, exp = fn().write(GOLDEN_DIR, name)
        print(f"wrote {log.relative_to(GOLDEN_DIR.parents[2])} and {exp.name}")


if __name__ == "__main__":
    main()
