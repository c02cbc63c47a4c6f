"""``istaka replay``: replay logs with every rule checked; scores, penalties, the first illegal move
and every difference from what the log recorded."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .common import UsageError

if TYPE_CHECKING:  # the engine is imported when a log is replayed, not for --help
    from analysis.game import GameResult

SEAT_WIDTH = 7


def _fmt_scores(xs: Sequence[int]) -> str:
    return " ".join(f"{x:>{SEAT_WIDTH}}" for x in xs)


def _print_game(g: GameResult, out: Any) -> None:
    flag = "valid" if g.valid else "INVALID"
    if g.valid and not g.agrees:
        flag = "valid, DISAGREES with the log"
    print(f"game {g.game} ({g.variant}) {g.file}: {flag}", file=out)
    if g.error:
        print(f"  line {g.error['line']}: {g.error['message']}", file=out)
        return
    print(f"  {'':14}" + " ".join(f"{p[:SEAT_WIDTH]:>{SEAT_WIDTH}}" for p in g.players), file=out)
    for h in g.hands:
        kinds = "+".join(h.finish_kinds)
        who = ""
        if h.finisher is not None:
            name = g.players[h.finisher] if h.finisher < len(g.players) else ""
            who = f" by {name} (seat {h.finisher})" if name else f" by seat {h.finisher}"
        label = h.result + who + (f" ({kinds})" if kinds else "")
        print(f"  {'hand ' + str(h.hand):14}{_fmt_scores(h.scores)}   {label}", file=out)
        for p in h.penalties:
            print(f"      penalty seat {p.seat}: {p.points:+d} [{p.rule}] line {p.line}", file=out)
        if h.error:
            what = "breaks a rule" if g.header.get("sheet") is True else "first illegal move"  # score sheets
            print(f"      {what}, line {h.error['line']}: {h.error['message']} [{h.error['rule']}]", file=out)
        for m in h.mismatches:
            print(f"      differs from the log: {json.dumps(m, ensure_ascii=False)}", file=out)
    print(f"  {'totals':14}{_fmt_scores(g.totals)}", file=out)
    if g.match_points is not None:
        print(f"  {'match points':14}{_fmt_scores(g.match_points)}", file=out)


def cmd_replay(args: argparse.Namespace) -> int:
    from analysis.game import ReadError, read_file, replay_game

    games: list[GameResult] = []
    errors = []
    unreadable = []  # files that cannot be opened or decoded: exit 2, the other files still replay
    for path in args.files:
        try:
            rr = read_file(path)
        except OSError as e:
            msg = f"cannot read the file: {e.strerror or e}"
            print(f"istaka replay: {path}: {msg}", file=sys.stderr)
            unreadable.append(ReadError(str(path), None, None, msg))
            continue
        errors.extend(rr.errors)
        for g in rr.games:
            if args.game and g.id != args.game:
                continue
            games.append(replay_game(g, keep_steps=False))
    if args.game:
        errors = [e for e in errors if e.game == args.game]
        if not games and not errors and not unreadable:
            raise UsageError(f"no game {args.game!r} in {', '.join(args.files)}")
    errors = unreadable + errors
    if args.json:
        json.dump({"games": [g.to_dict() for g in games], "errors": [e.to_dict() for e in errors]},
                  sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for res in games:
            _print_game(res, sys.stdout)
        for err in errors:
            print(f"unreadable: {err}", file=sys.stdout)
        ok = sum(1 for g in games if g.valid and g.agrees)
        print(f"{len(games)} games replayed: {ok} clean, {len(games) - ok} invalid or disagreeing, "
              f"{len(errors)} unreadable")
    if unreadable:
        return 2
    bad = errors or any(not g.valid or not g.agrees for g in games)
    return 1 if bad else 0


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    r = sub.add_parser("replay", help="replay game logs with the rules engine and report scores",
                       description="Replay .jsonl / .jsonl.gz game logs with every rule checked: each hand's "
                       "scores and penalties, the first illegal move with its line and rule, and every "
                       "difference from the scores the log recorded. Exit 1 when a game is invalid or "
                       "disagrees, 2 when a file cannot be read.")
    r.add_argument("files", nargs="+", metavar="FILE", help=".jsonl or .jsonl.gz game logs")
    r.add_argument("--game", help="only this game id")
    r.add_argument("--json", action="store_true", help="machine-readable output (docs/cli.md)")
    return {"replay": cmd_replay}
