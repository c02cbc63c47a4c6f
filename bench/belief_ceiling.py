"""How far the belief could read the table: a direct per-(seat, face) model against today's belief.

Self-play games are played and replayed exactly as in bench/belief.py (four ``solver`` seats, its
``_games`` and ``_positions``): at every ``--every``-th decision of a seat that must draw, each other
seat s and each face f make a cell, scored against s's true rack (does it hold at least one f).
For every cell:

- the exact uniform chance: hypergeometric over the unseen tiles and s's free places (a tile
  known to sit in s's rack, the shown indicator twin, counts 1): the reference;
- today's belief as the evaluator uses it (:mod:`analysis.evaluate.belief`): 64 uniform proposals
  weighted by its model, tempered to an effective size of ``ESS_TARGET`` x 64 (the chance its 16
  resampled worlds carry on average), and the same 64 proposals unweighted, whose sampling noise
  the belief has to pay back first;
- with ``--big``: today's model untempered over 1,000 proposals (its own best);
- the direct model: a logistic regression per cell, its offset the logit of the exact uniform
  chance, on the few view-only features of :data:`FEATURES`, fitted by Newton steps (IRLS, L2
  ``--l2``) on the positions of the training seed ``--train-seed``;
- worlds dealt from the direct model (``--deal`` of them): each unseen copy of face c goes to
  seat s with weight free places of s x exp(x_sc . beta), to the deck with weight its free places;
  no weights, no tempering.

It prints, per variant, on the held-out positions (seed ``--seed``), the Brier score of each
(lower is better) and its improvement over the exact uniform chance (the project's target: at
least 20%), the largest coefficients, and where the signal is: the cells s touched by a public
action (it discarded f, a same-colour neighbour +-1 or +-2, or f's number in another colour), their
share of the cells and of the uniform Brier, the direct model's gain there and elsewhere, and the
bound a perfect reading of those cells would give. Under solver self-play (defaults): today's
belief about 0%, the direct model about 9% (8.7-9.3%; twice today's model at its best, half the
target), the worlds dealt from it 8.0-9.5%, and the bound 20-27%.

    python bench/belief_ceiling.py [--variants 101,101-classic,51] [--games 400] [--eval-games 200]
                                   [--hands 3] [--every 2] [--deal 64] [--big]
    python bench/belief_ceiling.py --games 60 --eval-games 30 --big   # the study's sizes

The defaults take about 3-4 minutes on one core (about 2 GB). ``--games 60 --eval-games 30``
(with the default seeds ``brier-train`` / ``brier-eval``, 3 hands, every 2nd draw decision) are
the sizes of the study behind these figures, 894 / 953 / 1501 held-out positions (under a minute,
``--big`` included). Self-play with ``solver`` is not fully deterministic: a rerun may replay a
few positions more or fewer.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from analysis.evaluate import belief as B  # noqa: E402
from analysis.evaluate.core import CodeWorlds, unseen_tiles  # noqa: E402
from analysis.game import FACES  # noqa: E402
from analysis.players import View  # noqa: E402


def _sibling(name: str) -> ModuleType:
    """bench/<name>.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BB = _sibling("belief")  # its _games, _positions, _preset: the same games and positions

# The direct model's features of a cell (other seat s, face f), from the view alone. These are the
# ones that carried weight among the ~40 tried (the others, e.g. takes, recency of discards, copies
# unseen, turns unopened, each moved the held-out Brier by less than 0.05 points).
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


def _counts(codes: Any) -> np.ndarray:
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


def features(v: View, sg: B.Signals, fits: np.ndarray) -> np.ndarray:
    """The 52 x len(FEATURES) features of seat ``sg.seat``'s cells, from the view ``v``."""
    st, s = v.state, sg.seat
    disc = _counts(sg.discarded)
    others = _counts(c for q in range(4) if q != s for c in (B.fast.code(t, st.okey) for t in st.discards[q]))
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
    X[:, COL["passed"]] = _counts(sg.passed)
    X[:, COL["others_nb1"]] = _nb(others, 1)
    return X


def exact_uniform(pool: np.ndarray, n_pool: int, slots: int) -> np.ndarray:
    """Per face: the chance that ``slots`` tiles drawn from the ``n_pool`` unseen ones (``pool``:
    copies per face) hold at least one copy (hypergeometric)."""
    none = np.ones(52)
    for j in range(int(pool.max(initial=0))):
        none *= np.where(pool > j, max(n_pool - slots - j, 0) / (n_pool - j), 1.0)
    return 1 - none


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def irls(X: np.ndarray, offset: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 25) -> np.ndarray:
    """Logistic regression of ``y`` on ``X`` with a fixed ``offset`` (Newton steps; the bias, the
    first column, is not penalised)."""
    b = np.zeros(X.shape[1])
    R = l2 * np.eye(X.shape[1])
    R[0, 0] = 0
    for _ in range(iters):
        p = _sigmoid(offset + X @ b)
        H = X.T @ (X * (p * (1 - p))[:, None]) + R
        step = np.linalg.solve(H, X.T @ (y - p) - R @ b)
        b += step
        if np.abs(step).max() < 1e-6:
            break
    return b


def deal(pool: list[int], free: dict[int, int], mult: dict[int, np.ndarray], rng: random.Random,
         n: int) -> np.ndarray:
    """``n`` worlds dealt copy by copy: a copy of face c goes to seat s with weight (free places left
    in s's rack) x ``mult[s][c]``, to the deck with weight its places left. Whether each seat holds
    each face, as worlds x 4 x 52 bools (``pool`` is shuffled in place)."""
    seats = list(mult)
    free0 = [free[s] for s in seats]
    deck0 = len(pool) - sum(free0)
    ms = [[float(x) for x in mult[s]] + [1.0] for s in seats]  # code 52 (the okey): no signal
    out = np.zeros((n, 4, 53), dtype=bool)
    for w in range(n):
        rng.shuffle(pool)
        left = free0[:]
        deck = deck0
        for c in pool:
            ws = [left[j] * ms[j][c] for j in range(len(seats))]
            r = rng.random() * (sum(ws) + deck)
            for j, x in enumerate(ws):
                if r < x:
                    left[j] -= 1
                    out[w, seats[j], c] = True
                    break
                r -= x
            else:
                deck -= 1
    return out[:, :, :52]


def cells(variant: str, games: int, hands: int, every: int, seed: str, coef: np.ndarray | None = None,
          worlds: int = 64, big: bool = False) -> dict[str, Any]:
    """One row per cell (position, other seat, face) of the games of ``seed``: the exact uniform
    chance ``pe``, the truth, the features; with ``coef`` (held-out) also every prediction."""
    preset, rules = BB._preset(variant)
    results = BB._games(preset, games, hands, seed, ["solver"] * 4, rules)
    model = B.model_for(variant)
    cols: dict[str, list[np.ndarray]] = {}
    ess: list[float] = []
    npos = 0

    def put(k: str, x: np.ndarray) -> None:
        cols.setdefault(k, []).append(x)

    for _, _, st in BB._positions(results, every):
        v = View.of(st, st.turn)
        okey = st.okey
        unseen, pinned = unseen_tiles(v)
        codes = CodeWorlds(v, unseen, pinned)
        pool = np.bincount(codes.pool, minlength=53)[:52].astype(float)
        sigs = {sg.seat: sg for sg in B.signals(v)}
        public = v.state  # redacted to the seat's view
        fits = (np.array([public.fits_table(FACES[f]) is not None for f in range(52)], dtype=float)
                if any(m is not None for m in public.table) else np.zeros(52))
        seat: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # s: (pe, truth, features)
        for s, sg in sigs.items():
            pin = pinned.get(s, [])
            pe = exact_uniform(pool, len(codes.pool), v.rack_sizes[s] - len(pin))
            pe = np.where(_counts(B.fast.code(t, okey) for t in pin) > 0, 1.0, pe)
            truth = _counts(B.fast.code(t, okey) for t in st.racks[s]) > 0
            seat[s] = pe, truth.astype(float), features(v, sg, fits)
        got: dict[str, dict[int, np.ndarray]] = {}
        if coef is not None:
            racks = B.racks_of(codes.draws(random.Random(f"brier-64:{seed}:{npos}"), 64))
            w64, _, _ = B.tempered(B.log_likelihood(racks, list(sigs.values()), model), B.ESS_TARGET * 64)
            held = racks[:, :, :52] > 0
            got["u64"] = {s: held[:, s].mean(axis=0) for s in seat}
            got["b64"] = {s: w64 @ held[:, s] for s in seat}
            if big:
                r1 = random.Random(f"brier-1k:{seed}:{npos}")
                racks1 = B.racks_of(codes.draws(r1, 1000))
                w1 = B.normalise(B.log_likelihood(racks1, list(sigs.values()), model))
                ess.append(B.ess(w1) / 1000)
                held1 = racks1[:, :, :52] > 0
                got["m1k"] = {s: w1 @ held1[:, s] for s in seat}
            got["dm"] = {s: np.where((pe <= 0) | (pe >= 1), pe, _sigmoid(_logit(pe) + X @ coef))
                         for s, (pe, _, X) in seat.items()}
            if worlds:
                mult = {s: np.exp(np.clip(X @ coef, -8, 8)) for s, (_, _, X) in seat.items()}
                free = {s: v.rack_sizes[s] - len(pinned.get(s, [])) for s in seat}
                dealt = deal(list(codes.pool), free, mult, random.Random(f"brier-deal:{seed}:{npos}"), worlds)
                got["dealt"] = {s: np.maximum(dealt[:, s].mean(axis=0), (pe >= 1) * 1.0)
                                for s, (pe, _, _) in seat.items()}
        for s, (pe, truth, X) in seat.items():
            put("pe", pe)
            put("truth", truth)
            put("X", X)
            for k, per in got.items():
                put(k, per[s])
        npos += 1
    out: dict[str, Any] = {k: np.concatenate(x) for k, x in cols.items()}
    out["positions"] = npos
    out["ess"] = float(np.median(ess)) if ess else None
    return out



def _brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(((p - y) ** 2).mean())


def report(variant: str, train: dict[str, Any], held: dict[str, Any], coef: np.ndarray, worlds: int,
           seconds: float) -> None:
    k = held["pe"] > 0  # the cells s could hold at all
    y = held["truth"][k]
    base = _brier(held["pe"][k], y)
    fit = (train["pe"] > 0) & (train["pe"] < 1)
    print(f"\n{variant}: held-out {held['positions']} positions, {int(k.sum())} cells (exact chance > 0), "
          f"{100 * y.mean():.1f}% held; trained on {train['positions']} positions, {int(fit.sum())} cells; "
          f"{seconds:.0f} s", flush=True)
    rows = [("pe", "exact uniform chance"), ("u64", "uniform, 64 proposals"),
            ("b64", "today's belief, 64 proposals tempered (the evaluator's)"),
            ("m1k", "today's model untempered, 1,000 proposals"), ("dm", "direct model"),
            ("dealt", f"worlds dealt from the direct model, {worlds}")]
    for key, name in rows:
        if key in held:
            b = _brier(held[key][k], y)
            extra = f"  (median ESS share {held['ess']:.2f})" if key == "m1k" else ""
            print(f"  {name:56s} Brier {b:.4f}  {100 * (1 - b / base):+5.1f}%{extra}")
    sd = train["X"][fit].std(axis=0)
    top = sorted(range(1, len(NAMES)), key=lambda j: -abs(coef[j] * sd[j]))[:4]
    print("  largest coefficients (log-odds per unit; by |coef x sd|): "
          + ", ".join(f"{NAMES[j]} {coef[j]:+.2f}" for j in top))
    # where the signal is: the cells s touched by a public action
    m = (held["pe"] > 0) & (held["pe"] < 1)
    X, pe, dm, t = held["X"][m], held["pe"][m], held["dm"][m], held["truth"][m]
    touched = (X[:, COL["disc"]] + X[:, COL["disc_nb1"]] + X[:, COL["disc_nb2"]] + X[:, COL["disc_grp"]]) > 0
    fits = (X[:, COL["fits_op"]] > 0) & ~touched
    total = float(((pe - t) ** 2).sum())
    bound = 0.0  # the gain if the touched cells were read perfectly, the others as the direct model
    for name, c in (("s discarded f, a neighbour +-1/+-2 or f's number", touched),
                    ("f fits a table meld and s opened (the rest)", fits), ("neither", ~touched & ~fits)):
        bu, bd = float(((pe[c] - t[c]) ** 2).sum()), float(((dm[c] - t[c]) ** 2).sum())
        bound += bu if c is touched else bu - bd
        print(f"  {name:50s} cells {100 * c.mean():4.1f}%, uniform Brier {100 * bu / total:4.1f}%; "
              f"direct gain there {100 * (1 - bd / max(bu, 1e-12)):5.1f}% = {100 * (bu - bd) / total:4.1f} pts")
    print(f"  a perfect reading of the touched cells, the rest as the direct model: at most "
          f"{100 * bound / total:.1f}% (target 20%)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="101,101-classic,51")
    ap.add_argument("--games", type=int, default=400, help="training games per variant")
    ap.add_argument("--eval-games", type=int, default=200, help="held-out games per variant")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--train-seed", default="brier-train")
    ap.add_argument("--seed", default="brier-eval", help="the held-out games' seed")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--deal", type=int, default=64, help="worlds dealt from the direct model (0: none)")
    ap.add_argument("--big", action="store_true", help="also today's model untempered on 1,000 proposals (slow)")
    a = ap.parse_args()
    t0, c0 = time.perf_counter(), time.process_time()
    print(f"Brier over (position, other seat, face) cells; improvement over the exact uniform chance "
          f"(target >= 20%); {a.games} training games (seed {a.train_seed}), {a.eval_games} held-out "
          f"(seed {a.seed}), {a.hands} hands, every {a.every} draw decisions")
    print("direct model features: " + "; ".join(f"{n} = {d}" for n, d in FEATURES[1:]))
    for v in a.variants.split(","):
        t = time.perf_counter()
        train = cells(v, a.games, a.hands, a.every, a.train_seed)
        fit = (train["pe"] > 0) & (train["pe"] < 1)
        coef = irls(train["X"][fit], _logit(train["pe"][fit]), train["truth"][fit], a.l2)
        held = cells(v, a.eval_games, a.hands, a.every, a.seed, coef, a.deal, a.big)
        report(v, train, held, coef, a.deal, time.perf_counter() - t)
    print(f"\n{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU")


if __name__ == "__main__":
    main()
