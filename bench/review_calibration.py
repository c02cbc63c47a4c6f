"""Is the deep review's cost a player's real loss? (docs/calibration.md, "Review costs against real losses").

For each bot X in ``--bots`` the same deals are played as a duplicate match against ``expert``.
In the first design (``--opponents same``; analysis.selfplay.match: four X seats, then the expert
alone in each seat among three X) the all-X table of every deal is deep-reviewed; the default
design is below. A deal gives four paired hand-seats. Per bot it prints, with 95% intervals over
deals:

- **lost**: the points per hand-seat X actually loses to the expert on the same deal and seat
  (X's hand score minus the expert's in that seat);
- **cost**: X's mean deep-review cost per hand-seat (expected points lost, summed over its
  decisions of the hand), the paired difference cost - lost on the same deals, and the ratio
  cost / lost (target: within 15%);
- **accuracy**: the share of X's graded decisions (forced ones left out) played at the best.

The expert's own tables (four expert seats) are reviewed on ``--expert-deals`` deals: its cost per
hand (target <= 5) and accuracy. Accuracy should order random < greedy < solver < expert. The
review charges every move against the best one it finds, and the expert is charged too; on the
deals where the expert's table was reviewed, a second table sets X's cost minus the expert's own
cost in the same seat of the same deal (what the review says X loses to the expert) against the
points X did lose to it.

``--opponents expert`` (the default since 2026-12-04) plays the other duplicate design: X alone
in each seat among three experts, against the all-expert table of the same deal (four paired
hand-seats a deal, X's seat reviewed at each of its four tables). The review prices every
decision as if the other seats played the evaluator's own policy (its rollouts cannot know who
sits there); this design gives X exactly those opponents, so cost and loss measure the same
thing. With ``--opponents same`` (the first design, above) X's opponents are copies of X, which
the rollouts do not model (among weak bots a hand likely lasts longer, so a slow rack costs less
than the review charges; not measured apart).

The deals of the bots are interleaved (deal 0 of every bot, then deal 1 ...), so a run stopped by
``--minutes`` (no new deal is started after that much wall time) has about as many deals for each
bot; a summary is printed every ``--every`` deals, and ``--out`` keeps one JSON line per deal.
``--summarize A.jsonl B.jsonl ...`` plays nothing and prints the tables of such files read
together (a bot's run and an expert run of the same deals, seed and design).

    python bench/review_calibration.py [--deals N] [--bots random,greedy,solver] [--variant 101]
        [--opponents same|expert] [--jobs 2] [--expert-deals K] [--minutes M] [--every E]
        [--out deals.jsonl]
    python bench/review_calibration.py --summarize deals.jsonl more.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.evaluate import core  # noqa: E402
from analysis.evaluate.belief import BELIEFS  # noqa: E402
from analysis.game import process_pool, replay_game  # noqa: E402
from analysis.game.log import read_lines  # noqa: E402
from analysis.review.deep import deep_review_game, deep_review_hand  # noqa: E402
from analysis.selfplay import play_game  # noqa: E402
from analysis.selfplay.match import deal_spec, hand_scores, paired_ci, play_deal  # noqa: E402


@contextmanager
def _judged_by(belief: str | None) -> Iterator[None]:
    """The deep review's worlds sampled by ``belief`` (None: the evaluator's default) while the
    table itself plays as it always does (its experts on the default)."""
    old = core.BELIEF
    core.BELIEF = belief or old
    try:
        yield
    finally:
        core.BELIEF = old


def _by_kind(cs: list[Any], into: dict[str, float]) -> None:
    """Add the graded choices' costs to ``into`` by decision kind (take, place, discard, show)."""
    for c in cs:
        into[c.kind] = into.get(c.kind, 0.0) + c.cost


def _review(bots: tuple[str, ...], variant: str, seed: str, deal: int, belief: str | None = None,
            kinds: dict[str, float] | None = None) -> list[tuple[float, int, int]]:
    """(cost, graded decisions, graded decisions at the best) per seat of the deal's table of
    ``bots``; the costs are also added to ``kinds`` by decision kind."""
    rec = play_game(deal_spec(bots, variant, seed, deal))
    rr = read_lines(rec.lines())
    res = replay_game(rr.games[0], keep_steps=True)
    with _judged_by(belief):
        gr = deep_review_game(res)
    out = []
    for s in range(4):
        cs = [c for d in gr.decisions if d.seat == s for c in d.choices if c.graded]
        out.append((sum(c.cost for c in cs), len(cs), sum(1 for c in cs if c.cost == 0)))
        if kinds is not None:
            _by_kind(cs, kinds)
    return out


def _seat_alone(bot: str, variant: str, seed: str, deal: int, seat: int, belief: str | None = None,
                kinds: dict[str, float] | None = None) -> tuple[int, tuple[float, int, int]]:
    """``bot`` alone in ``seat`` among three experts on the deal: its hand score, and (cost, graded
    decisions, graded decisions at the best) of its seat's deep review; the costs are also added
    to ``kinds`` by decision kind."""
    rec = play_game(deal_spec(tuple(bot if k == seat else "expert" for k in range(4)), variant, seed, deal))
    res = replay_game(read_lines(rec.lines()).games[0], keep_steps=True)
    hr = next(h for h in res.hands if h.steps)
    with _judged_by(belief):
        hand = deep_review_hand(res.game, hr, 1, seats=frozenset((seat,)))
    cs = [c for d in hand.decisions if d.seat == seat for c in d.choices if c.graded]
    if kinds is not None:
        _by_kind(cs, kinds)
    return hand_scores(rec)[seat], (sum(c.cost for c in cs), len(cs), sum(1 for c in cs if c.cost == 0))


def _task(args: tuple[str, str, str, int, str, str | None]) -> dict[str, Any]:
    bot, variant, seed, deal, opponents, belief = args
    t0 = time.process_time()
    kinds: dict[str, float] = {}  # the deal's reviewed cost by decision kind, over its four hand-seats
    if opponents == "expert" and bot != "expert":
        base = hand_scores(play_game(deal_spec(("expert",) * 4, variant, seed, deal)))
        alone = [_seat_alone(bot, variant, seed, deal, s, belief, kinds) for s in range(4)]
        return {"bot": bot, "deal": deal, "lost": [x - b for (x, _), b in zip(alone, base)],
                "review": [r for _, r in alone], "kinds": kinds, "cpu": time.process_time() - t0}
    if bot == "expert":
        return {"bot": bot, "deal": deal, "review": _review(("expert",) * 4, variant, seed, deal, belief, kinds),
                "kinds": kinds, "cpu": time.process_time() - t0}
    d = play_deal(("expert", bot, variant, None, seed, deal))
    return {"bot": bot, "deal": deal, "lost": [b - a for a, b in zip(d.a, d.b)],
            "review": _review((bot,) * 4, variant, seed, deal, belief, kinds), "kinds": kinds,
            "cpu": time.process_time() - t0}


def _fmt(m: float, lo: float, hi: float) -> str:
    if math.isinf(lo) or math.isnan(lo):
        return f"{m:7.1f}"
    return f"{m:7.1f} [{lo:6.1f}, {hi:6.1f}]"


def summary(results: list[dict[str, Any]], bots: list[str], wall: float) -> list[str]:
    """The table of the deals done so far; with the expert's own tables reviewed on some of the
    same deals, a second table sets each bot's cost beside the expert's on those deals."""
    cpu = sum(r["cpu"] for r in results)
    out = [f"{len(results)} tasks, {wall:.0f} s wall, {cpu:.0f} s CPU, load {os.getloadavg()[0]:.1f}",
           f"{'bot':8} {'deals':>5} {'hand-seats':>10} {'lost to expert / hand':>26} {'deep cost / hand':>26}"
           f" {'cost - lost':>26} {'cost/lost':>9} {'':12} {'accuracy':>9}"]
    for b in bots + ["expert"]:
        rs = [r for r in results if r["bot"] == b]
        if not rs:
            continue
        cost_deal = [sum(c for c, _, _ in r["review"]) / 4 for r in rs]
        graded = sum(g for r in rs for _, g, _ in r["review"])
        at_best = sum(k for r in rs for _, _, k in r["review"])
        acc = 100.0 * at_best / graded if graded else math.nan
        cm, clo, chi = paired_ci(cost_deal)
        if b == "expert":
            out.append(f"{b:8} {len(rs):5} {4 * len(rs):10} {'':>26} {_fmt(cm, clo, chi):>26} {'':>26} {'':>9}"
                       f" {'':12} {acc:8.1f}%   target cost <= 5")
            continue
        lost_deal = [sum(r["lost"]) / 4 for r in rs]
        out.append(f"{b:8} {len(rs):5} {4 * len(rs):10} " + _against(cost_deal, lost_deal) + f" {acc:8.1f}%")
    out += _kinds(results, bots)
    out += _beside_expert(results, bots)
    return out


def _kinds(results: list[dict[str, Any]], bots: list[str]) -> list[str]:
    """Each player's reviewed cost per hand-seat by decision kind (deals recorded without it are
    left out)."""
    rows = []
    for b in bots + ["expert"]:
        rs = [r for r in results if r["bot"] == b and "kinds" in r]
        if rs:
            tot: dict[str, float] = {}
            for r in rs:
                for k, v in r["kinds"].items():
                    tot[k] = tot.get(k, 0.0) + v
            by = ", ".join(f"{k} {tot.get(k, 0.0) / (4 * len(rs)):.1f}" for k in ("take", "place", "discard", "show"))
            rows.append(f"{b:8} {len(rs):5} {4 * len(rs):10} {by}")
    return ["cost per hand-seat by decision kind:", *rows] if rows else []


def _against(cost_deal: list[float], lost_deal: list[float]) -> str:
    """lost, cost, cost - lost (95% intervals over deals), cost / lost and the 15% verdict."""
    lm, llo, lhi = paired_ci(lost_deal)
    cm, clo, chi = paired_ci(cost_deal)
    dm, dlo, dhi = paired_ci([c - x for c, x in zip(cost_deal, lost_deal)])
    ratio = cm / lm if lm else math.nan
    ok = "ok" if lm > 0 and abs(ratio - 1) <= 0.15 else "MISSED"
    return (f"{_fmt(lm, llo, lhi):>26} {_fmt(cm, clo, chi):>26} {_fmt(dm, dlo, dhi):>26} {ratio:9.2f}"
            f" {ok:>6} (15%)")


def _beside_expert(results: list[dict[str, Any]], bots: list[str]) -> list[str]:
    """The review charges a decision against the best move it finds, not against the expert's: the
    expert too is charged (its own tables' cost). On the deals where both were reviewed, a bot's
    cost minus the expert's cost in the same seat of the same deal is what the review says the bot
    loses to the expert; it is set against the points it did lose."""
    ex = {r["deal"]: [c for c, _, _ in r["review"]] for r in results if r["bot"] == "expert"}
    rows = []
    for b in bots:
        rs = [r for r in results if r["bot"] == b and r["deal"] in ex]
        if not rs:
            continue
        gap = [sum(c - e for (c, _, _), e in zip(r["review"], ex[r["deal"]])) / 4 for r in rs]
        lost = [sum(r["lost"]) / 4 for r in rs]
        em, elo, ehi = paired_ci([sum(ex[r["deal"]]) / 4 for r in rs])
        rows.append(f"{b:8} {len(rs):5} {4 * len(rs):10} " + _against(gap, lost)
                    + f"   expert's own {_fmt(em, elo, ehi)}")
    if not rows:
        return []
    return ["cost minus the expert's own cost, same deals and seats:",
            f"{'bot':8} {'deals':>5} {'hand-seats':>10} {'lost to expert / hand':>26} {'cost - expert cost':>26}"
            f" {'(cost - expert) - lost':>26} {'ratio':>9}", *rows]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--bots", default="random,greedy,solver")
    ap.add_argument("--variant", default="101")
    ap.add_argument("--seed", default="calib")
    ap.add_argument("--opponents", choices=("same", "expert"), default="expert",
                    help="X's opponents: experts (the opponents the review's rollouts play) or copies of X")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--review-belief", choices=BELIEFS, default=None,
                    help="sample the review's worlds so (the tables still play on the evaluator's default)")
    ap.add_argument("--expert-deals", type=int, default=None, help="deals for the expert's own tables")
    ap.add_argument("--minutes", type=float, default=None, help="start no deal after this much wall time")
    ap.add_argument("--every", type=int, default=25, help="print the table every this many tasks")
    ap.add_argument("--out", default=None, help="one JSON line per deal")
    ap.add_argument("--summarize", nargs="+", metavar="DEALS.jsonl",
                    help="play nothing: the tables of earlier runs' --out files, read together")
    a = ap.parse_args()
    bots = a.bots.split(",")
    if a.summarize:
        done = [json.loads(x) for f in a.summarize for x in Path(f).read_text(encoding="utf-8").splitlines() if x]
        bots = list(dict.fromkeys(r["bot"] for r in done if r["bot"] != "expert"))
        print("\n".join(summary(done, bots, 0.0)))
        return
    ne = a.deals if a.expert_deals is None else a.expert_deals
    work = []
    for i in range(max(a.deals, ne)):
        work += [(b, a.variant, a.seed, i, a.opponents, a.review_belief) for b in bots if i < a.deals]
        if i < ne:
            work.append(("expert", a.variant, a.seed, i, a.opponents, a.review_belief))
    print(f"deep review against duplicate matches with the expert, {a.variant}, seed {a.seed}, one hand a deal, "
          f"opponents {'copies of the bot' if a.opponents == 'same' else 'three experts'}; "
          f"up to {a.deals} deals per bot, {ne} expert tables, jobs {a.jobs}", flush=True)
    t0 = time.perf_counter()
    stop = t0 + 60 * a.minutes if a.minutes else math.inf
    results: list[dict[str, Any]] = []
    sink = open(a.out, "w", encoding="utf-8") if a.out else None

    def take(r: dict[str, Any]) -> None:
        results.append(r)
        if sink is not None:
            sink.write(json.dumps(r) + "\n")
            sink.flush()
        if len(results) % a.every == 0:
            print("\n".join(summary(results, bots, time.perf_counter() - t0)), flush=True)

    try:
        if a.jobs > 1:
            with process_pool(a.jobs) as ex:
                pending = []
                it = iter(work)
                for w in it:  # at most 2 x jobs tasks out at once, none started after the stop time
                    if time.perf_counter() > stop:
                        break
                    pending.append(ex.submit(_task, w))
                    while len(pending) >= 2 * a.jobs:
                        take(pending.pop(0).result())
                for f in pending:
                    take(f.result())
        else:
            for w in work:
                if time.perf_counter() > stop:
                    break
                take(_task(w))
    finally:
        if sink is not None:
            sink.close()
    print("final:")
    print("\n".join(summary(results, bots, time.perf_counter() - t0)))


if __name__ == "__main__":
    main()
