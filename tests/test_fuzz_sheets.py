"""Random score sheets (tests/fuzz_sheets.py) score as the rule texts say, and mutated
sheets never crash the command line nor cost a clean game its place (the hardening promises, docs/limits.md).

Each generated sheet writes the scores an oracle worked out from the rule texts (E4-E8), with or
without the hand's penalties; the engine must agree with every row. ``python bench/fuzz.py``
runs the mutated sheets at scale (``--sheets``).
"""

from __future__ import annotations

import random
from pathlib import Path

import fuzz_check
import fuzz_sheets

from analysis.game import GameLog, replay_game


def test_random_sheets_score_as_the_rule_texts_oracle_E4_E8() -> None:
    rnd = random.Random(23)
    kinds: set[str] = set()
    for i in range(400):
        evs = fuzz_sheets.sheet_game(rnd, f"s{i}")
        g = GameLog(f"s{i}", "<fuzz>", 1, evs[0], [(n, e) for n, e in enumerate(evs[1:], 2)])
        res = replay_game(g, keep_steps=False)
        assert res.valid and res.agrees, [h.error or h.mismatches for h in res.hands if h.error or h.mismatches]
        want = [0, 0, 0, 0]
        rules = res.rules.to_dict()  # type: ignore[union-attr]
        for ev in evs[1:]:
            k = ev["kind"]
            kinds.add("+".join(k) if isinstance(k, list) else k)
            for s, v in enumerate(fuzz_sheets.oracle(rules, ev)):
                want[s] += v
            if ev["kind"] != "void":  # E3: nobody is scored
                for p in ev.get("penalties", ()):
                    want[p["seat"]] += p["points"]
        assert res.totals == want, i
    assert {"normal", "okey", "elden", "pairs", "exhausted", "void", "okey+pairs"} <= kinds


def test_mutated_sheets_never_crash_and_lose_no_clean_game(tmp_path: Path) -> None:
    f = fuzz_check.check_logs(tmp_path, seed=23, mutations=0, clean=0, damaged=60, sheets=300)
    assert f.failures == 0, "\n".join(f.notes)
    assert f.clean_alone >= 60
