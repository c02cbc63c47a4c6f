"""Belief over the hidden tiles: the sampled worlds weighted by what the other seats did.

Uniform sampling deals the tiles a seat cannot see at random among the other racks and the deck.
No player reads a table that way: a seat that passed on a discarded 7 is not one tile from a meld
with it; a seat that threw two 12s is not collecting 12s; a seat still unopened after many turns
is short of its threshold. This module turns those observations into a weight per sampled world,
the likelihood of what the seat saw the others do if that world were the true one, under a small
model of their play (:data:`MODEL`), and resamples the worlds by it (sampling importance
resampling).

What is read is only what the seat sees (its view): every discard pile, in order (a discard of
seat ``s`` still lying in its pile was passed on by ``s + 1``, unless ``s + 1`` has not yet had the
chance), who opened, the table melds, how many turns each seat has played. Hidden racks in a log
never enter: the same view and seed give the same worlds whatever they hold.

The model scores each other seat's *current* rack in the world, the best stand-in the seat has for
the rack it held when it acted (the tiles drawn since are hidden):

- a **discard** ``t``: a player rarely throws a tile that completes a meld with two it holds
  (:data:`MODEL` ``discard_completes``), and less often than chance one that joins a tile it holds
  (``discard_joins``);
- a **passed-on discard** ``t`` (P1): an opened seat rarely passes a tile that completes a meld in
  its rack (``pass_completes_opened``); an unopened one may take it only to open (P2), so passing
  it says less (``pass_completes_unopened``);
- **not opening**: an unopened seat that has played a turn rarely holds an opening it could have
  laid down (``unopened_can_open``);
- **held lay-offs**: an opened seat rarely keeps a tile that fits a table meld (``opened_holds_fit``).

Worlds come in blocks: :data:`PROPOSALS` uniform proposals per :data:`BLOCK` worlds kept, drawn
with systematic resampling from the normalised weights. Because the model reads today's racks for
yesterday's actions, it is not trusted to the last world: when the effective sample size
(``1 / sum(w^2)`` of the normalised weights) falls below :data:`ESS_TARGET` of the proposals, the
likelihood is tempered (raised to the largest power that reaches it, at least
:data:`TEMPER_MIN`). A block that stays below :data:`ESS_FLOOR` even so keeps its first uniform
proposals (the belief is too sure of itself to be trusted there). Blocks
make the worlds a prefix-stable stream: the first ``n`` worlds of a longer call are those of a
shorter one with the same seed, as fixed-world pricing needs.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analysis.game import FACES
from analysis.players import View

from . import fast

WILD = 52
BLOCK = 16  # worlds kept per block
PROPOSALS = 64  # uniform proposals per block
ESS_TARGET = 0.5  # the likelihood is tempered (raised to a power below 1) until the effective sample
# size is at least this share of the proposals: the model reads each rack as it is now, a stand-in for
# the racks the seats held when they acted, so it must not be trusted to the last world
ESS_FLOOR = 0.08  # a block whose effective sample size stays below this share (even tempered) stays uniform
TEMPER_MIN = 0.1  # the lowest power the likelihood is tempered to; below it the block stays uniform

# The likelihood ratio of each observation in a world, by what the world's rack holds, relative to
# a rack where nothing speaks for or against it (1). Fitted on self-play per preset
# (``python bench/belief.py --fit`` writes :data:`MODEL_FILE`); :data:`MODEL` is the prior used
# where no preset was fitted, and the keys every model has.
MODEL: dict[str, float] = {
    "discard_completes": 0.3,
    "discard_joins": 0.5,
    "pass_completes_opened": 1.0,
    "pass_completes_unopened": 1.0,
    "unopened_can_open": 0.1,
    "opened_holds_fit": 0.3,
}
MODEL_FILE = Path(__file__).with_name("belief_model.json")
_FITTED: dict[str, dict[str, float]] | None = None


def model_key(rules: Any) -> str:
    """The name a model is fitted under: the preset, ``-partners`` added for partner games."""
    return f"{rules.variant}-partners" if rules.esli else str(rules.variant)


def model_document() -> dict[str, Any]:
    """The whole model file (the table belief's ratios, the panel's maps, the dealt reading's
    coefficients), read afresh; empty when it is missing or damaged."""
    try:
        return dict(json.loads(MODEL_FILE.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def opens_next_map(variant: str) -> list[list[float]]:
    """The fitted map from the raw chance to open on the next turn to its frequency in self-play
    (:func:`.panel.calibrated`), empty where none was fitted."""
    got = model_document().get("opens_next", {}).get(variant)
    return [list(map(float, p)) for p in got] if isinstance(got, list) else []


def reload() -> None:
    """Read :data:`MODEL_FILE` again at the next use (after a fit has written it)."""
    global _FITTED
    _FITTED = None


def model_for(variant: str | None) -> dict[str, float]:
    """The fitted model of ``variant`` (:func:`model_key`), else the prior :data:`MODEL`."""
    global _FITTED
    if _FITTED is None:
        got = model_document().get("models")
        _FITTED = {k: {**MODEL, **v} for k, v in got.items()} if isinstance(got, dict) else {}
    return _FITTED.get(variant or "", MODEL)

UNIFORM = "uniform"
TABLE = "table"
DEALT = "dealt"  # worlds dealt from the direct reading (:mod:`.reading`), opt-in
BELIEFS = (TABLE, UNIFORM, DEALT)


@dataclass(frozen=True, slots=True)
class Signals:
    """What one other seat did, as the viewer saw it (faces as the model's codes, 0-51)."""

    seat: int
    discarded: tuple[int, ...]  # its discards still in its pile
    passed: tuple[int, ...]  # the previous seat's discards it passed on
    opened: bool
    turns: int  # turns it has played (at least its discards)
    points_needed: int
    pairs_needed: int
    fits: tuple[int, ...] = ()  # faces that fit a table meld now (only when it is opened)
    mid_turn: bool = False  # it is playing its turn now (its rack holds a fresh draw)


def _face(t: Any, okey: Any) -> int:
    c = fast.code(t, okey)
    return -1 if c == WILD else c


def signals(view: View) -> list[Signals]:
    """Each other seat's observed actions, from ``view`` alone."""
    st = view.state
    okey = st.okey
    out = []
    for s in range(4):
        if s == view.seat or view.rack_sizes[s] == 0:
            continue
        prev = (s - 1) % 4
        pile = list(st.discards[prev])
        if pile and st.turn == s and st.phase == "draw" and st.takeable == prev:
            pile = pile[:-1]  # the top one: it has not had its chance yet
        opened = st.opened[s] is not None
        fits: tuple[int, ...] = ()
        if opened and any(m is not None for m in st.table):
            fits = tuple(f for f in range(52) if st.fits_table(FACES[f]) is not None)
        out.append(Signals(
            seat=s,
            discarded=tuple(c for c in (_face(t, okey) for t in st.discards[s]) if c >= 0),
            passed=tuple(c for c in (_face(t, okey) for t in pile) if c >= 0),
            opened=opened,
            turns=len(st.discards[s]) + int(st.started[s] and not st.discards[s]),
            points_needed=st.points_threshold(s),
            pairs_needed=st.pairs_threshold(s),
            fits=fits,
            mid_turn=st.turn == s and st.phase == "play",
        ))
    return out


# ---- the model, over many worlds at once ---------------------------------------------------------


def completes(c: np.ndarray, f: int) -> np.ndarray:
    """Per world: the rack ``c`` (worlds x 53 counts) holds two tiles making a meld with face ``f``
    (a run of three in its colour, or a group with two other colours; the okey counts as any)."""
    col, n = divmod(f, 13)
    row = c[:, col * 13:(col + 1) * 13] > 0
    wild = c[:, WILD] > 0

    def has(k: int) -> np.ndarray:
        return row[:, k] if 0 <= k < 13 else np.zeros(len(c), dtype=bool)

    out = np.zeros(len(c), dtype=bool)
    for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)):
        if 0 <= a < 13 and 0 <= b < 13:
            ha, hb = has(a), has(b)
            out |= (ha & hb) | (wild & (ha | hb))
    others = sum((c[:, k * 13 + n] > 0).astype(np.int8) for k in range(4) if k != col)
    out |= (others >= 2) | (wild & (others >= 1))
    return out


def joins(c: np.ndarray, f: int) -> np.ndarray:
    """Per world: the rack holds a tile that ``f`` joins (a neighbour in its colour, the same number
    in another colour, or its twin)."""
    col, n = divmod(f, 13)
    out = c[:, f] > 0
    for k in (n - 2, n - 1, n + 1, n + 2):
        if 0 <= k < 13:
            out = out | (c[:, col * 13 + k] > 0)
    for k in range(4):
        if k != col:
            out = out | (c[:, k * 13 + n] > 0)
    return out


def opening_estimate(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per world, a quick estimate of the best points opening of the rack (runs and groups found
    greedily, the larger of the two kinds, ten points per okey) and its number of pairs."""
    present = c[:, :52] > 0
    values = np.tile(np.arange(1, 14), 4)
    colours = present.reshape(len(c), 4, 13)
    groups_k = colours.sum(axis=1)  # worlds x 13: colours holding each number
    groups = ((groups_k >= 3) * groups_k * np.arange(1, 14)).sum(axis=1)
    # runs: positions inside a segment of three or more consecutive numbers of one colour
    fwd = np.zeros(colours.shape, dtype=np.int16)
    bwd = np.zeros(colours.shape, dtype=np.int16)
    for k in range(13):
        fwd[:, :, k] = colours[:, :, k] * ((fwd[:, :, k - 1] if k else 0) + 1)
    for k in range(12, -1, -1):
        bwd[:, :, k] = colours[:, :, k] * ((bwd[:, :, k + 1] if k < 12 else 0) + 1)
    in_run = (fwd + bwd - 1) >= 3
    runs = (in_run.reshape(len(c), 52) * values).sum(axis=1)
    wild = c[:, WILD].astype(np.int32)
    points = np.maximum(runs, groups) + 10 * wild
    pairs = (c[:, :52] // 2).sum(axis=1) + wild
    return points, pairs


def _can_open(c: np.ndarray, sg: Signals) -> np.ndarray:
    points, pairs = opening_estimate(c)
    return (points >= sg.points_needed) | (pairs >= sg.pairs_needed)


def _holds_fit(c: np.ndarray, sg: Signals) -> np.ndarray:
    return (c[:, list(sg.fits)] > 0).any(axis=1)


def features(racks: np.ndarray, sigs: Sequence[Signals]) -> dict[str, list[np.ndarray]]:
    """Each observation's categories per world, by model key (for fitting the model): a discard
    gives ``discard_completes`` / ``discard_joins`` (mutually exclusive) and the rest as booleans."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in MODEL}
    for sg in sigs:
        c = racks[:, sg.seat, :]
        for f in sg.discarded:
            comp = completes(c, f)
            out["discard_completes"].append(comp)
            out["discard_joins"].append(joins(c, f) & ~comp)
        for f in sg.passed:
            out["pass_completes_opened" if sg.opened else "pass_completes_unopened"].append(completes(c, f))
        if not sg.opened and sg.turns > 0:
            out["unopened_can_open"].append(_can_open(c, sg))
        if sg.opened and sg.fits and not sg.mid_turn:
            out["opened_holds_fit"].append(_holds_fit(c, sg))
    return out


def packed(sigs: Sequence[Signals]) -> bytes:
    """The signals as the compiled likelihood reads them (int16 values, see rollout.c ``loglik``)."""
    out: list[int] = []
    for sg in sigs:
        out += [sg.seat, len(sg.discarded), *sg.discarded, len(sg.passed), *sg.passed, int(sg.opened),
                min(sg.turns, 32767), min(sg.points_needed, 32767), min(sg.pairs_needed, 32767),
                len(sg.fits), *sg.fits, int(sg.mid_turn)]
    return np.asarray(out, dtype=np.int16).tobytes()


def log_likelihood(racks: np.ndarray, sigs: Sequence[Signals], model: dict[str, float] | None = None,
                   compiled: bool = True) -> np.ndarray:
    """The log-likelihood of the observed actions in each world: ``racks`` is worlds x 4 x 53.
    The compiled model computes it where it is built (the same sums in the same order, so the
    same bits); ``compiled=False`` is the numpy reference."""
    m = MODEL if model is None else model
    lg = {k: math.log(v) for k, v in m.items()}
    if compiled and fast.COMPILED is not None and hasattr(fast.COMPILED, "loglik"):
        got = fast.COMPILED.loglik(np.ascontiguousarray(racks, dtype=np.uint8).tobytes(), racks.shape[0],
                                   packed(sigs), tuple(lg[k] for k in MODEL))
        return np.frombuffer(got, dtype=np.float64).copy()
    ll = np.zeros(racks.shape[0])
    for sg in sigs:
        c = racks[:, sg.seat, :]
        for f in sg.discarded:
            ll += np.where(completes(c, f), lg["discard_completes"], np.where(joins(c, f), lg["discard_joins"], 0.0))
        key = "pass_completes_opened" if sg.opened else "pass_completes_unopened"
        for f in sg.passed:
            ll += np.where(completes(c, f), lg[key], 0.0)
        if not sg.opened and sg.turns > 0:
            ll += np.where(_can_open(c, sg), lg["unopened_can_open"], 0.0)
        if sg.opened and sg.fits and not sg.mid_turn:
            ll += np.where(_holds_fit(c, sg), lg["opened_holds_fit"], 0.0)
    return ll


def normalise(ll: np.ndarray) -> np.ndarray:
    """Weights summing to one from log-likelihoods."""
    w = np.exp(ll - ll.max())
    return w / w.sum()


def ess(w: np.ndarray) -> float:
    """The effective sample size of normalised weights."""
    return float(1.0 / np.square(w).sum())


def tempered(ll: np.ndarray, target: float) -> tuple[np.ndarray, float, float]:
    """Normalised weights from ``ll`` raised to the largest power in [TEMPER_MIN, 1] whose effective
    sample size reaches ``target`` (found by bisection): (weights, power, effective size). The
    power is 1 when the full likelihood already reaches it, 0 with uniform weights when not even
    :data:`TEMPER_MIN` does."""
    w = normalise(ll)
    e = ess(w)
    if e >= target:
        return w, 1.0, e
    lo, hi = TEMPER_MIN, 1.0
    wl = normalise(lo * ll)
    if ess(wl) < target:
        return wl, lo, ess(wl)
    for _ in range(12):
        mid = (lo + hi) / 2
        if ess(normalise(mid * ll)) >= target:
            lo = mid
        else:
            hi = mid
    w = normalise(lo * ll)
    return w, lo, ess(w)


def systematic(w: np.ndarray, k: int, rng: random.Random) -> list[int]:
    """``k`` indices drawn by systematic resampling from normalised weights ``w``."""
    u = rng.random() / k
    cum = np.cumsum(w)
    cum[-1] = 1.0
    return [int(i) for i in np.searchsorted(cum, u + np.arange(k) / k, side="right")]


def racks_of(worlds: Sequence[tuple[bytes, bytes]]) -> np.ndarray:
    """The racks of worlds ``(racks, deck)`` as the compiled model reads them: worlds x 4 x 53 counts."""
    return np.frombuffer(b"".join(r for r, _ in worlds), dtype=np.uint8).reshape(len(worlds), 4, 53)


def weigh(racks: np.ndarray, sigs: Sequence[Signals], model: dict[str, float] | None
          ) -> tuple[np.ndarray | None, float, float]:
    """The proposals' normalised weights as the evaluator weighs them, tempered to
    :data:`ESS_TARGET` of the proposals: (weights, power, effective size); the weights are None when
    the effective size stays below :data:`ESS_FLOOR` (the proposals are then kept uniform)."""
    n = len(racks)
    w, power, e = tempered(log_likelihood(racks, sigs, model), ESS_TARGET * n)
    return (None if e < ESS_FLOOR * n else w), power, e


@dataclass
class Stats:
    """What the belief did over a call: blocks resampled, blocks left uniform, effective sizes."""

    blocks: int = 0
    fallback: int = 0
    ess: list[float] = field(default_factory=list)
    power: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        e = self.ess
        return {"blocks": self.blocks, "fallback": self.fallback,
                "ess_median": float(np.median(e)) if e else None,
                "ess_share": (float(np.median(e)) / PROPOSALS) if e else None,
                "power_median": float(np.median(self.power)) if self.power else None}


class BeliefWorlds:
    """An endless stream of worlds ``(racks, deck)`` as the compiled model reads them, weighted by
    the belief: ``draw()`` gives the next one. ``propose()`` draws one uniform world (the same
    generator as uniform sampling); ``propose_many(rng, n)``, when given, draws a block's
    proposals at once, the same as ``n`` calls of ``propose``."""

    def __init__(self, view: View, propose: Any, rng: random.Random, *, model: dict[str, float] | None = None,
                 block: int = BLOCK, proposals: int = PROPOSALS, propose_many: Any = None) -> None:
        self.sigs = signals(view)
        self.propose_many = propose_many  # (rng, n) -> n proposals, as n calls of propose would give
        self.model = model if model is not None else model_for(model_key(view.rules))
        self.propose = propose
        self.rng = rng
        self.block = block
        self.proposals = proposals
        self.queue: list[tuple[bytes, bytes]] = []
        self.stats = Stats()
        self.informative = any(sg.discarded or sg.passed or (not sg.opened and sg.turns) or sg.fits for sg in self.sigs)

    def draw(self) -> tuple[bytes, bytes]:
        if not self.informative:
            return self.propose(self.rng)
        if not self.queue:
            self._fill()
        return self.queue.pop(0)

    def _fill(self) -> None:
        got = (self.propose_many(self.rng, self.proposals) if self.propose_many is not None
               else [self.propose(self.rng) for _ in range(self.proposals)])
        w, power, e = weigh(racks_of(got), self.sigs, self.model)
        self.stats.blocks += 1
        self.stats.ess.append(e)
        self.stats.power.append(power)
        if w is None:
            self.stats.fallback += 1
            self.queue = got[:self.block]
            return
        self.queue = [got[i] for i in systematic(w, self.block, self.rng)]


__all__ = ["BELIEFS", "BLOCK", "DEALT", "model_document", "ESS_FLOOR", "ESS_TARGET", "MODEL", "MODEL_FILE", "features", "model_for", "model_key", "opens_next_map", "PROPOSALS", "TABLE", "UNIFORM", "BeliefWorlds", "Signals",
           "ess", "log_likelihood", "normalise", "packed", "signals", "racks_of", "systematic", "tempered", "weigh", "completes", "joins", "opening_estimate", "reload"]
