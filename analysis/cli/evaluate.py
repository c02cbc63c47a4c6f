"""``istaka evaluate``: one logged decision judged from its seat's own view, with the deep review's
own verdict: the same spots, candidates, worlds, seed and knowledge (:mod:`analysis.review.spots`,
:func:`analysis.review.deep.judge_spot`).

    istaka evaluate FILE --game ID --hand N --step K [--kind KIND] [--worlds W] [--salt S] [--json]

``K`` is the Replay page's ``step`` (0 = the deal; step K is the position after the K-th event of
the hand), ``N`` the hand's number in the log. A step holds the decisions the review grades there
(``show`` O7, ``take``, ``place`` — waiting, opening, laying off, declaring O10 — and ``discard``;
a turn that placed nothing has ``place`` and ``discard`` at the same step); ``--kind`` picks one,
by default the first. Every legal candidate is printed with its expected hand score, the parts
that add up to it (the hand-end score, each penalty by rule), the paired difference to the best
with its interval, and the rates beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .common import UsageError

KINDS = ("show", "take", "place", "discard", "declare")
# the evaluator's beliefs (analysis.evaluate.belief.BELIEFS), named here so that building the parser
# imports none of the library (tests/test_reading.py checks they agree)
BELIEFS = ("table", "uniform", "dealt")
KIND_WORDS = {"show": "show the indicator twin or not (O7)", "take": "draw or take", "place": "placing",
              "discard": "discard"}
PART_ORDER = ("hand", "paid", "X2", "X3", "X4", "X5", "X6", "X7", "O8")


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    e = sub.add_parser("evaluate", help="judge one logged decision as the deep review does, every candidate's parts",
                       description="A decision of a logged hand (at the Replay page's step), judged from its seat's "
                       "own view exactly as the deep review judges it: every legal candidate with its expected hand "
                       "score and the parts that add up to it, the paired difference to the best with its interval, "
                       "the cost and its reason. Tiles are written colour then number: R red, Y yellow, B blue, "
                       "K black (R7, K13); J is the false okey.")
    e.add_argument("file", metavar="FILE", help=".jsonl or .jsonl.gz game log")
    e.add_argument("--game", required=True, metavar="ID", help="game id")
    e.add_argument("--hand", required=True, type=int, metavar="N", help="hand number in the log")
    e.add_argument("--step", required=True, type=int, metavar="K", help="replay step (0: the deal)")
    e.add_argument("--kind", choices=KINDS, help="which decision at that step (default: the first the review "
                   "grades there); declare: the placing decision where declaring pairs (O10) is a candidate")
    e.add_argument("--worlds", type=int, metavar="W",
                   help="fixed worlds every candidate is played in (default: the deep review's own)")
    e.add_argument("--salt", metavar="S", help="other worlds than the review's (its seed with S appended)")
    e.add_argument("--belief", choices=BELIEFS, help="how the hidden tiles are sampled: weighted by what the "
                   "other seats did (table, the default), uniformly, as before the evaluator read the table, or dealt "
                   "from the direct reading of the table (dealt)")
    e.add_argument("--table", action="store_true", help="also print what the other seats likely hold (the belief's "
                   "reading of the table from this seat's view)")
    e.add_argument("--json", action="store_true", help="machine-readable output")
    return {"evaluate": cmd_evaluate}


def _log_event(ev: dict[str, Any]) -> dict[str, Any]:
    """A candidate's event as the log writes it, without the seat (given once, at the top)."""
    return {k: v for k, v in ev.items() if k not in ("seat", "game", "hand", "t", "line")}


def _find(args: argparse.Namespace) -> tuple[Any, Any]:
    from analysis.evaluate import PRICE_WORLDS
    from analysis.game import read_file, replay_game

    if args.worlds is None:
        args.worlds = PRICE_WORLDS
    if not 1 <= args.worlds <= 100_000:
        raise UsageError("--worlds must be between 1 and 100000")
    try:
        rr = read_file(args.file)
    except OSError as e:
        raise UsageError(f"cannot read {args.file}: {e.strerror or e}") from None
    g = next((x for x in rr.games if x.id == args.game), None)
    if g is None:
        raise UsageError(f"no game {args.game!r} in {args.file}")
    res = replay_game(g, keep_steps=True)
    hr = next((h for h in res.hands if h.hand == args.hand), None)
    if hr is None or not hr.steps:
        have = ", ".join(str(h.hand) for h in res.hands if h.steps) or "none"
        raise UsageError(f"game {args.game!r} has no replayable hand {args.hand} (hands: {have})")
    if not 0 <= args.step < len(hr.steps):
        raise UsageError(f"hand {args.hand} has steps 0 to {len(hr.steps) - 1}, not {args.step}")
    return res, hr


def _nearest(hr: Any, step: int) -> str:
    from analysis.review.spots import hand_spots

    steps = sorted({s.step for turn in hand_spots(hr) for s in turn})
    before = [k for k in steps if k < step][-1:]
    after = [k for k in steps if k > step][:1]
    return ", ".join(str(k) for k in before + after) or "none"


def cmd_evaluate(args: argparse.Namespace) -> int:
    from analysis.review.deep import judge_spot
    from analysis.review.lesson import cost_split, sentence
    from analysis.review.spots import seed_game, spots_at

    from analysis.evaluate import core

    if args.belief:
        core.BELIEF = args.belief  # this process judges one decision: the default for its pricing
    res, hr = _find(args)
    spots = spots_at(hr, args.step)
    have = [s.kind for s in spots]
    if not have:
        raise UsageError(f"step {args.step} of hand {args.hand} holds no decision the review grades "
                         f"(the nearest steps that do: {_nearest(hr, args.step)})")
    kind = args.kind or have[0]
    if kind == "declare":
        state = hr.steps[args.step].state
        if not state.rules.declare_pairs or "place" not in have:
            raise UsageError(f"no pairs declaration (O10) to decide at step {args.step}: this preset or position "
                             f"has none (decisions here: {', '.join(have)})")
        kind = "place"
    if kind not in have:
        raise UsageError(f"no {kind} decision at step {args.step} (decisions here: {', '.join(have)})")
    spot = next(s for s in spots if s.kind == kind)
    c = judge_spot(seed_game(res), hr, spot, worlds=args.worlds, salt=args.salt)
    if c is None:  # a placing that ended the hand (E3): nothing to judge
        raise UsageError(f"the {kind} decision at step {args.step} ends the hand (E3): nothing to judge")
    state = hr.steps[args.step].state
    seat = spot.seat
    names = list(res.players) + [f"#{i}" for i in range(len(res.players), 4)]
    rack = [str(t) for t in sorted(state.racks[seat])]
    rows = [{"move": [_log_event(e) for e in x.get("events") or []], "label": x.get("move"),
             "expected": x.get("expected"), "se": x.get("se"), "n": x.get("n"), "played": bool(x.get("played")),
             "diff": x.get("diff", 0.0), "ci": x.get("ci", 0.0), "as_good": bool(x.get("tie")),
             "parts": x.get("parts") or {}, "rates": x.get("rates") or {}} for x in c.candidates]
    out = {"game": args.game, "hand": args.hand, "step": args.step, "seat": seat, "player": names[seat],
           "decision": kind, "decisions_here": have, "rack": rack, "worlds": c.worlds, "salt": args.salt,
           "forced": c.forced, "played": [_log_event(e) for e in c.played_events], "best": c.best,
           "cost": round(c.cost, 2), "ci": None if c.ci is None else round(c.ci, 2),
           "cost_parts": {k: round(v, 2) for k, v in cost_split(c).items()}, "reason": c.reason,
           "lesson": sentence(c, "en"), "candidates": rows, "belief": core.BELIEF}
    if args.table:
        from analysis.evaluate.panel import read_table
        from analysis.players import View

        out["table"] = read_table(View.of(state, seat), seed=f"{seed_game(res)}:{args.hand}:{args.step}").to_dict()
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    print(f"game {args.game} hand {args.hand} step {args.step}: {names[seat]} (seat {seat}), "
          f"{KIND_WORDS.get(kind, kind)}; {c.worlds} worlds ({core.BELIEF} belief, the deep review's"
          f"{', salt ' + args.salt if args.salt else ''}); decisions at this step: {', '.join(have)}")
    print(f"  rack: {' '.join(rack)}")
    if c.forced:
        print(f"  forced ({c.forced}): not graded")
    print(f"  {'#':>2}  {'expected':>9}  {'± se':>6}  {'vs best':>14}  move")
    for k, r in enumerate(rows, 1):
        mark = "  <- played" if r["played"] else ""
        good = "  (as good)" if r["as_good"] else ""
        vs = "best" if k == 1 else f"{r['diff']:+.1f} ± {r['ci']:.1f}"
        print(f"  {k:>2}  {r['expected'] if r['expected'] is not None else 0:>9.1f}  {r['se']:>6.1f}  {vs:>14}  "
              f"{r['label']}{mark}{good}")
        parts = r["parts"]
        if parts:
            bits = "  ".join(f"{p} {parts[p]:.1f}" for p in PART_ORDER if abs(parts.get(p, 0.0)) >= 0.05)
            rates = r["rates"]
            print(f"      parts: {bits or 'all 0'}   rates: finish {rates.get('finish', 0):.0%}, next opens "
                  f"{rates.get('next_opens', 0):.0%}, next finishes {rates.get('next_finishes', 0):.0%}")
    if args.table:
        _print_table(out["table"], names)
    print(f"verdict: {sentence(c, 'en')}")
    print("lower is better: the seat's expected hand score (its team's in partner games); parts add up to it")
    return 0


def _print_table(t: dict[str, Any], names: list[str]) -> None:
    print(f"  what they hold (from {t['proposals']} sampled worlds, effective size {t['ess']:.0f}; "
          f"each chance within about ±{100 * t['se']:.0f} points):")
    for s in t["seats"]:
        opens = "opened" if s["opened"] else f"opens next turn {s['opens_next']:.0%}"
        held = ", ".join(f"{x} {p:.0%} (uniform {u:.0%})" for x, p, u in s["held"])
        needs = ", ".join(f"{x} {p:.0%}" for x, p in s["needs"]) or "-"
        print(f"    {names[s['seat']]} (seat {s['seat']}): {opens}; likely holds {held}; needs {needs}")
    risky = [d for d in t["dangers"] if d["opening"] or d["finish"] or d["layoff"]][:6]
    if risky:
        print("    discards that feed the next seat: " + ", ".join(
            f"{d['tile']} (opens {d['opening']:.0%}, finishes {d['finish']:.0%}{', fits the table' if d['layoff'] else ''})"
            for d in risky))


__all__ = ["register"]
