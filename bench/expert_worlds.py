"""The expert at K times its worlds against the default expert: a duplicate match
(``analysis.selfplay.match``, the same deals, seats rotated, 95% interval over deals) of an
``expert`` playing ``K x WORLDS`` worlds a decision against ``expert`` at ``WORLDS``. Negative
``diff``: more worlds score fewer points. Prints the summary as ``istaka match --json`` does.

    python bench/expert_worlds.py [--times 4] [--variant 101] [--deals 30] [--seed S] [--jobs 1] [--deals-out F]
"""

from __future__ import annotations

import argparse
import json
import os
import random

from analysis.evaluate import expert as E
from analysis.selfplay import BOTS, duplicate_match


def register(times: int) -> str:
    """The bot ``expert{times}x`` in the registry. Run at import too: the match's worker
    processes are spawned, import this module afresh and read the factor from the environment."""
    name = f"expert{times}x"

    class MoreWorlds(E.ExpertBot):
        kind = name

        def __init__(self, rng: random.Random) -> None:
            super().__init__(rng, worlds=times * E.WORLDS)

    BOTS[name] = MoreWorlds
    return name


_ENV = "ISTAKA_BENCH_WORLDS_TIMES"
if os.environ.get(_ENV, "").isdigit():
    register(int(os.environ[_ENV]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--times", type=int, default=4)
    ap.add_argument("--variant", default="101")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", default="worlds")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--deals-out", help="each deal's scores as a JSON line, as it ends")
    a = ap.parse_args()
    os.environ[_ENV] = str(a.times)  # for the spawned workers (jobs > 1)
    name = register(a.times)
    worlds = a.times * E.WORLDS
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
