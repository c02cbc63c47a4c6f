"""The sample's played game (``data/sample/played-101.jsonl.gz``): a scripted person against three
bots on the Play page's table driver, written as the page writes it (a full v1 log whose header
names the person, ``"people": [0]``); and the sample's duplicate set (``data/sample/sets/`` and
its two people's games in ``data/sample/played/``, copied beside a new database when the sample
is imported, :func:`analysis.selfplay.sets.install_sample`). Rebuild both with
``python -m analysis.selfplay.played_sample``.

The person draws (never takes), opens with the quick finder's opening as soon as it reaches the
threshold, lays off nothing, and discards the tile the greedy bot would (its least useful one):
a plain club player, reproducible from the seed alone. The set's second person is a beginner:
draws, never opens, and throws the highest tile it holds.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from dataclasses import asdict
from pathlib import Path

from analysis.game import dumps
from analysis.game.record import RecordError
from analysis.players import View, discard_order, greedy_opening

from . import sets
from .table import PlayGame, new_game

PLAYED_ID = "oyun-20261115-193000"
PLAYED_FILE = "played-101.jsonl.gz"
SET_NAME = "kahve-seti"
SET_PEOPLE = (("oyun-20261116-200000", "Deniz"), ("oyun-20261116-210000", "Ece"))


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


def beginner_turn(g: PlayGame, seat: int) -> None:
    """One turn of the set's beginner: draws, never opens, throws its highest tile."""
    s = g.state()
    assert s is not None
    if s.phase == "draw":
        g.person({"type": "draw", "seat": seat})
    s = g.state()
    assert s is not None
    for t in sorted(s.racks[seat], key=lambda x: (-x.number, str(x))):
        try:
            g.person({"type": "discard", "seat": seat, "tile": str(t)})
            return
        except RecordError:
            continue


def sample_set() -> tuple[sets.DealSet, list[PlayGame]]:
    """The sample's duplicate set (three deals of ``101``, the expert's scores played) and its two
    people's games, each played through every deal."""
    s = sets.make(SET_NAME, variant="101", hands=3, seed="kahve-seti", seat=0, starter=1,
                  bots=["greedy", "solver", "greedy"], level="medium", created="2026-11-16T19:00:00+00:00")
    games = []
    for (gid, name), turn in zip(SET_PEOPLE, (person_turn, beginner_turn)):
        g = s.game(gid, name, started=f"{gid[5:9]}-{gid[9:11]}-{gid[11:13]}T{gid[14:16]}:{gid[16:18]}:00+00:00")
        while True:
            for _ in range(400):
                g.bots_until_person()
                if g.over:
                    break
                turn(g, s.seat)
            if g.game_over:
                break
            g.next_hand()
        games.append(g)
    return s, games


def write_set(sample: Path) -> list[Path]:
    """The set's file and its people's games under ``sample`` (``sets/``, ``played/``)."""
    s, games = sample_set()
    out = []
    for sub, name, data in [("sets", s.name, asdict(s)), *(("played", g.id, g.to_dict()) for g in games)]:
        d = sample / sub
        d.mkdir(parents=True, exist_ok=True)
        p = d / f"{name}.json"
        p.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        out.append(p)
    return out


def played_lines(hands: int = 3) -> list[str]:
    return [dumps(e) + "\n" for e in played_game(hands).log_events(unfinished=False)]


def write(path: Path) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz, \
            io.TextIOWrapper(gz, encoding="utf-8", newline="\n") as out:
        out.writelines(played_lines())


if __name__ == "__main__":
    sample = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "data" / "sample"
    write(sample / PLAYED_FILE)
    print(sample / PLAYED_FILE)
    for p in write_set(sample):
        print(p)
