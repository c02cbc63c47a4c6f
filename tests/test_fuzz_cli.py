"""No bad input ever produces a traceback, and no good game is lost next to a bad one.

A fast seeded subset of the fuzz suite (tests/fuzz_gen.py, tests/fuzz_check.py): 2,000 mutated
games of every class (the sample's shorter first hands), with 250 clean ones among them, go through ``istaka replay --json``,
``import``, ``errors`` and ``errors --json`` (plain files, gzip, a BOM, a gzip missing its
trailer, a gzip cut short), and 400 mutated positions through ``istaka solve --batch``.
``python bench/fuzz.py --mutations N`` runs a larger one.
"""

from __future__ import annotations

from pathlib import Path

import fuzz_check


def test_mutated_logs_never_crash_and_lose_no_clean_game(tmp_path: Path) -> None:
    f = fuzz_check.check_logs(tmp_path, seed=12, mutations=2000, clean=250, max_events=50, damaged=150)
    assert f.failures == 0, "\n".join(f.notes)
    assert f.clean_alone > 250  # the clean games, and mutations that leave a game clean


def test_solve_batch_answers_every_line_in_order(tmp_path: Path) -> None:
    f = fuzz_check.check_solve(tmp_path, seed=12, n=400)
    assert f.failures == 0, "\n".join(f.notes)


def test_hostile_files_never_crash_hang_or_hold_memory_and_keep_the_games_before_them(tmp_path: Path) -> None:
    """One file of each class of tests/fuzz_gen.py FILE_CLASSES (gzip bombs, endless
    lines, binary data, glob-like and long names, 50,000 broken lines), a FIFO and /dev/zero."""
    import fuzz_gen

    f = fuzz_check.check_files(tmp_path, seed=25, n=len(fuzz_gen.FILE_CLASSES))
    assert f.failures == 0, "\n".join(f.notes)
