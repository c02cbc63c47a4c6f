"""Golden logs (tests/data/golden/, written by tests/golden/build.py) replayed through the CLI.

The expected results were worked out by hand from docs/rules.md, not by the engine.
"""

from __future__ import annotations

import json

import pytest
from golden.builder import GOLDEN_DIR, hand_view, replay

SCENARIOS = sorted(p.name[: -len(".jsonl")] for p in GOLDEN_DIR.glob("*.jsonl"))


def test_golden_corpus_present() -> None:
    assert len(SCENARIOS) >= 19
    for name in SCENARIOS:
        assert (GOLDEN_DIR / f"{name}.expected.json").exists(), name


def test_golden_files_are_up_to_date() -> None:
    """build.py regenerates exactly the committed files."""
    from golden import build

    for name, fn in build.SCENARIOS.items():
        f = fn()
        assert (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8") == f.text(), name
        exp = json.loads((GOLDEN_DIR / f"{name}.expected.json").read_text(encoding="utf-8"))
        assert exp == f.expected(), name


@pytest.mark.parametrize("name", SCENARIOS, ids=SCENARIOS)
def test_golden(name: str) -> None:
    expected = json.loads((GOLDEN_DIR / f"{name}.expected.json").read_text(encoding="utf-8"))
    rc, out, err = replay(GOLDEN_DIR / f"{name}.jsonl")
    assert out is not None, f"no JSON from the CLI (exit {rc}): {err[-2000:]}"
    assert out.get("errors") == [], out.get("errors")
    games = {g["game"]: g for g in out["games"]}
    assert list(games) == [g["game"] for g in expected["games"]]
    for exp in expected["games"]:
        got = games[exp["game"]]
        where = exp["game"]
        got_hands = [hand_view(h) for h in got["hands"]]
        assert got_hands == exp["hands"], where
        assert got["valid"] == exp["valid"], where
        assert got["totals"] == exp["totals"], where
        assert got.get("match_points") == exp["match_points"], where
        for h in got["hands"]:
            assert h.get("mismatches") in ([], None), (where, h.get("mismatches"))
    assert rc == expected["exit_code"], err[-2000:]
