"""O4: a pairs opening's value is its number of pairs, always.

Where L6 allows a lay-off in the opening turn, a pairs opener may lay off right after opening;
that lay-off adds nothing to his opening. It moves neither threshold (O2, O3) nor the siler count
(O8), and every reader of opening values sees the number of pairs: the replay, the review, the
store's statistics and the bots' view. Logs are composed with tests/golden/builder.py.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from golden.builder import LogFile, physical

from analysis.game import GameResult, apply, read_file, replay_game
from analysis.players import GreedyBot, SolverBot, View
from analysis.review import review_game
from analysis.store import connect, import_paths, queries

KIT_101 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8", "R10 B10 K10", "B1 B2 B3", "K1 K2 K3"]  # 105
KIT_51 = ["R6 R7 R8", "B6 B7 B8", "K6 K7 K8"]  # 63
OPENER = ["R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"]
SECOND = ["Y1 Y1", "Y2 Y2", "Y3 Y3", "Y4 Y4", "Y5 Y5", "Y8 Y8"]

# every preset where L6 allows a lay-off in the opening turn, by preset or by override:
# (variant, rules, pairs of the first opener, pairs the next opener needs, siler on)
CASES = [
    ("101", None, 5, 6, True),
    ("101", {"katlamali": False}, 5, 5, True),
    ("101-classic", {"layoff_opening_turn": True}, 5, 5, False),
    ("101-classic", {"layoff_opening_turn": True, "siler": True}, 5, 5, True),
    ("51", {"layoff_opening_turn": True}, 4, 4, False),
]


def _log(variant: str, rules: dict | None, first: int, second: int, *, layoff: str = "R9",
         exhaust: bool = True) -> tuple[LogFile, Any, dict[str, int]]:
    """Seat 1 opens with melds (meld 0 is R6 R7 R8); seat 2 opens with ``first`` pairs and, in
    the same turn, lays ``layoff`` off onto meld 0; seat 3 opens with ``second`` pairs. Then the
    deck runs out (E1), so the hand counts in the statistics."""
    f = LogFile()
    g = f.game("pv", variant=variant, rules=rules, hands=1)
    kit = KIT_51 if variant == "51" else KIT_101
    racks = {1: " ".join(physical(t) for m in kit for t in m.split()) + " *",
             2: " ".join(t for p in OPENER[:first] for t in p.split()) + f" {layoff} *",
             3: " ".join(t for p in SECOND[:second] for t in p.split()) + " *"}
    h = g.hand(1, starter=0, indicator="Y6", racks=racks, deck="K12 K13 B12")
    lines: dict[str, int] = {}
    h.discard(0, next(t for t in h.rack(0) if t not in ("Y7", "J", "K12", "K13", "B12")))
    h.draw(1)
    h.open(1, melds=kit)
    h.discard(1, "K12")
    declare = variant == "101-classic"  # O10
    if declare:
        h.declare(2)
    h.draw(2)
    lines["open2"] = h.open(2, pairs=OPENER[:first])
    lines["layoff"] = h.layoff(2, 0, layoff)
    lines["discard2"] = h.discard(2, "K13")
    if declare:
        h.declare(3)
    lines["draw3"] = h.draw(3)
    lines["open3"] = h.open(3, pairs=SECOND[:second])
    lines["discard3"] = h.discard(3, "B12")
    seat = 0
    while exhaust and h.deck:
        h.draw(seat)
        h.discard(seat, h.last_drawn)
        seat = (seat + 1) % 4
    return f, h, lines


def _replay(f: LogFile, tmp_path: Path) -> GameResult:
    log = tmp_path / "pv.jsonl"
    log.write_text(f.text(), encoding="utf-8")
    rr = read_file(log)
    assert not rr.errors, rr.errors
    return replay_game(rr.games[0], keep_steps=True)


def _state_after(res: GameResult, line: int):
    return next(s.state for s in res.hands[0].steps if s.line == line)


@pytest.mark.parametrize("variant,rules,first,second,siler", CASES)
def test_pairs_opening_then_layoff_then_next_pairs_opener_O4_O3_O8_L6(
        variant: str, rules: dict | None, first: int, second: int, siler: bool, tmp_path: Path) -> None:
    f, _h, lines = _log(variant, rules, first, second)
    res = _replay(f, tmp_path)
    hr = res.hands[0]
    assert hr.error is None and hr.result == "exhausted", hr.error
    ops = {o["seat"]: o for o in hr.openings}
    assert (ops[2]["kind"], ops[2]["value"]) == ("pairs", first)  # the lay-off added nothing
    assert (ops[3]["kind"], ops[3]["value"], ops[3]["threshold"]) == ("pairs", second, second)
    assert not [p for p in hr.penalties if p.rule == "O8"]  # no siler: 5 pairs (4 in 51) < 7
    after = _state_after(res, lines["discard2"])
    assert after.opened[2].value == first
    assert after.pairs_threshold(3) == second  # O3: next pairs threshold, from pairs only
    assert after.points_threshold(3) == after.points_threshold(0)  # O2: points apart
    if siler:  # the preset strikes siler, but not here
        assert after.rules.siler


def test_the_next_pairs_opener_below_the_escalated_threshold_is_refused_O3(tmp_path: Path) -> None:
    f, _h, lines = _log("101", None, 5, 5, exhaust=False)
    hr = _replay(f, tmp_path).hands[0]
    assert hr.result == "invalid" and hr.error["line"] == lines["discard3"], hr.error
    assert hr.error["rule"] in ("O3", "O2")


def test_six_pairs_and_a_layoff_strike_no_siler_but_seven_pairs_do_O8(tmp_path: Path) -> None:
    six = OPENER + ["B11 B11"]
    seven = six + ["B12 B12"]
    for pairs, struck in ((six, False), (seven, True)):
        f = LogFile()
        g = f.game("s", variant="101", hands=1)
        rack2 = " ".join(t for p in pairs for t in p.split()) + " R9 *"
        h = g.hand(1, starter=0, indicator="Y6",
                   racks={1: " ".join(t for m in KIT_101 for t in m.split()) + " *", 2: rack2},
                   deck="K12 K13")
        h.discard(0, next(t for t in h.rack(0) if t not in ("Y7", "J", "K12", "K13")))
        h.draw(1)
        h.open(1, melds=KIT_101)
        h.discard(1, "K12")
        h.draw(2)
        h.open(2, pairs=pairs)
        h.layoff(2, 0, "R9")
        h.discard(2, "K13")
        hr = _replay(f, tmp_path).hands[0]
        assert hr.error is None, hr.error
        assert hr.openings[-1]["value"] == len(pairs)
        o8 = [(p.seat, p.points) for p in hr.penalties if p.rule == "O8"]
        assert o8 == ([(2, -101)] if struck else []), o8


def test_without_L6_the_pairs_openers_layoff_waits_a_turn_L6(tmp_path: Path) -> None:
    f, _h, lines = _log("101", {"layoff_opening_turn": False}, 5, 6, exhaust=False)
    hr = _replay(f, tmp_path).hands[0]
    assert hr.result == "invalid" and hr.error["line"] == lines["layoff"] and hr.error["rule"] == "L6"


def _e5_pairs(rack: list[str]) -> int:
    """E5 for a pairs opener, by hand: face values doubled, the okey Y7 +101 (J counts as Y7)."""
    total = 0
    for t in rack:
        total += 2 * (7 if t in ("J", "Y7") else int(t[1:])) + (101 if t == "Y7" else 0)
    return total


def test_review_reads_the_pairs_opening_as_its_pairs(tmp_path: Path) -> None:
    """The review grades the opening turn with value 5 and no siler in its exposure (O8)."""
    f, _h, lines = _log("101", None, 5, 6, exhaust=False)
    res = _replay(f, tmp_path)
    left = sorted(t for t in (str(x) for x in _state_after(res, lines["discard2"]).racks[2]))
    gr = review_game(res)
    d = next(d for hv in gr.hands for d in hv.decisions if d.seat == 2 and not d.opened_before
             and d.played.get("opening"))
    assert d.played["opening"] == {"kind": "pairs", "value": 5}
    # the exposure is the rack left before the discard (left + K13), nothing struck off
    assert d.exposure_played == _e5_pairs(left + ["K13"])
    for m in d.mistakes:  # graded against the best pairs opening as pairs, not pairs + points
        assert m.detail.get("value", 5) == 5, m


def test_players_statistics_average_pairs_opening(tmp_path: Path) -> None:
    """The Players page's "average pairs opening" is the number of pairs (store + query)."""
    f, _h, _lines = _log("101", None, 5, 6)
    log = tmp_path / "pv.jsonl"
    log.write_text(f.text(), encoding="utf-8")
    con = connect(tmp_path / "pv.duckdb", seed=False)
    try:
        import_paths(con, [str(log)], workers=1)
        stats = queries.player_stats(con).set_index("player")
        ops = queries.opening_values(con)
    finally:
        con.close()
    assert stats.loc["Mehmet", "avg_pairs_opening"] == 5
    assert stats.loc["Zeynep", "avg_pairs_opening"] == 6
    assert stats.loc["Ayşe", "avg_opening"] == 105
    assert sorted(ops[ops["kind"] == "pairs"]["value"]) == [5, 6]


@pytest.mark.parametrize("bot", [GreedyBot, SolverBot])
def test_bots_see_the_next_pairs_threshold_and_open_at_it(bot: type, tmp_path: Path) -> None:
    """After a pairs opening with a same-turn lay-off, the next seat's view asks for 6 pairs (101
    escalation from 5), and a bot holding six pairs opens with them, legally."""
    f, _h, lines = _log("101", None, 5, 6, exhaust=False)
    res = _replay(f, tmp_path)
    state = _state_after(res, lines["draw3"])
    v = View.of(state, 3)
    assert v.pairs_threshold() == 6
    events = bot(random.Random(1)).place(v)
    opens = [e for e in events if e.get("type") == "open"]
    assert opens and "pairs" in opens[0] and len(opens[0]["pairs"]) >= 6, events
    for e in events:
        state = apply(state, e)
    assert state.opened[3] is not None and state.opened[3].kind == "pairs"
