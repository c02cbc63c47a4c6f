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
