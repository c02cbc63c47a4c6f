"""``istaka solve``: the best opening, pairs or turn for a rack or a position (:mod:`.position`
says what a position holds), one answer per position, as text or JSON lines.

The engine and the solver are imported when a position is solved, never for ``--help``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .common import TILES_HELP


def _print_text(res: Mapping[str, Any], out: Any) -> None:
    if "plan" in res:
        p = res["plan"]
        print(f"best turn: melds {p['melds']} pairs {p['pairs']} layoffs {p['layoffs']} swaps {p['swaps']}", file=out)
        print(f"  left {' '.join(p['left'])}  penalty {p['penalty']}  finishes {', '.join(p['finishes']) or 'no'}", file=out)
    else:
        pt, pr = res["points"], res["pairs"]
        melds = "  ".join(" ".join(m) for m in pt["melds"]) or "no meld in the rack"
        print(f"points: {pt['value']} / {pt['threshold']} {'opens' if pt['reaches'] else 'short'}: {melds}", file=out)
        for lo in pt["layoffs"]:
            print(f"  lay off {' '.join(lo['tiles'])} on meld {lo['meld']}", file=out)
        print(f"  left {' '.join(pt['left'])}", file=out)
        pairs = "  ".join(" ".join(p) for p in pr["pairs"]) or "no pair in the rack"
        print(f"pairs: {pr['count']} / {pr['threshold']} {'opens' if pr['reaches'] else 'short'}: {pairs}", file=out)
    d = res.get("dangerous") or {}
    if d.get("x4") or d.get("x5"):
        print(f"dangerous: X4 {' '.join(d['x4']) or '-'}  X5 {' '.join(d['x5']) or '-'}", file=out)


def _answer(raw: bytes) -> dict[str, Any]:
    """One --batch line's answer; never raises (an unexpected failure is answered as an error)."""
    from .position import read_position, solve_position

    pos: Any = None
    try:
        pos = read_position(raw)
        return solve_position(pos)
    except (ValueError, TypeError, KeyError, ArithmeticError, RecursionError) as e:
        msg = str(e) if isinstance(e, ValueError) and str(e) else f"{type(e).__name__}: {e}"
        if getattr(e, "position", None) is not None:  # past a limit: echo the id only when it is plain
            pos = e.position  # type: ignore[attr-defined]
            if isinstance(pos, Mapping) and isinstance(pos.get("id"), (list, dict)):
                pos = None
    res: dict[str, Any] = {"error": msg.splitlines()[0]}
    if isinstance(pos, Mapping) and "id" in pos:
        res = {"id": pos["id"], **res}
    return res


def cmd_solve(args: argparse.Namespace) -> int:
    from .common import UsageError
    from .position import PositionError, read_position, solve_position

    if args.batch:
        try:
            fh = sys.stdin.buffer if args.batch == "-" else open(args.batch, "rb")
        except OSError as e:
            raise UsageError(f"cannot read {args.batch}: {e.strerror or e}") from None
        bad = 0
        name = "<stdin>" if args.batch == "-" else args.batch
        with fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                res = _answer(line.rstrip(b"\r\n"))
                if "error" in res:
                    bad += 1
                    res["line"] = lineno
                    print(f"{name}:{lineno}: {res['error']}", file=sys.stderr)
                try:
                    out = json.dumps(res, ensure_ascii=False)
                except (ValueError, TypeError, RecursionError) as e:  # never leave a line unanswered
                    bad += "error" not in res
                    out = json.dumps({"error": f"the answer cannot be written as JSON: {e}", "line": lineno})
                sys.stdout.write(out + "\n")
                sys.stdout.flush()
        return 1 if bad else 0
    if args.position:
        try:
            with open(args.position, "rb") as fh:
                pos = read_position(fh.read())
        except OSError as e:
            raise UsageError(f"cannot read {args.position}: {e.strerror or e}") from None
        except PositionError as e:
            raise UsageError(f"{args.position}: {e}") from None
    elif args.rack and args.indicator:
        pos = {"rack": args.rack, "indicator": args.indicator, "variant": args.variant}
        if args.take:
            pos["take"] = args.take
    else:
        raise UsageError("give --rack and --indicator, --position FILE or --batch FILE.jsonl")
    try:
        res = solve_position(pos)
    except (ValueError, TypeError, KeyError, ArithmeticError, RecursionError) as e:
        raise UsageError(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}") from None
    if args.json:
        sys.stdout.write(json.dumps(res, ensure_ascii=False) + "\n")
    else:
        _print_text(res, sys.stdout)
    return 0


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    s = sub.add_parser("solve", help="best opening, pairs or turn for a rack or a position",
                       description="The solver's answer for a rack (--rack and --indicator) or a position "
                       "(--position FILE, a JSON object; --batch FILE.jsonl, one a line): the best opening "
                       "with melds (per, O1) and with pairs (çift, O3), each against its threshold, the "
                       "tiles left, the lay-offs, and the dangerous discards (X4, X5); for an opened player "
                       "the best turn. docs/solver.md: the position's fields.", epilog=TILES_HELP)
    s.add_argument("--rack", help='the rack, e.g. "R1 R2 R3 J" (tiles: see below)')
    s.add_argument("--indicator", help="the indicator tile (gösterge), e.g. R5: the okey is the next number, R6 (T3)")
    s.add_argument("--variant", default="101", help="rules preset (101, 101-classic, 51)")
    s.add_argument("--take", metavar="TILE", help="the previous discard, e.g. K3, to open with it (P2)")
    s.add_argument("--position", metavar="FILE", help="a JSON position (docs/solver.md)")
    s.add_argument("--batch", metavar="FILE", help="JSON lines, one position each; one result per line")
    s.add_argument("--json", action="store_true", help="print JSON")
    return {"solve": cmd_solve}
