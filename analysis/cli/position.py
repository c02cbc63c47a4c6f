"""The position ``istaka solve`` reads: a rack, the indicator and optionally the table, the
openings and the previous discard, as an engine state with the player at seat 0.

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

from collections import Counter
from typing import Any, Mapping

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


__all__ = ["MAX_PAIRS", "MAX_TABLE_TILES", "MAX_THRESHOLD", "PositionError", "max_rack", "read_position",
           "solve_position", "state_from_position"]
