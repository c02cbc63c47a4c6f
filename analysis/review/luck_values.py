"""The value functions of the luck and skill split (:mod:`analysis.review.luck`): what a seat's
view is worth (its expected hand score, its team's in partner games), at a checkpoint, around a
decision, and after each tile it could draw.

- :class:`RolloutValues`: the evaluator (:func:`analysis.evaluate.price`): the rollout policy's
  continuation on a fixed number of worlds seeded by the seat's knowledge at that point, and each
  decision graded by the deep review's :func:`~analysis.review.deep.grade_decision` on the same
  seed (its costs are the deep review's; the value before it is paired with them).
- :class:`QuickValues`: a cheap, exact stand-in (the seat's rack points) for tests and checks.
- :func:`deal_baseline`: the mean value of a deal per preset and place at the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from analysis.evaluate import (PRICE_WORLDS, Candidate, discard_candidate, draw_candidate, place_candidate, price,
                               take_candidate, unseen_tiles)
from analysis.evaluate import fast
from analysis.game import HandResult, HandState, Rules, Tile, full_set, new_hand
from analysis.players import View

from .deep import grade_decision
from .spots import Spot

DRAW_WORLDS = 16  # worlds per outcome when a draw's outcomes are enumerated (RolloutValues)
# how the rollout value function takes a draw's expectation: ``sample`` (the draw's own price, whose
# worlds each draw a tile the seat has not seen: Monte Carlo over the outcomes, free) or
# ``enumerate`` (every distinct tile priced on DRAW_WORLDS worlds)
DRAWS = ("sample", "enumerate")
# what a seat's value is where it decides: ``best`` (the best candidate's price, i.e. the played
# move's less its cost: no decision leaves noise) or ``policy`` (the rollout policy's own
# continuation: the value the model's expectations are taken with)
ANCHORS = ("best", "policy")
BASELINE_DEALS = 2000  # random deals the deal's mean value is estimated on, per preset

# the rollout policy's own continuation of a position: the "show" kind with no event plays on with
# the model from the state as it is (the seat's O7 show left to its own decision)
PLAY_ON = Candidate("show", (), "play on")
# at a discard decision (the placing done) the policy's discard
POLICY_DISCARD = place_candidate((), "policy discard")


# ---- value functions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision's values from the seat's view: ``before`` (the value of its position), ``after``
    (the played move's value) and ``cost`` (played minus best, as charged)."""

    before: float
    after: float
    cost: float
    played: str
    best: str


class Values(Protocol):
    """A value function of one seat's view (the expected hand score of the seat, its team's in
    partner games). ``seed`` names the seat's knowledge at that point: equal seeds mean the same
    knowledge, so an implementation may (and the rollout one does) use it to price on the same
    worlds."""

    name: str

    def position(self, state: HandState, seat: int, *, seed: str, known: Mapping[int, Sequence[Tile]],
                 discard: bool = False) -> float:
        """The value of ``state`` for ``seat`` (``discard``: the seat has placed and must discard)."""
        ...

    def decision(self, hr: HandResult, spot: Spot, *, seed: str,
                 known: Mapping[int, Sequence[Tile]]) -> Decided | None:
        """The values and cost of one decision of the seat (None: no decision there)."""
        ...

    def draws(self, before: HandState, after: HandState, seat: int, *, seed: str,
              known: Mapping[int, Sequence[Tile]]) -> tuple[dict[Tile, float], dict[Tile, float]]:
        """Every tile the seat could draw in ``before`` (its draw chosen; ``after``: the state its
        actual draw left): the value after drawing it and its probability from the seat's view."""
        ...

    def baseline(self, state: HandState, seat: int) -> float:
        """The mean value of a deal for the seat's place at the table (a constant per preset)."""
        ...


def draw_odds(before: HandState, seat: int, known: Mapping[int, Sequence[Tile]]) -> dict[Tile, float]:
    """The chance of each tile being the seat's next draw, from its view: every tile it has not
    seen and does not know to sit in another rack, each copy alike (the evaluator's world model)."""
    pool, _ = unseen_tiles(View.of(before, seat), {k: list(v) for k, v in known.items()})
    n = len(pool)
    if not n:
        return {}
    return {t: c / n for t, c in sorted(Counter(pool).items())}


def after_draw(before: HandState, after: HandState, seat: int, t: Tile) -> HandState:
    """The seat's view had it drawn ``t``: the observed state after its draw (``after``) with the
    drawn tile replaced by ``t`` in its rack; nothing else the seat sees depends on the tile."""
    racks = list(after.racks)
    racks[seat] = tuple(before.racks[seat]) + (t,)
    return replace(after, racks=tuple(racks), deck=None)


class RolloutValues:
    """The evaluator as the value function: each value is :func:`analysis.evaluate.price` of the
    rollout policy's continuation on ``worlds`` fixed worlds seeded by the checkpoint; a decision is
    graded by the deep review's own :func:`~analysis.review.deep.grade_decision` on the same seed,
    so its costs are the deep review's costs and the value before it is paired with them; a draw's
    outcomes are each priced on ``draw_worlds`` worlds of the seed after the draw (the observed one's
    are the first worlds of the decision that follows it)."""

    name = "rollout"

    def __init__(self, worlds: int = PRICE_WORLDS, draw_worlds: int = DRAW_WORLDS, baseline_deals: int = BASELINE_DEALS,
                 draws: str = "sample", anchor: str = "best"):
        if draws not in DRAWS:
            raise ValueError(f"draws must be one of {', '.join(DRAWS)}, got {draws!r}")
        if anchor not in ANCHORS:
            raise ValueError(f"anchor must be one of {', '.join(ANCHORS)}, got {anchor!r}")
        self.worlds = worlds
        self.draw_worlds = draw_worlds
        self.baseline_deals = baseline_deals
        self.draws_mode = draws
        self.enumerate_draws = draws == "enumerate"
        self.anchor = anchor
        self.name = "rollout" if anchor == "best" else "rollout-policy"

    def _price(self, state: HandState, seat: int, cand: Candidate, seed: str, known: Mapping[int, Sequence[Tile]],
               worlds: int) -> float:
        got = price(View.of(state, seat), [cand], seed=seed, worlds=worlds,
                    known={k: list(v) for k, v in known.items()})
        return got[0].mean

    def position(self, state: HandState, seat: int, *, seed: str, known: Mapping[int, Sequence[Tile]],
                 discard: bool = False) -> float:
        if state.over:
            raise ValueError("a finished hand has no value to estimate")
        return self._price(state, seat, POLICY_DISCARD if discard else PLAY_ON, seed, known, self.worlds)

    def decision(self, hr: HandResult, spot: Spot, *, seed: str,
                 known: Mapping[int, Sequence[Tile]]) -> Decided | None:
        steps = hr.steps
        state = steps[spot.step].state
        kn = {k: list(v) for k, v in known.items()}
        c = grade_decision(state, spot.seat, spot.kind, list(spot.played), seed=seed, worlds=self.worlds,
                           known=kn, step=spot.step, line=spot.line)
        if c is None:
            return None
        w = c.worlds or self.worlds
        forced = c.forced is not None and c.forced != "identical"
        if self.anchor == "best":
            # the value before the decision is the best candidate's price: played minus the cost
            if forced:  # one legal move (or a take that cannot be kept): its own price
                v = self._price(state, spot.seat, _played(spot, state), seed, known, w)
                return Decided(v, v, 0.0, c.played, c.best)
            return Decided(c.expected_played - c.cost, c.expected_played, c.cost, c.played, c.best)
        cont = POLICY_DISCARD if spot.kind == "discard" else PLAY_ON
        before = self._price(state, spot.seat, cont, seed, known, w)
        if forced:
            # one legal move, or a take that cannot be kept: no choice, so the value after the
            # move is the value before it (what the policy plays there is that move)
            return Decided(before, before, 0.0, c.played, c.best)
        return Decided(before, c.expected_played, c.cost, c.played, c.best)

    def draws(self, before: HandState, after: HandState, seat: int, *, seed: str,
              known: Mapping[int, Sequence[Tile]]) -> tuple[dict[Tile, float], dict[Tile, float]]:
        odds = draw_odds(before, seat, known)
        vals = {t: self._price(after_draw(before, after, seat, t), seat, PLAY_ON, seed, known, self.draw_worlds)
                for t in odds}
        return vals, odds

    def baseline(self, state: HandState, seat: int) -> float:
        return deal_baseline(state.rules, (seat - state.starter) % 4, self.baseline_deals)


def _played(spot: Spot, state: HandState) -> Candidate:
    """The move the log played at ``spot`` as a candidate (a draw, a take, a placing, a discard)."""
    ev = [dict(e) for e in spot.played]
    if spot.kind == "take":
        if ev and ev[0].get("type") == "take":
            return take_candidate(spot.seat, Tile.parse(ev[0]["tile"]))
        return draw_candidate(spot.seat)
    if spot.kind == "discard" and ev:
        return discard_candidate(spot.seat, Tile.parse(ev[0]["tile"]))
    if spot.kind == "place":
        return place_candidate(tuple(ev), "played")
    return Candidate("show", tuple(ev), "show" if ev else "no show")


class QuickValues:
    """A cheap, deterministic value function for tests and checks: the points the seat holds (its
    rack's numbers, the okey 0) plus the penalties it has paid, read from its view alone. Exact to
    compute everywhere, including every outcome of a draw; a crude estimate of the hand score."""

    name = "quick"

    def position(self, state: HandState, seat: int, *, seed: str = "", known: Mapping[int, Sequence[Tile]] = {},
                 discard: bool = False) -> float:
        del seed, known, discard
        okey = state.okey
        pts = sum(0 if t == okey else (okey.number if t.is_joker else t.number) for t in state.racks[seat])
        return float(pts + sum(p.points for p in state.penalties if p.seat == seat))

    def decision(self, hr: HandResult, spot: Spot, *, seed: str,
                 known: Mapping[int, Sequence[Tile]]) -> Decided | None:
        steps = hr.steps
        state = steps[spot.step].state
        before = self.position(state, spot.seat)
        end = min(spot.step + len(spot.played), len(steps) - 1)
        st = steps[end].state
        after = self.position(st, spot.seat)
        if spot.kind == "discard":  # the best discard drops the highest tile: the cost is the gap to it
            okey = state.okey
            nums = [0 if t == okey else (okey.number if t.is_joker else t.number) for t in state.racks[spot.seat]]
            best = before - max(nums) if nums else before
            return Decided(best, after, max(0.0, after - best), "played", "highest")
        return Decided(before, after, max(0.0, after - before), "played", "played")

    def draws(self, before: HandState, after: HandState, seat: int, *, seed: str,
              known: Mapping[int, Sequence[Tile]]) -> tuple[dict[Tile, float], dict[Tile, float]]:
        odds = draw_odds(before, seat, known)
        return {t: self.position(after_draw(before, after, seat, t), seat) for t in odds}, odds

    def baseline(self, state: HandState, seat: int) -> float:
        return 0.0


# ---- the deal's mean value -----------------------------------------------------------------------


def deal_baseline(rules: Rules, place: int, deals: int = BASELINE_DEALS) -> float:
    """The mean hand score of the seat ``place`` seats after the starter over ``deals`` random
    deals, every seat played by the rollout model (its team's with partners): the expectation of
    the deal's value, a constant per preset and place. 0 without the compiled model."""
    return _baselines(rules, deals)[place]


@lru_cache(maxsize=64)
def _baselines(rules: Rules, deals: int) -> tuple[float, ...]:
    if fast.COMPILED is None:
        return (0.0, 0.0, 0.0, 0.0)
    rng = random.Random("luck-baseline")
    tiles = sorted(full_set().elements())
    total = [0, 0, 0, 0]
    n = 0
    for _ in range(deals):
        rng.shuffle(tiles)
        pool = list(tiles)
        ind = pool.pop()
        if ind.is_joker:
            continue
        racks = []
        pos = 0
        for s in range(4):
            k = rules.dealt_starter if s == 0 else rules.deal
            racks.append(tuple(pool[pos:pos + k]))
            pos += k
        st = new_hand(rules, 1, 0, ind, racks, pool[pos:])
        got = fast.play(fast.pack(st), fast.rack_bytes(st.racks, st.okey), fast.deck_bytes(st.deck or (), st.okey),
                        fast.MODE_PLAY)
        for p in range(4):
            total[p] += fast.seat_value(got[:4], p, rules)
        n += 1
    return tuple(t / n if n else 0.0 for t in total)


__all__ = ["ANCHORS", "BASELINE_DEALS", "DRAWS", "DRAW_WORLDS", "PLAY_ON", "POLICY_DISCARD", "Decided", "QuickValues",
           "RolloutValues", "Values", "after_draw", "deal_baseline", "draw_odds"]
