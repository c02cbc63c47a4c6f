"""The ``solver`` bot's placing and taking: the exact solver (:mod:`analysis.solver`) on what the
seat can see.

The solver is given only the bot's :class:`~analysis.bots.View`: its own rack, the table, the
thresholds, and a redacted state (other racks empty, no deck) for a turn plan. When
``analysis.solver`` cannot be imported the bot plays like ``greedy`` with a sharper discard.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Iterable

from . import botmelds as BM
from . import melds as M
from .bots import GreedyBot, View, _ev, _greedy_opening, _opened_moves
from .tiles import Placed, Tile

Event = dict[str, Any]
_GREEDY = GreedyBot(random.Random(0))  # its take() draws on no randomness


@lru_cache(maxsize=1)
def _solver() -> Any:
    try:
        from . import solver
    except ImportError:
        return None
    return solver


def available() -> bool:
    return _solver() is not None


# ---- converting the solver's answers into events -------------------------------------------


def _tile_text(x: Any) -> str:
    if isinstance(x, (Placed, Tile)):
        return str(x)
    return str(x)


def _group_text(g: Any) -> list[str]:
    if isinstance(g, str):
        return g.split()
    if hasattr(g, "tiles"):
        g = g.tiles
    return [_tile_text(x) for x in g]


def _target_and_tiles(x: Any) -> tuple[int, list[str]]:
    """A lay-off or swap as the solver gives it: (meld, tiles), a dict, or an object."""
    if isinstance(x, dict):
        return int(x["meld"]), _group_text(x["tiles"])
    if hasattr(x, "meld") and hasattr(x, "tiles"):
        m = x.meld
        return int(m.index if hasattr(m, "index") else m), _group_text(x.tiles)
    m, ts = x
    if isinstance(ts, (str, Placed, Tile)):
        ts = [ts]
    return int(m), _group_text(ts)


def _layoff_events(seat: int, items: Iterable[Any]) -> list[Event]:
    return [_ev("layoff", seat, meld=m, tiles=ts) for m, ts in map(_target_and_tiles, items)]


# ---- decisions -------------------------------------------------------------------------------


def _plans(v: View, take: Tile | None) -> tuple[Any, Any]:
    S = _solver()
    r = v.rules
    table = tuple(m for m in v.table if m is not None) if r.layoff_opening_turn else ()
    pts = S.best_points_opening(v.rack, v.okey, rules=r, threshold=v.points_threshold(), take=take, table=table)
    twin = v.indicator if v.twin_shown and v.indicator in v.rack else None
    prs = S.best_pairs_opening(v.rack, v.okey, rules=r, threshold=v.pairs_threshold(), twin=twin, take=take)
    return pts, prs


def _finishing_below(v: View, pts: Any) -> bool:
    """O9: an opening under the threshold that finishes the hand, where the preset allows it."""
    r = v.rules
    if len(pts.left) != 1 or not pts.melds:
        return False
    others = any(o is not None for s, o in enumerate(v.state.opened) if s != v.seat)
    return r.open_below_finishing == "yes" or (r.open_below_finishing == "elden" and not others)


def _choose_opening(v: View, pts: Any, prs: Any) -> Event | None:
    r = v.rules
    declared_ok = not r.declare_pairs or v.state.declared[v.seat]
    use_pts = bool(pts.melds) and (pts.reaches or _finishing_below(v, pts))
    use_prs = declared_ok and bool(prs.pairs) and prs.reaches
    if use_pts and use_prs:
        # a pairs opener's rack counts double (E5) but his finish doubles too (E6/E7): take pairs
        # only when they leave clearly fewer tiles
        use_prs = len(prs.left) + 3 <= len(pts.left)
        use_pts = not use_prs
    if use_pts:
        return _ev("open", v.seat, melds=[_group_text(m) for m in pts.melds])
    if use_prs:
        return _ev("open", v.seat, pairs=[_group_text(p) for p in prs.pairs])
    return None


def place(v: View) -> list[Event]:
    S = _solver()
    if S is None:
        if not v.opened:
            ev = _greedy_opening(v)
            return [ev] if ev is not None else []
        return _opened_moves(v)
    if not v.opened:
        s = v.state
        take = s.took if s.took_unopened else None
        pts, prs = _plans(v, take)
        ev = _choose_opening(v, pts, prs)
        if ev is None or v.legal(ev) is None:
            return []
        out = [ev]
        if "melds" in ev and v.rules.layoff_opening_turn:
            out += _layoff_events(v.seat, getattr(pts, "layoffs", ()) or ())
        return out
    plan = S.best_turn(v.state, v.seat)
    out: list[Event] = []
    for x in getattr(plan, "swaps", ()) or ():
        m, ts = _target_and_tiles(x)
        out.append(_ev("swap", v.seat, meld=m, tiles=ts))
    melds = [_group_text(m) for m in (getattr(plan, "melds", ()) or ())]
    if melds:
        key = "pairs" if all(len(m) == 2 for m in melds) else "melds"
        out.append(_ev("meld", v.seat, **{key: melds}))
    out += _layoff_events(v.seat, getattr(plan, "layoffs", ()) or ())
    return out


def take(v: View) -> bool:
    S = _solver()
    t = v.takeable()
    if t is None:
        return False
    if S is None:
        return _GREEDY.take(v)
    if not v.opened:
        pts, prs = _plans(v.after(_ev("take", v.seat, tile=str(t))), t)
        return _choose_opening(v.after(_ev("take", v.seat, tile=str(t))), pts, prs) is not None
    # opened: worth it when the tile lowers the rack's end penalty by more than its own value
    face = v.okey if t.is_joker else t
    if any(m is not None and m.kind != M.PAIR and M.fits(m.kind, m.tiles, face) for m in v.table):
        return True
    c, w = BM.counts_of(v.rack, v.okey)
    before = BM.partition(c, w).value
    c2, w2 = BM.counts_of(v.rack + (t,), v.okey)
    return BM.partition(c2, w2).value > before + face.number


def declare(v: View) -> bool:
    c, w = BM.counts_of(v.rack, v.okey)
    n_pairs = len(BM.pairs(c, w))
    pts = BM.partition(c, w).value
    return n_pairs >= v.rules.open_pairs - 1 and pts < v.points_threshold() * 0.7
