"""Score-sheet logs (LOG_FORMAT "Score sheets", analysis.game.sheet): golden sheets per preset and
with partners replayed through the CLI, the rule texts' worked examples (G2, the E6 and E7
tables, partners E8) scored as the texts say, and every bad field reported on one line with
file, line, field and rule while the good games of the file are still read.

The expected files in tests/data/sheets/ were worked out by hand from docs/rules.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from analysis.game import GameLog, read_file, replay_game, resolve
from analysis.game.scoring import FinishInfo, explain_counts
from analysis.game.sheet import score_sheet

ROOT = Path(__file__).resolve().parents[1]
SHEETS = ROOT / "tests" / "data" / "sheets"
GOLDEN = sorted(p.name[: -len(".expected.json")] for p in SHEETS.glob("*.expected.json"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_golden_sheets_cover_every_preset_partners_and_finish_kind() -> None:
    assert {"sheet-101", "sheet-51", "sheet-classic", "sheet-esli"} <= set(GOLDEN)
    kinds: set[str] = set()
    for name in GOLDEN:
        for line in (SHEETS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            ev = json.loads(line)
            if ev["type"] == "result":
                k = ev["kind"]
                kinds.add("+".join(k) if isinstance(k, list) else k)
    assert {"normal", "okey", "elden", "pairs", "okey+elden", "okey+pairs", "elden+pairs", "exhausted",
            "void"} <= kinds


@pytest.mark.parametrize("name", GOLDEN, ids=GOLDEN)
def test_golden_sheet_replays_as_worked_out_by_hand_E4_E8_G2_G3(name: str) -> None:
    expected = json.loads((SHEETS / f"{name}.expected.json").read_text(encoding="utf-8"))
    r = _cli("replay", "--json", str(SHEETS / f"{name}.jsonl"))
    out = json.loads(r.stdout)
    assert out["errors"] == []
    games = {g["game"]: g for g in out["games"]}
    for exp in expected["games"]:
        got = games[exp["game"]]
        assert got["sheet"] is True
        hands = [{"hand": h["hand"], "result": h["result"], "finisher": h["finisher"],
                  "finish_kinds": h["finish_kinds"], "scores": h["scores"],
                  "penalties": [[p["seat"], p["points"], p["rule"]] for p in h["penalties"]]}
                 for h in got["hands"]]
        assert hands == exp["hands"]
        assert got["totals"] == exp["totals"]
        assert got["match_points"] == exp["match_points"]
        assert got.get("team_totals") == exp.get("team_totals")
        assert (got["valid"], got["agrees"]) == (exp["valid"], exp["agrees"])
        assert [h["hand"] for h in got["hands"] if h["mismatches"]] == exp["mismatch_hands"]
    assert r.returncode == expected["exit_code"], r.stderr


def test_a_disagreeing_scores_row_is_reported_with_both_computations() -> None:
    res = replay_game(read_file(SHEETS / "sheet-101.jsonl").games[0], keep_steps=False)
    (m,) = res.hands[-1].mismatches
    assert m == {"kind": "scores", "line": 13, "recorded": [-101, 202, 13, 10], "computed": [-101, 202, 13, 0],
                 "computed_with_penalties": [-101, 202, 13, 0]}


def test_scores_written_with_or_without_the_hands_penalties_both_agree() -> None:
    rules = resolve("101")
    base: dict[str, Any] = {"type": "result", "game": "g", "hand": 1, "finisher": 0, "kind": "normal",
                            "opened": ["points", "points", None, None], "left": [None, 5, 0, 0],
                            "penalties": [{"seat": 2, "rule": "X3", "points": 101}]}
    for scores, agrees in (([-101, 5, 202, 202], True), ([-101, 5, 303, 202], True), ([-101, 5, 0, 202], False)):
        (h,) = score_sheet(rules, [(2, {**base, "scores": scores})])
        assert (not h.mismatches) is agrees, scores


# ---- the rule texts' worked examples -------------------------------------------------------

def _score(variant: str, kinds: tuple[str, ...], opened: list[str | None], left: list[int | None],
           finisher: int | None = 0, esli: bool = False, okeys: tuple[int, ...] = (0, 0, 0, 0)) -> list[int]:
    rules = resolve(variant, {"esli": True} if esli else None)
    others = any(opened[s] for s in range(4) if s != finisher)
    info = (FinishInfo("finish", finisher, kinds, others) if finisher is not None
            else FinishInfo("exhausted", None, (), True))
    return [x.score for x in explain_counts(rules, info, left, opened, list(okeys))]


def test_G2_worked_example_okey_finish_and_plain_finish() -> None:
    # [004]: Ali finishes with an okey; Ayşe 3+9+11, Mehmet 5, Zeynep never opened
    opened = ["points", "points", "points", None]
    assert _score("101", ("okey",), opened, [None, 23, 5, 0]) == [-202, 46, 10, 404]
    assert _score("101", (), opened, [None, 23, 5, 0]) == [-101, 23, 5, 202]


@pytest.mark.parametrize("kinds,fin,unopened,mult", [
    ((), -101, 202, 1), (("okey",), -202, 404, 2), (("elden",), -202, 404, 2), (("pairs",), -202, 404, 2),
    (("okey", "elden"), -404, 808, 4), (("okey", "pairs"), -404, 808, 4)])
def test_E6_table_every_row(kinds: tuple[str, ...], fin: int, unopened: int, mult: int) -> None:
    # [004]'s table: finisher, unopened opponent, opened opponent (rack x mult)
    opened: list[str | None] = ["pairs" if "pairs" in kinds else "points", None, "points", "points"]
    if "elden" in kinds:
        assert _score("101", kinds, ["points", None, None, None], [None, 9, 9, 9]) == [fin, unopened, unopened,
                                                                                        unopened]
    else:
        assert _score("101", kinds, opened, [None, 9, 30, 7]) == [fin, unopened, 30 * mult, 7 * mult]


@pytest.mark.parametrize("kinds,nobody_else,fin,opp_mult", [
    ((), False, -51, 1), ((), True, -51, 2), (("pairs",), False, -102, 2), (("okey",), False, -102, 2),
    (("okey", "pairs"), False, -204, 4), (("okey", "pairs"), True, -204, 8)])
def test_E7_rules_for_51(kinds: tuple[str, ...], nobody_else: bool, fin: int, opp_mult: int) -> None:
    # [003]: -51; nobody else opened, pairs, an okey discard each double the opponents; pairs and okey
    # also double the finisher: all three x 8, pairs and okey -204 and x 4
    opened: list[str | None] = ["pairs" if "pairs" in kinds else "points", None,
                                None if nobody_else else "points", None]
    assert _score("51", kinds, opened, [None, 0, 10, 0]) == [
        fin, 102 * opp_mult, 102 * opp_mult if nobody_else else 10 * opp_mult, 102 * opp_mult]


def test_partners_worked_example_E8_G4() -> None:
    # [000] Eşli 101: Ali finishes normally: Ali -101, his partner 0, team -101; each unopened
    # opponent 202 (404 to their team); an opened opponent his tiles, doubled if he opened pairs
    assert _score("101", (), ["points", None, None, None], [None, 0, 33, 0], esli=True) == [-101, 202, 0, 202]
    assert _score("101", (), ["points", "pairs", "points", None], [None, 12, 33, 0], esli=True) == [-101, 24, 0, 202]
    # okey, pairs or elden: 404 each unopened opponent; pairs with an okey: 808
    assert _score("101", ("okey",), ["points", None, None, None], [None, 0, 0, 0], esli=True) == [-202, 404, 0, 404]
    assert _score("101", ("okey", "pairs"), ["pairs", None, None, None], [None, 0, 0, 0],
                  esli=True) == [-404, 808, 0, 808]


def test_okeys_left_are_added_unmultiplied_to_opened_racks_E5() -> None:
    # +101 per okey left in an opened player's rack, not multiplied (E6); an unopened one gets 202 x
    assert _score("101", ("okey",), ["points", "points", None, None], [None, 10, 0, 0],
                  okeys=(0, 1, 1, 0)) == [-202, 20 + 101, 404, 404]


def test_exhausted_hand_nobody_opened_scores_nobody_E4() -> None:
    assert _score("101", (), [None] * 4, [5, 6, 7, 8], finisher=None) == [0, 0, 0, 0]
    assert _score("101", (), ["pairs", None, None, None], [5, 6, 7, 8], finisher=None) == [10, 202, 202, 202]


# ---- bad input ------------------------------------------------------------------------------

def test_every_bad_field_is_one_line_with_file_line_field_rule_and_good_games_still_read() -> None:
    path = SHEETS / "sheet-bad.jsonl"
    rr = read_file(path)
    errs = {e.game: e for e in rr.errors}
    assert {(g, e.line, e.field, e.rule) for g, e in errs.items()} == {
        ("bad-kind", 2, "kind", "E6"), ("bad-left", 4, "left", "E5"), ("move-in-sheet", 6, "type", "G1"),
        ("result-in-full-log", 8, "type", "G1")}
    for e in rr.errors:
        text = str(e)
        assert "\n" not in text and text.startswith(f"{path}:{e.line}") and f"[{e.rule}]" in text
    games = {g.id: replay_game(g, keep_steps=False) for g in rr.games}
    assert set(games) == {"rules-broken", "good"}
    assert games["good"].valid and games["good"].totals == [9, 202, 202, -101]
    broken = [(h.hand, h.error["line"], h.error["field"], h.error["rule"]) for h in games["rules-broken"].hands
              if h.error]
    assert broken == [(1, 10, "finisher", "E2"), (2, 11, "kind", "E2"), (3, 12, "left", "E5"),
                      (4, 13, "penalties", "X5"), (5, 14, "penalties", "O8"), (7, 15, "hand", "G1"),
                      (8, 16, "kind", "E6")]
    r = _cli("replay", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    assert "breaks a rule, line 13: field 'penalties[0]'" in r.stdout and "[X5]" in r.stdout


@pytest.mark.parametrize("variant,penalty,rule", [
    ("101-classic", {"seat": 0, "rule": "O8", "points": -101}, "O8"),  # no siler in 101-classic
    ("101", {"seat": 1, "rule": "X3", "points": 202}, "X3"),  # one unit, 101
    ("51", {"seat": 1, "rule": "X5", "points": 70}, "X5"),  # X5 is 101 only
    ("101", {"seat": 1, "rule": "X7", "points": 101}, "X7"),  # X7 is 101-classic only
    ("101", {"seat": 1, "rule": "Z9", "points": 101}, "X1"),
])
def test_a_penalty_the_games_rules_do_not_write_makes_its_hand_invalid(variant: str, penalty: dict[str, Any],
                                                                        rule: str) -> None:
    ev = {"type": "result", "game": "g", "hand": 1, "finisher": 0, "kind": "normal",
          "opened": ["points", "points", None, None], "left": [None, 5, 0, 0], "penalties": [penalty]}
    (h,) = score_sheet(resolve(variant), [(2, ev)])
    assert h.error is not None and h.error["rule"] == rule and h.scores == (0, 0, 0, 0)


def test_without_cezali_no_x_penalty_is_written_X1() -> None:
    ev = {"type": "result", "game": "g", "hand": 1, "finisher": 0, "kind": "normal",
          "opened": ["points", "points", None, None], "left": [None, 5, 0, 0],
          "penalties": [{"seat": 1, "rule": "X4", "points": 101}]}
    (h,) = score_sheet(resolve("101", {"cezali": False}), [(2, ev)])
    assert h.error is not None and h.error["rule"] == "X1"
    (h,) = score_sheet(resolve("101"), [(2, ev)])
    assert h.error is None and [(p.seat, p.points) for p in h.penalties] == [(1, 101)]


def test_a_void_hand_is_played_again_with_its_number_E3() -> None:
    void = {"type": "result", "game": "g", "hand": 1, "finisher": None, "kind": "void",
            "opened": ["pairs"] * 4, "left": [None] * 4}
    nxt = {"type": "result", "game": "g", "hand": 2, "finisher": 0, "kind": "normal",
           "opened": ["points", None, None, None], "left": [None, 0, 0, 0]}
    hands = score_sheet(resolve("101"), [(2, void), (3, nxt)])
    assert hands[1].error is not None and hands[1].error["rule"] == "E3"
    hands = score_sheet(resolve("101"), [(2, void), (3, {**nxt, "hand": 1})])
    assert [h.result for h in hands] == ["void", "finish"]
    (h,) = score_sheet(resolve("51"), [(2, void)])  # 51: four pairs openings do not void a hand
    assert h.error is not None and h.error["rule"] == "E3"


def test_a_hand_past_the_games_planned_count_is_invalid_G1() -> None:
    """A sheet of 3 hands: a fourth result is past the end of the game; it scores nothing and the
    totals stay those of the three hands (the header's count, else the rules' hands)."""
    res = {"type": "result", "game": "g", "finisher": 0, "kind": "normal",
           "opened": ["points", "points", None, None], "left": [None, 10, 0, 0]}
    evs = [(i + 2, {**res, "hand": i + 1}) for i in range(4)]
    hands = score_sheet(resolve("101"), evs, planned=3)
    assert [h.error for h in hands[:3]] == [None] * 3
    assert hands[3].error is not None and hands[3].error["rule"] == "G1" and hands[3].error["field"] == "hand"
    assert "past the end of a game of 3 hands" in hands[3].error["message"] and hands[3].scores == (0, 0, 0, 0)
    assert score_sheet(resolve("101", {"hands": 4}), evs)[3].error is None  # no header count: the rules' own
    head = {"type": "game", "game": "g", "variant": "101", "players": ["A", "B", "C", "D"], "hands": 3, "sheet": True}
    out = replay_game(GameLog("g", "<sheet>", 1, head, evs))  # as the store replays a sheet it saves
    assert out.hands[3].error is not None and out.hands[3].error["rule"] == "G1"
    assert out.totals == [-303, 30, 606, 606]
