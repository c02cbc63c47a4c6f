"""The replay API the dashboard steps through, and the CLI's exit codes."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.game import log
from analysis.game import IllegalMove, apply, check_conservation, new_hand
from analysis.game import replay_game
from analysis.game import RulesError, resolve
from analysis.game import Tile, full_set, okey_of
from analysis.game.tiles import tiles


def _draw_discard_game(gid: str, seed: int, hands: int = 2, variant: str = "101") -> list[dict]:
    """Legal games where everybody draws and throws the drawn tile until the deck is empty."""
    rules = resolve(variant)
    rnd = random.Random(seed)
    out: list[dict] = [{"type": "game", "game": gid, "variant": variant, "players": ["A", "B", "C", "D"],
                        "hands": hands}]
    for h in range(1, hands + 1):
        starter = (h - 1) % 4
        bag = sorted(full_set().elements())
        rnd.shuffle(bag)
        ind = next(t for t in bag if not t.is_joker)  # T2
        bag.remove(ind)
        racks = [[str(bag.pop()) for _ in range(rules.deal + (s == starter))] for s in range(4)]
        deck = [str(t) for t in bag]
        out.append({"type": "hand", "game": gid, "hand": h, "starter": starter, "indicator": str(ind),
                    "racks": racks, "deck": list(deck)})
        okey = str(okey_of(ind))
        # the starter throws a tile that is not the okey, so no X3 is written
        first = next(t for t in racks[starter] if t != okey)
        out.append({"type": "discard", "game": gid, "hand": h, "seat": starter, "tile": first, "t": 1000})
        seat = starter
        for t in deck:
            seat = (seat + 1) % 4
            out.append({"type": "draw", "game": gid, "hand": h, "seat": seat, "tile": t})
            out.append({"type": "discard", "game": gid, "hand": h, "seat": seat, "tile": t})
    return out


def _write(tmp_path: Path, events: list[dict], name: str = "g.jsonl") -> Path:
    p = tmp_path / name
    with p.open("w", encoding="utf-8") as fh:
        log.write_events(events, fh)
    return p


def test_replay_gives_a_state_after_every_event_with_106_tiles_T1(tmp_path: Path) -> None:
    p = _write(tmp_path, _draw_discard_game("g", 3))
    game = log.read_file(p).games[0]
    res = replay_game(game)
    assert res.valid and [h.result for h in res.hands] == ["exhausted", "exhausted"]
    for h in res.hands:
        assert len(h.steps) == 1 + sum(1 for _, e in game.events if e["hand"] == h.hand and e["type"] != "hand")
        for step in h.steps:
            check_conservation(step.state)
        first, last = h.steps[0].state, h.steps[-1].state
        assert first.deck_count > 0 and last.deck_count == 0
        assert last.over and last.last_event is not None and last.last_event["type"] == "discard"


def test_stepping_back_is_indexing_states_are_immutable(tmp_path: Path) -> None:
    game = log.read_file(_write(tmp_path, _draw_discard_game("g", 4, hands=1))).games[0]
    steps = replay_game(game).hands[0].steps
    before = steps[1].state.racks
    replay_game(game)  # a second replay does not touch the first one's states
    assert steps[1].state.racks == before
    assert steps[2].state.racks != steps[1].state.racks  # the draw changed a rack


def test_write_read_round_trip_replays_identically(tmp_path: Path) -> None:
    p = _write(tmp_path, _draw_discard_game("g", 5))
    first = log.read_file(p)
    buf = io.StringIO()
    log.write(first.games, buf)
    p2 = tmp_path / "again.jsonl"
    p2.write_text(buf.getvalue(), encoding="utf-8")
    assert p2.read_text(encoding="utf-8") == p.read_text(encoding="utf-8")  # canonical already
    a, b = replay_game(first.games[0]), replay_game(log.read_file(p2).games[0])
    assert a.to_dict() | {"file": ""} == b.to_dict() | {"file": ""}


def test_gzip_logs_are_read(tmp_path: Path) -> None:
    import gzip

    p = tmp_path / "g.jsonl.gz"
    with gzip.open(p, "wt", encoding="utf-8") as fh:
        log.write_events(_draw_discard_game("gz", 6, hands=1), fh)
    rr = log.read_file(p)
    assert [g.id for g in rr.games] == ["gz"] and not rr.errors


def test_unknown_preset_or_option_is_a_clear_error() -> None:
    with pytest.raises(RulesError, match="unknown variant '102'"):
        resolve("102")
    with pytest.raises(RulesError, match="unknown rule option 'katla'"):
        resolve("101", {"katla": False})
    assert resolve("101", {"katlamali": False, "esli": True}).esli
    assert resolve("51", {"unopened": 101}).unopened_penalty == 101


def test_deal_sizes_are_checked_D1() -> None:
    bag = sorted(full_set().elements())
    ind = Tile.parse("R5")
    bag.remove(ind)
    racks = [bag[i * 21:(i + 1) * 21] for i in range(4)]
    with pytest.raises(IllegalMove) as e:
        new_hand(resolve("101"), 1, 0, ind, racks)
    assert e.value.rule == "D1"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True)


def test_cli_exit_codes_clean_bad_and_usage(tmp_path: Path) -> None:
    good = _write(tmp_path, _draw_discard_game("good", 7, hands=1), "good.jsonl")
    r = _cli("replay", str(good), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"][0]["valid"] and out["games"][0]["hands"][0]["result"] == "exhausted"
    events = _draw_discard_game("bad", 8, hands=1)
    events[5]["tile"] = "K14"  # a draw that is no tile
    bad = _write(tmp_path, events + _draw_discard_game("fine", 9, hands=1), "bad.jsonl")
    r = _cli("replay", str(bad), "--json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    by_id = {g["game"]: g for g in out["games"]}
    assert not by_id["bad"]["valid"] and by_id["bad"]["hands"][0]["error"]["line"] == 6
    assert by_id["fine"]["valid"]
    assert _cli("replay", str(tmp_path / "missing.jsonl")).returncode == 2
    assert _cli("replay").returncode == 2


def test_recorded_scores_that_differ_are_reported(tmp_path: Path) -> None:
    events = _draw_discard_game("g", 10, hands=1)
    events.append({"type": "end", "game": "g", "hand": 1, "reason": "exhausted", "scores": [0, 0, 0, 5]})
    r = _cli("replay", str(_write(tmp_path, events)), "--json")
    assert r.returncode == 1
    mm = json.loads(r.stdout)["games"][0]["hands"][0]["mismatches"]
    assert mm == [{"kind": "scores", "line": len(events), "recorded": [0, 0, 0, 5], "computed": [0, 0, 0, 0]}]


def test_apply_does_not_change_the_state_it_refuses() -> None:
    bag = sorted(full_set().elements())
    ind = Tile.parse("R5")
    bag.remove(ind)
    racks = [bag[:22], bag[22:43], bag[43:64], bag[64:85]]
    s = new_hand(resolve("101"), 1, 0, ind, racks, bag[85:])
    with pytest.raises(IllegalMove) as e:
        apply(s, {"type": "draw", "seat": 1, "tile": str(bag[85])})
    assert e.value.rule == "D2" and s.turn == 0 and len(s.racks[1]) == 21
    assert tiles("R1 J") == [Tile.parse("R1"), Tile.parse("J")]


def test_each_command_imports_only_its_own_module() -> None:
    """``istaka replay`` builds the parser of its own module only (no pandas, DuckDB or evaluator
    at start), and OWNER names, for every command, the module that registers it."""
    import argparse
    import importlib

    from analysis import cli

    for name in cli.MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        got = importlib.import_module(f"analysis.cli.{name}").register(sub)
        assert {c for c, m in cli.OWNER.items() if m == name} == set(got), name
    probe = ("import sys; from analysis.cli import build_parser; build_parser('replay'); "
             "print(sorted(m for m in ('pandas', 'duckdb', 'analysis.evaluate', 'analysis.store') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "[]", out.stdout
