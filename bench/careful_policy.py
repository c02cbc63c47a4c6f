"""The rollout model's careful discards (X5) measured in the model itself: on the same deals, one
seat plays the careful policy among three careless seats, and again careless; the paired
difference of that seat's value (hand score + penalties, the team's with partners) a hand-seat,
with its 95% interval, and the X5 it pays a hand each way. Presets without X5 print 0: the two
policies are the same game there. Thousands of hands a second (no evaluator, no search of worlds).

    python bench/careful_policy.py [--hands 4000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from analysis.evaluate import fast
from analysis.evaluate.proof import CASES, deal
from analysis.game import new_hand, resolve

X5 = list(fast.RULE_NAMES.values()).index("X5")


def measure(variant: str, overrides: dict | None, hands: int, seed: int) -> tuple[float, float, float, float, int]:
    """(mean careful - careless, 95% half-width, X5 paid careful, X5 paid careless, hand-seats)."""
    rules = resolve(variant, overrides)
    diffs: list[int] = []
    paid = [0, 0]
    for i in range(hands):
        rng = random.Random(f"careful:{variant}:{overrides}:{seed}:{i}")
        starter = rng.randrange(4)
        ind, racks, deck = deal(rules, rng, starter)
        st = new_hand(rules, 1, starter, ind, racks, deck)
        rb, db = fast.rack_bytes(racks, st.okey), fast.deck_bytes(deck, st.okey)
        old = fast.play(fast.pack(st, fast.CARELESS), rb, db, fast.MODE_PLAY, -1, False, True)
        for s in range(4):
            new = fast.play(fast.pack(st, 1 << s), rb, db, fast.MODE_PLAY, -1, False, True)
            diffs.append(fast.seat_value(new[:4], s, rules) - fast.seat_value(old[:4], s, rules))
            paid[0] += new[6][4][s * len(fast.RULE_NAMES) + X5]
            paid[1] += old[6][4][s * len(fast.RULE_NAMES) + X5]
    n = len(diffs)
    m = sum(diffs) / n
    sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n), paid[0] / n, paid[1] / n, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print("one careful seat among three careless ones against all careless, the same deals (model hands)")
    print(f"{'case':<22} {'hand-seats':>10} {'careful - careless':>24} {'X5 paid: careful':>17} {'careless':>9} {'s':>6}")
    for variant, overrides in CASES:
        t0 = time.process_time()
        m, h, pc, po, n = measure(variant, overrides, a.hands, a.seed)
        name = variant + (" partners" if overrides else "")
        print(f"{name:<22} {n:>10,} {m:>+9.2f} [{m - h:+7.2f}, {m + h:+7.2f}] {pc:>17.2f} {po:>9.2f} "
              f"{time.process_time() - t0:>6.1f}")


if __name__ == "__main__":
    main()
