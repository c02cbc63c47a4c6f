"""Seat-view logs (docs/log-format.md "Seat-view logs"): the reader, the engine's checks of
hidden seats, the scores, ``istaka view`` and the round trip.

The hand-written cases (tests/seatview_cases.py, expectations worked by hand) and every golden full
log (tests/data/golden/, hand-worked expectations) cut to each seat's view are replayed through
the CLI; a seat's view must give the full log's results, since every rule the golden logs test
depends only on what is face up or on the viewer's rack.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import seatview_cases as SC
from golden.builder import GOLDEN_DIR, REPO, hand_view

from analysis.game import read_file, replay_game, write
from analysis.game.cut import cut_view, view_id
from analysis.game.log import read_lines

CASES = {c.name: c for c in SC.cases()}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analysis.cli", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False)


def _replay_json(paths: list[Path]) -> dict:
    proc = _cli("replay", *map(str, paths), "--json")
    assert proc.stdout.strip(), proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_seatview_case_files_are_up_to_date() -> None:
    for name, c in CASES.items():
        assert (SC.DIR / f"{name}.jsonl").read_text(encoding="utf-8") == c.text(), name


@pytest.fixture(scope="module")
def case_results() -> dict:
    out = _replay_json([SC.DIR / f"{n}.jsonl" for n in CASES])
    assert out["errors"] == []
    return {g["game"]: g for g in out["games"]}


@pytest.mark.parametrize("name", sorted(CASES), ids=sorted(CASES))
def test_seatview_case_replays_as_worked_by_hand(name: str, case_results: dict) -> None:
    """Third copy (T1/T2), the viewer's tile (T1), hidden openings under the threshold (O1, O11),
    X3/X4 by hidden seats, rack sizes (P1, P5), scores from end.racks / end.scores, differences."""
    c = CASES[name]
    got = case_results[c.gid]
    assert got["view"] == 0
    (h,) = got["hands"]
    exp = c.expected
    hv = hand_view(h)
    assert hv["result"] == exp["result"]
    assert hv["error"] == exp["error"], h["error"]
    assert hv["scores"] == exp["scores"]
    assert hv["penalties"] == sorted(exp["penalties"])
    assert got["valid"] == exp["valid"]
    if "finisher" in exp:
        assert h["finisher"] == exp["finisher"]
    want = exp["mismatches"]
    assert len(h["mismatches"]) == len(want), h["mismatches"]
    for m, w in zip(h["mismatches"], want):
        assert {k: m[k] for k in w} == w
        if m["kind"] == "racks":
            assert "[T1]" in m["message"]


def _golden_games() -> list:
    out = []
    for p in sorted(GOLDEN_DIR.glob("*.jsonl")):
        exp = json.loads(p.with_name(p.name[: -len(".jsonl")] + ".expected.json").read_text(encoding="utf-8"))
        for g in read_file(p).games:
            out.append((p.name, g, next(e for e in exp["games"] if e["game"] == g.id)))
    return out


def test_every_golden_log_cut_to_each_seat_replays_as_worked_by_hand(tmp_path: Path) -> None:
    """Per preset (101, 101-classic, 51) and with partners: a seat's view of each golden game gives
    its hand-worked results (errors by rule: the cut closes hands with end events, lines move)."""
    games = _golden_games()
    presets = {g.header["variant"] for _, g, _ in games}
    assert presets == {"101", "101-classic", "51"}
    assert any((g.header.get("rules") or {}).get("esli") for _, g, _ in games)
    expected = {}
    for i, (name, g, exp) in enumerate(games):
        views = [cut_view(g, s, shown=s % 2 == 1) for s in range(4)]
        with open(tmp_path / f"{i:03d}-{name}", "w", encoding="utf-8") as f:
            write(views, f)
        for s in range(4):
            expected[view_id(g.id, s)] = exp
    out = _replay_json(sorted(tmp_path.iterdir()))
    assert out["errors"] == []
    assert len(out["games"]) == len(expected) == 4 * len(games)
    for got in out["games"]:
        exp = expected[got["game"]]

        def by_rule(h: dict) -> dict:
            return h | {"error": h["error"] and {"rule": h["error"]["rule"]}}

        assert [by_rule(hand_view(h)) for h in got["hands"]] == [by_rule(h) for h in exp["hands"]], got["game"]
        assert got["totals"] == exp["totals"], got["game"]
        assert got["match_points"] == exp["match_points"], got["game"]
        assert got["valid"] == exp["valid"], got["game"]
        for h in got["hands"]:
            assert h["mismatches"] == [], (got["game"], h["mismatches"])


def test_write_read_round_trips_a_seat_view_log() -> None:
    text = "".join(c.text() for c in CASES.values())
    rr = read_lines(text.splitlines(True), "x.jsonl")
    assert rr.errors == [] and len(rr.games) == len(CASES)
    buf = io.StringIO()
    write(rr.games, buf)
    again = read_lines(buf.getvalue().splitlines(True), "y.jsonl")
    assert [g.content() for g in again.games] == [g.content() for g in rr.games]
    buf2 = io.StringIO()
    write(again.games, buf2)
    assert buf2.getvalue() == buf.getvalue()


def test_istaka_view_writes_the_cut_and_refuses_a_bad_seat(tmp_path: Path) -> None:
    src = GOLDEN_DIR / "partners.jsonl"
    out = tmp_path / "v.jsonl.gz"
    proc = _cli("view", str(src), "--seat", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rr = read_file(out)
    assert rr.errors == []
    want = [cut_view(g, 2) for g in read_file(src).games]
    assert [g.content() for g in rr.games] == [g.content() for g in want]
    for g in rr.games:
        assert g.header["view"] == 2 and g.header["of"] == g.id.rsplit(".s", 1)[0]
        for _, ev in g.events:
            if ev["type"] == "hand":
                assert [r is None for r in ev["racks"]] == [True, True, False, True] and "deck" not in ev
            if ev["type"] == "draw":
                assert ("tile" in ev) == (ev["seat"] == 2)
    bad = _cli("view", str(src), "--seat", "5", "--out", str(tmp_path / "x.jsonl"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--seat" in bad.stderr
    again = _cli("view", str(out), "--seat", "1", "--out", str(tmp_path / "y.jsonl"))
    assert again.returncode == 1 and "already a seat-view log" in again.stderr and "Traceback" not in again.stderr


HEAD = '{"type":"game","game":"g","variant":"101","players":["a","b","c","d"]%s}\n'
HAND = '{"type":"hand","game":"g","hand":1,"starter":0,"indicator":"K3","racks":%s%s}\n'
RACK = json.dumps(SC.RACK_A)


@pytest.mark.parametrize("lines, field, words", [
    ([HEAD % ',"view":4'], "view", "seat 0-3"),
    ([HEAD % "", HAND % (f"[{RACK},null,null,null]", "")], "racks", "null only for a hidden seat"),
    ([HEAD % ',"view":0', HAND % (f"[{RACK},[],null,null]", "")], "racks", "seat 1 has []"),
    ([HEAD % ',"view":0', HAND % (f"[{RACK},null,null,null]", ',"deck":[]')], "deck", "no 'deck'"),
    ([HEAD % ',"view":0', HAND % (f"[{RACK},null,null,null]", ""),
      '{"type":"discard","game":"g","hand":1,"seat":0,"tile":"Y9"}\n',
      '{"type":"draw","game":"g","hand":1,"seat":1,"tile":"K5"}\n'], "tile", "nobody saw it"),
    ([HEAD % ',"view":1', HAND % (f"[null,{RACK},null,null]", ""),
      '{"type":"draw","game":"g","hand":1,"seat":1}\n'], "tile", "lacks field 'tile'"),
    ([HEAD % ',"view":0', HAND % (f"[{RACK},null,null,null]", ""),
      '{"type":"end","game":"g","hand":1,"reason":"finish","racks":[1,2]}\n'], "racks", "4 lists of tiles or null"),
])
def test_seat_view_format_errors_name_line_and_field(lines: list[str], field: str, words: str) -> None:
    rr = read_lines(lines, "f.jsonl")
    assert rr.games == []
    (err,) = rr.errors
    assert err.line == len(lines) and err.field == field and words in err.message, str(err)
    assert str(err).startswith(f"f.jsonl:{len(lines)} game g:")


def test_a_seat_views_replay_is_the_full_logs_on_sample_games() -> None:
    """Every seat of two self-play games (all presets' sample): same scores, penalties, totals."""
    rr = read_file(REPO / "data" / "sample" / "games.jsonl.gz")
    for g in rr.games[:2]:
        full = replay_game(g, keep_steps=False)
        for s in range(4):
            v = replay_game(cut_view(g, s), keep_steps=False)
            assert v.valid and v.agrees, (g.id, s)
            assert [h.scores for h in v.hands] == [h.scores for h in full.hands]
            assert [h.penalties for h in v.hands] == [h.penalties for h in full.hands]
            assert v.totals == full.totals
