"""Damaged input, limits, processes and messages, one test per promise; and the tests
that the hand-made mutants of bench/mutants.py showed missing (X3 not X4, the same game in two
files, one game per transaction with --batch 1, the L6 option on its own)."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import store_logs
from golden import build
from golden.build import KIT1, tiles_of
from golden.builder import LogFile, replay

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "analysis.cli", *args], cwd=REPO, capture_output=True,
                       timeout=timeout, input=stdin, check=False)
    out = subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode("utf-8", "replace"),
                                      p.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    return out


def games(n: int, prefix: str = "g") -> list[list[dict[str, Any]]]:
    return [store_logs.make_game(f"{prefix}{i}", seed=i, hands=1) for i in range(n)]


def text(gs: list[list[dict[str, Any]]]) -> str:
    return "".join(store_logs.lines(g) for g in gs)


def replay_json(*paths: Path) -> tuple[int, dict[str, Any]]:
    p = cli("replay", "--json", *map(str, paths))
    return p.returncode, json.loads(p.stdout)


def clean(out: dict[str, Any]) -> set[str]:
    return {g["game"] for g in out["games"] if g["valid"] and g["agrees"]}


# ---- damaged files (LOG_FORMAT "What a reader must do with bad input") -----------------------


def test_invalid_utf8_makes_only_its_own_line_unreadable_with_its_real_line(tmp_path: Path) -> None:
    gs = games(3)
    raw = text(gs).encode()
    lines = raw.split(b"\n")
    bad = len(store_logs.lines(gs[0]).splitlines()) + 3  # the 3rd event of game g1
    lines[bad - 1] = lines[bad - 1].replace(b'"t":', b'"note":"\xff\xfe","t":', 1)
    p = tmp_path / "utf8.jsonl"
    p.write_bytes(b"\n".join(lines))
    rc, out = replay_json(p)
    assert rc == 1
    assert clean(out) == {"g0", "g2"}
    (err,) = out["errors"]
    assert err["line"] == bad and err["game"] == "g1" and "UTF-8" in err["message"]


def test_a_bom_is_skipped_and_a_truncated_gzip_keeps_every_game_before_the_damage(tmp_path: Path) -> None:
    gs = games(4)
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + text(gs).encode())
    rc, out = replay_json(p)
    assert (rc, clean(out), out["errors"]) == (0, {"g0", "g1", "g2", "g3"}, [])
    gz = gzip.compress(text(gs).encode(), mtime=0)
    (tmp_path / "trailer.jsonl.gz").write_bytes(gz[:-8])  # every line is there, the trailer is not
    rc, out = replay_json(tmp_path / "trailer.jsonl.gz")
    assert rc == 1 and clean(out) == {"g0", "g1", "g2", "g3"}
    assert [e["game"] for e in out["errors"]] == [None] and "trailer" in out["errors"][0]["message"]
    cut = len(text(gs[:3]).encode()) + 40  # 40 bytes into g3
    data = gzip.compress(text(gs).encode(), mtime=0)
    for size in range(len(data) - 9, 20, -1):  # the shortest gzip prefix that still decodes g0-g2
        import zlib

        try:
            got = len(zlib.decompressobj(31).decompress(data[:size]))
        except zlib.error:
            continue
        if got < cut:
            break
    (tmp_path / "cut.jsonl.gz").write_bytes(data[:size + 1])
    rc, out = replay_json(tmp_path / "cut.jsonl.gz")
    assert rc == 1 and {"g0", "g1"} <= clean(out)
    assert any("truncated" in e["message"] and e["line"] for e in out["errors"])
    db = tmp_path / "t.duckdb"
    p = cli("import", "--db", str(db), "--no-progress", str(tmp_path / "trailer.jsonl.gz"))
    assert p.returncode == 1 and "4 stored" in p.stdout


def test_a_cut_game_header_is_charged_to_its_game_not_to_its_neighbour(tmp_path: Path) -> None:
    a, b, c = games(3)
    header = store_logs.lines([b[0]]).rstrip("\n")
    cut = header[: header.index('"variant"') + 5]  # the game's name is still on the line
    p = tmp_path / "cut.jsonl"
    p.write_text(store_logs.lines(a) + cut + "\n" + store_logs.lines(b[1:]) + store_logs.lines(c))
    rc, out = replay_json(p)
    assert rc == 1 and clean(out) == {"g0", "g2"}
    assert {e["game"] for e in out["errors"]} == {"g1"}
    line_no = len(store_logs.lines(a).splitlines()) + 1
    assert [e["line"] for e in out["errors"]] == [line_no]
    # the same broken line naming no game is charged to no complete game
    p.write_text(store_logs.lines(a) + '{"type":"ga\n' + store_logs.lines(c))
    rc, out = replay_json(p)
    assert clean(out) == {"g0", "g2"} and [e["game"] for e in out["errors"]] == [None]


def test_replay_of_an_undecodable_file_exits_2_and_still_replays_the_others(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(text(games(1)))
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(b"this is not gzip at all")
    rc, out = replay_json(bad, good, tmp_path / "missing.jsonl")
    assert rc == 2
    assert clean(out) == {"g0"}
    assert sorted(Path(e["file"]).name for e in out["errors"]) == ["bad.jsonl.gz", "missing.jsonl"]


def test_limits_nesting_length_and_ascii_tile_digits_each_refuse_only_their_game(tmp_path: Path) -> None:
    gs = games(5)
    gs[0][1]["note"] = json.loads("[" * 70 + "]" * 70)  # past MAX_DEPTH (64)
    gs[1][0]["site"] = "x" * 10_001  # past MAX_STRING
    gs[2][1]["indicator"] = "Y١"  # an Arabic-Indic digit is not a tile number
    gs[3][0]["rules"] = {"deal": ["a", "b"]}
    p = tmp_path / "limits.jsonl"
    p.write_text(text(gs))
    rc, out = replay_json(p)
    assert rc == 1 and clean(out) == {"g4"}
    msgs = {e["game"]: e["message"] for e in out["errors"]}
    assert "nested deeper than 64" in msgs["g0"] and "10,000" in msgs["g1"] and "D1" in msgs["g3"]
    bad_tile = next(g for g in out["games"] if g["game"] == "g2")
    assert bad_tile["hands"][0]["error"]["rule"] == "T1" and "Y١" in bad_tile["hands"][0]["error"]["message"]


def test_integers_past_the_store_are_a_store_error_for_their_game_only(tmp_path: Path) -> None:
    gs = games(4)
    gs[0][0]["hands"] = 2**63 + 5  # past int64: Arrow
    gs[1][0]["hands"] = 2**40  # past INTEGER: the database
    gs[2][0]["started"] = "9999-12-31T23:59:59-14:00"  # past year 9999 in UTC: kept as text
    p = tmp_path / "big.jsonl"
    p.write_text(text(gs))
    db = tmp_path / "big.duckdb"
    r = cli("import", "--db", str(db), "--no-progress", "--json", str(p))
    s = json.loads(r.stdout)
    assert r.returncode == 1 and (s["stored"], s["failed"]) == (2, 2)
    e = cli("errors", "--db", str(db), "--json")
    rows = [json.loads(x) for x in e.stdout.splitlines()]
    assert {x["game"] for x in rows if x["kind"] == "store"} == {"g0", "g1"}
    assert all("hands_planned" in x["message"] and x["line"] for x in rows if x["kind"] == "store")


def test_errors_prints_errors_without_a_line(tmp_path: Path) -> None:
    p = tmp_path / "trailer.jsonl.gz"
    p.write_bytes(gzip.compress(text(games(1)).encode(), mtime=0)[:-8])
    db = tmp_path / "e.duckdb"
    cli("import", "--db", str(db), "--no-progress", str(p))
    e = cli("errors", "--db", str(db))
    assert e.returncode == 1 and "trailer" in e.stdout
    (row,) = [json.loads(x) for x in cli("errors", "--db", str(db), "--json").stdout.splitlines()]
    assert row["line"] is None or isinstance(row["line"], int)


# ---- istaka solve ---------------------------------------------------------------------------


def test_solve_refuses_what_a_position_cannot_hold_quickly(tmp_path: Path) -> None:
    rack60 = " ".join(f"{c}{n}" for c in "RYBK" for n in range(1, 14)) + " R1 R2 R3 R4 R5 R6 R7 J"
    t0 = time.monotonic()
    p = cli("solve", "--rack", rack60, "--indicator", "R5", "--json", timeout=30)
    assert p.returncode == 2 and "60 tiles" in p.stderr and "22" in p.stderr
    assert time.monotonic() - t0 < 30
    for pos, what in (({"opened": [1]}, "opened"), ({"openings": [[1]]}, "openings"), ({"table": 5}, "table"),
                      ({"end_counts": 5}, "end_counts"), ({"threshold": []}, "threshold"),
                      ({"threshold": -5}, "threshold"), ({"threshold": 2**64}, "threshold"),
                      ({"rules": {"deal": ["a", "b"]}}, "deal")):
        f = tmp_path / "pos.json"
        f.write_text(json.dumps({"rack": "R1 R2 R3 J", "indicator": "R5", **pos}))
        r = cli("solve", "--position", str(f))
        assert r.returncode == 2 and what in r.stderr, (pos, r.stderr)
    f.write_text('{"rack": "R1 R2", "indicator": "R5", "rules": ' + "[" * 1000 + "]" * 1000 + "}")
    r = cli("solve", "--position", str(f))
    assert r.returncode == 2 and "nested deeper" in r.stderr


def test_solve_batch_answers_every_line_in_order(tmp_path: Path) -> None:
    good = json.dumps({"id": "a", "rack": "R1 R2 R3 K7 K8 K9", "indicator": "B5"}).encode()
    lines = [b"\xef\xbb\xbf" + good, b'{"id": "b", "rack": "R1", "indicator": "R5", "opened": [1]}',
             b'{"id": "c", "x": "\xff"}', good.replace(b'"a"', b'"d"'), b"{", b"",
             json.dumps({"id": "e", "rack": [f"R{n}" for n in range(1, 14)] * 2, "indicator": "K1"}).encode(),
             good.replace(b'"a"', b'"f"'), b'{"id": ' + b"[" * 5000 + b"]" * 5000 + b', "rack": "R1", "indicator": "R5"}']
    p = tmp_path / "b.jsonl"
    p.write_bytes(b"\n".join(lines) + b"\n")
    r = cli("solve", "--batch", str(p))
    outs = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 1
    assert [o.get("id") for o in outs] == ["a", "b", None, "d", None, "e", "f", None]
    assert [o.get("line") for o in outs if "error" in o] == [2, 3, 5, 7, 9]
    assert "points" in outs[0] and "points" in outs[-2]


# ---- processes and messages -----------------------------------------------------------------


def _db_with_games(tmp_path: Path) -> Path:
    log = store_logs.write_log(tmp_path / "g.jsonl", [store_logs.make_game(f"a-{i}", seed=i, hands=2)
                                                      for i in range(40)])
    return store_logs.stored(tmp_path / "a.duckdb", log)


@pytest.mark.parametrize("command", ["import", "match", "simulate", "analyze"])
def test_workers_end_when_their_command_is_killed(tmp_path: Path, command: str) -> None:
    """Every --jobs command's worker processes (and multiprocessing's resource tracker) end with
    it when it is killed (kill -9), whatever they are doing."""
    if command == "import":
        for k in range(2):
            store_logs.write_log(tmp_path / f"f{k}.jsonl", [store_logs.make_game(f"w{k}-{i}", seed=i, hands=2)
                                                             for i in range(120)])
        args = ["import", "--db", str(tmp_path / "w.duckdb"), "--no-progress", str(tmp_path)]
    elif command == "match":
        args = ["match", "--bots", "expert,solver", "--deals", "40", "--seed", "k"]
    elif command == "simulate":
        args = ["simulate", "--bots", "expert", "--games", "8", "--quiet", "--out", str(tmp_path / "s.jsonl")]
    else:
        args = ["analyze", "--deep", "--db", str(_db_with_games(tmp_path)), "--no-progress"]
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", *args, "--jobs", "2"], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        kids |= _children(proc.pid)
        if sum(1 for k in kids if b"spawn_main" in _cmdline(k)) >= 2:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip(f"{command} finished before its workers could be seen")
    time.sleep(0.3)
    kids |= _children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(k) for k in kids):
        time.sleep(0.1)
    left = [k for k in kids if _alive(k)]
    for k in left:  # never leave them behind, even when the test fails
        os.kill(k, signal.SIGKILL)
    assert not left, f"processes of a killed {command} still running: {left}"


def _children(pid: int) -> set[int]:
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.add(int(d.name))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_the_busy_message_names_the_whole_holder() -> None:
    from analysis.store.db import lock_holder

    msg = ('IO Error: Could not set lock on file "/tmp/x.duckdb": Conflicting lock is held in '
           "/root/.pyenv/versions/3.11.7/bin/python3.11 (PID 12080). See also https://duckdb.org/docs/x")
    assert lock_holder(msg) == "/root/.pyenv/versions/3.11.7/bin/python3.11 (PID 12080)"
    assert lock_holder(msg.replace(" (PID 12080)", " (PID 7) by user root")) == (
        "/root/.pyenv/versions/3.11.7/bin/python3.11 (PID 7)")


# ---- the tests the mutants of bench/mutants.py asked for ------------------------------------


def test_an_okey_whose_face_fits_a_table_meld_costs_X3_only(tmp_path: Path) -> None:
    # seat 1 opens with R7 B7 K7 among its melds; seat 2 discards the okey Y7, whose face is the
    # group's missing colour: X3 only, never X3 and X4
    open1 = ["R7 B7 K7", "R10 B10 K10", "R11 B11 K11", "B1 B2 B3", "R1 R2 R3", "K1 K2 K3"]

    def middle(h: Any) -> None:
        h.draw(2)
        h.discard(2, "Y7")

    f, _h = build._frame("x3fit", "*", "Y1 Y7 Y3 Y4 Y5", middle, open1=open1)
    p = tmp_path / "x3.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    rc, out, err = replay(p)
    assert out is not None, err
    hv = out["games"][0]["hands"][0]
    assert hv["error"] is None, hv["error"]
    assert [(x["seat"], x["points"], x["rule"]) for x in hv["penalties"]] == [(2, 101, "X3")]


def test_the_same_game_in_two_files_of_one_import_is_stored_once_and_unchanged_once(tmp_path: Path) -> None:
    g = store_logs.make_game("same", seed=5, hands=2)
    a = store_logs.write_log(tmp_path / "a.jsonl", [g])
    # the same game with its keys in another order and another game after it: other file bytes
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps(dict(reversed(list(ev.items()))), ensure_ascii=False) + "\n" for ev in g)
                 + store_logs.lines(store_logs.make_game("other", seed=6, hands=1)))
    db = tmp_path / "s.duckdb"
    r = cli("import", "--db", str(db), "--no-progress", "--json", str(a), str(b))
    s = json.loads(r.stdout)
    assert (s["stored"], s["unchanged"], s["conflicts"], s["failed"]) == (2, 1, 0, 0), s
    assert r.returncode == 0


def test_batch_1_writes_every_game_in_a_transaction_of_its_own(tmp_path: Path, monkeypatch: Any) -> None:
    from analysis import store
    from analysis.store import importer

    log = store_logs.write_log(tmp_path / "g.jsonl", games(7))
    seen: list[int] = []
    real = importer.write_tables

    def watch(con: Any, tables: Any, *a: Any, **kw: Any) -> None:
        if tables and tables["games"].num_rows:  # the file's import record comes last, without games
            seen.append(tables["games"].num_rows)
        real(con, tables, *a, **kw)

    monkeypatch.setattr(importer, "write_tables", watch)
    con = store.connect(tmp_path / "b.duckdb", seed=False)
    try:
        s = store.import_paths(con, [str(log)], batch_games=1, workers=1)
    finally:
        con.close()
    assert s.stored == 7 and seen == [1] * 7
    seen.clear()
    con = store.connect(tmp_path / "b3.duckdb", seed=False)
    try:
        store.import_paths(con, [str(log)], batch_games=3, workers=1)
    finally:
        con.close()
    assert seen == [3, 3, 1]


def _layoff_in_opening_turn(variant: str, rules: dict[str, Any]) -> tuple[LogFile, int]:
    f = LogFile()
    g = f.game("l6", variant=variant, rules=rules, hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "K12 *", 1: tiles_of(KIT1) + " R9 R10 R11", 2: "*"},
               deck="Y1 Y2 Y3 Y4 Y5 Y8")
    h.discard(0, "K12")
    h.draw(1)
    h.open(1, melds=KIT1)
    ln = h.layoff(1, 0, "R9")  # onto R6 R7 R8 in the opening turn
    h.discard(1, h.last_drawn)
    return f, ln


@pytest.mark.parametrize("variant,allowed", [("101", False), ("101-classic", True)])
def test_the_L6_option_on_its_own_with_the_presets_run_end_cap(tmp_path: Path, variant: str, allowed: bool) -> None:
    # the override turns L6 around while run_end_cap (L3) stays as the preset has it
    f, ln = _layoff_in_opening_turn(variant, {"layoff_opening_turn": allowed})
    p = tmp_path / "l6.jsonl"
    p.write_text(f.text(), encoding="utf-8")
    rc, out, err = replay(p)
    assert out is not None, err
    hv = out["games"][0]["hands"][0]
    if allowed:
        assert hv["error"] is None, hv["error"]
    else:
        assert hv["error"]["rule"] == "L6" and hv["error"]["line"] == ln


# ---- the dashboard: Markdown and links from log text ----------------------------------------

MD_NAMES = ["Ali", "[click](http://example.com)", "Mehmet", "![x](http://127.0.0.1:9/x.png)"]


def _texts(at: Any) -> list[str]:
    """Every text the page gives Streamlit's Markdown (not the HTML blocks, where Markdown is off)."""
    els = [*at.markdown, *at.error, *at.warning, *at.info, *at.caption, *at.subheader, *at.success]
    return [e.value for e in els if not str(e.value).lstrip().startswith("<")]


def test_markdown_in_player_names_stays_text_and_game_links_are_url_encoded(tmp_path: Path, monkeypatch: Any) -> None:
    import re

    import apptest_helpers as ui
    from dashboard_logs import make_game, write_log
    from streamlit.testing.v1 import AppTest

    log = write_log(tmp_path / "md.jsonl", [make_game("md&#1", hands=1, seed=3, players=MD_NAMES)])
    db = store_logs.stored(tmp_path / "md.duckdb", log)
    monkeypatch.setenv("ISTAKA_DB", str(db))
    app = str(REPO / "dashboard" / "app.py")
    live = re.compile(r"(?<!\\)\]\((?:http|\\\()")  # a ](http that Markdown would make a link or an image
    shown = []
    for step in (1, 2, 3, 16):  # seat 1 draws and can open; later seat 3's turn with per on the table
        at = ui.open_page(AppTest.from_file(app, default_timeout=60), "replay", game="md&#1", hand=1, step=step)
        texts = _texts(at)
        assert not [x for x in texts if live.search(x)], texts
        shown += texts
    assert any(r"\[click\]" in x for x in shown)  # the headings with the names were drawn, escaped
    for page, param in (("replay", "game"), ("rules", "rule")):  # a link's own text, quoted back
        at = ui.open_page(AppTest.from_file(app, default_timeout=60), page, **{param: "[x](http://e.com)"})
        assert not [x for x in _texts(at) if live.search(x)], _texts(at)
    at = ui.open_page(AppTest.from_file(app, default_timeout=60), "games")
    links = [str(v) for d in at.dataframe for c in d.value.columns for v in d.value[c] if "replay?" in str(v)]
    assert links and all("game=md%26%231" in x for x in links), links


def test_an_opening_exactly_at_the_threshold_reaches_it_O1_O3() -> None:
    from analysis.game import PRESETS, Tile, okey_of
    from analysis.game.tiles import tiles
    from analysis.solver import best_pairs_opening, best_points_opening

    okey = okey_of(Tile.parse("Y5"))
    rack = tiles("R11 R12 R13 B11 B12 B13 K11 K12 K13 Y2")  # 108 points, Y2 left to discard
    at = best_points_opening(rack, okey, rules=PRESETS["101"], threshold=108)
    assert (at.value, at.reaches) == (108, True)
    assert not best_points_opening(rack, okey, rules=PRESETS["101"], threshold=109).reaches
    five = tiles("R1 R1 B2 B2 K3 K3 Y4 Y4 R9 R9 K13")  # five pairs and a tile to discard
    assert best_pairs_opening(five, okey, rules=PRESETS["101"], threshold=5).reaches
    assert not best_pairs_opening(five, okey, rules=PRESETS["101"], threshold=6).reaches


@pytest.mark.parametrize("variant,lays_off", [("101", True), ("101-classic", False)])
def test_best_turn_lays_off_in_the_opening_turn_only_where_L6_allows(variant: str, lays_off: bool) -> None:
    from analysis.cli.position import solve_position

    res = solve_position({"rack": "R9 K2 Y5 B11", "indicator": "Y1", "variant": variant, "opened_this_turn": True,
                          "opened": {"kind": "points", "value": 120}, "table": [["R6", "R7", "R8"]]})
    assert (res["plan"]["layoffs"] == [{"meld": 0, "tiles": ["R9"]}]) is lays_off
