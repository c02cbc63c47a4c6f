"""Hostile but well-formed logs, shared by the tests and bench/memory.py: each is small on disk
and costs much to replay when a reader keeps no bound."""

from __future__ import annotations

import json

from golden.builder import LogFile


def takeback_flood(pairs: int, gid: str = "tb") -> str:
    """One turn of ``pairs`` open/takeback pairs (O6, X2): each alone is legal."""
    f = LogFile()
    g = f.game(gid, variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "R1 R2 R3 *"}, deck="Y1")
    lines = [f.text()]
    opn = json.dumps({"type": "open", "game": gid, "hand": 1, "seat": 0, "melds": [["R1", "R2", "R3"]]})
    back = json.dumps({"type": "takeback", "game": gid, "hand": 1, "seat": 0})
    lines += [opn + "\n" + back + "\n"] * pairs
    del h
    return "".join(lines)


def take_discard_flood(hands: int, cycles: int, gid: str = "td") -> str:
    """``hands`` hands in which every seat opens at once, then the opened seats pass one tile
    round by take and discard ``cycles`` times (P1, P2: an opened player takes freely); each
    discard fits a table meld, so each costs an X4 penalty that every later state holds."""
    f = LogFile()
    g = f.game(gid, variant="101", rules={"katlamali": False}, hands=hands)
    sets = ["R9 R10 R11 R12 R13|B9 B10 B11 B12 B13", "Y9 Y10 Y11 Y12 Y13|K9 K10 K11 K12 K13"]
    for n in range(1, hands + 1):
        starter = (n - 1) % 4
        last = (starter + 3) % 4
        racks = {s: sets[s % 2].replace("|", " ") + (" R8" if s == last else "") + " *" for s in range(4)}
        h = g.hand(n, starter=starter, indicator="Y1", racks=racks, seed=n)
        for k in range(4):
            s = (starter + k) % 4
            if k:
                h.draw(s)
            h.open(s, melds=sets[s % 2].split("|"))
            spare = [t for t in h.rack(s) if t not in ("Y2", "J", "R8")]
            h.discard(s, "R8" if s == last else spare[0])
        s = starter
        for _ in range(cycles):  # R8 goes round: it fits R9-R13 (X4 at every discard)
            h.take(s, "R8")
            h.discard(s, "R8")
            s = (s + 1) % 4
    return f.text()
