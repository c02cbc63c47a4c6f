"""The command line's help: every command (and `istaka study`'s actions) has a line in the list
and a description of its own; the tile notation (R/Y/B/K, R7, J the false okey, R6>K9) is
explained at the top and by every command that takes tiles; `--help` imports none of the heavy
library (it took 1.6 s for `istaka notes --help`, the store's DuckDB and pandas imported); and the
help's copies of library constants (bot names, note marks) are the library's. No timing here:
bench/cli_help.py measures it."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.cli import OWNER, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
TILE_WORDS = ("R red", "Y yellow", "B blue", "K black", "R7", "false okey", "sahte okey", "R6>K9", "indicator")
TAKES_TILES = ("solve",)  # commands with tiles on the command line (the others read them from logs)
# a command whose help still imports the library, and why (not this file's to change)
HEAVY_HELP = {"evaluate": "analysis/cli/evaluate.py imports analysis.evaluate for PRICE_WORLDS in its help"}


def _subparsers(p: argparse.ArgumentParser) -> list[tuple[str, str | None, argparse.ArgumentParser]]:
    """(name, its line in the list, its parser) for every command and sub-action, depth first."""
    out = []
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            lines = {c.dest: c.help for c in action._choices_actions}
            for name, sp in action.choices.items():
                out.append((name, lines.get(name), sp))
                out += [(f"{name} {n}", h, s) for n, h, s in _subparsers(sp)]
    return out


def test_every_command_has_a_line_in_the_list_and_a_description() -> None:
    subs = _subparsers(build_parser())
    assert {name for name, _, _ in subs} >= set(OWNER) | {"study list", "study export", "study import"}
    for name, line, sp in subs:
        assert line and line.strip(), f"istaka {name}: no line in the list of commands"
        assert sp.description and len(sp.description) > 40, f"istaka {name} --help: no description"


@pytest.mark.parametrize("argv", [[], *[[c] for c in TAKES_TILES]])
def test_the_tile_notation_is_explained(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--help"]) == 0
    out = capsys.readouterr().out
    for w in TILE_WORDS:
        assert w in out, (argv, w)


def test_help_imports_none_of_the_heavy_library() -> None:
    """Each command's --help in a fresh interpreter: only analysis.cli is imported (not the engine,
    the store, DuckDB or pandas), so it answers at once."""
    probe = ("import sys\nfrom analysis.cli import main\nmain([*sys.argv[1:], '--help'])\n"
             "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('duckdb', 'pandas', 'numpy') "
             "or m.startswith('analysis.') and not m.startswith('analysis.cli')))")
    for cmd in sorted(set(OWNER) - set(HEAVY_HELP)):
        r = subprocess.run([sys.executable, "-c", probe, cmd], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (cmd, r.stderr[-500:])
        assert r.stdout.splitlines()[-1] == "", f"istaka {cmd} --help imported: {r.stdout.splitlines()[-1]}"


def test_the_helps_copies_are_the_librarys() -> None:
    from analysis.cli import notes, simulate
    from analysis.selfplay import BOTS
    from analysis.store.notes import MARKS, MAX_TEXT

    assert simulate.BOT_NAMES == tuple(BOTS)
    assert (notes.MARKS, notes.MAX_TEXT) == (MARKS, MAX_TEXT)


def test_solve_says_what_is_short_never_an_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    """`istaka solve` printed "pairs: 0 / 5 short: " with nothing after the colon."""
    assert main(["solve", "--rack", "R1 K5 Y9 B13", "--indicator", "B5"]) == 0
    out = capsys.readouterr().out
    assert "points: 0 / 101 short: no meld in the rack" in out and "pairs: 0 / 5 short: no pair in the rack" in out
    for line in out.splitlines():
        assert not line.rstrip().endswith(":"), line
