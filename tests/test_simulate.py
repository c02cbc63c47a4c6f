"""Self-play: the game loop, the bots' limited view, determinism and the CLI."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import ClassVar

import pytest

from analysis.selfplay import simulate as S
from analysis.players import Bot, GreedyBot, View, redact
from analysis.selfplay import make_bot
from analysis.cli import main
from analysis.game import HandState, check_conservation
from analysis.game import dumps, read_file
from analysis.game.log import read_lines
from analysis.game import replay_game
from analysis.game import resolve
from analysis.selfplay import GameRecord, GameSpec, Player, play_game, specs
from analysis.selfplay import CAST, sample_specs
from analysis.game import FALSE_OKEY, full_set

GREEDY4 = tuple(Player(f"G{i}", "greedy") for i in range(4))


def _text(recs: list[GameRecord]) -> str:
    return "".join(line for r in recs for line in r.lines())


# ---- determinism -----------------------------------------------------------------------------


def test_same_seed_gives_the_same_bytes_and_another_seed_does_not() -> None:
    a = _text([play_game(s) for s in specs(2, seed=5, hands=2, bots=("solver", "greedy", "random", "greedy"))])
    b = _text([play_game(s) for s in specs(2, seed=5, hands=2, bots=("solver", "greedy", "random", "greedy"))])
    c = _text([play_game(s) for s in specs(2, seed=6, hands=2, bots=("solver", "greedy", "random", "greedy"))])
    assert a == b
    assert a != c


def test_cli_same_seed_same_file_bytes_with_and_without_jobs(tmp_path: Path) -> None:
    args = ["simulate", "--games", "3", "--hands", "1", "--seed", "11", "--quiet", "--variant", "51",
            "--bots", "solver,greedy,random,solver"]
    f1, f2, f3 = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz", tmp_path / "c.jsonl.gz"
    assert main(args + ["--out", str(f1)]) == 0
    assert main(args + ["--out", str(f2)]) == 0
    assert main(args + ["--out", str(f3), "--jobs", "2"]) == 0
    assert f1.read_bytes() == f2.read_bytes() == f3.read_bytes()
    rr = read_file(f1)
    assert rr.errors == [] and len(rr.games) == 3


def test_cli_writes_a_log_that_replays_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    assert main(["simulate", "--games", "2", "--hands", "2", "--variant", "101-classic",
                 "--rules", '{"esli": true}', "--bots", "solver,greedy,random,greedy",
                 "--seed", "3", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["variant"] == "101-classic" and header["rules"] == {"esli": True}
    assert header["players"] == ["solver-1", "greedy-2", "random-3", "greedy-4"]


def test_same_seed_same_bytes_under_different_hash_seeds(tmp_path: Path) -> None:
    """Nothing may depend on set or dict order of hashed strings (PYTHONHASHSEED)."""
    import os
    import subprocess
    import sys

    outs = []
    for h in ("1", "77"):
        out = tmp_path / f"h{h}.jsonl"
        subprocess.run([sys.executable, "-m", "analysis.cli", "simulate", "--games", "1", "--hands", "2", "--seed", "4",
                        "--bots", "solver,greedy,solver,random", "--quiet", "--out", str(out)],
                       check=True, env={**os.environ, "PYTHONHASHSEED": h}, capture_output=True)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0]


@pytest.mark.parametrize("bad", [["--bots", "solver,greedy"], ["--bots", "genius"], ["--rules", "{nope"],
                                 ["--rules", '{"no_such_option": 1}'], ["--variant", "99"]])
def test_cli_refuses_bad_arguments_with_exit_2(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--quiet", *bad]) == 2
    assert "istaka simulate" in capsys.readouterr().err


# ---- the log's content -----------------------------------------------------------------------


def test_log_has_deck_think_times_names_dates_site_penalties_and_ends() -> None:
    spec = GameSpec("g", tuple(Player(n, "greedy", 1.0) for n in ("Ayşe", "Ali", "Can", "Nur")), "101",
                    None, "4", "2026-10-01T20:00:00+00:00", "Kahve", 3)
    rec = play_game(spec)
    evs = rec.events
    head = evs[0]
    assert head["players"] == ["Ayşe", "Ali", "Can", "Nur"]
    assert head["started"] == "2026-10-01T20:00:00+00:00" and head["site"] == "Kahve"
    hands = [e for e in evs if e["type"] == "hand"]
    assert len(hands) == 3 and all(len(h["deck"]) == 106 - 1 - 85 for h in hands)
    ends = [e for e in evs if e["type"] == "end"]
    assert len(ends) == 3 and all(len(e["scores"]) == 4 for e in ends)
    moves = [e for e in evs if e["type"] in ("draw", "take", "discard", "open", "layoff")]
    assert moves and all(isinstance(e["t"], int) and e["t"] > 0 for e in moves)
    # think times grow within a hand
    for h in range(1, 4):
        ts = [e["t"] for e in evs if e.get("hand") == h and "t" in e]
        assert ts == sorted(ts)
    # penalty events are exactly the engine's penalties
    pens = Counter((e["seat"], e["points"], e["reason"]) for e in evs if e["type"] == "penalty")
    assert pens == Counter((p.seat, p.points, p.rule) for f in rec.finals for p in f.penalties)


def test_void_hand_is_played_again_with_the_same_number_and_starter_E3(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = S._Hand.run
    voided: list[int] = []

    def run_voiding_the_first(self: S._Hand) -> HandState:
        end = orig(self)
        if not voided:
            voided.append(self.number)
            return replace(end, result="void", scores=(0, 0, 0, 0))
        return end

    monkeypatch.setattr(S._Hand, "run", run_voiding_the_first)
    rec = play_game(GameSpec("v", GREEDY4, "101", None, "1", hands=2))
    hands = [(e["hand"], e["starter"]) for e in rec.events if e["type"] == "hand"]
    assert [n for n, _ in hands] == [1, 1, 2]
    assert hands[0][1] == hands[1][1] and hands[2][1] == (hands[1][1] + 1) % 4
    assert rec.void_hands == 1 and rec.hands_played == 3


class _JokersLast(random.Random):
    """A shuffle that leaves both false okeys on top of the pile, where the indicator is drawn."""

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        super().shuffle(x)
        x.sort(key=lambda t: t == FALSE_OKEY)


def test_a_false_okey_drawn_as_indicator_is_put_back_and_another_drawn_T2() -> None:
    rec = GameRecord(GameSpec("t2", GREEDY4, hands=1))
    rng = _JokersLast(3)
    h = S._Hand(rec, resolve("101"), 1, 2, rng, [GreedyBot(rng)] * 4, GREEDY4)
    assert not h.state.indicator.is_joker
    check_conservation(h.state)
    dealt = Counter(t for r in h.state.racks for t in r) + Counter(h.state.deck) + Counter([h.state.indicator])
    assert dealt == full_set()
    assert len(h.state.racks[2]) == 22 and len(h.state.racks[0]) == 21


def test_deal_sizes_and_starters_follow_D1_D2_in_51() -> None:
    rec = play_game(GameSpec("d", GREEDY4, "51", None, "9", hands=4))
    hands = [e for e in rec.events if e["type"] == "hand"]
    starters = [e["starter"] for e in hands]
    assert all(b == (a + 1) % 4 for a, b in pairwise(starters))
    for e in hands:
        assert [len(r) for r in e["racks"]] == [15 if s == e["starter"] else 14 for s in range(4)]


# ---- what a bot may see ----------------------------------------------------------------------


class _Spy(Bot):
    """Wraps a bot and records every state it is shown."""

    seen: ClassVar[list[tuple[int, HandState, tuple[int, ...]]]] = []

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.rng)
        self.inner = inner

    def _log(self, v: View) -> View:
        _Spy.seen.append((v.seat, v.state, v.rack_sizes))
        return v

    def show(self, v: View) -> bool:
        return self.inner.show(self._log(v))

    def declare(self, v: View) -> bool:
        return self.inner.declare(self._log(v))

    def take(self, v: View) -> bool:
        return self.inner.take(self._log(v))

    def place(self, v: View) -> list:
        return self.inner.place(self._log(v))

    def discard(self, v: View):  # type: ignore[no-untyped-def]
        return self.inner.discard(self._log(v))


def test_bots_see_only_their_own_rack_never_the_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    _Spy.seen = []
    real = S.make_bot
    monkeypatch.setattr(S, "make_bot", lambda kind, rng: _Spy(real(kind, rng)))
    play_game(GameSpec("spy", tuple(Player(f"P{i}", b) for i, b in enumerate(("solver", "greedy", "random", "greedy"))),
                       "101", {"esli": True}, "2", hands=2))
    assert len(_Spy.seen) > 100
    for seat, st, sizes in _Spy.seen:
        states = [st]
        while states[-1].turn_base is not None:
            states.append(states[-1].turn_base)  # the takeback base must be redacted too
        for s in states:
            assert s.deck is None
            assert all(r == () for k, r in enumerate(s.racks) if k != seat)
        assert sizes[seat] == len(st.racks[seat])


def test_redact_keeps_public_information() -> None:
    rec = play_game(GameSpec("r", GREEDY4, "101", None, "1", hands=1))
    final = rec.finals[0]
    v = View.of(final, 1)
    assert v.state.table == final.table and v.state.discards == final.discards
    assert v.state.opened == final.opened and v.state.deck_count == final.deck_count
    assert v.rack == final.racks[1] and v.rack_sizes == tuple(len(r) for r in final.racks)
    assert redact(final, 1).racks[0] == ()


def test_make_bot_refuses_an_unknown_strength() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", random.Random(0))


# ---- the sample set --------------------------------------------------------------------------


def test_sample_specs_cover_presets_partners_overrides_cast_and_weeks() -> None:
    sp = sample_specs()
    assert len(sp) >= 40
    assert {s.variant for s in sp} == {"101", "101-classic", "51"}
    assert any(s.rules and s.rules.get("esli") for s in sp)
    assert any(s.rules and set(s.rules) - {"esli", "hands"} for s in sp)
    names = Counter(p.name for s in sp for p in s.players)
    assert set(names) == {p.name for p in CAST} and len(names) == 9
    assert {p.bot for p in CAST} == {"solver", "greedy", "random", "expert"}
    days = sorted({s.started[:10] for s in sp if s.started})
    from datetime import date
    span = date.fromisoformat(days[-1]) - date.fromisoformat(days[0])
    assert span.days >= 21
    assert len({s.game for s in sp}) == len(sp)


def test_committed_sample_is_the_regenerated_sample_and_replays_cleanly() -> None:
    files = sorted(Path(__file__).resolve().parents[1].glob("data/sample/games*.jsonl*"))
    assert files, "data/sample/ holds the sample logs"
    games = []
    for f in files:
        rr = read_file(f)
        assert rr.errors == []
        games += rr.games
    assert len(games) >= 40
    ids = [g.id for g in games]
    assert ids == [s.game for s in sample_specs()]
    # a game without a solver or expert bot regenerates byte for byte from its spec (games with
    # one follow the solver's tie-breaks, which its author may refine: regenerate the sample then)
    spec = next(s for s in sample_specs() if all(p.bot not in ("solver", "expert") for p in s.players))
    again = play_game(spec).lines()
    by_id = {g.id: g for g in games}
    assert [dumps(e) + "\n" for e in by_id[spec.game].content()] == again
    for g in games[:6]:
        res = replay_game(g, keep_steps=False)
        assert res.valid and res.agrees


# ---- a hand played on from a position ----------------------------------------------------------


def _mid_hand(step: int = 12) -> tuple[HandState, HandState]:
    """A greedy game's hand 1 at ``step`` (replayed) and that hand's last state as played."""
    rec = play_game(GameSpec("on-1", GREEDY4, "101", seed="play-on", hands=1))
    res = replay_game(read_lines(rec.lines()).games[0], keep_steps=True)
    hr = res.hands[0]
    return hr.steps[step].state, hr.steps[-1].state


def test_play_on_ends_the_hand_the_same_way_for_the_same_seed_and_keeps_the_tiles() -> None:
    start, _ = _mid_hand()
    a = S.play_on(start, ("greedy",) * 4, seed=1)
    b = S.play_on(start, ("greedy",) * 4, seed=1)
    assert a.over and a.scores is not None and a == b
    check_conservation(a)  # every tile still somewhere, none made (T1)


def test_play_on_plays_the_truth_it_is_given_a_sampled_world_changes_the_end() -> None:
    """The racks and deck of the state are the hand's truth: with the deck reversed the draws,
    and so (almost surely) the end, differ; with it as dealt, greedy bots replay what they played."""
    start, end = _mid_hand()
    assert start.deck is not None
    again = S.play_on(start, ("greedy",) * 4, seed=2)
    assert again.scores == end.scores  # greedy is deterministic: the same truth, the same hand
    other = S.play_on(replace(start, deck=tuple(reversed(start.deck))), ("greedy",) * 4, seed=2)
    assert other.scores != end.scores or other.discards != end.discards


def test_play_on_stops_after_the_turns_asked_on_the_way_to_the_same_end() -> None:
    """``turns``: that many turns of the full play-on, no more; playing on from there with the
    same seed's bots ends the hand where the full play ends it (greedy keeps no hidden state)."""
    start, _ = _mid_hand()
    full = S.play_on(start, ("greedy",) * 4, seed=3)
    assert S.play_on(start, ("greedy",) * 4, seed=3, turns=0) == start
    one = S.play_on(start, ("greedy",) * 4, seed=3, turns=1)
    assert not one.over and one.turn == (start.turn + 1) % 4 and one.phase == "draw"
    check_conservation(one)
    four = S.play_on(start, ("greedy",) * 4, seed=3, turns=4)
    assert S.play_on(four, ("greedy",) * 4, seed=3).scores == full.scores


def test_play_on_refuses_a_state_without_its_deck_and_a_wrong_number_of_bots() -> None:
    start, _ = _mid_hand()
    with pytest.raises(ValueError, match="deck"):
        S.play_on(replace(start, deck=None), ("greedy",) * 4)
    with pytest.raises(ValueError, match="four bots"):
        S.play_on(start, ("greedy",) * 3)


def test_a_void_hands_replay_starts_the_bots_notes_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """E3: a void hand is dealt again under the same number, from ply 1. The solver-based bots key
    their notes by (hand, ply, ...): a note of the void deal (a turn's plan played) passed for the
    replay's, so a `solver` seat that took a discard to open with it (P2) did not open and its
    discard was refused (seen in a `101-classic` match: deal 486 of seed s28final)."""
    from analysis.players import SolverBot
    from analysis.selfplay.match import deal_spec

    spec = deal_spec(("solver", "expert", "solver", "solver"), "101-classic", "s28final", 486)
    rec = play_game(spec)
    assert rec.void_hands == 1 and rec.hands_played == 2  # the first deal is void: four pairs openers
    assert rec.refused == 0
    monkeypatch.setattr(SolverBot, "new_deal", lambda self: None)  # the notes carried over, as before
    assert play_game(spec).refused == 1
