"""Mutated logs never crash the reader or the engine: every broken game ends as a reported
error (a read error, or an invalid hand with a rule ID), never as an exception."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from analysis.game import log
from analysis.game import replay_game
from analysis.game.cut import cut_view

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
ODD = ["R1", "R7", "K13", "J", "B5", "Y12", "R6>K9", "K1>K1", "X9", "", 5, None, ["R1"], {"a": 1}]
TYPES = ["draw", "discard", "take", "return", "open", "meld", "layoff", "swap", "takeback", "show",
         "declare", "penalty", "end", "hand", "game", "bogus"]


def _mutate(ev: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    ev = copy.deepcopy(ev)
    k = rnd.choice(sorted(ev))
    v = ev[k]
    if k == "type":
        ev[k] = rnd.choice(TYPES)
    elif isinstance(v, bool):
        ev[k] = not v
    elif isinstance(v, int):
        ev[k] = rnd.choice([v + 1, v - 1, 0, 3, 99, -1, "1"])
    elif isinstance(v, str):
        ev[k] = rnd.choice(ODD)
    elif isinstance(v, list) and v:
        i = rnd.randrange(len(v))
        if isinstance(v[i], list) and v[i]:
            v[i][rnd.randrange(len(v[i]))] = rnd.choice(ODD)
        else:
            v[i] = rnd.choice(ODD)
        if rnd.random() < 0.3:
            v.pop()
    if rnd.random() < 0.1:
        ev.pop(k, None)
    return ev


@pytest.mark.parametrize("seed", range(4))
def test_mutated_games_end_in_reported_errors_not_exceptions(seed: int) -> None:
    games = log.read_file(SAMPLE).games
    games += [cut_view(g, k % 4) for k, g in enumerate(games[:12])]  # seat-view logs too
    rnd = random.Random(seed)
    broken = 0
    for _ in range(60):
        g = copy.deepcopy(rnd.choice(games))
        for _ in range(rnd.randint(1, 4)):
            i = rnd.randrange(len(g.events))
            line, ev = g.events[i]
            c = rnd.random()
            if c < 0.7:
                g.events[i] = (line, _mutate(ev, rnd))
            elif c < 0.8:
                del g.events[i]
            elif c < 0.9 and i + 1 < len(g.events):
                g.events[i], g.events[i + 1] = g.events[i + 1], g.events[i]
            else:
                g.events.insert(i, (line, copy.deepcopy(ev)))
        lines = [json.dumps(g.header)] + [json.dumps(e) for _, e in g.events]
        rr = log.read_lines(lines, "fuzz.jsonl")
        for err in rr.errors:
            assert err.line is None or 1 <= err.line <= len(lines)
        for gg in rr.games:
            res = replay_game(gg)
            json.dumps(res.to_dict())  # the CLI's --json must be able to print it
            for h in res.hands:
                if h.error is not None:
                    assert h.result == "invalid" and h.error["rule"] and 1 <= h.error["line"] <= len(lines)
            broken += (not res.valid) or (not res.agrees)
        broken += bool(rr.errors)
    assert broken > 30  # the mutations do break games; none of them raised
