"""Legal v1 game logs made up for the store's tests and benchmark (no simulator needed).

Each hand is dealt from a seeded shuffle; the seat after the starter either finishes elden on
its first turn (a rack of three runs), opens with three runs and plays on, or nobody opens; the
others draw and discard until the deck runs out (E1). Every log is replayed by the engine in
the tests, so a generator bug shows up as an invalid game, not as a silent wrong answer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PLAYERS = ["Ali", "Ayşe", "Mehmet", "Zeynep", "Deniz", "Emre"]
ELDEN_RACK = [f"R{n}" for n in range(1, 14)] + [f"B{n}" for n in range(10, 14)] + [f"K{n}" for n in range(10, 14)]
OPEN_MELDS = [[f"{c}{n}" for n in range(10, 14)] for c in "RBK"]  # 138 points (O1)


def _full_set() -> list[str]:
    return [f"{c}{n}" for c in "RYBK" for n in range(1, 14) for _ in range(2)] + ["J", "J"]


def _hand(gid: str, n: int, starter: int, rng: random.Random, mode: str) -> list[dict[str, Any]]:
    tiles = _full_set()
    opener = (starter + 1) % 4
    special = ELDEN_RACK if mode == "elden" else [t for m in OPEN_MELDS for t in m] if mode == "open" else []
    for t in special:
        tiles.remove(t)
    indicator = f"Y{rng.randint(1, 8)}"  # okey Y2..Y9: never inside the special racks
    tiles.remove(indicator)
    rng.shuffle(tiles)
    racks: list[list[str]] = [[], [], [], []]
    for seat in range(4):
        want = 22 if seat == starter else 21
        if seat == opener:
            racks[seat] = list(special)
        while len(racks[seat]) < want:
            racks[seat].append(tiles.pop())
    deck = tiles
    evs: list[dict[str, Any]] = [{"type": "hand", "game": gid, "hand": n, "starter": starter,
                                  "indicator": indicator, "racks": [list(r) for r in racks], "deck": list(deck)}]
    t = 0

    def ev(kind: str, seat: int, **kw: Any) -> None:
        nonlocal t
        t += rng.randint(500, 9000)
        evs.append({"type": kind, "game": gid, "hand": n, "seat": seat, **kw, "t": t})

    ev("discard", starter, tile=racks[starter][-1])
    seat = opener
    pos = 0
    first = True
    while pos < len(deck):
        drawn = deck[pos]
        pos += 1
        ev("draw", seat, tile=drawn)
        if first and mode == "elden":
            ev("open", seat, melds=[ELDEN_RACK[:13], ELDEN_RACK[13:17], ELDEN_RACK[17:]])
            ev("discard", seat, tile=drawn)
            return evs
        if first and mode == "open":
            ev("open", seat, melds=OPEN_MELDS)
        first = False
        ev("discard", seat, tile=drawn)
        seat = (seat + 1) % 4
    return evs


def make_game(gid: str, seed: int = 0, hands: int = 3, variant: str = "101", site: str = "kahve",
              started: str | None = "2026-01-05T20:00:00", modes: Iterable[str] | None = None,
              players: list[str] | None = None) -> list[dict[str, Any]]:
    """One whole game as a list of event dicts (header first)."""
    rng = random.Random(seed)
    players = players or rng.sample(PLAYERS, 4)
    head: dict[str, Any] = {"type": "game", "game": gid, "variant": variant, "players": players,
                            "hands": hands, "site": site}
    if started is not None:
        head["started"] = started
    evs = [head]
    modes = list(modes) if modes is not None else [rng.choice(["elden", "open", "open", "none"]) for _ in range(hands)]
    for n in range(1, hands + 1):
        evs += _hand(gid, n, (n - 1) % 4, rng, modes[n - 1])
    return evs


def lines(events: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def write_log(path: Path, games: Iterable[list[dict[str, Any]]], extra: str = "") -> Path:
    path.write_text("".join(lines(g) for g in games) + extra, encoding="utf-8")
    return path


def stored(db: Path, log: Path, then: Callable[[Any], None] | None = None) -> Path:
    """A fresh database ``db`` (no sample) holding ``log``; ``then(con)`` runs before it closes."""
    from analysis import store

    con = store.connect(db, seed=False)
    try:
        store.import_paths(con, [str(log)], workers=1)
        if then is not None:
            then(con)
    finally:
        con.close()
    return db


def empty_board(db: Path, monkeypatch: Any) -> Path:
    """A fresh, empty database ``db`` (no sample) as the dashboard's ($ISTAKA_DB), served locally
    ($ISTAKA_MODE unset): what a page test of playing or recording starts from."""
    from analysis import store

    store.connect(db, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(db))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    return db
