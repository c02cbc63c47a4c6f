"""``istaka evaluate``: the decision of the seat to move at one step of a logged hand, judged from
that seat's own view (issue 20, item 6).

    istaka evaluate FILE --game ID --hand N --step K [--worlds W] [--seed S] [--json]

``K`` is the Replay page's ``step`` (0 = the deal; step K is the position after the K-th event of
the hand), ``N`` the hand's number in the log. The seat to move at that step faces a draw or take,
a placing or a discard (as the Replay panel says); every legal candidate is priced on the same
``W`` fixed worlds (the deep review's pricing, :func:`analysis.evaluate.price`, seeded by ``S``),
with what the seat knows of the other racks (the discards it saw taken), best first, and the one
the log played marked.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .common import UsageError

DECISION_WORDS = {"draw": "draw or take", "place": "placing", "discard": "discard"}


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    from analysis.evaluate import PRICE_WORLDS

    e = sub.add_parser("evaluate", help="judge one logged decision: every candidate's expected hand score",
                       description="The decision of the seat to move at a step of a logged hand (the Replay "
                       "page's step), from that seat's own view: every candidate with its expected hand score, "
                       "standard error and worlds, best first, and which one the log played.")
    e.add_argument("file", metavar="FILE", help=".jsonl or .jsonl.gz game log")
    e.add_argument("--game", required=True, metavar="ID", help="game id")
    e.add_argument("--hand", required=True, type=int, metavar="N", help="hand number in the log")
    e.add_argument("--step", required=True, type=int, metavar="K", help="replay step (0: the deal)")
    e.add_argument("--worlds", type=int, default=PRICE_WORLDS, metavar="W",
                   help=f"fixed worlds every candidate is played in (default {PRICE_WORLDS})")
    e.add_argument("--seed", default="0", metavar="S", help="seed of the worlds (default 0)")
    e.add_argument("--json", action="store_true", help="machine-readable output")
    return {"evaluate": cmd_evaluate}


def _log_event(ev: dict[str, Any]) -> dict[str, Any]:
    """A candidate's event as the log writes it, without the seat (given once, at the top)."""
    return {k: v for k, v in ev.items() if k not in ("seat", "game", "hand", "t", "line")}


def _played(kind: str, state: Any, seat: int, cands: Sequence[Any], nxt: Sequence[dict[str, Any]]) -> int:
    """Which candidate the log played after this step (-1: none of them)."""
    from analysis.review.deep import match_placing

    evs = [{k: v for k, v in e.items() if k not in ("game", "hand", "t", "line")} for e in nxt]
    if not evs:
        return -1
    if kind == "draw":
        first = evs[0].get("type")
        want = "take" if first == "take" else "draw" if first == "draw" else None
        return next((i for i, c in enumerate(cands) if c.kind == want), -1)
    if kind == "discard":
        tile = evs[0].get("tile") if evs[0].get("type") == "discard" else None
        return next((i for i, c in enumerate(cands) if c.kind == "discard" and str(c.tile) == tile), -1)
    placing = []
    for e in evs:
        if e.get("type") == "discard":
            break
        placing.append(e)
    try:
        return match_placing(state, seat, cands, placing)
    except ValueError:
        return -1


def cmd_evaluate(args: argparse.Namespace) -> int:
    from analysis.evaluate import candidates, decision_of, place_candidate, price
    from analysis.game import read_file, replay_game
    from analysis.players import View
    from analysis.review.deep import seat_knows

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
    state = hr.steps[args.step].state
    if state.over or state.phase == "over":
        raise UsageError(f"the hand is over at step {args.step}: nobody is to move")
    seat = state.turn
    view = View.of(state, seat)
    decision = decision_of(view)
    cands = candidates(view, decision)
    nxt = [s.event for s in hr.steps[args.step + 1:] if s.event.get("seat") == seat]
    nxt = nxt[:next((i + 1 for i, e in enumerate(nxt) if e.get("type") == "discard"), len(nxt))]
    played = _played(decision, state, seat, cands, nxt)
    if played < 0 and decision == "place" and nxt and nxt[0].get("type") != "discard":
        placing = [_log_event(e) | {"seat": seat} for e in nxt if e.get("type") != "discard"]
        cands.append(place_candidate(tuple(placing), "played"))  # as the deep review prices it
        played = len(cands) - 1
    known = seat_knows(hr.steps, args.step, seat)
    evs = price(view, cands, seed=f"{args.game}:{args.hand}:{args.step}:{args.seed}", worlds=args.worlds,
                known=known)
    order = sorted(range(len(evs)), key=lambda i: evs[i].mean)
    rows = [{"move": [_log_event(e) for e in evs[i].candidate.events], "label": evs[i].candidate.label,
             "expected": round(evs[i].mean, 2), "se": round(evs[i].se, 2), "n": evs[i].n, "played": i == played}
            for i in order]
    names = list(res.players) + [f"#{i}" for i in range(len(res.players), 4)]
    out = {"game": args.game, "hand": args.hand, "step": args.step, "seat": seat, "player": names[seat],
           "decision": decision, "worlds": args.worlds, "seed": args.seed,
           "played": None if played < 0 else [_log_event(e) for e in cands[played].events],
           "candidates": rows}
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    print(f"game {args.game} hand {args.hand} step {args.step}: {names[seat]} (seat {seat}), "
          f"{DECISION_WORDS.get(decision, decision)}; {args.worlds} worlds, seed {args.seed}")
    print(f"  {'#':>2}  {'expected':>9}  {'± se':>6}  move")
    for k, r in enumerate(rows, 1):
        mark = "  <- played" if r["played"] else ""
        print(f"  {k:>2}  {r['expected']:>9.1f}  {r['se']:>6.1f}  {r['label']}{mark}")
    if played < 0:
        print("  the log played none of these candidates (or nothing follows this step)")
    print("lower is better: the seat's expected hand score (its team's in partner games)")
    return 0


__all__ = ["register"]
