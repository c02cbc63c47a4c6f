"""Hand-made mutants: one-token slips in the rules, scoring, solver, reader and store,
each run against the tests that should catch it. Prints each mutant's fate and the kill rate.

    python bench/mutants.py [--only ID,...] [--keep DIR] [--list]

The tree under test is ``git archive HEAD`` plus the built C kernel, copied to a temporary
directory; each mutant edits one file there, runs its tests (``pytest -x``), and puts the file
back. First the unmutated copy runs every selected test once: a mutant counts as killed only
against a suite that passes without it. Target: every mutant killed (100 %).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str
    old: str  # must occur exactly once in the file
    new: str
    tests: tuple[str, ...]  # pytest arguments (files, node ids, -k expressions)
    why: str


HARD = "tests/test_hardening.py"
RULES = "tests/test_rules_by_id.py"
SOLVER = "tests/test_solver.py"

MUTANTS: list[Mutant] = [
    Mutant("x3-and-x4", "analysis/game/engine.py", "        elif state.fits_table(t) is not None:",
           "        if state.fits_table(t) is not None:",
           (f"{HARD}::test_an_okey_whose_face_fits_a_table_meld_costs_X3_only",), "an okey charged X3 and X4"),
    Mutant("l6-is-l3", "analysis/game/placing.py", "if state.opened_this_turn and not state.rules.layoff_opening_turn:",
           "if state.opened_this_turn and not state.rules.run_end_cap:",
           (f"{HARD}::test_the_L6_option_on_its_own_with_the_presets_run_end_cap",), "L6 read from the L3 option"),
    Mutant("x5-factor", "analysis/game/engine.py", "Penalty(prev, r.x5_factor * val, \"X5\")",
           "Penalty(prev, r.x5_factor + val, \"X5\")", (RULES, "-k", "X5"), "X5 adds the factor"),
    Mutant("o2-threshold", "analysis/game/state.py", "return max(base, best + 1)", "return max(base, best)",
           (RULES, "-k", "O2"), "an escalating opening may equal the last one"),
    Mutant("o8-siler", "analysis/game/engine.py", "op.value >= r.siler_points", "op.value > r.siler_points",
           (RULES, "-k", "O8"), "siler from 151 points, not 150"),
    Mutant("t3-okey", "analysis/game/tiles.py", "indicator.number % 13 + 1", "indicator.number % 12 + 1",
           (RULES, "-k", "T3 or T2"), "indicator 12 gives okey 1"),
    Mutant("t1-copies", "analysis/game/tiles.py", "if n > _FULL[t]]", "if n >= _FULL[t]]",
           (SOLVER, HARD, "-k", "T1 or solve"),
           "two copies of a tile count as too many"),
    Mutant("e5-pairs-double", "analysis/game/scoring.py", "        total *= 2", "        total *= 1",
           (RULES, "-k", "E5 or E6"), "a pairs opener's rack not doubled"),
    Mutant("e5-okey-charge", "analysis/game/scoring.py", "extra = okeys * rules.okey_in_rack",
           "extra = okeys + rules.okey_in_rack", (RULES, "-k", "E5"), "the okey charge added, not multiplied"),
    Mutant("e7-others-open", "analysis/game/scoring.py", "fin * (1 if info.others_open else 2)",
           "fin * (2 if info.others_open else 1)", (RULES, "-k", "E7"), "E7's doubling turned around"),
    Mutant("solver-reaches", "analysis/solver/plans.py", "value >= threshold and value > 0",
           "value > threshold and value > 0", (SOLVER, HARD, "-k", "O1 or O2 or O3"),
           "an opening exactly at the threshold"),
    Mutant("solver-pairs-reach", "analysis/solver/plans.py", "len(pairs) >= threshold)", "len(pairs) > threshold)",
           (SOLVER, HARD, "-k", "M4 or O3 or P5"), "exactly enough pairs do not open"),
    Mutant("solver-l3-cap", "analysis/solver/encoding.py", "k = min(room, 2 - used.get((m.index, end), 0))",
           "k = min(room, 3 - used.get((m.index, end), 0))", (SOLVER, "-k", "L3"), "three tiles on one run end (L3)"),
    Mutant("solver-l6", "analysis/solver/turn.py",
           "lay_ok = not (state.opened_this_turn and not rules.layoff_opening_turn)",
           "lay_ok = not (state.opened_this_turn and rules.layoff_opening_turn)",
           (SOLVER, HARD, "-k", "L6 and not brute_force"),
           "best_turn lays off in the opening turn exactly when L6 forbids it"),
    Mutant("import-file-checksum", "analysis/store/importer.py", "            cs = game_checksum(g)",
           "            cs = hashlib.sha256(raw).hexdigest()",
           (f"{HARD}::test_the_same_game_in_two_files_of_one_import_is_stored_once_and_unchanged_once",),
           "a game identified by its file's checksum"),
    Mutant("import-batch", "analysis/store/importer.py", "if len(pending) >= batch_games:",
           "if len(pending) > batch_games:",
           (f"{HARD}::test_batch_1_writes_every_game_in_a_transaction_of_its_own",), "--batch N writes N+1 games"),
    Mutant("store-valid-prefix", "analysis/store/rows.py", "(bad_from is None or ln < bad_from)",
           "(bad_from is None or ln <= bad_from)", ("tests/test_store.py",), "the illegal move itself counted valid"),
    Mutant("store-int-range", "analysis/store/rows.py", "bits = _NARROW.get(col, 32)", "bits = _NARROW.get(col, 64)",
           (f"{HARD}::test_integers_past_the_store_are_a_store_error_for_their_game_only",),
           "INTEGER columns checked as BIGINT: the database refuses instead, without naming the field"),
    Mutant("reader-merge", "analysis/game/log.py", "elif first.content() != g.content():",
           "elif first.content() == g.content():", ("tests/test_bad_input.py",),
           "a game id seen again with other content merged silently"),
    Mutant("reader-depth", "analysis/game/lines.py", "if depth > MAX_DEPTH:", "if depth > MAX_DEPTH * 4:",
           (f"{HARD}::test_limits_nesting_length_and_ascii_tile_digits_each_refuse_only_their_game",),
           "the nesting limit not enforced"),
    Mutant("reader-neighbour", "analysis/game/log.py",
           "target = unnamed_after if (next_game is not None and next_game == unnamed_after",
           "target = unnamed_after if (next_game is not None or next_game == unnamed_after",
           (f"{HARD}::test_a_cut_game_header_is_charged_to_its_game_not_to_its_neighbour",),
           "a broken line charged to its neighbour"),
]


def make_tree(dest: Path) -> None:
    """HEAD's files and the built kernel (untracked), in ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    for so in ROOT.glob("analysis/**/*.so"):
        target = dest / so.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(so, target)


def run_tests(tree: Path, args: tuple[str, ...], timeout: float) -> tuple[int, float]:
    t0 = time.perf_counter()
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree)
    env["ISTAKA_DB"] = str(tree / "data" / "mutants.duckdb")
    try:
        p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args], cwd=tree,
                           env=env, capture_output=True, timeout=timeout, check=False)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = -1
    return rc, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--keep", help="build the tree here and keep it")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per test run (a timeout counts as killed)")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    todo = [m for m in MUTANTS if not args.only or m.id in args.only.split(",")]
    if args.list:
        for m in todo:
            print(f"{m.id:22} {m.path}: {m.why}")
        return 0
    tmp = tempfile.TemporaryDirectory(prefix="istaka-mutants-")
    tree = Path(args.keep) if args.keep else Path(tmp.name)
    make_tree(tree)
    for m in todo:  # every mutant must name code that is there, once
        n = (tree / m.path).read_text(encoding="utf-8").count(m.old)
        if n != 1:
            print(f"{m.id}: the text to mutate occurs {n} times in {m.path}; fix the list", file=sys.stderr)
            return 2
    sets = list(dict.fromkeys(m.tests for m in todo))
    print(f"baseline: {len(sets)} test selections on the unmutated tree", flush=True)
    for tests in sets:
        rc, secs = run_tests(tree, tests, args.timeout)
        if rc != 0:
            print(f"  {' '.join(tests)}: fails without a mutant (exit {rc}); fix the suite first", file=sys.stderr)
            return 2
    killed = 0
    t0 = time.perf_counter()
    for m in todo:
        f = tree / m.path
        original = f.read_text(encoding="utf-8")
        f.write_text(original.replace(m.old, m.new), encoding="utf-8")
        try:
            rc, secs = run_tests(tree, m.tests, args.timeout)
        finally:
            f.write_text(original, encoding="utf-8")
        fate = "killed" if rc != 0 else "SURVIVED"
        killed += rc != 0
        print(f"{m.id:22} {fate:9} {secs:6.1f}s  {m.path}: {m.why}", flush=True)
    rate = killed / len(todo) if todo else 1.0
    print(f"kill rate: {killed}/{len(todo)} = {rate:.0%} ({time.perf_counter() - t0:.0f}s)")
    tmp.cleanup()
    return 0 if killed == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
