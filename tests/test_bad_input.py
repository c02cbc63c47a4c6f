"""docs/log-format.md "What a reader must do with bad input": one test per class.

Every file holds the bad game and a good one (G2 with the okey: -202, 46, 10, 404); the bad
one is reported with its line (and rule ID where there is one) and the good one still replays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from golden import build
from golden.builder import LogFile, replay

GOOD = [-202, 46, 10, 404]


def good_game(f: LogFile, gid: str = "good") -> None:
    build._g2_hand(f, gid, "Y7")


def bad_game(f: LogFile, gid: str = "bad", rack1: str = "K9 *") -> Any:
    """A short legal start: returns the hand builder to continue."""
    g = f.game(gid, variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "K12 *", 1: rack1}, deck="Y1 Y2")
    h.discard(0, "K12")
    return h


def go(f: LogFile, tmp_path: Path) -> tuple[int, dict[str, Any]]:
    p = tmp_path / "log.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    rc, out, err = replay(p)
    assert out is not None, f"exit {rc}: {err[-2000:]}"
    return rc, out


def assert_good(out: dict[str, Any], gid: str = "good") -> None:
    games = [g for g in out["games"] if g["game"] == gid]
    assert len(games) == 1, out
    g = games[0]
    assert g["valid"] is True
    assert g["totals"] == GOOD
    assert g["hands"][0]["scores"] == GOOD and g["hands"][0]["result"] == "finish"


def read_error(out: dict[str, Any], line: int) -> dict[str, Any]:
    """The top-level error (a game that could not be read) naming ``line``."""
    hits = [e for e in out["errors"] if e.get("line") == line]
    assert hits, f"no error names line {line}: {out['errors']}"
    e = hits[0]
    assert e.get("message")
    assert "file" in e and "game" in e and "rule" in e
    return e


def hand_error(out: dict[str, Any], gid: str, line: int, *rules: str, h: int = 0) -> dict[str, Any]:
    g = next(g for g in out["games"] if g["game"] == gid)
    hv = g["hands"][h]
    assert hv["result"] == "invalid", hv
    assert hv["error"]["line"] == line, hv["error"]
    if rules:
        assert hv["error"]["rule"] in rules, hv["error"]
    assert hv["error"].get("message")
    assert g["valid"] is False
    return hv


# ---------------------------------------------------------------------------------------------
# lines that cannot be read


def test_a_line_that_is_not_json(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    h.draw(1)
    ln = f.add('{"type":"discard","game":"bad","hand":1,"seat":1,"tile":"Y1"')  # cut off
    good_game(f)
    rc, out = go(f, tmp_path)
    read_error(out, ln)
    assert_good(out)
    assert rc != 0


def test_every_bad_line_of_a_game_is_listed_up_to_a_bound_and_the_rest_counted(tmp_path: Path) -> None:
    """Not only a game's first bad line: each one with its line, up to MAX_GAME_ERRORS; past it,
    one line says how many more there are. The good game still replays."""
    from analysis.game.log import MAX_GAME_ERRORS

    f = LogFile()
    h = bad_game(f)
    h.draw(1)
    few = [f.add('{"type":"discard","game":"bad","hand":1,"seat":1,"tile":tru}'),
           f.add({"type": "discard", "game": "bad", "hand": 1, "seat": 1}),
           f.add('{"type":"draw","game":"bad","hand":1,"seat":2,"tile":"Y1"')]
    good_game(f)
    rc, out = go(f, tmp_path)
    assert [e["line"] for e in out["errors"] if e.get("game") == "bad"] == few
    assert_good(out)
    f = LogFile()
    h = bad_game(f, "many")
    lines = [f.add('{"type":"draw","game":"many","hand":1,"seat":1,"tile":tru}') for _ in range(MAX_GAME_ERRORS + 7)]
    good_game(f)
    rc, out = go(f, tmp_path)
    mine = [e for e in out["errors"] if e.get("game") == "many"]
    assert [e["line"] for e in mine[:-1]] == lines[:MAX_GAME_ERRORS]
    assert mine[-1]["line"] is None and f"7 more bad lines in this game are not listed (the first {MAX_GAME_ERRORS} are)" \
        in mine[-1]["message"]
    assert_good(out)


def test_a_line_that_lacks_a_field(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    h.draw(1)
    ln = f.add({"type": "discard", "game": "bad", "hand": 1, "seat": 1})  # no tile
    good_game(f)
    rc, out = go(f, tmp_path)
    e = read_error(out, ln)
    assert e["game"] in ("bad", None)
    assert_good(out)
    assert rc != 0


def test_a_field_of_the_wrong_type(tmp_path: Path) -> None:
    f = LogFile()
    bad_game(f)
    ln = f.add({"type": "draw", "game": "bad", "hand": 1, "seat": "1", "tile": "Y1"})  # seat str
    good_game(f)
    rc, out = go(f, tmp_path)
    read_error(out, ln)
    assert_good(out)
    assert rc != 0


def test_tiles_of_the_wrong_type(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    h.draw(1)
    ln = f.add({"type": "discard", "game": "bad", "hand": 1, "seat": 1, "tile": 7})
    good_game(f)
    _rc, out = go(f, tmp_path)
    read_error(out, ln)
    assert_good(out)


def test_an_unknown_event_type(tmp_path: Path) -> None:
    f = LogFile()
    bad_game(f)
    ln = f.add({"type": "shuffle", "game": "bad", "hand": 1, "seat": 1})
    good_game(f)
    rc, out = go(f, tmp_path)
    read_error(out, ln)
    assert_good(out)
    assert rc != 0


def test_unknown_extra_fields_are_ignored(tmp_path: Path) -> None:
    f = LogFile()
    good_game(f)
    lines = [json.loads(x) for x in f.lines]
    for ev in lines:
        ev["note"] = {"x": 1}
        ev["t"] = 1200
    f.lines = [json.dumps(ev, ensure_ascii=False) for ev in lines]
    rc, out = go(f, tmp_path)
    assert out["errors"] == []
    assert_good(out)
    assert rc == 0


# ---------------------------------------------------------------------------------------------
# moves the rules forbid: the hand is invalid from that line; the game's later hands replay


def test_a_meld_that_is_no_meld(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("bad", variant="101", hands=2)
    melds = ["R6 R7 R9"] + build.KIT1[1:]
    h = g.hand(1, starter=0, indicator="Y6",
               racks={0: "K12 *", 1: " ".join(build.tiles_of(melds).split()) + " *"}, deck="Y1")
    h.discard(0, "K12")
    h.draw(1)
    ln = h.open(1, melds=melds)
    h.discard(1, "Y1")
    # hand 2 (starter 1): seat 2 finishes elden: 404, 404, -202, 404
    build._elden(f, "", "Y8", g=g, n=2, starter=1)
    good_game(f)
    rc, out = go(f, tmp_path)
    hv = hand_error(out, "bad", ln, "M3")
    assert hv["scores"] == [0, 0, 0, 0]
    bad = next(x for x in out["games"] if x["game"] == "bad")
    assert bad["hands"][1]["result"] == "finish"
    assert bad["hands"][1]["scores"] == [404, 404, -202, 404]
    assert bad["totals"] == [404, 404, -202, 404]
    assert_good(out)
    assert rc == 1


def test_an_opening_under_the_threshold_not_taken_back(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f, rack1="R1 R2 R3 *")
    h.draw(1)
    h.open(1, melds=["R1 R2 R3"])
    ln = h.discard(1, "Y1")
    good_game(f)
    rc, out = go(f, tmp_path)
    hand_error(out, "bad", ln, "O1")
    assert_good(out)
    assert rc == 1


def test_penalties_before_the_illegal_move_stand(tmp_path: Path) -> None:
    f = LogFile()
    g = f.game("bad", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "Y7 *", 1: "R1 R2 R3 *"}, deck="Y1")
    h.discard(0, "Y7")  # X3: 101
    h.draw(1)
    h.open(1, melds=["R1 R2 R3"])
    ln = h.discard(1, "Y1")  # O1
    good_game(f)
    _rc, out = go(f, tmp_path)
    hv = hand_error(out, "bad", ln, "O1")
    assert sorted((p["seat"], p["points"], p["rule"]) for p in hv["penalties"]) == [(0, 101, "X3")]
    bad = next(x for x in out["games"] if x["game"] == "bad")
    assert bad["totals"] == [101, 0, 0, 0]
    assert_good(out)


def test_a_tile_the_player_does_not_hold(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    h.draw(1)
    held = set(h.rack(1))
    missing = next(t for t in ("K13", "R13", "B13", "Y13", "K11", "R11") if t not in held)
    ln = h.discard(1, missing, check=False)
    good_game(f)
    rc, out = go(f, tmp_path)
    hand_error(out, "bad", ln)
    assert_good(out)
    assert rc == 1


def test_a_draw_out_of_turn(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    ln = h.draw(3)
    good_game(f)
    rc, out = go(f, tmp_path)
    hand_error(out, "bad", ln, "D2", "P1")
    assert_good(out)
    assert rc == 1


def test_a_draw_that_is_not_the_decks_next_tile(tmp_path: Path) -> None:
    f = LogFile()
    h = bad_game(f)
    ln = h.draw(1, "Y2", check=False)  # the deck's next tile is Y1
    good_game(f)
    _rc, out = go(f, tmp_path)
    hand_error(out, "bad", ln)
    assert_good(out)


# ---------------------------------------------------------------------------------------------
# the same game twice


def test_the_same_game_twice_changes_nothing(tmp_path: Path) -> None:
    f = LogFile()
    good_game(f)
    f.lines = f.lines + list(f.lines)
    rc, out = go(f, tmp_path)
    assert out["errors"] == []
    assert_good(out)
    assert rc == 0


def test_a_game_id_seen_again_with_different_content(tmp_path: Path) -> None:
    f = LogFile()
    good_game(f)
    other = LogFile()
    build._g2_hand(other, "good", "Y8")  # same id, the plain-tile ending
    first = len(f.lines)
    f.lines = f.lines + other.lines
    rc, out = go(f, tmp_path)
    hits = [e for e in out["errors"] if e.get("game") == "good"]
    assert hits, out["errors"]
    assert all(e.get("line") is None or e["line"] > first for e in hits), hits
    assert_good(out)  # the first reading stands, not merged with the second
    assert rc != 0


def test_an_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    rc, _out, _err = replay(tmp_path / "nope.jsonl")
    assert rc == 2
