"""A small store for the Player page's tests: four players over three weeks of 101 games from
every source (played, recorded, self-play, a score sheet), one 51 game, quick reviews of all and
a deep review of one, so that every query of the page has something to count."""

from __future__ import annotations

import json
from pathlib import Path

from analysis.selfplay import GameSpec, Player, play_game

NAMES = ("Ali", "Ayşe", "Mehmet", "Zeynep")
BOTS = ("solver", "greedy", "random", "expert")
# game id, variant, seed, day, source, hands
GAMES = (
    ("pg-1", "101", "11", "2026-10-05", "selfplay", 2),
    ("pg-2", "101", "12", "2026-10-06", "recorded", 2),
    ("pg-3", "101", "13", "2026-10-13", "played", 2),
    ("pg-4", "101", "14", "2026-10-20", "recorded", 2),
    ("pg-5", "101", "15", "2026-10-21", "selfplay", 1),  # the deep review's
    ("pg-6", "51", "16", "2026-10-22", "recorded", 2),
)
DEEP = "pg-5"


def game_lines(gid: str, variant: str, seed: str, day: str, source: str, hands: int) -> list[str]:
    """A simulated game's log, its header made to say its source: a recorded game names no bots,
    a played one names its people (seat 0)."""
    spec = GameSpec(gid, tuple(Player(n, b) for n, b in zip(NAMES, BOTS)), variant, {"hands": hands}
                    if variant != "101" else None, seed, f"{day}T20:00:00+00:00", hands=hands)
    lines = play_game(spec).lines()
    head = json.loads(lines[0])
    if source == "recorded":
        head.pop("bots", None)
    elif source == "played":
        head["people"] = [0]
        head["bots"] = [None, *BOTS[1:]]
    lines[0] = json.dumps(head, ensure_ascii=False) + "\n"
    return lines


SHEET_ROW = {"finisher": 0, "kind": "normal", "opened": ["points", "points", None, "pairs"],
             "left": [None, 12, None, 5], "penalties": [{"seat": 1, "rule": "X4", "points": 101}]}


def build(d: Path) -> Path:
    """The database (d/pg.duckdb) and the log it holds (d/pg.jsonl)."""
    from analysis import store
    from analysis.store import analyze, sheets

    log = d / "pg.jsonl"
    log.write_text("".join(line for g in GAMES for line in game_lines(*g)), encoding="utf-8")
    db = d / "pg.duckdb"
    con = store.connect(db, seed=False)
    try:
        store.import_paths(con, [str(log)], workers=1)
        sheets.save_sheet(con, {"game": "pg-sheet", "variant": "101", "players": list(NAMES), "hands": 7,
                                "started": "2026-10-07T20:00:00+00:00"}, [SHEET_ROW] * 2)
        analyze(con, games=[g[0] for g in GAMES if g[0] != DEEP])
        analyze(con, games=[DEEP], deep=True, budget=0.002, worlds=8)
    finally:
        con.close()
    return db
