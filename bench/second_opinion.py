"""A second opinion on the review's strategic lessons: each candidate's continuation played by the
``expert`` itself, not by the rollout policy.

The deep review prices a decision by playing the rest of the hand with the rollout model's policy
(``rollout.c``): one best placing, a fixed discard rule. A lesson about waiting or opening, or
about taking or drawing, may then lean on that policy's later turns. Here, for a sample of the
review's charged ``place`` and ``take`` lessons (waiting against opening, taking against drawing)
and of the starter's first-turn openings, the played and the recommended candidates are played
in the same sampled worlds (the seat's own view, :func:`analysis.evaluate.core.sample_world`),
then the hand goes on with the ``expert`` deciding every later turn of the seat and the ``solver``
bot the others (seeded alike for both candidates). The bench prints how often the expert's
continuation agrees with the review's verdict (the recommended one scores lower on average),
with a 95% Wilson interval, and the lessons where it does not.

    python bench/second_opinion.py [--lessons N] [--worlds K] [--games G]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.evaluate.core import sample_world, unseen_tiles  # noqa: E402
from analysis.game import HandState, IllegalMove, apply, read_and_replay  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.review.deep import judge_spot  # noqa: E402
from analysis.review.spots import hand_spots, seat_knows, seed_game  # noqa: E402
from analysis.selfplay import make_bot  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"


def _try(st: HandState, ev: dict[str, Any]) -> HandState | None:
    try:
        return apply(st, ev)
    except (IllegalMove, ValueError):
        return None


def _draw(st: HandState, seat: int) -> HandState:
    assert st.deck
    return apply(st, {"type": "draw", "seat": seat, "tile": str(st.deck[0])})


def _rest_of_turn(st: HandState, seat: int, bot: Any, placed: bool) -> HandState:
    """The seat's placing (unless the candidate placed already) and its discard, by ``bot``."""
    if not placed:
        for _ in range(30):
            if st.over:
                return st
            try:
                moves = bot.place(View.of(st, seat))
            except ValueError:  # no placing candidate (a take that cannot open: returned below, P2)
                moves = []
            if not moves:
                break
            nxt = st
            for m in moves:
                nxt = _try(nxt, m) if nxt is not None else None
            if nxt is None:
                break
            st = nxt
    if st.over:
        return st
    t = bot.discard(View.of(st, seat))
    out = _try(st, {"type": "discard", "seat": seat, "tile": str(t)})
    if out is not None:
        return out
    # a refused discard: take back a failed opening (O6), return a take that did not open (P2) and
    # draw, then throw the least costly tile (as the self-play loop does)
    if st.turn_base is not None and (st.opened_this_turn or st.took_unopened):
        st = _try(st, {"type": "takeback", "seat": seat}) or st
    if st.took is not None and st.took_unopened:
        back = _try(st, {"type": "return", "seat": seat, "tile": str(st.took)})
        if back is not None:
            st = _draw(back, seat)
    for t in sorted(st.racks[seat], key=lambda x: (x == st.okey, st.fits_table(x) is not None, -x.number)):
        out = _try(st, {"type": "discard", "seat": seat, "tile": str(t)})
        if out is not None:
            return out
    raise RuntimeError("no legal discard")


def _play_out(st: HandState, bots: list[Any]) -> HandState:
    guard = 0
    while not st.over and guard < 300:
        guard += 1
        seat = st.turn
        v = View.of(st, seat)
        t = v.takeable()
        took = t is not None and guard < 150 and bots[seat].take(v)
        nxt = _try(st, {"type": "take", "seat": seat, "tile": str(t)}) if took else None
        st = nxt if nxt is not None else _draw(st, seat)
        st = _rest_of_turn(st, seat, bots[seat], placed=False)
    return st


def _value(st: HandState, seat: int) -> int:
    team = (seat, (seat + 2) % 4) if st.rules.esli else (seat,)
    scores = st.scores or (0, 0, 0, 0)
    return sum(scores[k] for k in team) + sum(p.points for p in st.penalties if p.seat in team)


def continuation(state: HandState, seat: int, kind: str, events: list[dict[str, Any]], world: Any,
                 seed: str) -> int:
    """The seat's hand score after playing ``events`` in ``world``, the expert finishing its turn
    and every later one, the solver bot the other seats."""
    racks, deck = world
    st = replace(state, racks=tuple(tuple(r) for r in racks), deck=tuple(deck), deck_count=len(deck))
    rng = random.Random(seed)
    bots = [make_bot("expert" if k == seat else "solver", random.Random(f"{seed}:{k}")) for k in range(4)]
    del rng
    if kind == "take":
        ev = events[0]
        st = _try(st, dict(ev)) if ev.get("type") == "take" else _draw(st, seat)
        assert st is not None
        st = _rest_of_turn(st, seat, bots[seat], placed=False)
    else:  # place: the candidate's placing, then the expert's discard
        for ev in events:
            nxt = _try(st, dict(ev))
            if nxt is None:
                return _value(st, seat)
            st = nxt
        st = _rest_of_turn(st, seat, bots[seat], placed=True)
    return _value(_play_out(st, bots), seat)


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (c - h, c + h)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lessons", type=int, default=24)
    ap.add_argument("--worlds", type=int, default=12)
    ap.add_argument("--games", type=int, default=20, help="sample games searched for lessons")
    args = ap.parse_args()
    games, _ = read_and_replay(str(SAMPLE), keep_steps=True)
    picked: list[tuple[Any, Any, Any, Any]] = []
    for res in games[: args.games]:
        for hr in res.hands:
            if not hr.steps:
                continue
            for turn in hand_spots(hr):
                for s in turn:
                    first_open = s.kind == "place" and s.step == 0
                    if s.kind not in ("place", "take") or len(picked) >= args.lessons:
                        continue
                    st = hr.steps[s.step].state
                    if st.opened[s.seat] is not None and s.kind == "place":
                        continue  # wait against open: the unopened seat's placing
                    c = judge_spot(seed_game(res), hr, s)
                    if c is None or c.forced or (c.cost <= 0 and not (first_open and c.best != c.played)):
                        continue
                    picked.append((res, hr, s, c))
    t0 = time.process_time()
    agree, rows = 0, []
    for res, hr, s, c in picked:
        st = hr.steps[s.step].state
        view = View.of(st, s.seat)
        unseen, pinned = unseen_tiles(view, seat_knows(hr.steps, s.step, s.seat))
        rng = random.Random(f"second:{res.game}:{hr.hand}:{s.step}")
        best = next(x for x in c.candidates if x["move"] == c.best)
        mine = next(x for x in c.candidates if x["played"])
        diffs = []
        for w in range(args.worlds):
            world = sample_world(view, unseen, pinned, rng)
            seed = f"{res.game}:{hr.hand}:{s.step}:{w}"
            vb = continuation(st, s.seat, s.kind, list(best["events"]), world, seed)
            vp = continuation(st, s.seat, s.kind, list(mine["events"]), world, seed)
            diffs.append(vp - vb)
        m = sum(diffs) / len(diffs)
        ok = m > 0
        agree += ok
        rows.append((res.game, hr.hand, s.step, s.kind, c.played, c.best, round(c.cost, 1), round(m, 1), ok))
    n = len(rows)
    lo, hi = wilson(agree, n)
    print(f"second opinion: {n} lessons (place: wait/open; take: take/draw), {args.worlds} worlds each, "
          f"the expert continuing the seat; {time.process_time() - t0:.0f} s CPU")
    print(f"agrees with the review: {agree}/{n} = {100 * agree / max(n, 1):.0f}% [95% {100 * lo:.0f}%, {100 * hi:.0f}%]"
          f" (target >= 80%)")
    for r in rows:
        if not r[-1]:
            print(f"  disagrees: {r[0]} hand {r[1]} step {r[2]} {r[3]}: played {r[4]!r}, review's best {r[5]!r} "
                  f"(cost {r[6]}); the expert's continuation: played - best = {r[7]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
