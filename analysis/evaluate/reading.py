"""The direct reading of the table, and worlds dealt from it (the ``dealt`` belief).

A logistic regression per (other seat, face): the chance that the seat holds at least one copy
of the face, its offset the logit of the exact uniform chance (hypergeometric over the unseen
tiles and the seat's free places), moved by a dozen features of what the seat was seen to do
(:data:`FEATURES`, read from the viewer's :class:`~analysis.players.View` alone, with
:func:`.belief.signals`). Its coefficients are fitted on self-play per preset
(``python bench/belief_ceiling.py --write`` writes them to :data:`.belief.MODEL_FILE` under
``"dealt"``).

The worlds follow the model without weights: the unseen tiles, in a uniformly shuffled order,
are dealt one by one; a copy of face ``c`` goes to seat ``s`` with weight (free places left in
``s``'s rack) x ``exp(x_sc . beta)``, to the deck with weight its places left; the deck's tiles
are shuffled again, so its order is uniform. Known tiles (a shown indicator twin, a take the
viewer saw) stay in their racks, rack sizes and copy counts hold in every world, and an okey
(the wild code) carries no signal (weight 1). With every multiplier 1 the deal is uniform.

No weights means nothing degenerates, which is why it keeps the model's reading where weighting
uniform proposals (the ``table`` belief) loses it; see docs/belief.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from analysis.game import FACES
from analysis.players import View

from . import belief as B
from . import fast

WILD = 52
BLOCK = 16  # worlds dealt per call of the compiled dealer (the stream is the same whatever the block)
CLIP = 8.0  # the log-multiplier is clipped to +-CLIP (a face is never certain, never impossible)

# The features of a cell (other seat s, face f), from the view alone: those that carried weight
# among the ~40 tried (takes, recency of discards, copies unseen, turns unopened each moved the
# held-out Brier score by less than 0.05 points).
FEATURES: tuple[tuple[str, str], ...] = (
    ("bias", "1"),
    ("disc", "copies of f in s's discard pile"),
    ("disc_nb1", "s's discards of f's colour, number f-1 or f+1"),
    ("disc_nb2", "s's discards of f's colour, number f-2 or f+2"),
    ("disc_grp", "s's discards of f's number in another colour"),
    ("fits_op", "f fits a meld on the table, and s has opened"),
    ("fits_unop", "f fits a meld on the table, and s has not opened"),
    ("opened", "s has opened"),
    ("disc_total", "s's discards / 10"),
    ("val", "f's number / 13"),
    ("val_unop", "f's number / 13 if s has not opened (unopened seats keep high tiles)"),
    ("passed", "copies of f s passed on (the previous seat's discards it did not take)"),
    ("others_nb1", "the other seats' discards (the viewer's too) of f's colour, number f-1 or f+1"),
)
NAMES = [n for n, _ in FEATURES]
COL = {n: j for j, n in enumerate(NAMES)}
VALUE = np.tile(np.arange(1, 14), 4) / 13.0  # face f = colour x 13 + number - 1
KEY = B.DEALT  # the model file's key of the coefficients: the belief's name


def counts(codes: Any) -> np.ndarray:
    """Copies per face (0-51) among ``codes`` (the wild code and -1 left out)."""
    out = np.zeros(52)
    for c in codes:
        if 0 <= c < 52:
            out[c] += 1
    return out


def _nb(cnt: np.ndarray, d: int) -> np.ndarray:
    """Per face: ``cnt`` summed over the same colour, number +-d (no wrap)."""
    c = cnt.reshape(4, 13)
    out = np.zeros((4, 13))
    out[:, :-d] += c[:, d:]
    out[:, d:] += c[:, :-d]
    return out.reshape(52)


def _grp(cnt: np.ndarray) -> np.ndarray:
    """Per face: ``cnt`` summed over the same number in the other colours."""
    c = cnt.reshape(4, 13)
    return (c.sum(axis=0, keepdims=True) - c).reshape(52)


def table_fits(view: View) -> np.ndarray:
    """Per face: 1 when it fits a meld on the table now (L2), else 0."""
    st = view.state
    if not any(m is not None for m in st.table):
        return np.zeros(52)
    return np.array([st.fits_table(FACES[f]) is not None for f in range(52)], dtype=float)


def features(view: View, sg: B.Signals, fits: np.ndarray) -> np.ndarray:
    """The 52 x len(FEATURES) features of seat ``sg.seat``'s cells, from the view ``view``
    (``fits``: :func:`table_fits`)."""
    st, s = view.state, sg.seat
    disc = counts(sg.discarded)
    others = counts(c for q in range(4) if q != s for c in (fast.code(t, st.okey) for t in st.discards[q]))
    op = 1.0 if sg.opened else 0.0
    X = np.zeros((52, len(NAMES)))
    X[:, COL["bias"]] = 1
    X[:, COL["disc"]] = disc
    X[:, COL["disc_nb1"]] = _nb(disc, 1)
    X[:, COL["disc_nb2"]] = _nb(disc, 2)
    X[:, COL["disc_grp"]] = _grp(disc)
    X[:, COL["fits_op"]] = fits * op
    X[:, COL["fits_unop"]] = fits * (1 - op)
    X[:, COL["opened"]] = op
    X[:, COL["disc_total"]] = len(sg.discarded) / 10.0
    X[:, COL["val"]] = VALUE
    X[:, COL["val_unop"]] = VALUE * (1 - op)
    X[:, COL["passed"]] = counts(sg.passed)
    X[:, COL["others_nb1"]] = _nb(others, 1)
    return X


def exact_uniform(pool: np.ndarray, n_pool: int, slots: int) -> np.ndarray:
    """Per face: the chance that ``slots`` tiles drawn from the ``n_pool`` unseen ones (``pool``:
    copies per face) hold at least one copy (hypergeometric)."""
    none = np.ones(52)
    for j in range(int(pool.max(initial=0))):
        none *= np.where(pool > j, max(n_pool - slots - j, 0) / (n_pool - j), 1.0)
    return 1 - none


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.asarray(np.log(p / (1 - p)))


def sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-z)))


def irls(X: np.ndarray, offset: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 25) -> np.ndarray:
    """Logistic regression of ``y`` on ``X`` with a fixed ``offset`` (Newton steps; the bias, the
    first column, is not penalised)."""
    b = np.zeros(X.shape[1])
    R = l2 * np.eye(X.shape[1])
    R[0, 0] = 0
    for _ in range(iters):
        p = sigmoid(offset + X @ b)
        H = X.T @ (X * (p * (1 - p))[:, None]) + R
        step = np.linalg.solve(H, X.T @ (y - p) - R @ b)
        b += step
        if np.abs(step).max() < 1e-6:
            break
    return b


# ---- the fitted coefficients ------------------------------------------------------------------


_FITTED: dict[str, Any] | None = None


def fitted() -> dict[str, Any]:
    """The model file's ``"dealt"`` entry: ``features`` (names), ``coef`` (per model key), ``about``
    (read once; :func:`reload` reads it again)."""
    global _FITTED
    if _FITTED is None:
        got = B.model_document().get(KEY)
        _FITTED = got if isinstance(got, dict) else {}
    return _FITTED


def reload() -> None:
    """Read the model file again at the next use (after a fit has written it), the table belief's too."""
    global _FITTED
    _FITTED = None
    B.reload()


def coefficients(key: str | None) -> np.ndarray | None:
    """The fitted coefficients of model key ``key`` (:func:`.belief.model_key`): a partners key
    without its own fit falls back to its preset's, any other key to ``101``'s; None when nothing
    is fitted (or the file's features are not :data:`NAMES`), and the deal is then uniform."""
    doc = fitted()
    coef = doc.get("coef")
    if doc.get("features") != NAMES or not isinstance(coef, dict):
        return None
    k = key or "101"
    for name in (k, k.removesuffix("-partners"), "101"):
        if name in coef:
            return np.asarray(coef[name], dtype=float)
    return None


# ---- reading one view ---------------------------------------------------------------------------


def seat_features(view: View, sigs: Sequence[B.Signals] | None = None) -> dict[int, np.ndarray]:
    """Each other seat's 52 x len(FEATURES) features (seats with an empty rack left out)."""
    fits = table_fits(view)
    return {sg.seat: features(view, sg, fits) for sg in (B.signals(view) if sigs is None else sigs)}


def multipliers(X: Mapping[int, np.ndarray], coef: np.ndarray | None) -> np.ndarray:
    """The deal's 4 x 53 multipliers, ``exp(x_sc . beta)`` clipped: 1 for the okey (no signal), for
    the seats without features (the viewer, empty racks) and everywhere without ``coef``."""
    m = np.ones((4, 53))
    if coef is not None:
        for s, x in X.items():
            m[s, :52] = np.exp(np.clip(x @ coef, -CLIP, CLIP))
    return m


def chances(pool: Sequence[int], free: Sequence[int], pinned: Mapping[int, Sequence[int]],
            X: Mapping[int, np.ndarray], coef: np.ndarray | None) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per other seat: (the exact uniform chance it holds each face, the direct model's chance).
    ``pool``: the unseen codes; ``free``: each seat's places not known; ``pinned``: the codes known
    to sit in its rack (a face among them is held for sure); ``X`` its features, ``coef`` the
    model's coefficients (None: the uniform chance twice)."""
    cnt = np.bincount(np.asarray(pool, dtype=np.int64), minlength=53)[:52].astype(float)
    out = {}
    for s, x in X.items():
        pe = exact_uniform(cnt, len(pool), free[s])
        pe = np.where(counts(pinned.get(s, ())) > 0, 1.0, pe)
        dm = pe if coef is None else np.where((pe <= 0) | (pe >= 1), pe, sigmoid(logit(pe) + x @ coef))
        out[s] = pe, dm
    return out


# ---- the deal -----------------------------------------------------------------------------------


def deal_one(pool: Sequence[int], base: bytes, free: Sequence[int], mult: np.ndarray,
             rng: random.Random) -> tuple[bytes, bytes]:
    """One world ``(racks, deck)`` as the compiled model reads them (the Python reference of the
    compiled dealer, which draws the same world from the same generator): ``pool`` the unseen
    codes, ``base`` the 4 x 53 counts already known (the viewer's rack, pinned tiles), ``free``
    each seat's places to fill, ``mult`` the 4 x 53 multipliers."""
    p = list(pool)
    rng.shuffle(p)
    racks = bytearray(base)
    left = list(free)
    m = [[float(v) for v in row] for row in mult]
    room = len(p) - sum(left)
    deck: list[int] = []
    for c in p:
        ws = [left[s] * m[s][c] for s in range(4)]
        r = rng.random() * (sum(ws) + room)
        for s in range(4):
            if r < ws[s]:
                break
            r -= ws[s]
        else:
            s = 4 if room > 0 else max(k for k in range(4) if left[k] > 0)  # rounding past the last seat
        if s == 4:
            room -= 1
            deck.append(c)
        else:
            left[s] -= 1
            racks[s * 53 + c] += 1
    rng.shuffle(deck)
    return bytes(racks), bytes(deck)


def deal_many(pool: Sequence[int], base: bytes, free: Sequence[int], mult: np.ndarray, rng: random.Random,
              n: int, compiled: bool = True) -> list[tuple[bytes, bytes]]:
    """``n`` worlds, the same as ``n`` calls of :func:`deal_one` (and ``rng`` left where they leave
    it): in one call of the compiled dealer where it is built."""
    dealer = getattr(fast.COMPILED, "deal", None) if compiled else None
    if dealer is None or len(pool) > 256:
        return [deal_one(pool, base, free, mult, rng) for _ in range(n)]
    version, state, gauss = rng.getstate()
    state, worlds = dealer(state, bytes(pool), base, bytes(free),
                           np.ascontiguousarray(mult, dtype=np.float64).tobytes(), n)
    rng.setstate((version, state, gauss))
    return worlds  # type: ignore[no-any-return]


class DealtWorlds:
    """An endless stream of worlds ``(racks, deck)`` dealt from the direct model, from the view
    alone: ``draw()`` gives the next one. ``pool``, ``base`` and ``free`` as the uniform generator
    (:class:`.core.CodeWorlds`) has them; ``coef`` the model's coefficients (default: the view's
    preset's, :func:`coefficients`). Prefix-stable: the first ``n`` worlds of a longer stream are a
    shorter one's with the same generator."""

    def __init__(self, view: View, pool: Sequence[int], base: bytes, free: Sequence[int], rng: random.Random,
                 *, coef: np.ndarray | None = None, sigs: Sequence[B.Signals] | None = None) -> None:
        self.coef = coef if coef is not None else coefficients(B.model_key(view.rules))
        self.X = seat_features(view, sigs)
        self.mult = multipliers(self.X, self.coef)
        self.pool = list(pool)
        self.base = base
        self.free = list(free)
        self.rng = rng
        self.queue: list[tuple[bytes, bytes]] = []

    def draw(self) -> tuple[bytes, bytes]:
        if not self.queue:
            self.queue = deal_many(self.pool, self.base, self.free, self.mult, self.rng, BLOCK)
            self.queue.reverse()
        return self.queue.pop()


__all__ = ["BLOCK", "COL", "FEATURES", "KEY", "NAMES", "DealtWorlds", "chances", "coefficients", "counts",
           "deal_many", "deal_one", "exact_uniform", "features", "fitted", "irls", "logit", "multipliers",
           "reload", "seat_features", "sigmoid", "table_fits"]
