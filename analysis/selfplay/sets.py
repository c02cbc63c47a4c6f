"""Duplicate sets: a named list of seeded deals with fixed bot seats that people play on the Play
page, each against the expert who played every deal in the same seat once.

A set (``sets/NAME.json`` beside the database) fixes the table (any preset, 1-50 hands), the seed
(so hand ``k`` is the same deal for everyone: :func:`analysis.selfplay.table.deal`), the starter,
the seat people play and the bots of the others. At creation the expert plays that seat through
every deal (the bots as they would against a person) and its hand scores are stored with the set.
A person's games of the set are the Play page's games (``played/*.json``) naming it; the results
pair each deal's score with the expert's (:func:`analysis.selfplay.match.paired_ci`, as ``istaka
match`` computes its interval) and rank the people by the mean difference. No Streamlit here.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from analysis.game.record import RecordError, load_json

from .match import paired_ci
from .table import LEVELS, PLAY_BOTS, VARIANTS, PlayGame, new_game, table_rules

MAX_SET_HANDS = 50
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$")


def played_dir(db: str | os.PathLike[str]) -> Path:
    """Where the Play page keeps its games: ``played/`` beside the database."""
    return Path(db).resolve().parent / "played"


def sets_dir(db: str | os.PathLike[str]) -> Path:
    return Path(db).resolve().parent / "sets"


class SetError(ValueError):
    """A set that cannot be made or read; the message names the field and the rule."""


@dataclass
class DealSet:
    name: str
    variant: str = "101"
    hands: int = 11
    seed: str = "0"
    seat: int = 0  # the seat people play (and the expert, once)
    starter: int = 0
    bots: list[str] = field(default_factory=lambda: ["person", "expert", "expert", "expert"])
    levels: list[str | None] = field(default_factory=lambda: [None, "medium", "medium", "medium"])
    level: str = "strong"  # the expert's strength in the people's seat
    expert: list[int] = field(default_factory=list)  # the expert's score in each deal, in order
    created: str | None = None

    def game(self, gid: str, name: str, started: str | None = None) -> PlayGame:
        """A person's game of this set: the same deals, seats and bots."""
        names = [name if k == self.seat else f"{self.bots[k]}-{k}" for k in range(4)]
        g = new_game(gid, variant=self.variant, hands=self.hands, seats=list(self.bots), levels=list(self.levels),
                     names=names, seed=self.seed, starter=self.starter, started=started)
        g.dset = self.name
        return g


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise SetError(f"a set's name is 1-48 letters, digits, '_', '.' or '-', got {name!r}")
    return name


def make(name: str, *, variant: str = "101", hands: int = 11, seed: str = "0", seat: int = 0,
         bots: list[str] | None = None, levels: list[str | None] | None = None, level: str = "strong",
         starter: int = 0, created: str | None = None) -> DealSet:
    """A new set, the expert's scores played (every deal once, in ``seat``)."""
    check_name(name)
    if variant not in VARIANTS:
        raise SetError(f"unknown table {variant!r}; tables are {', '.join(VARIANTS)}")
    if not 1 <= hands <= MAX_SET_HANDS:
        raise SetError(f"a set holds 1 to {MAX_SET_HANDS} deals, got {hands} [G1]")
    if not 0 <= seat <= 3 or not 0 <= starter <= 3:
        raise SetError("seats are 0-3")
    others = list(bots or ["expert"] * 3)
    if len(others) == 4:
        others = [b for k, b in enumerate(others) if k != seat]
    if len(others) != 3 or any(b not in PLAY_BOTS for b in others):
        raise SetError(f"three bots for the other seats, each one of {', '.join(PLAY_BOTS)}")
    if level not in LEVELS:
        raise SetError(f"the expert's strength is one of {', '.join(LEVELS)}")
    seats = list(others)
    seats.insert(seat, "person")
    lv: list[str | None] = list(levels) if levels else [None if b != "expert" else "medium" for b in seats]
    s = DealSet(name, variant, hands, str(seed), seat, starter, seats, lv, level, created=created)
    s.expert = expert_scores(s)
    return s


def expert_scores(s: DealSet) -> list[int]:
    """The expert in the people's seat through every deal of the set: its hand score in each."""
    g = s.game("expert-" + s.name, "expert")
    g.seats[s.seat] = "expert"
    g.levels[s.seat] = s.level
    out: list[int] = []
    while True:
        g.bots_until_person()
        if not g.over:
            raise SetError(f"set {s.name}: hand {g.hand} did not end")
        out = [h.totals()[s.seat] for h in g.finished_hands() if h.result != "void"]
        if g.game_over:
            return out
        g.next_hand()


def save(db: str | os.PathLike[str], s: DealSet) -> Path:
    d = sets_dir(db)
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{check_name(s.name)}.json"
    tmp = d / f".{s.name}.json.tmp"
    tmp.write_text(json.dumps(asdict(s), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, p)
    return p


def load(db: str | os.PathLike[str], name: str) -> DealSet:
    p = sets_dir(db) / f"{check_name(name)}.json"
    try:
        d = load_json(p.read_bytes())
        s = DealSet(**{k: d[k] for k in DealSet.__dataclass_fields__ if k in d})
    except FileNotFoundError:
        raise SetError(f"no set named {name!r}") from None
    except (OSError, ValueError, TypeError, AttributeError) as e:
        raise SetError(f"set {name!r} cannot be read: {e}") from None
    def whole(x: Any, lo: int, hi: int) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi

    ok = (isinstance(s.variant, str) and s.variant in VARIANTS and whole(s.hands, 1, MAX_SET_HANDS)
          and whole(s.seat, 0, 3) and whole(s.starter, 0, 3) and isinstance(s.seed, str)
          and isinstance(s.bots, list) and len(s.bots) == 4 and s.bots[s.seat] == "person"
          and all(b in PLAY_BOTS for k, b in enumerate(s.bots) if k != s.seat)
          and isinstance(s.levels, list) and len(s.levels) == 4 and all(x is None or x in LEVELS for x in s.levels)
          and s.level in LEVELS and isinstance(s.expert, list) and all(whole(x, -10**7, 10**7) for x in s.expert))
    if not ok:
        raise SetError(f"set {name!r} has the wrong shape (an edited or damaged file)")
    return s


def install_sample(db: str | os.PathLike[str], sample: str | os.PathLike[str]) -> int:
    """The sample's sets and their people's games (``sample/sets/*.json``, ``sample/played/*.json``)
    copied beside a new database, none over a file already there; how many were copied."""
    n = 0
    for src, dst in (("sets", sets_dir(db)), ("played", played_dir(db))):
        d = Path(sample) / src
        for f in sorted(d.glob("*.json")) if d.is_dir() else []:
            if (dst / f.name).exists():
                continue
            dst.mkdir(parents=True, exist_ok=True)
            tmp = dst / f".{f.name}.tmp"
            tmp.write_bytes(f.read_bytes())
            os.replace(tmp, dst / f.name)
            n += 1
    return n


def names(db: str | os.PathLike[str]) -> list[str]:
    d = sets_dir(db)
    return sorted(p.stem for p in d.glob("*.json") if _NAME.match(p.stem)) if d.is_dir() else []


def _games_of(db: str | os.PathLike[str], name: str) -> list[PlayGame]:
    out = []
    d = played_dir(db)
    for p in sorted(d.glob("oyun-*.json")) if d.is_dir() else []:
        try:
            raw = load_json(p.read_bytes())  # the log reader's bounds (size, nesting)
            if not isinstance(raw, dict) or raw.get("dset") != name:
                continue
            out.append(PlayGame.from_dict(raw))
        except (OSError, ValueError, RecordError, KeyError, TypeError):
            continue
    return out


def results(db: str | os.PathLike[str], s: DealSet) -> dict[str, Any]:
    """Per person (the name at the set's seat): each deal's score beside the expert's, the mean
    paired difference (person - expert; below 0 the person did better) with its 95% interval, and
    the ranking by that mean."""
    people: dict[str, dict[int, int]] = {}
    for g in _games_of(db, s.name):
        who = g.players[s.seat]
        scores = [h.totals()[s.seat] for h in g.finished_hands() if h.result != "void"]
        mine = people.setdefault(who, {})
        for k, v in enumerate(scores):
            mine.setdefault(k, v)  # a deal counts once per person: the first time it was played
    rows = []
    for who, by_deal in people.items():
        deals = sorted(k for k in by_deal if k < len(s.expert))
        diffs = [by_deal[k] - s.expert[k] for k in deals]
        m, lo, hi = paired_ci(diffs)
        rows.append({"person": who, "deals": len(deals), "mean_diff": m, "low": lo, "high": hi,
                     "scores": [by_deal[k] for k in deals], "expert": [s.expert[k] for k in deals]})
    rows.sort(key=lambda r: (r["mean_diff"], -r["deals"], r["person"]))
    for rank, r in enumerate(rows, 1):
        r["rank"] = rank
    over = table_rules(s.variant, s.hands)[1]
    return {"set": s.name, "variant": s.variant, "hands": s.hands, "seat": s.seat, "bots": s.bots,
            "expert": s.expert, "rules": over, "people": rows}


__all__ = ["MAX_SET_HANDS", "DealSet", "SetError", "check_name", "expert_scores", "install_sample", "load",
           "make", "names", "played_dir", "results", "save", "sets_dir"]
