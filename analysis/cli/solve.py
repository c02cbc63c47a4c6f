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
    brief,
    check_pair,
    classify,
    okey_of,
    over_copies,
    parse_line,
    parse_placed,
    resolve,
)


class PositionError(ValueError):
    """A position that cannot be read."""


MAX_TABLE_TILES = 106 - 14  # the set less the indicator and at least a rack's worth (T1)
MAX_THRESHOLD = 10_000  # a points threshold past any rack's value (O1): the solver's limit
MAX_PAIRS = 53  # pairs in a position: the set's 106 tiles, two by two (O3)


def _tile(x: Any, what: str) -> Tile:
    try:
        return Tile.parse(x)
    except NotationError as e:
        raise PositionError(f"{what}: {e}") from None


def _tiles(x: Any, what: str, limit: int | None = None) -> list[Tile]:
    if isinstance(x, str):
        x = x.replace(",", " ").split()
    if not isinstance(x, list):
        raise PositionError(f"{what} must be a list of tiles or a string, got {brief(x)}")
    if limit is not None and len(x) > limit:
        raise PositionError(f"{what}: {len(x)} tiles; a player holds at most {limit} under these rules (D1: the "
                            f"deal, the starter one more)")
    return [_tile(t, what) for t in x]


def _int(x: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise PositionError(f"{what} must be a whole number from {lo} to {hi}, got {brief(x)}")
    return x


def _list(x: Any, what: str) -> list[Any]:
    if x is None:
        return []
    if not isinstance(x, list):
        raise PositionError(f"{what} must be a list, got {brief(x)}")
    return x


def _opening(o: Any, what: str) -> Opening:
    if not isinstance(o, Mapping):
        raise PositionError(f"{what} must be an object like {{\"kind\": \"points\", \"value\": 120}}, "
                            f"got {brief(o)}")
    kind = o.get("kind", "points")
    if kind not in ("points", "pairs"):
        raise PositionError(f"{what}: 'kind' is points or pairs, got {brief(kind)}")
    return Opening(kind, _int(o.get("value", 0), f"{what}: 'value'", 0, MAX_THRESHOLD))


def max_rack(rules: Any) -> int:
    """The most tiles a player holds under ``rules``: the starter's deal (D1)."""
    return int(rules.dealt_starter)


def state_from_position(pos: Mapping[str, Any]) -> HandState:
    """An engine state with the player at seat 0, the previous player at seat 3 (his discard is
    ``take``) and the next player at seat 1."""
    if not isinstance(pos, Mapping):
        raise PositionError(f"a position is a JSON object, got {brief(pos)}")
    for key in ("rack", "indicator"):
        if key not in pos:
            raise PositionError(f"a position needs {key!r}")
    variant = pos.get("variant", "101")
    if not isinstance(variant, str):
        raise PositionError(f"'variant' must be a preset name, got {brief(variant)}")
    try:
        rules = resolve(variant, pos.get("rules"))
    except RulesError as e:
        raise PositionError(str(e)) from None
    ind = _tile(pos["indicator"], "indicator")
    if ind.is_joker:
        raise PositionError("a false okey cannot be the indicator [T2]")
    okey = okey_of(ind)
    most = max_rack(rules)
    rack = _tiles(pos["rack"], "rack", most)
    if not rack:
        raise PositionError("the rack is empty")
    take = _tile(pos["take"], "take") if pos.get("take") else None
    if take is not None and len(rack) + 1 > most:
        raise PositionError(f"rack: {len(rack)} tiles and the take; a player holds at most {most} under "
                            f"{rules.variant} [D1]")
    table: list[TableMeld] = []
    tiles_on_table = 0
    for i, raw in enumerate(_list(pos.get("table"), "table")):
        owner = 1
        if isinstance(raw, Mapping):
            owner = _int(raw.get("owner", 1), f"table meld {i}: 'owner'", 0, 3)
            raw = raw.get("tiles")
        if isinstance(raw, str):
            raw = raw.split()
        if not isinstance(raw, list):
            raise PositionError(f"table meld {i}: a list of tiles, got {brief(raw)}")
        tiles_on_table += len(raw)
        if tiles_on_table > MAX_TABLE_TILES:
            raise PositionError(f"table: more than {MAX_TABLE_TILES} tiles; the set has 106 [T1]")
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
        opened[0] = _opening(pos["opened"], "opened")
    others = _list(pos.get("openings"), "openings")
    if len(others) > 3:
        raise PositionError(f"openings: the other three players' openings, got {len(others)}")
    for s, o in zip((1, 2, 3), others):
        if o:
            opened[s] = _opening(o, f"openings[{s - 1}]")
    over = over_copies(Counter(rack + ([take] if take is not None else [])))
    if over:
        t, n = over[0]
        raise PositionError(f"rack: {t} appears {n} times (with take), the set has two of each tile [T1]")
    racks = (tuple(rack), tuple(_tiles(pos.get("next_rack") or [], "next_rack", most)), (), ())
    discards = ((), (), (), (take,) if take is not None else ())
    ends = []
    for e in _list(pos.get("end_counts"), "end_counts"):
        if not (isinstance(e, list) and len(e) == 3 and e[1] in ("low", "high")):
            raise PositionError(f"end_counts: entries are [meld, \"low\"|\"high\", count], got {brief(e)}")
        ends.append(((_int(e[0], "end_counts: meld", 0, max(0, len(table) - 1)), e[1]),
                     _int(e[2], "end_counts: count", 0, 2)))
    return HandState(rules=rules, hand=1, starter=0, indicator=ind, okey=okey, racks=racks, deck=None,
                     deck_count=50, discards=discards, table=tuple(table), opened=tuple(opened),
                     shown=(bool(pos.get("shown")), False, False, False),
                     started=(True,) * 4, turn=0, phase="draw" if take is not None else "play",
                     takeable=3 if take is not None else None,
                     opened_this_turn=bool(pos.get("opened_this_turn")), end_counts=tuple(ends))


def solve_position(pos: Mapping[str, Any]) -> dict[str, Any]:
    """The solver's answer for one position; a bare rack with ``take`` opens with that tile."""
    from analysis.solver import solve

    state = state_from_position(pos)
    th = pos.get("threshold")
    pth = pos.get("pairs_threshold")
    out = solve(state, 0, points_threshold=_int(th, "threshold", 1, MAX_THRESHOLD) if th is not None else None,
                pairs_threshold=_int(pth, "pairs_threshold", 1, MAX_PAIRS) if pth is not None else None)
    if "take" in out:  # the question asked was "open with this discard"
        t = out.pop("take")
        out["points"], out["pairs"], out["take"] = t["points"], t["pairs"], t["tile"]
    if "id" in pos:
        out = {"id": pos["id"], **out}
    return out


def read_position(raw: bytes) -> Any:
    """One JSON position from bytes, within the log reader's limits (BOM skipped)."""
    ev, why, fld = parse_line(raw)
    if why is not None:
        err = PositionError(f"field {fld!r}: {why}" if fld else why)
        err.position = ev  # type: ignore[attr-defined]  # its id is still echoed
        raise err
    return ev


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


def _answer(raw: bytes) -> dict[str, Any]:
    """One --batch line's answer; never raises (an unexpected failure is answered as an error)."""
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
    s = sub.add_parser("solve", help="best opening, pairs or turn for a rack or a position")
    s.add_argument("--rack", help='the rack, e.g. "R1 R2 R3 J"')
    s.add_argument("--indicator", help="the indicator tile (the okey is the next number, T3)")
    s.add_argument("--variant", default="101", help="rules preset (101, 101-classic, 51)")
    s.add_argument("--take", metavar="TILE", help="the previous discard, e.g. K3, to open with it (P2)")
    s.add_argument("--position", metavar="FILE", help="a JSON position (docs/solver.md)")
    s.add_argument("--batch", metavar="FILE", help="JSON lines, one position each; one result per line")
    s.add_argument("--json", action="store_true", help="print JSON")
    return {"solve": cmd_solve}
