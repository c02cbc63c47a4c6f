"""``istaka solve``: the best opening, pairs or turn for a rack or a position (issue 3).

A position (``--position FILE`` or one line of ``--batch FILE.jsonl``) is a JSON object::

    {"id": "any", "rack": ["R1", ...], "indicator": "R5", "variant": "101", "rules": {...},
     "take": "K3",                      # the previous discard, to open with it (P2)
     "table": [["R4","R5","R6"], {"tiles": ["Y7","B7","R6>K7"], "owner": 2}, ["K3","K3"]],
     "opened": null | {"kind": "points"|"pairs", "value": 120},   # this player's opening
     "openings": [{"kind": "points", "value": 120}],              # other players' (O2, O3)
     "threshold": 121, "pairs_threshold": 6,                      # override the thresholds
     "shown": false, "opened_this_turn": false, "end_counts": [[0, "high", 1]],
     "next_rack": ["..."]}              # the next player's rack, for X5

Only ``rack`` and ``indicator`` are required; unknown keys are ignored; ``id`` is echoed back.
Table melds are numbered in list order; a list of two tiles is a pair, anything else a meld.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, Callable, Mapping

from analysis.game import (
    HandState,
    MeldError,
    NotationError,
    Opening,
    RulesError,
    TableMeld,
    Tile,
    check_pair,
    classify,
    okey_of,
    over_copies,
    parse_placed,
    resolve,
)


class PositionError(ValueError):
    """A position that cannot be read."""


def _tile(x: Any, what: str) -> Tile:
    try:
        return Tile.parse(x)
    except NotationError as e:
        raise PositionError(f"{what}: {e}") from None


def _tiles(x: Any, what: str) -> list[Tile]:
    if isinstance(x, str):
        x = x.replace(",", " ").split()
    if not isinstance(x, list):
        raise PositionError(f"{what} must be a list of tiles or a string, got {x!r}")
    return [_tile(t, what) for t in x]


def state_from_position(pos: Mapping[str, Any]) -> HandState:
    """An engine state with the player at seat 0, the previous player at seat 3 (his discard is
    ``take``) and the next player at seat 1."""
    if not isinstance(pos, Mapping):
        raise PositionError("a position is a JSON object")
    for key in ("rack", "indicator"):
        if key not in pos:
            raise PositionError(f"a position needs {key!r}")
    try:
        rules = resolve(str(pos.get("variant", "101")), pos.get("rules"))
    except RulesError as e:
        raise PositionError(str(e)) from None
    ind = _tile(pos["indicator"], "indicator")
    if ind.is_joker:
        raise PositionError("a false okey cannot be the indicator [T2]")
    okey = okey_of(ind)
    rack = _tiles(pos["rack"], "rack")
    if not rack:
        raise PositionError("the rack is empty")
    table: list[TableMeld] = []
    for i, raw in enumerate(pos.get("table") or []):
        owner = 1
        if isinstance(raw, Mapping):
            owner = int(raw.get("owner", 1))
            raw = raw.get("tiles")
        if isinstance(raw, str):
            raw = raw.split()
        if not isinstance(raw, list):
            raise PositionError(f"table meld {i}: a list of tiles, got {raw!r}")
        try:
            placed = [parse_placed(t, okey, ind if len(raw) == 2 else None) for t in raw]
            if len(raw) == 2:
                kind, ordered = "pair", check_pair(placed)
            else:
                kind, ordered = classify(placed)
        except (NotationError, MeldError) as e:
            raise PositionError(f"table meld {i}: {e}") from None
        table.append(TableMeld(i, owner, kind, tuple(ordered), (owner,) * len(ordered)))
    opened: list[Opening | None] = [None] * 4
    if pos.get("opened"):
        o = pos["opened"]
        opened[0] = Opening(str(o.get("kind", "points")), int(o.get("value", 0)))
    for s, o in zip((1, 2, 3), pos.get("openings") or []):
        if o:
            opened[s] = Opening(str(o.get("kind", "points")), int(o.get("value", 0)))
    take = _tile(pos["take"], "take") if pos.get("take") else None
    over = over_copies(Counter(rack + ([take] if take is not None else [])))
    if over:
        t, n = over[0]
        raise PositionError(f"rack: {t} appears {n} times (with take), the set has two of each tile [T1]")
    racks = (tuple(rack), tuple(_tiles(pos.get("next_rack") or [], "next_rack")), (), ())
    discards = ((), (), (), (take,) if take is not None else ())
    ends = tuple(((int(m), str(e)), int(k)) for m, e, k in (pos.get("end_counts") or []))
    return HandState(rules=rules, hand=1, starter=0, indicator=ind, okey=okey, racks=racks, deck=None,
                     deck_count=50, discards=discards, table=tuple(table), opened=tuple(opened),
                     shown=(bool(pos.get("shown")), False, False, False),
                     started=(True,) * 4, turn=0, phase="draw" if take is not None else "play",
                     takeable=3 if take is not None else None,
                     opened_this_turn=bool(pos.get("opened_this_turn")), end_counts=ends)


def solve_position(pos: Mapping[str, Any]) -> dict[str, Any]:
    """The solver's answer for one position; a bare rack with ``take`` opens with that tile."""
    from analysis.solver import solve

    state = state_from_position(pos)
    th = pos.get("threshold")
    pth = pos.get("pairs_threshold")
    out = solve(state, 0, points_threshold=int(th) if th is not None else None,
                pairs_threshold=int(pth) if pth is not None else None)
    if "take" in out:  # the question asked was "open with this discard"
        t = out.pop("take")
        out["points"], out["pairs"], out["take"] = t["points"], t["pairs"], t["tile"]
    if "id" in pos:
        out = {"id": pos["id"], **out}
    return out


def _print_text(res: Mapping[str, Any], out: Any) -> None:
    if "plan" in res:
        p = res["plan"]
        print(f"best turn: melds {p['melds']} pairs {p['pairs']} layoffs {p['layoffs']} swaps {p['swaps']}", file=out)
        print(f"  left {' '.join(p['left'])}  penalty {p['penalty']}  finishes {', '.join(p['finishes']) or 'no'}", file=out)
    else:
        pt, pr = res["points"], res["pairs"]
        melds = "  ".join(" ".join(m) for m in pt["melds"])
        print(f"points: {pt['value']} / {pt['threshold']} {'opens' if pt['reaches'] else 'short'}: {melds}", file=out)
        for lo in pt["layoffs"]:
            print(f"  lay off {' '.join(lo['tiles'])} on meld {lo['meld']}", file=out)
        print(f"  left {' '.join(pt['left'])}", file=out)
        pairs = "  ".join(" ".join(p) for p in pr["pairs"])
        print(f"pairs: {pr['count']} / {pr['threshold']} {'opens' if pr['reaches'] else 'short'}: {pairs}", file=out)
    d = res.get("dangerous") or {}
    if d.get("x4") or d.get("x5"):
        print(f"dangerous: X4 {' '.join(d['x4']) or '-'}  X5 {' '.join(d['x5']) or '-'}", file=out)


def cmd_solve(args: argparse.Namespace) -> int:
    from .common import UsageError

    if args.batch:
        try:
            fh = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot read {args.batch}: {e.strerror or e}") from None
        bad = 0
        name = "<stdin>" if args.batch == "-" else args.batch
        with fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                pos: Any = None
                try:
                    try:
                        pos = json.loads(line)
                    except ValueError as e:
                        raise ValueError(f"not JSON: {e}") from None
                    res = solve_position(pos)
                except (ValueError, TypeError, KeyError) as e:
                    bad += 1
                    res = {"error": str(e), "line": lineno}
                    if isinstance(pos, Mapping) and "id" in pos:
                        res = {"id": pos["id"], **res}
                    print(f"{name}:{lineno}: {e}", file=sys.stderr)
                sys.stdout.write(json.dumps(res, ensure_ascii=False) + "\n")
        return 1 if bad else 0
    if args.position:
        try:
            with open(args.position, encoding="utf-8") as fh:
                pos = json.load(fh)
        except OSError as e:
            raise UsageError(f"cannot read {args.position}: {e.strerror or e}") from None
        except ValueError as e:
            raise UsageError(f"{args.position} is not JSON: {e}") from None
    elif args.rack and args.indicator:
        pos = {"rack": args.rack, "indicator": args.indicator, "variant": args.variant}
        if args.take:
            pos["take"] = args.take
    else:
        raise UsageError("give --rack and --indicator, --position FILE or --batch FILE.jsonl")
    try:
        res = solve_position(pos)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        sys.stdout.write(json.dumps(res, ensure_ascii=False) + "\n")
    else:
        _print_text(res, sys.stdout)
    return 0


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    s = sub.add_parser("solve", help="best opening, pairs or turn for a rack or a position")
    s.add_argument("--rack", help='the rack, e.g. "R1 R2 R3 J"')
    s.add_argument("--indicator", help="the indicator tile (the okey is the next number, T3)")
    s.add_argument("--variant", default="101", help="rules preset (101, 101-classic, 51)")
    s.add_argument("--take", help="the previous discard, to open with it (P2)")
    s.add_argument("--position", metavar="FILE", help="a JSON position (see README, Solver)")
    s.add_argument("--batch", metavar="FILE", help="JSON lines, one position each; one result per line")
    s.add_argument("--json", action="store_true", help="print JSON")
    return {"solve": cmd_solve}
