"""The chance to win the game: from the totals and the hands left, each player's (or, with partners,
each team's) probability of ending with the lowest total (G1, G4), and the expected match points
where the preset has them (G3).

The model of the hands still to come is empirical: the hand-score vectors (all four seats' scores
of one hand, penalties included, as :meth:`analysis.game.HandResult.totals` gives them) of
self-play games of the same preset, with or without partners, kept whole so that the seats' scores
stay correlated (one seat finishing makes the others pay). ``bench/winprob.py`` plays those games
and writes them to ``winprob_hands.json`` beside this module; nothing in it is typed by hand.

The remaining hands are simulated: each is a vector drawn from the model with its seats permuted at
random among the permutations that keep the game's sides (any of the 24 for single players; for
partners the 8 that keep 0+2 and 1+3 together). The model is thus exchangeable: a player's chance
depends on the totals, never on the seat. Each simulated sum is then added to the totals under
every one of those permutations, so two sides with equal totals get exactly equal chances.
Ties: a shared lowest total splits the win equally between the sides that share it (the chances
add up to 1); match points follow the engine's rule, ties sharing the better rank (G3). At the end
of the game (no hand left) the chance is exact: 1 for the winner, 0 for the others, 1/k each in a
k-way tie. A fixed seed makes every answer the same from run to run.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from analysis.game import GameResult, Rules

MODEL_FILE = Path(__file__).with_name("winprob_hands.json")
SAMPLES = 4000  # simulated continuations per answer (each taken under every permutation of the sides)
SEED = 0
COUNTED = ("finish", "exhausted")  # the hands a model is fitted on (a void hand is played again, E3)
DONE = ("finish", "exhausted", "invalid")  # the hands that use up one of the game's hands (G1)

SINGLE_PERMS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(4)))
# G4: the seat permutations that keep the teams 0+2 and 1+3 (the square's 8 symmetries)
TEAM_PERMS: tuple[tuple[int, ...], ...] = tuple(
    p for p in SINGLE_PERMS if {frozenset((p[0], p[2])), frozenset((p[1], p[3]))} == {frozenset((0, 2)),
                                                                                        frozenset((1, 3))})
TEAMS = ((0, 2), (1, 3))


class ModelMissing(ValueError):
    """No fitted model for a preset, or no readable model file (``bench/winprob.py --write`` fits them)."""


def model_key(variant: str, esli: bool) -> str:
    """The name of a preset's model: ``101``, ``51+esli`` …"""
    return f"{variant}+esli" if esli else str(variant)


def hand_vectors(results: Iterable[GameResult]) -> list[list[int]]:
    """The hand-score vectors of games (finished and exhausted hands; a void hand is played again)."""
    return [h.totals() for res in results for h in res.hands if h.result in COUNTED]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (a cache key)
class HandModel:
    """One preset's fitted hands: a K x 4 array of the four seats' scores in a hand."""

    key: str
    hands: np.ndarray
    games: int = 0

    @property
    def esli(self) -> bool:
        return self.key.endswith("+esli")

    @property
    def perms(self) -> np.ndarray:
        return np.array(TEAM_PERMS if self.esli else SINGLE_PERMS)

    @cached_property
    def pool(self) -> np.ndarray:
        """Every fitted hand under every permutation of the sides: the exchangeable model."""
        return self.hands[:, self.perms].reshape(-1, 4)


def fit(results: Iterable[GameResult], variant: str, esli: bool) -> HandModel:
    """A model from games of one preset (and partners or not)."""
    res = list(results)
    vecs = hand_vectors(res)
    if not vecs:
        raise ValueError(f"no finished or exhausted hand to fit the {model_key(variant, esli)} model on")
    return HandModel(model_key(variant, esli), np.array(vecs, dtype=np.int64), len(res))


def write_models(models: Sequence[HandModel], path: Path | str = MODEL_FILE, about: dict[str, Any] | None = None) -> None:
    """The fitted models as JSON, ten hands to a line (the file is read by :func:`load_models`)."""
    out = ["{", f'  "about": {json.dumps(about or {}, ensure_ascii=False)},', '  "models": {']
    for i, m in enumerate(models):
        flat = [json.dumps([int(x) for x in v], separators=(",", ":")) for v in m.hands]
        rows = ",\n".join("      " + ",".join(flat[j:j + 10]) for j in range(0, len(flat), 10))
        out.append(f'    {json.dumps(m.key)}: {{"games": {m.games}, "hands": [\n{rows}\n    ]}}'
                   + ("," if i < len(models) - 1 else ""))
    out += ["  }", "}"]
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")


def load_models(path: Path | str = MODEL_FILE) -> dict[str, HandModel]:
    """The fitted models by key; a damaged file is one ValueError naming the file and the field."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: cannot read the win-chance models: {e}") from None
    out: dict[str, HandModel] = {}
    for key, m in (raw.get("models") or {}).items() if isinstance(raw, dict) else ():
        hands = m.get("hands") if isinstance(m, dict) else None
        if (not isinstance(hands, list) or not hands
                or not all(isinstance(v, list) and len(v) == 4 and all(isinstance(x, int) for x in v) for v in hands)):
            raise ValueError(f"{path}: field 'models.{key}.hands' must be a list of 4 whole numbers per hand")
        out[str(key)] = HandModel(str(key), np.array(hands, dtype=np.int64), int(m.get("games") or 0))
    return out


@lru_cache(maxsize=4)
def _models(path: str) -> dict[str, HandModel]:
    return load_models(path)


def model_for(rules: Rules, path: Path | str = MODEL_FILE) -> HandModel:
    """The model of a game's preset (its option overrides are not modelled: the preset's hands stand
    in for them)."""
    key = model_key(rules.variant, rules.esli)
    try:
        got = _models(str(path)).get(key)
    except ValueError as e:  # a missing or damaged file: no model, said in one line
        raise ModelMissing(str(e)) from None
    if got is None:
        raise ModelMissing(f"no win-chance model for {key} in {path}")
    return got


@dataclass(frozen=True)
class WinChance:
    """The chance to win from one point of a game. ``sides`` are the seats of each side (one seat
    each, or the two teams, G4); ``win[i]`` is side i's chance to end with the lowest total (a tie
    split equally); ``match_points`` each seat's expected G3 match points (None without them)."""

    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]  # per side
    hands_left: int
    win: tuple[float, ...]
    match_points: tuple[float, ...] | None
    exact: bool  # no hand left: the result, not an estimate

    def of_seat(self, seat: int) -> float:
        """The chance of the side the seat plays on."""
        return next(w for side, w in zip(self.sides, self.win) if seat in side)


def sides_of(esli: bool) -> tuple[tuple[int, ...], ...]:
    return TEAMS if esli else ((0,), (1,), (2,), (3,))


def _award(planned: int) -> np.ndarray:
    return np.array([planned, planned // 2, -(planned // 2), -planned], dtype=np.float64)  # G3


def _outcome(finals: np.ndarray, esli: bool, planned: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Mean win share per side and mean match points per seat over the rows of ``finals`` (n x 4)."""
    side = finals[:, [0, 1]] + finals[:, [2, 3]] if esli else finals
    low = side.min(axis=1, keepdims=True)
    winners = (side == low).astype(np.float64)
    win = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
    mp = None
    if planned is not None:  # G3: rank = how many totals are lower (ties share the better rank)
        rank = (finals[:, None, :] < finals[:, :, None]).sum(axis=2)
        mp = _award(planned)[rank].mean(axis=0)
    return win, mp


def chance(rules: Rules, totals: Sequence[int], hands_left: int, *, planned: int | None = None,
           model: HandModel | None = None, samples: int = SAMPLES, seed: int = SEED) -> WinChance:
    """Each side's chance to win from the seats' ``totals`` with ``hands_left`` hands to play (G1).

    ``planned`` (the game's hand count) is needed for the expected match points where the preset
    has them (G3). ``model`` defaults to the preset's fitted one."""
    if len(totals) != 4:
        raise ValueError(f"four totals, one per seat, got {len(totals)}")
    if hands_left < 0:
        raise ValueError(f"hands left must be 0 or more, got {hands_left} [G1]")
    mp_n = planned if rules.match_points else None
    if mp_n is not None and mp_n < 1:
        raise ValueError(f"a game has at least one hand, got {planned} [G1]")
    t = tuple(int(x) for x in totals)
    if hands_left == 0:
        win, mp = _outcome(np.array([t], dtype=np.int64), rules.esli, mp_n)
        exact = True
    else:
        m = model if model is not None else model_for(rules)
        if m.esli != rules.esli:
            raise ValueError(f"the {m.key} model is for {'partners' if m.esli else 'single players'}")
        win, mp = _simulate(m, t, hands_left, mp_n, samples, seed)
        exact = False
    sides = sides_of(rules.esli)
    return WinChance(sides, tuple(sum(t[s] for s in side) for side in sides), hands_left,
                     tuple(float(x) for x in win), None if mp is None else tuple(float(x) for x in mp), exact)


@lru_cache(maxsize=4096)
def _simulate(m: HandModel, totals: tuple[int, ...], hands_left: int, planned: int | None, samples: int,
              seed: int) -> tuple[np.ndarray, np.ndarray | None]:
    pool = m.pool
    rng = np.random.default_rng([seed, hands_left])
    idx = rng.integers(0, len(pool), size=(samples, hands_left))
    sums = pool[idx].sum(axis=1)  # samples x 4: the remaining hands' scores
    perms = m.perms
    finals = (np.asarray(totals, dtype=np.int64)[None, None, :] + sums[:, perms]).reshape(-1, 4)
    return _outcome(finals, m.esli, planned)


@dataclass(frozen=True)
class Point:
    """The chance at one boundary of a game: after ``done`` hands (0: before the first), the last
    of them numbered ``hand``."""

    done: int
    hand: int
    totals: tuple[int, ...]  # per seat
    chance: WinChance


def course(res: GameResult, *, model: HandModel | None = None, samples: int = SAMPLES,
           seed: int = SEED) -> list[Point]:
    """The chance before the first hand and after every hand of a replayed game (a log or a score
    sheet); [] for a game whose rules are unknown."""
    if res.rules is None:
        return []
    return course_from(res.rules, res.planned_hands, [(h.hand, h.result, tuple(h.totals())) for h in res.hands],
                       model=model, samples=samples, seed=seed)


def course_from(rules: Rules, planned: int, hands: Sequence[tuple[int, str, Sequence[int]]], *,
                model: HandModel | None = None, samples: int = SAMPLES, seed: int = SEED) -> list[Point]:
    """The chance before the first hand and after every hand, from each hand's (number, result,
    the four seats' written scores). A void hand is played again (E3) and moves nothing; the course
    stops at a hand not played to its end; a hand past the planned count leaves none to play."""
    totals = [0, 0, 0, 0]
    done = 0
    out = [Point(0, 0, tuple(totals), chance(rules, totals, planned, planned=planned, model=model,
                                             samples=samples, seed=seed))]
    for number, result, scores in hands:
        if result == "void":
            continue
        if result not in DONE:
            break
        for s, v in enumerate(scores):
            totals[s] += int(v)
        done += 1
        out.append(Point(done, number, tuple(totals),
                         chance(rules, totals, max(planned - done, 0), planned=planned, model=model,
                                samples=samples, seed=seed)))
    return out


__all__ = ["MODEL_FILE", "SAMPLES", "SEED", "TEAMS", "HandModel", "ModelMissing", "Point", "WinChance", "chance",
           "course", "course_from", "fit", "hand_vectors", "load_models", "model_for", "model_key", "sides_of", "write_models"]
