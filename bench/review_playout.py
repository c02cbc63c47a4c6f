"""Is a charged decision's cost what hands really played on from it lose? (docs/calibration.md)

The deep review prices a decision by rollouts of its model's policy. This bench checks its charges
against real play: the tables of bench/review_calibration.py's default design (``--bot`` alone in
a seat among three experts, seed ``calib``, `101`) are played and the bot's seat deep-reviewed; for
each charged decision of ``--kind`` (the first ``--decisions``, deals in order), ``--worlds``
worlds are sampled from the seat's own view (uniformly, as the review's uniform worlds), and in
each world the played move and the review's best are each played on to the hand's end by real
bots (:func:`analysis.selfplay.play_on`): the other seats by ``expert``, the seat itself by
``--seat`` (``bot``: the bot it is, which is what its losses measure; ``expert``: a strong
continuation, nearer the review's assumption). Both moves share each world and the bots' seed.
A hand's score is the review's: the hand-end score plus the in-game penalties the seat paid (X5
among them), its team's in partner games.

It prints, over the decisions (95% intervals over decisions): the review's charged cost, the
played-on cost (the played move's actual hand score minus the best's, each averaged over the
worlds), their difference and ratio, and the same for the decisions where the review's cost is
under and over the median.

``--handoff 0,1,4`` says where the difference arises: in the same worlds, each move is also played
on by the real bots for that many turns only, and from there by the review's own model (its
rollout, the seat careful as in the review) to the hand's end. At 0 it is the model alone, the
review's price in those worlds; the more turns real play takes, the nearer the played-on cost.
The model alone and real play are then paired in the very same worlds, which takes the worlds'
luck out of their ratio (with a few dozen worlds a decision, that luck moves both far more than
it moves their difference). ``--reprice W`` prices each charged discard again as the review does,
on W worlds of a fresh seed: how much of a charge is the luck of the worlds that selected it.

    python bench/review_playout.py [--bot greedy] [--kind discard] [--decisions 30] [--worlds 24]
                                   [--seat bot|expert] [--deals 40] [--seed calib] [--handoff 0,1,4]
                                   [--skip 0] [--reprice 192]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.evaluate import fast, price  # noqa: E402
from analysis.evaluate.candidate import discard_candidate  # noqa: E402
from analysis.evaluate.core import sample_world, unseen_tiles  # noqa: E402
from analysis.game import HandState, apply, replay_game  # noqa: E402
from analysis.game.log import read_lines  # noqa: E402
from analysis.game.stats import mean_interval  # noqa: E402
from analysis.game.tiles import tile as parse_tile  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.review.deep import deep_review_hand  # noqa: E402
from analysis.review.spots import seat_knows  # noqa: E402
from analysis.selfplay import play_game, play_on  # noqa: E402
from analysis.selfplay.match import deal_spec, final_scores  # noqa: E402


def charged(bot: str, variant: str, seed: str, deals: int, kind: str, limit: int, skip: int = 0
            ) -> list[dict[str, Any]]:
    """The bot's charged decisions of ``kind`` on its tables alone among experts, deals in order,
    the first ``skip`` of them left out."""
    out: list[dict[str, Any]] = []
    seen = 0
    for deal in range(deals):
        for seat in range(4):
            rec = play_game(deal_spec(tuple(bot if k == seat else "expert" for k in range(4)), variant, seed, deal))
            res = replay_game(read_lines(rec.lines()).games[0], keep_steps=True)
            hr = next(h for h in res.hands if h.steps)
            hand = deep_review_hand(res.game, hr, 1, seats=frozenset((seat,)))
            for d in hand.decisions:
                for c in d.choices:
                    if d.seat == seat and c.graded and c.kind == kind and c.cost > 0:
                        seen += 1
                        if seen <= skip:
                            continue
                        out.append({"deal": deal, "seat": seat, "step": c.step, "cost": c.cost,
                                    "played": c.played, "best": c.best, "state": hr.steps[c.step].state,
                                    "known": seat_knows(hr.steps, c.step, seat),
                                    "played_events": [dict(e) for e in c.played_events],
                                    "best_events": [dict(e) for e in c.best_events]})
                        if len(out) >= limit:
                            return out
    return out


def hand_score(end: HandState, seat: int) -> int:
    """The seat's hand score as the review prices it: the hand-end score (E4-E8) and every
    in-game penalty it paid in the hand (X2-X7, O8); its team's in partner games."""
    return final_scores(end)[seat]


def model_score(st: HandState, seat: int) -> tuple[int, bool, bool]:
    """The seat's hand score (its team's) when the review's model plays ``st`` on to the end from
    this full state (its rollout, the seat's own discards careful as in the review, penalties
    paid so far included), and whether the seat had opened and whether it finished at the end."""
    if st.over:
        return hand_score(st, seat), st.opened[seat] is not None, st.finisher == seat
    assert st.deck is not None
    out = fast.play(fast.pack(st, fast.own_seats(seat, st.rules)), fast.rack_bytes(st.racks, st.okey),
                    fast.deck_bytes(st.deck, st.okey), fast.MODE_PLAY, parts=True)
    _, _, finisher, opened, _ = out[6]
    return fast.seat_value(out, seat, st.rules), opened[seat] != 0, finisher == seat


def played_on(d: dict[str, Any], worlds: int, seat_bot: str, seed: str, handoff: tuple[int, ...] = ()
              ) -> tuple[float, float, dict[int, float], dict[str, float]]:
    """The played move's hand score minus the best's, played on in ``worlds`` worlds of the
    seat's view: (mean, standard error, per ``handoff`` turns the mean when the model plays on
    after that many turns of real play, and how often the seat opened and finished by the end:
    ``open``/``out`` of real play, ``model open``/``model out`` of the model alone (handoff 0),
    each as played minus best)."""
    st, seat = d["state"], d["seat"]
    view = View.of(st, seat)
    unseen, pinned = unseen_tiles(view, d["known"])
    rng = random.Random(f"playout:{seed}:{d['deal']}:{seat}:{d['step']}")
    bots = tuple(seat_bot if k == seat else "expert" for k in range(4))
    diffs = []
    mixed: dict[int, list[int]] = {k: [] for k in handoff}
    rates: dict[str, list[int]] = {"open": [], "out": [], "model open": [], "model out": []}
    for w in range(worlds):
        racks, deck = sample_world(view, unseen, pinned, rng)
        world = dataclasses.replace(st, racks=racks, deck=tuple(deck))
        score = []
        at: dict[int, list[tuple[int, bool, bool]]] = {k: [] for k in handoff}
        ends = []
        for events in (d["played_events"], d["best_events"]):
            s = world
            for e in events:
                s = apply(s, dict(e))
            end = play_on(s, bots, seed=f"{seed}:{w}")
            ends.append(end)
            score.append(hand_score(end, seat))
            for k in handoff:  # the same bots' seed: the first k turns are the full play's own
                part = play_on(s, bots, seed=f"{seed}:{w}", turns=k) if k else s
                at[k].append(model_score(part, seat))
        diffs.append(score[0] - score[1])
        rates["open"].append(int(ends[0].opened[seat] is not None) - int(ends[1].opened[seat] is not None))
        rates["out"].append(int(ends[0].finisher == seat) - int(ends[1].finisher == seat))
        for k in handoff:
            mixed[k].append(at[k][0][0] - at[k][1][0])
        if 0 in at:
            rates["model open"].append(int(at[0][0][1]) - int(at[0][1][1]))
            rates["model out"].append(int(at[0][0][2]) - int(at[0][1][2]))
    m = statistics.fmean(diffs)
    return (m, (statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf),
            {k: statistics.fmean(v) for k, v in mixed.items()},
            {k: statistics.fmean(v) for k, v in rates.items() if v})


def repriced(d: dict[str, Any], worlds: int) -> float:
    """The played discard minus the best, priced again as the review prices (its worlds, its
    belief) on ``worlds`` worlds of a fresh seed: the charge without the worlds that selected it."""
    seat = d["seat"]
    cands = [discard_candidate(seat, parse_tile(str(evs[0]["tile"]))) for evs in (d["played_events"], d["best_events"])]
    a, b = price(View.of(d["state"], seat), cands, seed=f"reprice:{d['deal']}:{seat}:{d['step']}", worlds=worlds,
                 known=d["known"])
    return statistics.fmean(x - y for x, y in zip(a.values, b.values))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--kind", default="discard", choices=("take", "place", "discard"))
    ap.add_argument("--decisions", type=int, default=30)
    ap.add_argument("--skip", type=int, default=0, help="charged decisions left out first (to split a run)")
    ap.add_argument("--worlds", type=int, default=24)
    ap.add_argument("--seat", choices=("bot", "expert"), default="bot",
                    help="who plays the seat on: the bot itself, or the expert")
    ap.add_argument("--deals", type=int, default=40, help="deals searched for charged decisions")
    ap.add_argument("--variant", default="101")
    ap.add_argument("--seed", default="calib")
    ap.add_argument("--reprice", type=int, default=0, metavar="W",
                    help="discards: also price played and best again on W fresh worlds, as the review does")
    ap.add_argument("--handoff", default="", help="turns of real play before the model plays on, e.g. 0,1,4")
    a = ap.parse_args()
    handoff = tuple(int(x) for x in a.handoff.split(",") if x.strip())
    t0 = time.process_time()
    ds = charged(a.bot, a.variant, a.seed, a.deals, a.kind, a.decisions, a.skip)
    t1 = time.process_time()
    print(f"{len(ds)} charged {a.kind} decisions of {a.bot} ({a.variant}, seed {a.seed}), found in {t1 - t0:.0f} s CPU;"
          f" each played on in {a.worlds} worlds, the seat played on by {a.seat if a.seat == 'expert' else a.bot}",
          flush=True)
    if a.reprice and a.kind == "discard" and ds:
        again = [repriced(d, a.reprice) for d in ds]
        m, lo, hi = mean_interval([d["cost"] - x for d, x in zip(ds, again)])
        print(f"priced again on {a.reprice} fresh worlds: {statistics.fmean(again):.1f} against the charged "
              f"{statistics.fmean(d['cost'] for d in ds):.1f} (charged - again {m:.1f} [{lo:.1f}, {hi:.1f}])", flush=True)
    rows = []
    mixed: dict[int, list[float]] = {k: [] for k in handoff}
    rates: dict[str, list[float]] = {}
    for i, d in enumerate(ds, 1):
        m, se, mx, rt = played_on(d, a.worlds, a.bot if a.seat == "bot" else "expert", a.seed, handoff)
        for k, x in rt.items():
            rates.setdefault(k, []).append(x)
        rows.append((d["cost"], m, se))
        for k in handoff:
            mixed[k].append(mx[k])
        print(f"{i:3} deal {d['deal']:3} seat {d['seat']} step {d['step']:3}  {d['played']:>14} -> {d['best']:<14}"
              f" review {d['cost']:6.1f}   played on {m:7.1f} ± {se:5.1f}"
              + "".join(f"   model after {k}: {mx[k]:6.1f}" for k in handoff), flush=True)
    if not rows:
        return
    cost = [r[0] for r in rows]
    real = [r[1] for r in rows]

    def line(name: str, xs: list[float]) -> str:
        m, lo, hi = mean_interval(xs)
        return f"{name:34} {m:7.1f} [{lo:7.1f}, {hi:7.1f}]"

    print(f"\n{len(rows)} decisions, {time.process_time() - t1:.0f} s CPU playing on:")
    print(line("review's charged cost", cost))
    print(line("played on: played - best", real))
    print(line("review - played on", [c - r for c, r in zip(cost, real)]))
    print(f"{'ratio review / played on':34} {sum(cost) / sum(real):7.2f}" if sum(real) else "")
    for k in handoff:
        print(line(f"real play {k} turns, then the model", mixed[k]))
    if 0 in handoff:  # the model against real play in the very same worlds: their paired difference
        print(line("the model alone - played on, paired", [m - r for m, r in zip(mixed[0], real)]))
        print(f"{'ratio model alone / played on':34} {sum(mixed[0]) / sum(real):7.2f}" if sum(real) else "")
    for k, xs in rates.items():  # played minus best, in percentage points of the hands
        m, lo, hi = mean_interval([100 * x for x in xs])
        what = {"open": "the seat opened, real play", "out": "the seat went out, real play",
                "model open": "the seat opened, the model alone", "model out": "the seat went out, the model alone"}[k]
        print(f"{what:34} {m:+6.1f} [{lo:+6.1f}, {hi:+6.1f}] points, played - best")
    med = statistics.median(cost)
    for name, keep in (("charged under the median", lambda c: c < med), ("charged at or over it", lambda c: c >= med)):
        sel = [(c, r) for c, r, _ in rows if keep(c)]
        if len(sel) > 1:
            print(f"{name:34} review {statistics.fmean(c for c, _ in sel):6.1f}, played on "
                  f"{statistics.fmean(r for _, r in sel):6.1f} ({len(sel)} decisions)")


if __name__ == "__main__":
    main()
