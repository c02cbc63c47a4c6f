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
- the direct model (:mod:`analysis.evaluate.reading`, the library's, whose features
  :data:`FEATURES` are): a logistic regression per cell, its offset the logit of the exact uniform
  chance, on a dozen view-only features, fitted here by Newton steps (IRLS, L2 ``--l2``) on the
  positions of the training seed ``--train-seed``;
- worlds dealt from the direct model (``--deal`` of them), as the evaluator's ``dealt`` belief
  deals them (:class:`analysis.evaluate.reading.DealtWorlds`): each unseen copy of face c goes to
  seat s with weight free places of s x exp(x_sc . beta), to the deck with weight its free places;
  no weights, no tempering.

``--write`` writes the fitted coefficients (rounded to six places, as the held-out figures use
them) to analysis/evaluate/belief_model.json under ``dealt``, the other keys kept.

It prints, per variant, on the held-out positions (seed ``--seed``), the Brier score of each
(lower is better) and its improvement over the exact uniform chance (the project's target: at
least 20%), the largest coefficients, and where the signal is: the cells s touched by a public
action (it discarded f, a same-colour neighbour +-1 or +-2, or f's number in another colour), their
share of the cells and of the uniform Brier, the direct model's gain there and elsewhere, and the
bound a perfect reading of those cells would give. Under solver self-play (defaults): today's
belief about 0%, the direct model about 9% (8.7-9.3%; twice today's model at its best, half the
target), the worlds dealt from it 8.0-9.5%, and the bound 20-27%.

    python bench/belief_ceiling.py [--variants 101,101-classic,51] [--games 400] [--eval-games 200]
                                   [--hands 3] [--every 2] [--deal 64] [--big] [--write]
    python bench/belief_ceiling.py --write --variants 101,101-classic,51,101-partners   # the dealt belief's model
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
import json
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
from analysis.evaluate import reading as R  # noqa: E402
from analysis.evaluate.core import CodeWorlds, unseen_tiles  # noqa: E402
from analysis.players import View  # noqa: E402


def _sibling(name: str) -> ModuleType:
    """bench/<name>.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BB = _sibling("belief")  # its _games, _positions, _preset: the same games and positions

# The direct model lives in the library (analysis/evaluate/reading.py): its features, the exact
# uniform chance, the fit and the deal; this bench fits it, measures it and writes it.
FEATURES, NAMES, COL = R.FEATURES, R.NAMES, R.COL


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
        sigs = {sg.seat: sg for sg in B.signals(v)}
        X = R.seat_features(v, list(sigs.values()))
        free = codes.free()
        pins = {s: [B.fast.code(t, okey) for t in p] for s, p in pinned.items()}
        read = R.chances(codes.pool, free, pins, X, coef)
        seat: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # s: (pe, truth, features)
        for s in sigs:
            truth = R.counts(B.fast.code(t, okey) for t in st.racks[s]) > 0
            seat[s] = read[s][0], truth.astype(float), X[s]
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
            got["dm"] = {s: read[s][1] for s in seat}
            if worlds:  # the library's dealt worlds, as the evaluator draws them (belief "dealt")
                dw = R.DealtWorlds(v, codes.pool, codes.base, free, random.Random(f"brier-deal:{seed}:{npos}"),
                                   coef=coef, sigs=list(sigs.values()))
                dealt = B.racks_of([dw.draw() for _ in range(worlds)])[:, :, :52] > 0
                got["dealt"] = {s: dealt[:, s].mean(axis=0) for s in seat}
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
    ap.add_argument("--write", action="store_true", help="write the direct model's coefficients per variant to "
                    "analysis/evaluate/belief_model.json (key 'dealt'; the other keys kept as they are); the held-out "
                    "figures are printed as without it")
    a = ap.parse_args()
    fitted: dict[str, list[float]] = {}
    t0, c0 = time.perf_counter(), time.process_time()
    print(f"Brier over (position, other seat, face) cells; improvement over the exact uniform chance "
          f"(target >= 20%); {a.games} training games (seed {a.train_seed}), {a.eval_games} held-out "
          f"(seed {a.seed}), {a.hands} hands, every {a.every} draw decisions")
    print("direct model features: " + "; ".join(f"{n} = {d}" for n, d in FEATURES[1:]))
    for v in a.variants.split(","):
        t = time.perf_counter()
        train = cells(v, a.games, a.hands, a.every, a.train_seed)
        fit = (train["pe"] > 0) & (train["pe"] < 1)
        coef = R.irls(train["X"][fit], R.logit(train["pe"][fit]), train["truth"][fit], a.l2)
        fitted[v] = [round(float(x), 6) for x in coef]
        coef = np.asarray(fitted[v])  # held out as written (rounded)
        held = cells(v, a.eval_games, a.hands, a.every, a.seed, coef, a.deal, a.big)
        report(v, train, held, coef, a.deal, time.perf_counter() - t)
    print(f"\n{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU")
    if a.write:
        doc = json.loads(B.MODEL_FILE.read_text(encoding="utf-8"))
        doc[R.KEY] = {"about": "the direct reading's coefficients (analysis/evaluate/reading.py, the dealt belief), "
                               f"fitted by python bench/belief_ceiling.py --write --variants {a.variants} --games "
                               f"{a.games} --hands {a.hands} --every {a.every} --train-seed {a.train_seed} --l2 {a.l2}",
                      "features": NAMES, "coef": fitted}
        B.MODEL_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        R.reload()
        print("wrote", B.MODEL_FILE)


if __name__ == "__main__":
    main()
