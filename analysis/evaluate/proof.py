"""The compiled rollout model proven against the engine: play a hand by the model with
its trace, write it as a v1 log, replay the log with :mod:`analysis.game`, and compare.

A hand is dealt from a seed; the model plays it from the deal, or (``midhand``) the model's first
moves are replayed by the engine up to a random event and the model plays on from that engine
state (packed by :func:`.fast.pack`, so tables with okeys, placers, a taken tile or a placed turn
are read back as the engine holds them). The check: the log replays with no illegal move, the
engine's result and hand-end scores are the model's, its in-game penalties are the model's
penalty by penalty (seat, points, rule), and each seat's total is the model's value. A hand that
ends void (E3) is written with no penalty event, as nobody is scored in it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from analysis.game import HandState, Rules, Tile, apply, full_set, new_hand, replay_game, resolve
from analysis.game.log import read_lines

from . import fast


@dataclass
class Check:
    ok: bool
    why: str
    result: str
    moves: int
    penalties: tuple[tuple[int, int, str], ...]
    log: list[dict[str, Any]]


def deal(rules: Rules, rng: random.Random, starter: int = 0) -> tuple[Tile, list[list[Tile]], list[Tile]]:
    """A shuffled deal as the simulator makes it (T2: a false okey is never the indicator)."""
    tiles = sorted(full_set().elements())
    rng.shuffle(tiles)
    ind = tiles.pop()
    while ind.is_joker:
        tiles.insert(rng.randrange(len(tiles) + 1), ind)
        ind = tiles.pop()
    racks, pos = [], 0
    for s in range(4):
        n = rules.dealt_starter if s == starter else rules.deal
        racks.append(tiles[pos:pos + n])
        pos += n
    return ind, racks, tiles[pos:]


def _moves(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] not in ("penalty", "end")]


def model_hand(st: HandState, racks: list[tuple[Tile, ...]] | list[list[Tile]], deck: list[Tile] | tuple[Tile, ...]
               ) -> tuple[tuple[int, ...], int, list[dict[str, Any]]]:
    """The model's play from ``st`` with the true racks and deck: (values, result code, events)."""
    out = fast.play(fast.pack(st), fast.rack_bytes(racks, st.okey), fast.deck_bytes(deck, st.okey),
                    fast.MODE_PLAY, -1, True)
    assert out[5] is not None
    return tuple(out[:4]), out[4], fast.trace_events(out[5], st.okey, st.indicator)


def check_hand(variant: str, overrides: Mapping[str, Any] | None, seed: int, *, midhand: bool = False) -> Check:
    rng = random.Random(f"proof:{variant}:{overrides}:{seed}")
    rules = resolve(variant, overrides)
    starter = rng.randrange(4)
    ind, racks, deck = deal(rules, rng, starter)
    st0 = new_hand(rules, 1, starter, ind, racks, deck)
    vals, res, evs = model_hand(st0, racks, deck)
    prefix: list[dict[str, Any]] = []
    known_pen: list[tuple[int, int, str]] = []
    if midhand:
        moves = _moves(evs)
        if len(moves) > 2:
            k = rng.randrange(1, len(moves) - 1)
            st = st0
            for e in moves[:k]:
                st = apply(st, e)
            if not st.over:
                assert st.deck is not None
                # the first k moves as the model wrote them, with the penalties they incurred
                cut = [i for i, e in enumerate(evs) if e["type"] not in ("penalty", "end")][k - 1] + 1
                if moves[k - 1]["type"] == "discard" and evs[cut]["type"] == "penalty":
                    cut += 1  # X3/X4 follow their discard (O8, X5 and X6 come before their move)
                prefix = evs[:cut]
                known_pen = [(p.seat, p.points, p.rule) for p in st.penalties]
                vals, res, evs = model_hand(st, list(st.racks), list(st.deck))
    if fast.RESULTS[res] == "void":  # E3: nobody is scored, so the log carries no penalty at all
        prefix = [e for e in prefix if e["type"] != "penalty"]
        known_pen = []
    game = f"proof-{seed}"
    header: dict[str, Any] = {"type": "game", "game": game, "variant": variant, "players": ["a", "b", "c", "d"],
                              "hands": 1}
    if overrides:
        header["rules"] = dict(overrides)
    log = [header, {"type": "hand", "game": game, "hand": 1, "starter": starter, "indicator": str(ind),
                    "racks": [[str(t) for t in r] for r in racks], "deck": [str(t) for t in deck]}]
    log += [{"game": game, "hand": 1, **e} for e in prefix + evs]
    model_pen = sorted(known_pen + [(e["seat"], e["points"], e["reason"]) for e in evs if e["type"] == "penalty"])
    rr = read_lines([json.dumps(x) for x in log], f"<{game}>")
    nmoves = len(_moves(prefix)) + len(_moves(evs))
    if rr.errors or len(rr.games) != 1:
        return Check(False, f"log unreadable: {rr.errors}", "?", nmoves, tuple(model_pen), log)
    h = replay_game(rr.games[0], keep_steps=False).hands[0]
    eng_pen = sorted((p.seat, p.points, p.rule) for p in h.penalties)
    end = [e for e in evs if e["type"] == "end"]
    model_result = fast.RESULTS[res]
    why = ""
    if h.error is not None:
        why = f"illegal move: {h.error}"
    elif h.mismatches:
        why = f"recorded end/penalties differ from the engine's: {h.mismatches}"
    elif not end or end[0]["reason"] != h.result or model_result != h.result:
        why = f"result: model {model_result}, engine {h.result}"
    elif end[0]["scores"] != list(h.scores):
        why = f"scores: model {end[0]['scores']}, engine {list(h.scores)}"
    elif model_pen != eng_pen:
        why = f"penalties: model {model_pen}, engine {eng_pen}"
    elif list(vals) != h.totals():
        why = f"values: model {list(vals)}, engine totals {h.totals()}"
    return Check(not why, why, h.result, nmoves, tuple(model_pen), log)


# the presets and partner games the proof covers
CASES: tuple[tuple[str, dict[str, Any] | None], ...] = (
    ("101", None), ("101-classic", None), ("51", None), ("101", {"esli": True}), ("101-classic", {"esli": True}),
    ("51", {"esli": True}),
)

__all__ = ["CASES", "Check", "check_hand", "deal", "model_hand"]
