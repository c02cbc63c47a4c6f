"""The Play page's speed: a bot's move, the wait from your discard to your next turn, and your
hand's review on screen.

    python bench/play.py [--turns 40] [--hands 4] [--level strong] [--hints 60]

1. A bot's move (one whole turn of an expert at ``--level``, the default ``strong``: the expert's
   own world count) in games of a person and three experts; target median ≤ 300 ms.
2. Discard to your turn with the pause off: the Play page (AppTest, the page's script from the
   tap to its end) after a person's discard, three expert bots (``medium``, the page's default)
   playing their turns; target median ≤ 1.5 s.
3. Your hand's review on screen: from the discard that ends the hand until the hand is stored
   and reviewed (the page's run) plus the Review page opened on it; target ≤ 5 s.
4. A hint: the expert's best three for the decision in front of the person, judged as the review
   judges it (dashboard/state/play_hints.py, the deep review's worlds), at every decision of a
   person who plays the hints' best against three greedy bots; median ≤ 1 s.

Prints the medians with the machine's load beside them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("ISTAKA_RAISE_ERRORS", "1")

from analysis.selfplay import new_game  # noqa: E402


def bot_moves(turns: int, level: str) -> list[float]:
    """Seconds per expert bot turn, over games until ``turns`` turns are timed."""
    out: list[float] = []
    seed = 0
    while len(out) < turns:
        seed += 1
        g = new_game(f"oyun-bench-{seed}", seats=["person", "expert", "expert", "expert"], levels=[None, level,
                     level, level], names=["p", "a", "b", "c"], seed=f"bench-{seed}", starter=1)
        while not g.over and len(out) < turns:
            if g.bot_to_move() is not None:
                t0 = time.perf_counter()
                g.bot_turn()
                out.append(time.perf_counter() - t0)
                continue
            s = g.state()
            assert s is not None
            if s.phase == "draw":
                g.person({"type": "draw", "seat": 0})
            s = g.state()
            assert s is not None
            g.person({"type": "discard", "seat": 0, "tile": str(s.racks[0][-1])})
    return out


def hint_times(n: int) -> tuple[list[float], dict[str, list[float]], tuple[int, int]]:
    """Seconds per hint, over games until ``n`` hints are timed (and by decision kind); and how
    many of the hints' best moves, played, the review of the stored hand charges nothing and names
    as its own best (of how many decisions)."""
    from analysis.game import read_file, replay_game
    from analysis.review.deep import judge_spot
    from analysis.review.spots import seed_game, spot_at
    from dashboard.state.play_games import log_text
    from dashboard.state.play_hints import best_three

    out: list[float] = []
    kinds: dict[str, list[float]] = {}
    agree = judged = 0
    seed = 0
    with tempfile.TemporaryDirectory() as d:
        while len(out) < n:
            seed += 1
            g = new_game(f"oyun-bench-h{seed}", seats=["person", "greedy", "greedy", "greedy"],
                         names=["p", "a", "b", "c"], seed=f"bench-hint-{seed}", starter=1, hands=1)
            asked = []
            while len(out) < n:
                g.bots_until_person()
                if g.over:
                    break
                t0 = time.perf_counter()
                h = best_three(g, 0)
                took = time.perf_counter() - t0
                out.append(took)
                kinds.setdefault(h[0]["kind"], []).append(took)
                asked.append((len(g.hand_result().steps) - 1, h[0]))
                for e in h[0]["events"]:
                    g.person(dict(e))
                    if g.over:
                        break
            if not g.over:
                break  # the hints ran out mid-hand: the hand has no stored review to compare with
            f = Path(d) / f"{g.id}.jsonl"
            f.write_text(log_text(g), encoding="utf-8")
            res = replay_game(read_file(str(f)).games[0], keep_steps=True)
            hr = res.hands[0]
            for step, best in asked:
                spot = spot_at(hr, step, best["kind"], 0)
                c = judge_spot(seed_game(res), hr, spot) if spot is not None else None
                judged += 1
                agree += c is not None and c.cost == 0 and (c.forced is not None or c.best == best["label"])
    return out, kinds, (agree, judged)


def page_times(hands: int) -> tuple[list[float], list[float]]:
    """(discard-to-your-turn seconds, hand's-end-to-review seconds) on the page with AppTest."""
    import apptest_helpers as ui
    from streamlit.testing.v1 import AppTest

    from analysis import store

    waits: list[float] = []
    reviews: list[float] = []
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.duckdb"
        store.connect(db, seed=False).close()
        os.environ["ISTAKA_DB"] = str(db)
        app = str(ROOT / "dashboard" / "app.py")
        for h in range(hands):
            at = AppTest.from_file(app, default_timeout=300)
            at.session_state["pl_pause_in"] = False
            at = ui.open_page(at, "play", lang="en")
            at.number_input(key="pl_hands_in").set_value(1)
            at.text_input(key="pl_seed_in").input(f"bench-{h}")
            at.button(key="pl_start").click().run()
            while True:
                html = ui.html(at)
                if 'data-testid="pl-over"' in html:
                    break
                draw = [b for b in at.button if b.key and b.key.startswith("pl_draw~")]
                if draw:
                    draw[0].click().run()
                    continue
                tiles = [b for b in at.button if b.key and b.key.startswith("tile-")]
                t0 = time.perf_counter()
                tiles[-1].click().run()
                took = time.perf_counter() - t0
                ui.ok(at)
                if 'data-testid="pl-over"' in ui.html(at):
                    gid = at.query_params["play"]
                    gid = gid[0] if isinstance(gid, list) else gid
                    t1 = time.perf_counter()
                    rv = AppTest.from_file(app, default_timeout=300)
                    ui.open_page(rv, "review", lang="en", game=gid)
                    reviews.append(took + time.perf_counter() - t1)
                else:
                    waits.append(took)
    return waits, reviews


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--level", default="strong", choices=["easy", "medium", "strong"])
    ap.add_argument("--hints", type=int, default=60)
    ap.add_argument("--only-hints", action="store_true", help="time the hints alone")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    hints, kinds, (agree, judged) = hint_times(args.hints)
    by = ", ".join(f"{k} {statistics.median(v) * 1000:.0f} ms ({len(v)})" for k, v in sorted(kinds.items()))
    print(f"a hint (the review's verdict at the decision): median {statistics.median(hints) * 1000:.0f} ms over "
          f"{len(hints)} decisions (p90 {sorted(hints)[int(len(hints) * 0.9)] * 1000:.0f} ms, max "
          f"{max(hints) * 1000:.0f} ms; {by}; target <= 1 s)")
    print(f"the hint's best, played, charged nothing by the review of the stored hand and named its best: "
          f"{agree} of {judged} decisions")
    if args.only_hints:
        return 0
    moves = bot_moves(args.turns, args.level)
    print(f"bot move (expert {args.level}): median {statistics.median(moves) * 1000:.0f} ms over {len(moves)} turns "
          f"(p90 {sorted(moves)[int(len(moves) * 0.9)] * 1000:.0f} ms; target <= 300 ms)")
    waits, reviews = page_times(args.hands)
    print(f"discard to your turn (pause off, 3 expert bots medium): median {statistics.median(waits):.2f} s over "
          f"{len(waits)} turns (target <= 1.5 s)")
    print(f"your hand's review on screen: median {statistics.median(reviews):.2f} s over {len(reviews)} hands "
          f"(target <= 5 s)")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
