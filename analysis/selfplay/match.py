"""Duplicate matches: bot A against bot B on the same deals.

Each deal is one hand, played five times from the same shuffle and starter: once with four B
seats, and once with A in each seat among three B. The paired difference for a hand-seat is
A's hand score in that seat minus B's hand score in the same seat of the all-B table (hand-end
score plus in-game penalties; the team's in partner games). The 95% interval of the mean
difference is taken over deals (the four hand-seats of one deal share the tiles, so a deal is
the independent unit): mean of the per-deal means ± t × their standard error.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from analysis.evaluate import Evaluation, ExpertBot
from analysis.game import HandState, process_pool
from analysis.game.stats import mean_interval, t975
from analysis.players import View

from .simulate import GameSpec, Player, play_game

def paired_ci(diffs: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the 95% t-interval of the mean of paired differences."""
    return mean_interval(diffs)


@dataclass(frozen=True, slots=True)
class DealResult:
    deal: int
    a: tuple[int, ...]  # A's hand score in seat k (A alone in seat k)
    b: tuple[int, ...]  # the all-B table's hand score in seat k
    refused: int = 0  # bot moves the engine refused over the five tables
    # the evaluator's expected score at each decision A acted on, per seat (calibration; empty
    # when A does not evaluate)
    pred: tuple[tuple[float, ...], ...] = ()


def _hand_scores(spec: GameSpec) -> tuple[tuple[int, ...], int]:
    """Each seat's hand score (E4-E8 plus in-game penalties; the team's in partner games), and the
    bot moves the engine refused."""
    rec = play_game(spec)
    return hand_scores(rec), rec.refused


def hand_scores(rec: Any) -> tuple[int, ...]:
    """Each seat's score in the last hand a game record (``play_game``) played: E4-E8 plus its
    in-game penalties; the team's in partner games."""
    return final_scores(rec.finals[-1])


def final_scores(f: HandState) -> tuple[int, ...]:
    """Each seat's score in a hand's last state: E4-E8 plus its in-game penalties; the team's in
    partner games."""
    pts = list(f.scores or (0, 0, 0, 0))
    for p in f.penalties:
        pts[p.seat] += p.points
    if f.rules.esli:
        pts = [pts[k] + pts[(k + 2) % 4] for k in range(4)]
    return tuple(pts)


def deal_spec(bots: Sequence[str], variant: str, seed: str, deal: int,
              rules: Mapping[str, Any] | None = None) -> GameSpec:
    """Deal ``deal`` of a match of seed ``seed``, one hand, played by ``bots`` in seat order: the
    game name and seed fix the shuffle, the starter and the bots' seeds, whoever plays."""
    return GameSpec(f"match-{deal}", tuple(Player(f"P{k}", x) for k, x in enumerate(bots)), variant,
                    dict(rules) if rules else None, f"match:{seed}", hands=1)


def play_deal(args: tuple[str, str, str, Mapping[str, Any] | None, str, int]) -> DealResult:
    """One deal five times: four B seats, then A in each seat among three B (same shuffle, starter
    and bot seeds: :func:`deal_spec`)."""
    a, b, variant, rules, seed, deal = args

    def spec(bots: Sequence[str]) -> GameSpec:
        return deal_spec(bots, variant, seed, deal, rules)

    base, refused = _hand_scores(spec((b,) * 4))
    mine = []
    preds: list[tuple[float, ...]] = []
    for k in range(4):
        bots = [b] * 4
        bots[k] = a
        got: list[float] = []

        def sink(v: View, what: str, e: Evaluation, k: int = k, got: list[float] = got) -> None:
            if v.seat == k:
                got.append(e.mean)

        old, ExpertBot.sink = ExpertBot.sink, sink
        try:
            sc, n = _hand_scores(spec(bots))
        finally:
            ExpertBot.sink = old
        refused += n
        mine.append(sc[k])
        preds.append(tuple(got))
    return DealResult(deal, tuple(mine), base, refused, tuple(preds) if any(preds) else ())


Mapper = Callable[[Callable[[Any], DealResult], Sequence[Any]], Iterable[DealResult]]


def deals_of(a: str, b: str, *, variant: str = "101", rules: Mapping[str, Any] | None = None, n: int = 100,
          seed: int | str = 0, jobs: int = 1, mapper: Mapper | None = None) -> Iterator[DealResult]:
    """The deals in order; ``mapper(fn, work)`` plays them elsewhere (``istaka match --cluster``
    passes a Dask cluster's map): a deal depends only on its (bots, rules, seed, number)."""
    work = [(a, b, variant, rules, str(seed), i) for i in range(n)]
    if mapper is not None:
        yield from mapper(play_deal, work)
    elif jobs > 1 and n > 1:
        with process_pool(jobs) as ex:
            yield from ex.map(play_deal, work, chunksize=1)
    else:
        yield from map(play_deal, work)


def summarize(a: str, b: str, variant: str, results: Sequence[DealResult], seconds: float) -> dict[str, Any]:
    """Means per bot over the paired hand-seats, the mean difference A-B and its 95% interval
    (over deals: the per-deal mean of the four paired differences is the unit)."""
    av = [x for r in results for x in r.a]
    bv = [x for r in results for x in r.b]
    per_deal = [sum(x - y for x, y in zip(r.a, r.b)) / 4 for r in results]
    m, lo, hi = paired_ci(per_deal)
    mean = (lambda v: sum(v) / len(v) if v else math.nan)
    return {"variant": variant, "deals": len(results), "hands": len(av), "refused": sum(r.refused for r in results),
            "bots": {"A": {"name": a, "mean": mean(av), "hands": len(av)},
                     "B": {"name": b, "mean": mean(bv), "hands": len(bv)}},
            "diff": m, "ci95": [lo, hi], "seconds": round(seconds, 2)}


def match(a: str, b: str, *, variant: str = "101", rules: Mapping[str, Any] | None = None, n: int = 100,
          seed: int | str = 0, jobs: int = 1, mapper: Mapper | None = None,
          out: IO[str] | None = None) -> dict[str, Any]:
    """A duplicate match of ``n`` deals: the summary ``istaka match --json`` prints. ``out``: each
    deal's scores as a JSON line, written as the deal ends (a long match can be read while it runs)."""
    t0 = time.perf_counter()
    res = []
    for r in deals_of(a, b, variant=variant, rules=rules, n=n, seed=seed, jobs=jobs, mapper=mapper):
        res.append(r)
        if out is not None:
            line = {"deal": r.deal, "a": list(r.a), "b": list(r.b), "refused": r.refused}
            if r.pred:
                line["pred"] = [[round(x, 2) for x in p] for p in r.pred]
            out.write(json.dumps(line) + "\n")
            out.flush()
    return summarize(a, b, variant, res, time.perf_counter() - t0)


__all__ = ["DealResult", "deal_spec", "deals_of", "final_scores", "hand_scores", "match", "paired_ci", "play_deal", "summarize", "t975"]
