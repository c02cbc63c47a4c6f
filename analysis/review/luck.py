"""Luck and skill, hand by hand: one seat's hand score split into the deal, the luck of each chance
event, the cost of each of its own decisions and the estimation noise, from that seat's own view.

The construction is a control variate in the manner of AIVAT (Burch et al., 2018). Let ``v`` be a
value function of the seat's view: the expected hand score of the seat (its team's in partner
games, E4-E8 with in-game penalties; lower is better) from what it knows at that point. Along the
hand the seat's view passes through checkpoints; between two consecutive ones either

- a **chance event** happens — the tile the seat draws, or the other seats' play between its turns
  (their draws, takes, placings and discards as the seat sees them) — whose luck is
  ``v(observed) - E[v(outcome)]``, the expectation taken over the outcomes the seat could have seen,
  from its own view; or
- the seat **decides** (O7 show, take or draw, place, discard), whose cost is the deep review's:
  the played move's price minus the best candidate's on the same worlds, charged when its interval
  excludes zero (:func:`analysis.review.deep.grade_decision`, the same candidates and rule).

Writing ``actual = v(deal) + sum of the differences between consecutive checkpoints`` (the last one
being the hand's end, whose value is the actual score) and splitting every difference into its
luck or cost and what is left gives

    actual = deal + sum(luck) + sum(costs) + noise

exactly: ``noise`` is the sum of the leftovers, ``E[v(outcome)] - v(before)`` at each chance event
and ``v(after) - v(before) - cost`` at each decision, i.e. how far the value estimate is from being
consistent with itself (sampling error of the worlds, and the rollout policy's own move against the
played or best one). It is reported as a part of its own, never hidden in the others.

Why the luck-adjusted score ``actual - luck`` stays unbiased: each luck term is
``v(observed) - E[v(outcome)]``, the expectation over the outcomes' distribution from the seat's
view, so its mean is zero — however poor ``v`` is, a poor ``v`` only leaves more variance — as long
as that expectation is computed, or estimated without bias, with the same ``v``. What is exact and
what is estimated:

- **the seat's own draw**: from its view the drawn tile is any tile it has not seen (the 106 less
  its rack, the table, the discard piles, the indicator and the tiles it saw taken and still
  held), each copy alike. ``draws="enumerate"``: every distinct tile is valued with the same value
  function (the same seed for every outcome) and the expectation is their average weighted by the
  copies — exact for any ``v``. ``draws="sample"`` (the default, free): the expectation is the
  draw's own price, whose worlds each put a uniformly drawn unseen tile on the deck: a Monte Carlo
  average over the outcomes of the same rollout, unbiased for the rollout's value.
- **the other seats' play** between two of the seat's turns: estimated. Its outcomes (their hidden
  racks, draws and choices) cannot be enumerated; under the evaluator's model (hidden tiles dealt
  as its sampler deals them, every seat playing the rollout policy) the expected value after their
  play is the value after the seat's last move, which is used.
- **the deal**: its luck is ``v(deal)`` minus the mean of ``v`` over deals, estimated once per
  preset and place at the table (the starter or 1-3 seats after) from the model's own play of
  random deals (:func:`deal_baseline`): a constant, so it shifts every seat's adjusted score alike.

Where the seat decides, ``v`` is by default the best candidate's price (``anchor="best"``: the
played move's price less its cost, so a decision leaves no noise and its cost is exactly the
review's). The model's expectations of the other seats' play assume the seat will then play as the
rollout policy plays, which the best candidate beats, so with this anchor those luck terms lean
below zero by what the best move gains over the policy's (measured in ``bench/luck.py``, reported
in docs/luck.md). ``anchor="policy"`` values those points by the policy's own continuation: the
luck terms are then unbiased under the model and the gap shows up as noise instead, with far more
spread.

The value function is pluggable (:class:`Values`). The default, :class:`RolloutValues`, is the
evaluator: :func:`analysis.evaluate.price` on a fixed number of worlds with a seed fixed per
checkpoint of the seat's knowledge (``game:hand:luck:seat:k``, ``k`` counting the chance events seen
so far), so equal views get equal values and every checkpoint between two chance events is priced
on the same worlds (common random numbers: a decision's cost and the values before and after it
are paired differences). :class:`QuickValues` is a cheap, exact value function (the seat's rack
points) for tests and checks.

Only a seat whose rack is known can be split (a seat-view log: its viewer).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analysis.evaluate import PRICE_WORLDS
from analysis.game import HIDDEN, GameResult, HandResult, HandState, Rules, Tile
from analysis.game.stats import mean_interval

from .grade import graded_seats
from .luck_values import (ANCHORS, BASELINE_DEALS, DRAW_WORLDS, DRAWS, PLAY_ON, POLICY_DISCARD, Decided, QuickValues,
                          RolloutValues, Values, after_draw, deal_baseline, draw_odds)
from .spots import hand_spots, known, seed_game, taken_held

LUCK_VERSION = "2"  # what a stored split was made by: bump when the construction changes (2: the best-candidate anchor, sampled draws)


# ---- the parts -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LuckEvent:
    """One chance event's luck for the seat: ``observed - expected`` (points; negative is good
    luck, as a lower score is better). ``kind``: ``draw`` (the seat's own draw, enumerated over
    ``outcomes`` distinct tiles), ``play`` (the other seats' play before the seat's decision at
    ``step``) or ``end`` (the rest of the hand after the seat's last decision, and the hidden racks
    at its end)."""

    step: int
    kind: str
    points: float
    observed: float
    expected: float
    outcomes: int = 0  # distinct outcomes enumerated (0: the expectation is estimated)
    tile: str | None = None  # the tile drawn (draw)

    def to_dict(self) -> dict[str, Any]:
        d = {"step": self.step, "kind": self.kind, "points": round(self.points, 4),
             "observed": round(self.observed, 4), "expected": round(self.expected, 4), "outcomes": self.outcomes}
        if self.tile is not None:
            d["tile"] = self.tile
        return d


@dataclass(frozen=True, slots=True)
class DecisionCost:
    """One decision of the seat: ``points`` = the played move's price minus the best candidate's
    (0 when the difference is within its interval), as the deep review charges it."""

    step: int
    kind: str  # show, take, place, discard
    points: float
    played: str
    best: str
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "kind": self.kind, "points": round(self.points, 4), "played": self.played,
                "best": self.best, "line": self.line}


@dataclass(frozen=True, slots=True)
class NoisePart:
    """Where the value estimate was inconsistent with itself: ``at`` a decision (``decision:KIND``:
    its value before and after it, less its cost), a draw (the enumerated expectation less the value before) or a
    checkpoint (two values of the same knowledge)."""

    step: int
    at: str
    points: float

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "at": self.at, "points": round(self.points, 4)}


@dataclass(frozen=True)
class HandSplit:
    """One seat's hand score split from its own view: ``deal + sum(luck) + sum(decisions) + noise
    == actual`` (exactly, up to float rounding). ``baseline``: the mean value of a deal for this
    seat's place at the table (:func:`deal_baseline`); the deal's own luck is ``deal - baseline``."""

    game: str
    hand: int  # the hand's number in the game
    index: int  # its position in the replayed game's hands
    seat: int
    player: str
    variant: str
    deal: float
    baseline: float
    luck: tuple[LuckEvent, ...]
    decisions: tuple[DecisionCost, ...]
    noise: float
    actual: float
    noise_parts: tuple[NoisePart, ...] = ()
    worlds: int = 0
    values: str = "rollout"

    @property
    def deal_luck(self) -> float:
        return self.deal - self.baseline

    @property
    def luck_total(self) -> float:
        """Every luck term: the deal's and each chance event's."""
        return self.deal_luck + sum(e.points for e in self.luck)

    @property
    def cost(self) -> float:
        return sum(d.points for d in self.decisions)

    @property
    def skill(self) -> float:
        """Minus the decisions' costs: 0 is the best play the evaluator knows, lower is worse."""
        return -self.cost

    @property
    def adjusted(self) -> float:
        """The luck-adjusted score: the actual score less every luck term (``baseline + costs +
        noise``): the same expectation as the actual score, far less spread."""
        return self.actual - self.luck_total

    def residual(self) -> float:
        """``actual`` less the sum of the parts: 0 up to float rounding."""
        return self.actual - (self.deal + sum(e.points for e in self.luck) + self.cost + self.noise)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandSplit:
        """A split back from :meth:`to_dict` (its parts rounded to 1e-4 there; the noise is taken
        again as what the rounded parts leave, so they still add up to the actual score)."""
        luck = tuple(LuckEvent(e["step"], e["kind"], e["points"], e["observed"], e["expected"], e.get("outcomes", 0),
                               e.get("tile")) for e in d["luck"])
        decs = tuple(DecisionCost(x["step"], x["kind"], x["points"], x["played"], x["best"], x.get("line", 0))
                     for x in d["decisions"])
        noise = tuple(NoisePart(x["step"], x["at"], x["points"]) for x in d.get("noise_parts", ()))
        actual = float(d["actual"])
        rest = actual - (d["deal"] + sum(e.points for e in luck) + sum(x.points for x in decs))
        return cls(d["game"], d["hand"], d["index"], d["seat"], d["player"], d["variant"], d["deal"], d["baseline"],
                   luck, decs, rest, actual, noise, d.get("worlds", 0), d.get("values", "rollout"))

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "hand": self.hand, "index": self.index, "seat": self.seat, "player": self.player,
                "variant": self.variant, "deal": round(self.deal, 4), "baseline": round(self.baseline, 4),
                "deal_luck": round(self.deal_luck, 4), "luck": [e.to_dict() for e in self.luck],
                "decisions": [d.to_dict() for d in self.decisions], "noise": round(self.noise, 4),
                "noise_parts": [n.to_dict() for n in self.noise_parts], "actual": self.actual,
                "luck_total": round(self.luck_total, 4), "skill": round(self.skill, 4),
                "adjusted": round(self.adjusted, 4), "worlds": self.worlds, "values": self.values}


# ---- the split -----------------------------------------------------------------------------------


def actual_score(hr: HandResult, seat: int, rules: Rules | None) -> int:
    """The seat's hand score as the evaluator values it: its score and penalties, its team's with
    partners (G4); 0 for a void hand (E3)."""
    if hr.result == "void":
        return 0
    t = hr.totals()
    v = t[seat]
    if rules is not None and rules.esli:
        v += t[(seat + 2) % 4]
    return v


def _own_draw(steps: Sequence[Any], i: int, seat: int) -> bool:
    ev = steps[i].event
    return ev.get("type") == "draw" and ev.get("seat") == seat


def _drawn(before: HandState, after: HandState, seat: int) -> Tile | None:
    c = Counter(after.racks[seat])
    c.subtract(before.racks[seat])
    got = [t for t, k in c.items() if k > 0]
    return got[0] if len(got) == 1 else None


def split_hand(game: GameResult, hand_index: int, seat: int, *, worlds: int = PRICE_WORLDS,
               seed: str | None = None, values: Values | None = None,
               draw_worlds: int = DRAW_WORLDS, draws: str = "sample", anchor: str = "best") -> HandSplit:
    """Split seat ``seat``'s score in hand ``game.hands[hand_index]`` (0-based; the game replayed
    with its steps) from its own view: the deal, the luck of each chance event, the cost of each of
    its decisions and the estimation noise, adding up to the actual score exactly.

    ``worlds``: the fixed worlds each value and decision is priced on (the deep review's 64 by
    default); ``draws``: how a draw's expectation is taken (:data:`DRAWS`: ``sample``, the draw's
    own price, or ``enumerate``, every tile it could have drawn priced on ``draw_worlds`` worlds);
    ``anchor``: the value where the seat decides (:data:`ANCHORS`: ``best``, the best candidate's
    price, or ``policy``, the rollout policy's continuation); ``seed``: the worlds'
    seed (default the game's, as the deep review's); ``values``: another value function
    (:class:`Values`; default :class:`RolloutValues` with these worlds). Raises ValueError for a
    hand that did not end, has no steps, or a seat whose rack the log hides."""
    if not 0 <= hand_index < len(game.hands):
        raise ValueError(f"hand index {hand_index} is out of range: the game has {len(game.hands)} hands")
    if seat not in range(4):
        raise ValueError(f"seat must be 0-3, got {seat}")
    hr = game.hands[hand_index]
    steps = hr.steps
    if not steps:
        raise ValueError(f"hand {hr.hand}: no replay steps (replay the game with keep_steps=True)")
    if not hr.valid or hr.result not in ("finish", "exhausted", "void") or not steps[-1].state.over:
        raise ValueError(f"hand {hr.hand}: the hand did not end ({hr.result}), so it has no score to split")
    if HIDDEN in steps[0].state.racks[seat]:
        raise ValueError(f"hand {hr.hand}: seat {seat}'s rack is hidden in this log; only the viewing seat can be split")
    vals: Values = values if values is not None else RolloutValues(worlds, draw_worlds, draws=draws, anchor=anchor)
    gseed = seed if seed is not None else seed_game(game)
    held = taken_held(steps)
    spots = [sp for turn in hand_spots(hr, frozenset((seat,))) for sp in turn]
    k = 0

    def sd() -> str:
        return f"{gseed}:{hr.hand}:luck:{seat}:{k}"

    first = steps[0].state
    deal = vals.position(first, seat, seed=sd(), known=known(held, 0, seat))
    baseline = vals.baseline(first, seat)
    luck: list[LuckEvent] = []
    costs: list[DecisionCost] = []
    noise: list[NoisePart] = []
    prev = deal  # the value at the last checkpoint
    at = 0  # the last step whose event the split has accounted for
    pending_draw: int | None = None  # the state step before the seat's own draw, once it chose to draw
    drawn_at: tuple[int, str | None] | None = None  # an own draw whose expectation was the draw's price
    enumerate_draws = getattr(vals, "enumerate_draws", True)
    for sp in spots:
        if pending_draw is not None and sp.step >= pending_draw + 1 and _own_draw(steps, pending_draw + 1, seat):
            # the seat's draw: the tile is chance
            b = steps[pending_draw].state
            k += 1
            t = _drawn(b, steps[pending_draw + 1].state, seat)
            if enumerate_draws:  # over every tile it could have drawn
                kn = known(held, pending_draw + 1, seat)
                outcome, odds = vals.draws(b, steps[pending_draw + 1].state, seat, seed=sd(), known=kn)
                if t is not None and t in outcome:
                    exp = sum(odds[x] * outcome[x] for x in odds)
                    obs = outcome[t]
                    luck.append(LuckEvent(pending_draw + 1, "draw", obs - exp, obs, exp, len(odds), str(t)))
                    noise.append(NoisePart(pending_draw + 1, "draw", exp - prev))
                    prev = obs
            else:  # the draw's own price is the expectation: the value at the next decision observes it
                drawn_at = (pending_draw + 1, None if t is None else str(t))
            at = pending_draw + 1
        pending_draw = None
        between = [steps[i].event for i in range(at + 1, sp.step + 1)]
        others = any(e.get("seat") != seat for e in between)
        if others:
            k += 1
        kn = known(held, sp.step, seat)
        d = vals.decision(hr, sp, seed=sd(), known=kn)
        if d is None:
            continue
        if others:
            luck.append(LuckEvent(sp.step, "play", d.before - prev, d.before, prev))
        elif drawn_at is not None:
            luck.append(LuckEvent(drawn_at[0], "draw", d.before - prev, d.before, prev, 0, drawn_at[1]))
        elif abs(d.before - prev) > 0:
            noise.append(NoisePart(sp.step, "checkpoint", d.before - prev))
        drawn_at = None
        costs.append(DecisionCost(sp.step, sp.kind, d.cost, d.played, d.best, sp.line))
        if d.after - d.before - d.cost:
            noise.append(NoisePart(sp.step, f"decision:{sp.kind}", d.after - d.before - d.cost))
        prev = d.after
        at = sp.step + len(sp.played)
        if sp.kind == "take" and sp.played and sp.played[0].get("type") == "draw":
            pending_draw = sp.step
            at = sp.step  # the draw's event is the chance event's, accounted for above
    actual = float(actual_score(hr, seat, game.rules))
    luck.append(LuckEvent(len(steps) - 1, "end", actual - prev, actual, prev))
    lsum = sum(e.points for e in luck)
    csum = sum(c.points for c in costs)
    rest = actual - (deal + lsum + csum)
    players = list(game.players) + [f"#{i}" for i in range(len(game.players), 4)]
    return HandSplit(game.game, hr.hand, hand_index, seat, players[seat], game.variant, deal, baseline,
                     tuple(luck), tuple(costs), rest, actual, tuple(noise),
                     getattr(vals, "worlds", 0), getattr(vals, "name", type(vals).__name__))


def split_game(game: GameResult, *, seats: Iterable[int] | None = None, worlds: int = PRICE_WORLDS,
               seed: str | None = None, values: Values | None = None, draw_worlds: int = DRAW_WORLDS,
               draws: str = "sample", anchor: str = "best",
               progress: Callable[[int, int], None] | None = None) -> list[HandSplit]:
    """Every ended hand of a replayed game split for each seat (``seats``; default every seat whose
    rack is known: a seat-view log's viewer only)."""
    graded = graded_seats(game)
    want = sorted(set(seats) if seats is not None else (set(graded) if graded is not None else {0, 1, 2, 3}))
    vals = values if values is not None else RolloutValues(worlds, draw_worlds, draws=draws, anchor=anchor)
    jobs = [(i, s) for i, hr in enumerate(game.hands) if hr.steps and hr.valid
            and hr.result in ("finish", "exhausted", "void") for s in want
            if HIDDEN not in hr.steps[0].state.racks[s]]
    out = []
    for n, (i, s) in enumerate(jobs, 1):
        out.append(split_hand(game, i, s, worlds=worlds, seed=seed, values=vals, draw_worlds=draw_worlds))
        if progress is not None:
            progress(n, len(jobs))
    return out


# ---- the skill line ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SkillPoint:
    """One game on a player's skill line: its hands' mean luck-adjusted and raw points per hand,
    and the running mean of every hand so far with its 95% interval (lower is better)."""

    game: str
    hands: int
    adjusted: float  # this game's luck-adjusted points per hand
    raw: float  # this game's actual points per hand
    skill: float  # this game's minus decision costs per hand
    total_hands: int  # hands so far
    mean: float  # running luck-adjusted points per hand
    low: float
    high: float
    raw_mean: float  # running actual points per hand
    raw_low: float
    raw_high: float

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in
                ((f, getattr(self, f)) for f in self.__slots__)}


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% Student t interval (the interval is the mean alone for one value, so that
    a skill line's first point is drawn)."""
    if len(xs) == 1:
        return (xs[0], xs[0], xs[0])
    return mean_interval(xs)


def skill_line(splits: Sequence[HandSplit]) -> list[SkillPoint]:
    """The skill line over ``splits`` (in the order given, grouped by game in order of first
    appearance): per game its luck-adjusted and raw points per hand, and the running mean over
    every hand so far with its 95% interval. The last point's interval is the player's."""
    order: list[str] = []
    by: dict[str, list[HandSplit]] = {}
    for s in splits:
        if s.game not in by:
            order.append(s.game)
            by[s.game] = []
        by[s.game].append(s)
    out: list[SkillPoint] = []
    adj: list[float] = []
    raw: list[float] = []
    for g in order:
        hs = by[g]
        adj += [h.adjusted for h in hs]
        raw += [h.actual for h in hs]
        m, lo, hi = mean_ci(adj)
        rm, rlo, rhi = mean_ci(raw)
        n = len(hs)
        out.append(SkillPoint(g, n, sum(h.adjusted for h in hs) / n, sum(h.actual for h in hs) / n,
                              sum(h.skill for h in hs) / n, len(adj), m, lo, hi, rm, rlo, rhi))
    return out


def skill_summary(splits: Sequence[HandSplit]) -> dict[str, Any]:
    """The player's skill line in one dict: luck-adjusted and raw points per hand with their 95%
    intervals, the decisions' cost per hand, the hands counted, and the line per game."""
    adj = mean_ci([s.adjusted for s in splits])
    raw = mean_ci([s.actual for s in splits])
    cost = mean_ci([s.cost for s in splits])
    luck = mean_ci([s.luck_total for s in splits])
    noise = mean_ci([s.noise for s in splits])

    def r(t: tuple[float, float, float]) -> dict[str, float | None]:
        return {"mean": _r(t[0]), "low": _r(t[1]), "high": _r(t[2])}

    return {"hands": len(splits), "games": len({s.game for s in splits}), "adjusted": r(adj), "raw": r(raw),
            "cost": r(cost), "luck": r(luck), "noise": r(noise),
            "line": [p.to_dict() for p in skill_line(splits)]}


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 2)


__all__ = ["ANCHORS", "BASELINE_DEALS", "DRAWS", "DRAW_WORLDS", "LUCK_VERSION", "PLAY_ON", "POLICY_DISCARD", "Decided", "DecisionCost", "HandSplit", "LuckEvent", "NoisePart",
           "QuickValues", "RolloutValues", "SkillPoint", "Values", "actual_score", "after_draw", "deal_baseline",
           "draw_odds", "mean_ci", "skill_line", "skill_summary", "split_game", "split_hand"]
