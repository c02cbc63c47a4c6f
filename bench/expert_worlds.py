"""The expert at K times its worlds against the default expert (issue 20): a duplicate match
(``analysis.selfplay.match``, the same deals, seats rotated, 95% interval over deals) of an
``expert`` playing ``K x WORLDS`` worlds a decision against ``expert`` at ``WORLDS``. Negative
``diff``: more worlds score fewer points. Prints the summary as ``istaka match --json`` does.

    python bench/expert_worlds.py [--times 4] [--variant 101] [--deals 30] [--seed S] [--jobs 1] [--deals-out F]
"""

from __future__ import annotations

import argparse
import json
import random

from analysis.evaluate import expert as E
from analysis.selfplay import BOTS, duplicate_match


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--times", type=int, default=4)
    ap.add_argument("--variant", default="101")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", default="worlds")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--deals-out", help="each deal's scores as a JSON line, as it ends")
    a = ap.parse_args()
    name = f"expert{a.times}x"
    worlds = a.times * E.WORLDS

    class MoreWorlds(E.ExpertBot):
        kind = name

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, worlds=worlds)

    BOTS[name] = MoreWorlds  # the workers fork after this (jobs > 1 on Linux)
    fh = open(a.deals_out, "w", encoding="utf-8") if a.deals_out else None  # noqa: SIM115
    try:
        out = duplicate_match(name, "expert", variant=a.variant, n=a.deals, seed=a.seed, jobs=a.jobs, out=fh)
    finally:
        if fh is not None:
            fh.close()
    out["worlds"] = {"A": worlds, "B": E.WORLDS}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
