"""The ``solver`` bot's placing and taking: the exact solver (:mod:`analysis.solver`) on what the
seat can see.

The solver is given only the bot's :class:`~analysis.bots.View`: its own rack, the table, the
thresholds, and a redacted state (other racks empty, no deck) for a turn plan. When
``analysis.solver`` cannot be imported the bot plays like ``greedy`` with a sharper discard.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import analysis.solver as S_
from analysis.game import melds as M
from analysis.game import IllegalMove, apply
from analysis.game import Placed, Tile
from analysis.solver import quick as BM

from .bots import GreedyBot, discard_order, greedy_opening, opened_moves
from .view import View, event, usefulness

Event = dict[str, Any]
_GREEDY = GreedyBot(random.Random(0))  # its take() draws on no randomness


def _solver() -> Any:
    """The exact solver (:mod:`analysis.solver`)."""
    return S_


def available() -> bool:
    """The solver bot always has its solver (the compiled kernel is optional: Python serves)."""
    return True


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
    return [event("layoff", seat, meld=m, tiles=ts) for m, ts in map(_target_and_tiles, items)]


# ---- decisions -------------------------------------------------------------------------------


# The exact search is only asked when the quick finder comes within this many points of the
# threshold (the exact value is never below the quick one), so a hopeless rack costs nothing.
MARGIN = 25


@dataclass(frozen=True, slots=True)
class _Nothing:
    """No opening worth asking the solver about."""

    left: list[Tile]
    value: int = 0
    count: int = 0
    melds: tuple = ()
    pairs: tuple = ()
    layoffs: tuple = ()
    reaches: bool = False


def _plans(v: View, take: Tile | None, exact: bool = False) -> tuple[Any, Any]:
    """The best points and pairs openings of the seat's rack; ``take``: a discard it may take (not
    yet in the rack). A discard already taken this turn must be used (P2). The exact points search
    is asked only when the quick finder comes within :data:`MARGIN` of the threshold, unless
    ``exact``: the quick finder reads the rack alone, so it misses openings that lay tiles off
    onto the table's melds (L6) or that its partition undervalues (about 30% of the openings the
    exact search finds at the unopened seats of expert tables in ``101``)."""
    S = _solver()
    r = v.rules
    s = v.state
    must = s.took if (take is None and s.took_unopened) else None
    rack = v.rack + ((take,) if take is not None else ())
    c, wild = BM.counts_of(rack, v.okey)
    quick = BM.partition(c, wild)
    need = v.points_threshold()
    below_ok = r.open_below_finishing != "no" and quick.tiles_left <= 3
    if exact or quick.value + MARGIN >= need or below_ok:
        table = v.table if r.layoff_opening_turn else ()
        pts = S.best_points_opening(v.rack, v.okey, rules=r, threshold=need, take=take,
                                    table=table, must_use=must, end_counts=s.end_counts)
    else:
        pts = _Nothing(list(rack))
    twin = v.indicator if v.twin_shown and v.indicator in v.rack else None
    tw = 1 if twin is not None else 0
    if tw:
        c[v.indicator.index] -= 1
    if len(BM.pairs(c, wild, tw)) >= v.pairs_threshold():
        prs = S.best_pairs_opening(v.rack, v.okey, rules=r, threshold=v.pairs_threshold(), twin=twin,
                                   take=take, must_use=must)
    else:
        prs = _Nothing(list(rack))
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
        return event("open", v.seat, melds=[_group_text(m) for m in pts.melds])
    if use_prs:
        return event("open", v.seat, pairs=[_group_text(p) for p in prs.pairs])
    return None


def place(v: View, memo: dict[str, Any]) -> list[Event]:
    """This turn's placing. ``memo`` is the bot's own notebook: the last opening plans (for the
    discard) and whether this turn's plan has been played already."""
    S = _solver()
    if S is None:
        if not v.opened:
            ev = greedy_opening(v)
            return [ev] if ev is not None else []
        return opened_moves(v)
    key = (v.state.hand, v.ply, v.state.opened_this_turn)
    if memo.get("played") == key:
        return []
    if not v.opened:
        pts, prs = _plans(v, None)
        memo["plans"] = (v.rack, pts, prs)
        ev = _choose_opening(v, pts, prs)
        if ev is None or v.legal(ev) is None:
            return []
        out = [ev]
        if "melds" in ev and v.rules.layoff_opening_turn:
            out += _layoff_events(v.seat, pts.layoffs)
        return out if _playable(v, out) else []
    memo["played"] = key
    out = _turn_events(v, S.best_turn(v.state, v.seat))
    if _playable(v, out):
        return out
    # the plan reads a rule differently from the engine (e.g. S2 on a group holding two okeys):
    # play this turn the quick way rather than offer a move the engine refuses
    memo["refused_plans"] = memo.get("refused_plans", 0) + 1
    del memo["played"]
    return opened_moves(v)


def _playable(v: View, events: list[Event]) -> bool:
    """Would the engine accept these events one after another (on the seat's own view)?"""
    st = v.state
    for ev in events:
        try:
            st = apply(st, ev)
        except IllegalMove:
            return False
    return True


def _turn_events(v: View, plan: Any) -> list[Event]:
    """A turn plan as events: swaps first (a freed okey may be used at once), melds, pairs,
    then lay-offs."""
    out: list[Event] = []
    for x in plan.swaps:
        m, ts = _target_and_tiles(x)
        out.append(event("swap", v.seat, meld=m, tiles=ts))
    if plan.melds:  # best_turn keeps O3, O4, O5 and L5
        out.append(event("meld", v.seat, melds=[_group_text(m) for m in plan.melds]))
    if plan.pairs:
        out.append(event("meld", v.seat, pairs=[_group_text(p) for p in plan.pairs]))
    out += _layoff_events(v.seat, plan.layoffs)
    return out


def _turn_penalty(v: View, extra: Tile | None = None) -> int:
    """The rack penalty (E5) left after the best turn, as if it were this seat's play phase."""
    s = v.state
    rack = v.rack + ((extra,) if extra is not None else ())
    racks = tuple(rack if k == v.seat else r for k, r in enumerate(s.racks))
    hypo = replace(s, racks=racks, phase="play", turn=v.seat)
    plan = _solver().best_turn(hypo, v.seat)
    return -1 if plan.finishes else plan.penalty


def take(v: View) -> bool:
    S = _solver()
    t = v.takeable()
    if t is None:
        return False
    if S is None:
        return _GREEDY.take(v)
    face = v.okey if t.is_joker else t
    fits = any(m is not None and m.kind != M.PAIR and M.fits(m.kind, m.tiles, face) for m in v.table)
    c, wild = BM.counts_of(v.rack, v.okey)
    joins = bool(c[face.index]) or usefulness(t, v.rack, v.okey, c) >= 3
    if not fits and not joins and (v.opened or not wild):
        return False  # it joins nothing in the rack: no meld, pair or lay-off can use it
    if v.opened and fits and not v.opened_pairs:
        return True  # it goes straight onto the table
    if not v.opened:
        pts, prs = _plans(v, t)
        return _choose_opening(v.after(event("take", v.seat, tile=str(t))), pts, prs) is not None
    # opened: worth it when the tile saves more than its own value, or lets him finish
    with_t = _turn_penalty(v, t)
    return with_t < 0 or with_t <= _turn_penalty(v)


def declare(v: View) -> bool:
    c, w = BM.counts_of(v.rack, v.okey)
    n_pairs = len(BM.pairs(c, w))
    pts = BM.partition(c, w).value
    return n_pairs >= v.rules.open_pairs - 1 and pts < v.points_threshold() * 0.7


def discard(v: View, memo: dict[str, Any]) -> Tile:
    """Unopened: a tile the best opening does not use (so its value is kept), the heuristic's
    cheapest of those; opened: the heuristic's cheapest (X3, X4, X5 danger, use, value)."""
    loose = None
    plans = memo.get("plans")
    if not v.opened and plans is not None and plans[0] == v.rack:
        _, pts, prs = plans
        if isinstance(pts, _Nothing) and isinstance(prs, _Nothing):
            loose = None  # nothing exact to protect: the quick finder's leftovers
        elif pts.value >= prs.count * 10:
            loose = pts.left
        else:
            loose = prs.left
    return discard_order(v, danger=True, loose=loose)[0]


# ---- the solver's plans as the evaluator reads them (candidates of a decision) ------

opening_plans = _plans
finishing_below = _finishing_below
choose_opening = _choose_opening
turn_events = _turn_events
playable = _playable
layoff_events = _layoff_events
group_text = _group_text


class SolverBot(GreedyBot):
    """The exact solver for openings and turns; weighs pairs against melds and discard danger."""

    kind = "solver"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.memo: dict[str, Any] = {}  # this seat's own notes (plans it computed)

    def new_deal(self) -> None:
        # the notes are keyed by (hand, ply, ...): a void hand (E3) is dealt again under the same
        # number from ply 1, and a note of the void deal would pass for this one's (a turn's plan
        # taken as played, so a seat that took a discard to open with it could not open, P2)
        self.memo.clear()

    def place(self, v: View) -> list[Event]:
        return place(v, self.memo)

    def take(self, v: View) -> bool:
        return take(v)

    def declare(self, v: View) -> bool:
        return declare(v)

    def discard(self, v: View) -> Tile:
        return discard(v, self.memo)
