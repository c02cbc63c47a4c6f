"""The recorder against hostile input: hostile taps and damaged recording files (bench/fuzz_entries.py runs
10,000 of each; here a quick slice). Every refusal is one RecordError line and changes nothing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from analysis.game.record import RecordError, Recording

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("fuzz_entries", ROOT / "bench" / "fuzz_entries.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_entries"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_hostile_entries_are_refused_in_one_line_and_leave_the_recording_as_it_was() -> None:
    tried, accepted, notes = _bench().fuzz_recorder(600, seed=7)  # type: ignore[attr-defined]
    assert tried == 600 and accepted < tried
    assert notes == []


@pytest.mark.parametrize("field,value", [("view", 4), ("starter", -1), ("hand", "1"), ("racks", [["R1"]]),
                                         ("players", "Ali"), ("events", [1]), ("dealt", "yes"), ("scores", [1, 2])])
def test_a_damaged_recording_file_is_refused_naming_the_field(field: str, value: object) -> None:
    d = Recording("r1").to_dict()
    d[field] = value
    with pytest.raises(RecordError, match=field):
        Recording.from_dict(d)


def test_a_recording_file_that_is_not_an_object_is_refused() -> None:
    for d in ([], "x", {"id": 5}):
        with pytest.raises(RecordError):
            Recording.from_dict(d)  # type: ignore[arg-type]
