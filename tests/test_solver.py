"""The exact solver: rule cases, brute force on small racks, the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from functools import lru_cache

import pytest

from analysis.game import HandState, Opening, TableMeld
from analysis.game import PRESETS, resolve
from analysis.cli.position import solve_position, state_from_position
from analysis.solver import best_pairs_opening, best_points_opening, best_turn, rack_penalty, solve
from analysis.game import FACES, FALSE_OKEY, Tile, parse_placed
from analysis.game.tiles import tiles
from analysis.game import melds as M

R101 = PRESETS["101"]
CLASSIC = PRESETS["101-classic"]
OKEY = Tile.parse("R6")  # indicator R5


def _table(*melds: str, okey: Tile = OKEY) -> tuple[TableMeld, ...]:
    out = []
    for i, text in enumerate(melds):
        placed = [parse_placed(t, okey) for t in text.split()]
        kind, ordered = M.classify(placed)
        out.append(TableMeld(i, 1, kind, tuple(ordered), (1,) * len(ordered)))
    return tuple(out)


def _check_plan(rack, okey, plan) -> None:
    """The melds are real melds and use exactly the rack minus what is left."""
    used = []
    for m in plan.melds:
        M.classify(m)
        used += [p.physical for p in m]
    for _, ts in plan.layoffs:
        used += [p.physical for p in ts]
    assert sorted(used + list(plan.left)) == sorted(rack)
    assert plan.value == sum(p.value for m in plan.melds for p in m) + sum(p.value for _, ts in plan.layoffs for p in ts)


# ---- rule cases -------------------------------------------------------------------------------------

def test_full_meld_rack_keeps_a_tile_to_discard_P5() -> None:
    plan = best_points_opening(tiles("R10 R11 R12 R13"), OKEY, rules=R101)
    assert plan.value == 36 and [str(t) for t in plan.left] == ["R10"]


def test_keeping_a_tile_prefers_the_okey_in_the_meld_P5_E5() -> None:
    rack = tiles("K3 K4 K5 R6")  # R6 is the okey: K4 K5 R6>K6 (15) keeping K3 beats keeping the okey
    plan = best_points_opening(rack, OKEY, rules=R101)
    assert plan.value == 15 and [str(t) for t in plan.left] == ["K3"] and plan.penalty == 3


def test_taken_discard_must_be_in_the_opening_P2() -> None:
    rack = tiles("R1 R2 R3 Y9 B9 K9 K13 Y12")
    free = best_points_opening(rack, OKEY, rules=R101)
    assert free.value == 33
    with_take = best_points_opening(rack, OKEY, rules=R101, take=Tile.parse("R4"))
    assert with_take.value == 37 and any("R4" in map(str, m) for m in with_take.melds)
    # a take that fits nowhere gives no opening at all
    none = best_points_opening(rack, OKEY, rules=R101, take=Tile.parse("B2"))
    assert none.value == 0 and not none.reaches


def test_false_okey_is_the_okey_face_T5() -> None:
    plan = best_points_opening(tiles("J R7 R8 K1"), OKEY, rules=R101)
    assert plan.value == 21 and [str(p) for p in plan.melds[0]] == ["J", "R7", "R8"]


def test_layoffs_count_in_the_opening_where_L6_allows_O1() -> None:
    table = _table("K4 K5 K6", "Y11 B11 R11")
    rack = tiles("K7 K8 K9 K3 K11 Y1")
    plan = best_points_opening(rack, OKEY, rules=R101, table=table)
    # K3 K7 K8 on the run (at most two per end, L3), K11 on the group, K9 left? no: K7 K8 K9 is a meld too
    assert plan.value == 3 + 7 + 8 + 9 + 11 or plan.value == 7 + 8 + 9 + 3 + 11
    _check_plan(rack, OKEY, plan)
    classic = best_points_opening(rack, OKEY, rules=CLASSIC, table=table)
    assert classic.value == 24 and not classic.layoffs  # L6: no lay-offs in the opening turn


def test_at_most_two_tiles_per_run_end_L3() -> None:
    table = _table("K4 K5 K6")
    rack = tiles("K7 K8 Y1 Y13")
    plan = best_points_opening(rack, OKEY, rules=R101, table=table)
    assert plan.value == 15
    rack = tiles("K7 K8 K9 K1")  # K7 K8 K9 as its own meld beats two lay-offs
    plan = best_points_opening(rack, OKEY, rules=R101, table=table, end_counts=(((0, "high"), 1),))
    assert plan.value == 24 and not plan.layoffs
    rack = tiles("K7 K8 K1")
    plan = best_points_opening(rack, OKEY, rules=R101, table=table, end_counts=(((0, "high"), 1),))
    assert plan.value == 7  # one more tile at the high end this turn


def test_threshold_and_reaches_O1_O2() -> None:
    rack = tiles("R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13 K1")
    plan = best_points_opening(rack, OKEY, rules=R101, threshold=140)
    assert plan.value == 138 and not plan.reaches and plan.threshold == 140
    assert best_points_opening(rack, OKEY, rules=R101).reaches


def test_pairs_count_okeys_and_the_shown_twin_M4_O7() -> None:
    rack = tiles("R1 R1 K2 K2 B3 Y7 Y8 Y8 J J K5 R6 R5")
    plain = best_pairs_opening(rack, OKEY, rules=R101)
    assert plain.count == 5  # R1 K2 Y8 J pairs, okey with one single
    shown = best_pairs_opening(rack, OKEY, rules=R101, twin=Tile.parse("R5"))
    assert shown.count == 6 and shown.reaches
    assert len(shown.left) == 1  # P5


def test_pairs_keep_a_tile_to_discard_P5() -> None:
    plan = best_pairs_opening(tiles("R1 R1 K2 K2"), OKEY, rules=R101)
    assert plan.count == 1 and [str(t) for t in plan.left] == ["R1", "R1"]


def _opened_state(rack: str, table: tuple[TableMeld, ...], kind: str = "points", rules=R101,
                  others=(None, None, None)) -> HandState:
    return HandState(rules=rules, hand=1, starter=0, indicator=Tile.parse("R5"), okey=OKEY,
                     racks=(tuple(tiles(rack)), (), (), ()), deck=None, deck_count=40,
                     discards=((), (), (), ()), table=table,
                     opened=(Opening(kind, 120), *others), turn=0, phase="play")


def test_okey_swap_from_a_run_and_reuse_S1() -> None:
    table = _table("K4 R6>K5 K6")
    st = _opened_state("K5 B9 B10 Y2", table)
    plan = best_turn(st, 0)
    # put K5 in, take the okey, meld B9 B10 okey: only Y2 stays
    assert plan.swaps == [(0, [Tile.parse("K5")])]
    assert [str(t) for t in plan.left] == ["Y2"] and plan.penalty == 2


def test_group_okey_needs_all_four_colours_S2() -> None:
    table = _table("Y12 B12 R6>R12")
    one = best_turn(_opened_state("R12 B9 B10 Y2", table), 0)
    assert one.swaps == []  # only red 12: it is laid off, the okey stays on the table
    both = best_turn(_opened_state("R12 K12 B9 B10 Y2", table), 0)
    assert both.swaps and sorted(map(str, both.swaps[0][1])) == ["K12", "R12"]
    assert [str(t) for t in both.left] == ["Y2"]


def test_pairs_opener_places_pairs_and_layoffs_only_O4() -> None:
    table = _table("K4 K5 K6")
    st = _opened_state("B1 B2 B3 K7 Y9 Y9 R2", table, kind="pairs")
    plan = best_turn(st, 0)
    assert not plan.melds and len(plan.pairs) == 1 and plan.layoffs == [(0, [parse_placed("K7", OKEY)])]
    assert plan.penalty == 2 * (1 + 2 + 3 + 2)


def test_points_opener_places_pairs_only_after_a_pairs_opening_O5_L5() -> None:
    st = _opened_state("Y9 Y9 R2", ())
    assert best_turn(st, 0).pairs == []
    st2 = _opened_state("Y9 Y9 R2", (), others=(Opening("pairs", 5), None, None))
    assert len(best_turn(st2, 0).pairs) == 1


def test_points_opening_turn_places_no_pairs_O3() -> None:
    """Pairs and melds never mix in one opening, even after somebody opened with pairs."""
    others = (Opening("pairs", 5), None, None)
    st = _opened_state("Y9 Y9 B1 B2 B3 R2", (), others=others)
    assert len(best_turn(st, 0).pairs) == 1  # a later turn: pairs are allowed (O5, L5)
    this_turn = replace(st, opened_this_turn=True)
    plan = best_turn(this_turn, 0)
    assert plan.pairs == [] and len(plan.melds) == 1
    pairs_opener = replace(_opened_state("Y9 Y9 K4 K4 R2", (), kind="pairs"), opened_this_turn=True)
    assert len(best_turn(pairs_opener, 0).pairs) == 2  # a pairs opening may add pairs (O1, O3)


def test_finish_kinds_with_okey_last_E6() -> None:
    st = _opened_state("K1 K2 K3 R6", ())
    plan = best_turn(st, 0)
    assert "okey" in plan.finishes and "normal" in plan.finishes
    st = _opened_state("K1 K2 K3 B9 B11", ())
    assert best_turn(st, 0).finishes == []


def test_dangerous_tiles_X4_X5() -> None:
    table = _table("K4 K5 K6")
    st = HandState(rules=R101, hand=1, starter=0, indicator=Tile.parse("R5"), okey=OKEY,
                   racks=(tuple(tiles("K7 B2 Y13")),
                          tuple(tiles("Y10 Y11 Y12 B13 K13 R13 R10 R11 R12 B10 B11 B12")), (), ()),
                   deck=None, deck_count=40, discards=((), (), (), ()), table=table,
                   opened=(Opening("points", 120), None, None, None), turn=0, phase="play")
    d = solve(st, 0)["dangerous"]
    assert d["x4"] == ["K7"]
    # Y13 in a run, or K7 laid off in the opening turn (L6), takes 99 to 101+; B2 helps nobody
    assert d["x5"] == ["Y13", "K7"]


# ---- brute force on small racks ---------------------------------------------------------------------

def _brute(rack, okey, take=None):
    """Every way to split a small rack into melds, by recursion on the first unplaced tile."""
    wild = sum(1 for t in rack if t == okey)
    reals = sorted(((okey if t.is_joker else t).index for t in rack if t != okey))
    okv = okey.number + 101
    n = len(rack)
    templates = []
    for c in range(4):
        for a in range(13):
            for b in range(a + 2, 13):
                templates.append(tuple(c * 13 + x for x in range(a, b + 1)))
    for x in range(13):
        for cols in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 2, 3)):
            templates.append(tuple(c * 13 + x for c in cols))
    best = None

    @lru_cache(maxsize=None)
    def rec(rem: tuple, w: int, took: bool):
        # returns best (value, -penalty, -left) for the remaining reals and okeys
        out = None
        if not rem:
            cands = [(0, -(w * okv), -w)]
        else:
            f = rem[0]
            rest = rem[1:]
            v = rec(rest, w, took)
            cands = [(v[0], v[1] - (f % 13 + 1), v[2] - 1)] if v else []
            # f placed in a meld (as a real tile)
            for t in templates:
                if f not in t:
                    continue
                others = [g for g in t if g != f]
                for mask in range(1 << len(others)):
                    pool = list(rest)
                    need_w = 0
                    ok = True
                    for i, g in enumerate(others):
                        if mask >> i & 1:
                            need_w += 1
                        elif g in pool:
                            pool.remove(g)
                        else:
                            ok = False
                            break
                    if not ok or need_w > w:
                        continue
                    v = rec(tuple(pool), w - need_w, took)
                    if v:
                        cands.append((v[0] + sum(g % 13 + 1 for g in t), v[1], v[2]))
            cands += []
            # tiles left as they are: handled by the "leave f" branch; okeys only in melds with reals
        return max(cands) if cands else None

    # P5 and P2 by enumeration: leave at least one tile, use the take
    def solve_all(rem, w):
        return rec(tuple(sorted(rem)), w, False)

    results = []
    # leave one specific tile (P5), then the rest freely
    for i in range(len(reals)):
        rem = reals[:i] + reals[i + 1:]
        v = solve_all(rem, wild)
        if v:
            results.append((v[0], v[1] - (reals[i] % 13 + 1), v[2] - 1))
    if wild:
        v = solve_all(reals, wild - 1)
        if v:
            results.append((v[0], v[1] - okv, v[2] - 1))
    return max(results) if results else None


def _random_small(rng: random.Random, n: int, okey: Tile):
    pool = [t for t in FACES for _ in range(2)] + [FALSE_OKEY] * 2
    colours = rng.sample("RYBK", rng.choice((2, 3, 4)))
    lo = rng.randint(1, 8)
    pool = [t for t in pool if t.is_joker or (t.colour in colours and lo <= t.number <= lo + 5)]
    rack = rng.sample(pool, n)
    return rack


@pytest.mark.parametrize("seed", range(6))
def test_points_opening_matches_brute_force_on_small_racks(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        okey = rng.choice(FACES)
        rack = _random_small(rng, rng.randint(3, 9), okey)
        plan = best_points_opening(rack, okey, rules=R101)
        _check_plan(rack, okey, plan)
        want = _brute(rack, okey)
        got = (plan.value, -plan.penalty, -len(plan.left))
        assert want is None or got == want, (list(map(str, rack)), okey, got, want)


# ---- CLI -------------------------------------------------------------------------------------------

def test_cli_batch_echoes_ids_in_order_and_reports_bad_lines(tmp_path) -> None:
    lines = [{"id": "a", "rack": "R10 R11 R12 R13", "indicator": "R5"},
             {"id": "b", "rack": ["K1"]},
             {"rack": "K1 K2 K3 K4 B9", "indicator": "Y3", "variant": "51", "ignored": True, "id": 3},
             {"id": "d", "rack": "R1 R2 Y9 B9 K9 K13", "indicator": "R5", "take": "R3"}]
    p = tmp_path / "b.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "analysis.cli", "solve", "--batch", str(p)],
                       capture_output=True, text=True)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "b", 3, "d"]
    assert out[0]["points"]["value"] == 36 and out[0]["points"]["left"] == ["R10"]
    assert "error" in out[1] and r.returncode == 1
    assert out[2]["points"]["threshold"] == 51 and out[2]["pairs"]["threshold"] == 4
    assert out[3]["points"]["value"] == 33 and out[3]["take"] == "R3"
    assert out[1]["line"] == 2 and f"{p}:2: a position needs 'indicator'" in r.stderr


def test_cli_batch_refuses_a_third_copy_T1(tmp_path) -> None:
    p = tmp_path / "b.jsonl"
    p.write_text('{"id": 1, "rack": "R1 R1 R2 R3", "indicator": "K3", "take": "R1"}\nnot json\n')
    r = subprocess.run([sys.executable, "-m", "analysis.cli", "solve", "--batch", str(p)],
                       capture_output=True, text=True)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert "R1 appears 3 times" in out[0]["error"] and "[T1]" in out[0]["error"]
    assert out[1]["line"] == 2 and out[1]["error"].startswith("not JSON") and r.returncode == 1


def test_cli_rack_json_has_points_and_pairs() -> None:
    r = subprocess.run([sys.executable, "-m", "analysis.cli", "solve", "--rack", "R10 R11 R12 R13 K1",
                        "--indicator", "R5", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d["points"]) >= {"value", "melds", "left", "threshold", "reaches"}
    assert set(d["pairs"]) >= {"count", "pairs", "threshold", "reaches"}
    assert d["points"]["value"] == 46


def test_position_with_table_and_opened_player_gives_a_plan(tmp_path) -> None:
    pos = {"rack": "K7 K8 B2 B2 R6", "indicator": "R5", "table": [["K4", "K5", "K6"]],
           "opened": {"kind": "points", "value": 110}}
    res = solve_position(pos)
    # the okey goes on the low end rather than stay (+101): B2 B2 are left
    assert res["plan"]["layoffs"] == [{"meld": 0, "tiles": ["R6>K3", "K7", "K8"]}]
    assert res["plan"]["left"] == ["B2", "B2"] and res["plan"]["penalty"] == 4
    st = state_from_position({**pos, "variant": "51"})
    assert st.rules.open_points == 51
