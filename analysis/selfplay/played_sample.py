"""The sample's played game (``data/sample/played-101.jsonl.gz``): a scripted person against three
bots on the Play page's table driver, written as the page writes it (a full v1 log whose header
names the person, ``"people": [0]``). Rebuild it with ``python -m analysis.selfplay.played_sample``.

The person draws (never takes), opens with the quick finder's opening as soon as it reaches the
threshold, lays off nothing, and discards the tile the greedy bot would (its least useful one):
a plain club player, reproducible from the seed alone.
"""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

from analysis.game import dumps
from analysis.game.record import RecordError
from analysis.players import View, discard_order, greedy_opening

from .table import PlayGame, new_game

PLAYED_ID = "oyun-20261115-193000"
PLAYED_FILE = "played-101.jsonl.gz"


def person_turn(g: PlayGame, seat: int) -> None:
    """One turn of the scripted person (see the module's note)."""
    s = g.state()
    assert s is not None
    if s.phase == "draw":
        g.person({"type": "draw", "seat": seat})
    s = g.state()
    assert s is not None
    if s.opened[seat] is None:
        ev = greedy_opening(View.of(s, seat))
        if ev is not None:
            try:
                g.person(ev)
            except RecordError:
                pass
            if g.over:
                return
    s = g.state()
    assert s is not None
    for t in discard_order(View.of(s, seat), danger=True):
        try:
            g.person({"type": "discard", "seat": seat, "tile": str(t)})
            return
        except RecordError:
            continue
    if s.turn_base is not None:  # an opening the discard refused (O1): taken back, then discarded
        g.person({"type": "takeback", "seat": seat})
        s = g.state()
        assert s is not None
        g.person({"type": "discard", "seat": seat, "tile": str(discard_order(View.of(s, seat), danger=True)[0])})


def played_game(hands: int = 3) -> PlayGame:
    g = new_game(PLAYED_ID, variant="101", hands=hands, seats=["person", "greedy", "solver", "greedy"],
                 names=["Deniz", "Ali", "Elif", "Zeynep"], seed="kahve-1", starter=1,
                 started="2026-11-15T19:30:00+00:00")
    while True:
        for _ in range(400):
            g.bots_until_person()
            if g.over:
                break
            person_turn(g, 0)
        if g.game_over:
            return g
        g.next_hand()


def played_lines(hands: int = 3) -> list[str]:
    return [dumps(e) + "\n" for e in played_game(hands).log_events(unfinished=False)]


def write(path: Path) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz, \
            io.TextIOWrapper(gz, encoding="utf-8", newline="\n") as out:
        out.writelines(played_lines())


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[2] / "data" / "sample" / PLAYED_FILE
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    write(target)
    print(target)
