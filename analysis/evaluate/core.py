"""Expected hand score of each candidate decision, from one seat's view.

Method: determinized sampling (PIMC). Each *world* deals the tiles the seat has not seen
uniformly into the other racks (their sizes are public) and the deck; every candidate is played
in the same worlds (common random numbers) and the rest of the hand is played out by the
compiled rollout model (:mod:`.fast`, ``rollout.c``: the rules of docs/rules.md, proven against the
engine by replaying its hands), whose policy reads only each seat's own rack and the table; the
Python model of :mod:`.sim` is kept as the benchmark's reference and the pure install's. The value of
a candidate is the mean of the seat's hand score (E4-E8 and in-game penalties, the team's in
partner games) over the worlds; lower is better. Worlds are drawn until the time budget is
spent or the best candidate is clear; candidates clearly worse than the best after a few worlds
stop being played (successive elimination on paired differences). That ranks; it does not price:
:func:`price` plays chosen candidates on a fixed number of worlds of their own, never stopped
early (the deep review's costs).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from analysis.game import Tile, apply, full_set
from analysis.players import View

from . import belief as B
from . import fast, plans, reading
from .candidate import Candidate, discard_candidate, draw_candidate, place_candidate, take_candidate
from .sim import Sim, code

Event = dict[str, Any]

DEFAULT_BUDGET = 0.04  # seconds per decision
MIN_WORLDS = 6
MAX_WORLDS = 400
PRUNE_Z = 2.5
PRUNE_FROM = 8  # worlds before a candidate may be dropped
MODEL = "compiled"  # the rollout model: compiled (rollout.c, where built) or python (sim.py, the reference)
PRICE_WORLDS = 64  # fixed worlds a decision is priced on (:func:`price`; the deep review's costs)
# how the hidden tiles are sampled: weighted by what the other seats did (.belief, "table"),
# "uniform", or dealt from the direct reading of the table (.reading, "dealt", opt-in);
# ISTAKA_BELIEF sets it for a whole run (worker processes included)
BELIEF = os.environ.get("ISTAKA_BELIEF") if os.environ.get("ISTAKA_BELIEF") in B.BELIEFS else B.TABLE


@dataclass(frozen=True, slots=True)
class Evaluation:
    candidate: Candidate
    mean: float  # expected hand score of the seat (its team's in partner games); lower is better
    se: float  # standard error of the mean
    n: int  # worlds it was played in
    values: tuple[int, ...] = ()  # the score in each world, in world order (for paired differences)
    # per world, the value's parts then the rates (fast.PARTS, fast.RATES), where asked (price(parts=True))
    parts: tuple[tuple[int, ...], ...] = ()

    def part_means(self) -> dict[str, float]:
        """The mean of each part (fast.PARTS) over the worlds: they add up to :attr:`mean`."""
        if not self.parts:
            return {}
        n = len(self.parts)
        return {name: sum(col) / n for name, col in zip(fast.PARTS, zip(*self.parts))}

    def rate_means(self) -> dict[str, float]:
        """How often, over the worlds, the seat finishes, the next seat opens, the next seat finishes."""
        if not self.parts:
            return {}
        n, k = len(self.parts), len(fast.PARTS)
        return {name: sum(col) / n for name, col in zip(fast.RATES, list(zip(*self.parts))[k:])}

    def own_mean(self) -> float | None:
        """The seat's own expected score (its hand-end score and penalties alone): in partner games
        :attr:`mean` is its team's."""
        if not self.parts:
            return None
        k = len(fast.PARTS) + len(fast.RATES)
        return sum(p[k] for p in self.parts) / len(self.parts)

    def diff(self, other: Evaluation) -> tuple[float, float, int]:
        """Paired difference self - other on the worlds both were played in: (mean, se, n)."""
        n = min(len(self.values), len(other.values))
        if n == 0:
            return (math.nan, math.inf, 0)
        d = [a - b for a, b in zip(self.values[:n], other.values[:n])]
        m = sum(d) / n
        if n == 1:
            return (m, math.inf, 1)
        return (m, math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n), n)


def unseen_tiles(view: View, known: dict[int, Sequence[Tile]] | None = None) -> tuple[list[Tile], dict[int, list[Tile]]]:
    """The tiles the seat cannot place (sorted, so the order depends on the view alone), and the
    tiles it knows sit in other racks: a shown indicator twin (O7), discards it saw taken."""
    st = view.state
    c = full_set()
    c.subtract(st.face_up())
    c.subtract(view.rack)
    pinned: dict[int, list[Tile]] = {}
    for s in range(4):
        if s == view.seat:
            continue
        want: list[Tile] = list(known.get(s, ())) if known else []
        if st.shown[s]:
            want.append(st.indicator)
        got = []
        for t in want:
            if c[t] > 0 and len(got) < view.rack_sizes[s]:
                c[t] -= 1
                got.append(t)
        if got:
            pinned[s] = got
    out = sorted(c.elements())
    return out, pinned


def sample_world(view: View, unseen: list[Tile], pinned: dict[int, list[Tile]],
                 rng: random.Random) -> tuple[tuple[tuple[Tile, ...], ...], list[Tile]]:
    """Racks for every seat (the seat's own as it is) and a deck order."""
    pool = list(unseen)
    rng.shuffle(pool)
    racks: list[tuple[Tile, ...]] = []
    pos = 0
    for s in range(4):
        if s == view.seat:
            racks.append(view.rack)
            continue
        pin = pinned.get(s, [])
        n = view.rack_sizes[s] - len(pin)
        racks.append(tuple(pin) + tuple(pool[pos:pos + n]))
        pos += n
    return tuple(racks), pool[pos:]


# ---- candidates --------------------------------------------------------------------------------


def decision_of(view: View) -> str:
    """Which decision the seat faces: draw (draw or take), place, or discard."""
    st = view.state
    if st.phase == "draw":
        return "draw"
    return "place" if st.turn_base is None else "discard"


def candidates(view: View, decision: str | None = None) -> list[Candidate]:
    """The legal candidates of the seat's current decision (``decision``: draw, place or discard;
    default :func:`decision_of`). Placings come from the exact solver's plans."""
    d = decision or decision_of(view)
    s = view.seat
    if d == "draw":
        out = [draw_candidate(s)]
        t = view.takeable()
        if t is not None:
            out.append(take_candidate(s, t))
        return out
    if d == "place":
        return plans.place_candidates(view)
    seen: list[Tile] = []
    for t in view.rack:
        if t not in seen:
            seen.append(t)
    out = []
    for t in seen:
        ev = {"type": "discard", "seat": s, "tile": str(t)}
        if view.legal(ev) is not None:
            out.append(discard_candidate(s, t))
    return out


# ---- rollouts ------------------------------------------------------------------------------------


def _counts(rack: Sequence[Tile], okey: Tile) -> list[int]:
    c = [0] * 53
    for t in rack:
        c[code(t, okey)] += 1
    return c


class _World:
    """One sampled world: the compiled model's racks and deck (``cworld``, :mod:`.fast`), or, for
    the Python reference model (``ISTAKA_PURE=1`` or ``model="python"``), the sim before any
    candidate."""

    __slots__ = ("_state", "base", "cworld", "deck", "pos", "racks", "view")

    def __init__(self, view: View, racks: tuple[tuple[Tile, ...], ...] | None, deck: list[Tile] | None,
                 pos: fast.Position | None = None, cworld: tuple[bytes, bytes] | None = None) -> None:
        self.view = view
        self.racks = racks
        self.pos = pos
        self._state: Any = None
        if pos is not None:
            self.cworld = cworld if cworld is not None else pos.world(racks or (), deck or ())
            return
        assert racks is not None and deck is not None
        okey = view.state.okey
        self.deck = [code(t, okey) for t in deck]
        self.base = Sim.from_state(view.state, [_counts(r, okey) for r in racks], self.deck)

    @property
    def state(self) -> Any:
        """The determinized engine state (built only for placing candidates of the Python model)."""
        if self._state is None:
            assert self.racks is not None
            self._state = replace(self.view.state, racks=self.racks)
        return self._state


class CodeWorlds:
    """The worlds of :func:`sample_world` drawn straight as the compiled model reads them (racks
    as 4 x 53 counts, the deck as codes): the same shuffle of the same unseen tiles, so the same
    worlds from the same generator, without a tile object per world."""

    __slots__ = ("base", "dest", "pool", "split")

    def __init__(self, view: View, unseen: list[Tile], pinned: dict[int, list[Tile]]) -> None:
        okey = view.state.okey
        self.pool = [fast.code(t, okey) for t in unseen]
        base = bytearray(4 * 53)
        for t in view.rack:
            base[view.seat * 53 + fast.code(t, okey)] += 1
        dest: list[int] = []
        for s in range(4):
            if s == view.seat:
                continue
            pin = pinned.get(s, [])
            for t in pin:
                base[s * 53 + fast.code(t, okey)] += 1
            dest += [s * 53] * (view.rack_sizes[s] - len(pin))
        self.base = bytes(base)
        self.dest = bytes(dest)  # where each of the first codes goes: its seat's offset in the racks
        self.split = len(dest)

    def free(self) -> list[int]:
        """Each seat's places the worlds fill (0 for the viewer): its rack size less its known tiles."""
        return [self.dest.count(s * 53) for s in range(4)]

    def draw(self, rng: random.Random) -> tuple[bytes, bytes]:
        pool = self.pool[:]
        rng.shuffle(pool)
        racks = bytearray(self.base)
        for d, c in zip(self.dest, pool):
            racks[d + c] += 1
        return bytes(racks), bytes(pool[self.split:])

    def draws(self, rng: random.Random, n: int) -> list[tuple[bytes, bytes]]:
        """``n`` worlds, the same as ``n`` calls of :meth:`draw` (and ``rng`` left as they leave
        it): in one call of the compiled model, which shuffles as random.shuffle does."""
        many = getattr(fast.COMPILED, "draws", None)
        if many is None or len(self.pool) > 256:
            return [self.draw(rng) for _ in range(n)]
        version, state, gauss = rng.getstate()
        state, worlds = many(state, bytes(self.pool), self.base, self.dest, n)
        rng.setstate((version, state, gauss))
        return worlds  # type: ignore[no-any-return]


def rollout(view: View, world: _World, cand: Candidate) -> int:
    """Play ``cand`` in ``world`` and the rest of the hand by the model; the seat's score."""
    if world.pos is not None:
        return world.pos.value(world.cworld, cand.kind, cand.events, cand.tile if cand.kind == "discard" else None)
    seat = view.seat
    k = cand.kind
    if k == "show":  # an out-of-turn event (O7 show) before a draw: the hand plays on from there
        st = world.state
        for ev in cand.events:
            st = apply(st, ev)
        okey = st.okey
        sim = Sim.from_state(st, [_counts(r, okey) for r in st.racks], world.deck)
        sim.dp = world.base.dp
        if not sim.over:
            sim.play_out()
        return _value(sim, seat)
    if k == "place":
        st = world.state
        for ev in cand.events:
            st = apply(st, ev)
        if st.over:
            sim = Sim.from_state(st, [], world.deck)
            return _value(sim, seat)
        okey = st.okey
        sim = Sim.from_state(st, [_counts(r, okey) for r in st.racks], world.deck)
        sim.dp = world.base.dp
        sim.finish_turn(seat, placed=True)
    else:
        sim = world.base.copy()
        if k == "draw":
            sim.start_turn(seat, take=False)
            sim.finish_turn(seat)
        elif k == "take":
            t = sim.start_turn(seat, take=True)
            sim.finish_turn(seat, took=t if view.state.opened[seat] is None else -1)
        else:
            t = cand.tile
            assert t is not None
            sim.discard(seat, code(t, view.okey))
    if not sim.over:
        sim.play_out()
    return _value(sim, seat)


def _value(sim: Sim, seat: int) -> int:
    return sim.value(seat)


def _worlds(view: View, unseen: list[Tile], pinned: dict[int, list[Tile]], rng: random.Random,
            model: str | None, belief: str | None = None, stats: list[Any] | None = None) -> Any:
    """A function giving the next sampled world for the model asked for (compiled where built).
    ``belief``: ``"table"`` weighs the worlds by what the other seats did (:mod:`.belief`, the
    compiled model only), ``"dealt"`` deals them from the direct reading (:mod:`.reading`, the
    compiled model only), ``"uniform"`` samples them uniformly; ``stats`` receives the table
    belief's :class:`.belief.Stats`."""
    name = model or MODEL
    if name in ("compiled", "careless") and fast.COMPILED is not None:
        pos = fast.Position(view.state, view.seat, fast.CARELESS if name == "careless" else None)
        codes = CodeWorlds(view, unseen, pinned)
        how = belief or BELIEF
        if how == B.TABLE:
            bw = B.BeliefWorlds(view, codes.draw, rng, propose_many=codes.draws)
            if stats is not None:
                stats.append(bw.stats)
            return lambda: _World(view, None, None, pos, bw.draw())
        if how == B.DEALT:
            dw = reading.DealtWorlds(view, codes.pool, codes.base, codes.free(), rng)
            return lambda: _World(view, None, None, pos, dw.draw())
        return lambda: _World(view, None, None, pos, codes.draw(rng))

    def python_world() -> _World:
        racks, deck = sample_world(view, unseen, pinned, rng)
        return _World(view, racks, deck)

    return python_world


def evaluate(view: View, cands: Sequence[Candidate], *, seed: int | str = 0, budget: float = DEFAULT_BUDGET,
             min_worlds: int = MIN_WORLDS, max_worlds: int = MAX_WORLDS, worlds: int | None = None,
             known: dict[int, Sequence[Tile]] | None = None, model: str | None = None,
             belief: str | None = None) -> list[Evaluation]:
    """Each candidate's expected hand score for ``view.seat`` (mean, standard error, worlds).

    Reads only the view: the same view, seed and budget give the same sampled worlds whatever the
    hidden racks and deck really are. ``known``: tiles the seat knows sit in a rack (discards it
    saw taken and not yet placed). ``budget`` in CPU seconds of this process; at least
    ``min_worlds`` worlds are played (all candidates in each), at most ``max_worlds``.
    ``worlds``: exactly that many worlds and no clock at all, so the answer depends on the view
    and the seed only (the expert plays this way: a match is reproducible on any machine).
    ``model``: ``"compiled"`` (the default where it is built, :mod:`.fast`), ``"careless"`` (the
    compiled model with the policy before its discards weighed X5: the ``expert-careless`` bot's) or
    ``"python"`` (the reference model of :mod:`.sim`, kept as the benchmark's baseline). ``belief``: ``"table"``
    (the default, :data:`BELIEF`) weighs the worlds by the other seats' observed actions
    (:mod:`.belief`), ``"dealt"`` deals them from the direct reading of those actions
    (:mod:`.reading`), ``"uniform"`` samples them uniformly.
    """
    if worlds is not None:
        min_worlds = max_worlds = worlds
        budget = math.inf
    cands = list(cands)
    if not cands:
        return []
    rng = random.Random(f"eval:{seed}")
    unseen, pinned = unseen_tiles(view, known)
    worlds_of = _worlds(view, unseen, pinned, rng, model, belief)
    vals: list[list[int]] = [[] for _ in cands]
    active = list(range(len(cands)))
    t0 = time.process_time()
    w = 0
    while w < max_worlds:
        world = worlds_of()
        for i in active:
            vals[i].append(rollout(view, world, cands[i]))
        w += 1
        if w >= PRUNE_FROM and len(active) > 1 and w % 2 == 0:
            active = _prune(vals, active)
        if len(active) == 1 and w >= PRUNE_FROM:
            break
        if w >= min_worlds and budget != math.inf and time.process_time() - t0 > budget:
            break
    out = []
    for i, c in enumerate(cands):
        v = vals[i]
        n = len(v)
        m = sum(v) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
        out.append(Evaluation(c, m, sd / math.sqrt(n) if n else 0.0, n, tuple(v)))
    return out


def price(view: View, cands: Sequence[Candidate], *, seed: int | str = 0, worlds: int = PRICE_WORLDS,
          known: dict[int, Sequence[Tile]] | None = None, model: str | None = None,
          start: Sequence[Evaluation] = (), parts: bool = False, belief: str | None = None,
          stats: list[Any] | None = None) -> list[Evaluation]:
    """Every candidate played in every one of exactly ``worlds`` worlds: fixed-world pricing. No
    candidate is dropped and nothing stops early, so a price is never selected by
    its own size; the worlds come from a seed namespace of their own (``price:``), so they are
    never the worlds :func:`evaluate` ranked the candidates on. Same view and seed, same prices.
    ``model`` as in :func:`evaluate` (the compiled one where it is built). ``start``: the same
    candidates' prices from a call with fewer worlds and the same seed and view; its worlds are the
    first ones here, so they are drawn again (to reach the worlds after them) but not played again.
    ``parts``: keep each world's parts and rates (:attr:`Evaluation.parts`; the compiled model only,
    whose rollout counts each penalty by its rule). ``belief`` as in :func:`evaluate` (either
    belief's stream is prefix-stable, so a longer call's first worlds are still a shorter one's);
    ``stats`` receives what the table belief did (:class:`.belief.Stats`: blocks, uniform fallbacks, effective sample sizes)."""
    cands = list(cands)
    if not cands or worlds < 1:
        return []
    if start and [e.candidate for e in start] != cands:
        raise ValueError("price: start must price the same candidates")
    rng = random.Random(f"price:{seed}")
    unseen, pinned = unseen_tiles(view, known)
    worlds_of = _worlds(view, unseen, pinned, rng, model, belief, stats)
    vals: list[list[int]] = [list(e.values) for e in start] if start else [[] for _ in cands]
    bits: list[list[tuple[int, ...]]] = [list(e.parts) for e in start] if start else [[] for _ in cands]
    done = len(vals[0])
    preps: list[Any] = []  # each candidate made ready for the compiled model once (its position is every world's)
    for k in range(worlds):
        world = worlds_of()
        if k < done:
            continue
        if parts and world.pos is not None:
            if not preps:
                preps = [world.pos.prepared(c.kind, c.events, c.tile if c.kind == "discard" else None) for c in cands]
            run, cw = world.pos.run, world.cworld
            for i, prep in enumerate(preps):
                v, b = run(cw, prep)
                vals[i].append(v)
                bits[i].append(b)
            continue
        for i, c in enumerate(cands):
            vals[i].append(rollout(view, world, c))
    out = []
    for c, v, b in zip(cands, vals, bits):
        n = len(v)
        m = sum(v) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
        out.append(Evaluation(c, m, sd / math.sqrt(n), n, tuple(v), tuple(b) if len(b) == n else ()))
    return out


def _prune(vals: list[list[int]], active: list[int]) -> list[int]:
    """Drop candidates whose paired difference to the best is PRUNE_Z standard errors above 0."""
    n = len(vals[active[0]])
    means = {i: sum(vals[i]) / n for i in active}
    best = min(active, key=means.__getitem__)
    vb = vals[best]
    keep = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        d = [a - b for a, b in zip(vals[i], vb)]
        md = sum(d) / n
        var = sum((x - md) ** 2 for x in d) / (n - 1)
        se = math.sqrt(var / n)
        if md > 0 and (md > PRUNE_Z * se if se > 0 else True):
            continue
        keep.append(i)
    return keep


def best(evals: Sequence[Evaluation]) -> Evaluation:
    """The lowest mean among the candidates played the most (pruned ones lost already)."""
    top = max(e.n for e in evals)
    return min((e for e in evals if e.n == top), key=lambda e: e.mean)


__all__ = [
    "BELIEF",
    "CodeWorlds",
    "DEFAULT_BUDGET",
    "Candidate",
    "Evaluation",
    "PRICE_WORLDS",
    "best",
    "candidates",
    "decision_of",
    "discard_candidate",
    "draw_candidate",
    "evaluate",
    "place_candidate",
    "price",
    "rollout",
    "sample_world",
    "take_candidate",
    "unseen_tiles",
]
