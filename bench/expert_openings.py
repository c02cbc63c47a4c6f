"""The expert asking the exact opening search every time against the expert behind the quick
finder's gate: a duplicate match (``analysis.selfplay.match``: the same deals, seats rotated, 95%
interval over deals) of ``expert`` against ``expert-gated``, the same bot whose opening plans (its
placings, its takes and the candidates it weighs) ask the exact search only where the quick finder
comes within ``MARGIN`` points of the threshold, as every expert did before. Negative ``diff``: the
exact search scores fewer points. Prints the summary as ``istaka match --json`` does.

    python bench/expert_openings.py [--variant 101] [--deals 150] [--seed exact-101] [--jobs 1]
                                    [--rules '{"esli": true}'] [--deals-out F]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.evaluate import expert as E  # noqa: E402
from analysis.evaluate import plans as P  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.players import solver_bot as S  # noqa: E402
from analysis.selfplay import BOTS, duplicate_match  # noqa: E402

NAME = "expert-gated"


def _gated(v: View, take: Any, exact: bool = False) -> tuple[Any, Any]:
    """The opening plans behind the quick finder's gate, whatever the caller asks."""
    return S.opening_plans(v, take, False)


@contextlib.contextmanager
def _gate() -> Iterator[None]:
    """The expert's and the evaluator's opening plans gated while one decision is made."""
    was = E.opening_plans, P.opening_plans
    E.opening_plans = P.opening_plans = _gated
    try:
        yield
    finally:
        E.opening_plans, P.opening_plans = was


class GatedExpertBot(E.ExpertBot):
    """The expert whose takes and placings see only the openings the quick gate lets through."""

    kind = NAME

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)

    def take(self, v: View) -> bool:
        with _gate():
            return super().take(v)

    def place(self, v: View) -> list[dict[str, Any]]:
        with _gate():
            return super().place(v)


BOTS[NAME] = GatedExpertBot  # at import too: the match's worker processes are spawned and import this module


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="101")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", default="exact-101")
    ap.add_argument("--rules", default=None, help="option overrides as JSON, e.g. '{\"esli\": true}'")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--deals-out", help="each deal's scores as a JSON line, as it ends")
    a = ap.parse_args()
    fh = open(a.deals_out, "w", encoding="utf-8") if a.deals_out else None  # noqa: SIM115
    try:
        out = duplicate_match("expert", NAME, variant=a.variant, rules=json.loads(a.rules) if a.rules else None,
                              n=a.deals, seed=a.seed, jobs=a.jobs, out=fh)
    finally:
        if fh is not None:
            fh.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
