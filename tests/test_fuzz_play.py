"""The Play page against hostile taps (bench/fuzz_play.py runs thousands; here a quick slice):
illegal takes, tiles not held, a bot's seat, junk fields and build texts, and double and stale
taps from a page still showing an earlier step, through the page's own tap handlers and straight
to the game. Every one is refused in one line (the engine's refusals name their rule) with the
game's file unchanged; none raises."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from analysis.game.record import RecordError
from analysis.selfplay import new_game

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> object:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("fuzz_play", ROOT / "bench" / "fuzz_play.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_play"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_hostile_taps_are_refused_in_one_line_and_leave_the_game_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    t = _bench().fuzz_play(500, seed=11)  # type: ignore[attr-defined]
    assert t.notes == []
    for cls in ("take", "held", "seat", "junk", "stale", "double"):
        assert t.sent[cls] > 0 and t.refused[cls] > 0, cls
    # the rules a person can break by a tap are named: every illegal take and tile not held
    assert t.no_rule["take"] == 0 and t.no_rule["held"] == 0 and t.legal["take"] == t.legal["held"] == 0
    assert t.legal["stale"] == t.legal["double"] == 0


@pytest.mark.parametrize("event", [{"type": "discard", "seat": 0, "tile": "R1", "scores": float("nan")},
                                   {"type": "penalty", "seat": 0, "points": -500, "reason": "X1"},
                                   {"type": "end", "seat": 0, "reason": "finish"},
                                   {"type": "draw", "seat": 0, "deep": [[["R1"]]]}])
def test_a_person_makes_only_moves_with_their_own_fields(event: dict[str, object]) -> None:
    g = new_game("oyun-20261205-130000", seats=["person", "greedy", "greedy", "greedy"], names=list("abcd"),
                 seed="f1", starter=1, hands=1)
    g.bots_until_person()
    before = g.to_dict()
    with pytest.raises(RecordError) as e:
        g.person(event)
    assert "\n" not in str(e.value)
    assert g.to_dict() == before
