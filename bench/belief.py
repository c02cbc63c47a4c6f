"""How well the belief reads the table (docs/belief.md), against the true racks of self-play.

Self-play games (four ``solver`` seats by default, full logs: every rack is known) are replayed;
at every ``--every``-th decision of a seat that must draw, the seat's view alone gives, for each
other seat and each of the 52 faces, the probability that the seat holds one:

- uniform: the share of uniformly sampled worlds (``--proposals`` of them) whose rack holds it;
- belief: the same worlds weighted as the evaluator weighs them (:mod:`analysis.evaluate.belief`,
  tempered as there).

It prints the Brier score of each against the true racks (lower is better) and the improvement
of the belief over uniform (target: at least 20%), the median effective sample size, and the
calibration by decile of "the next seat opens on its next turn" (the belief's chance, from the
weighted worlds: the seat's rack with the tile it would draw holds an opening that reaches its
threshold, by the quick meld finder, against whether it did open on that turn).

    python bench/belief.py [--variants 101,101-classic,51] [--games 6] [--hands 3] [--every 3]
    python bench/belief.py --fit --variants 101,101-classic,51,101-partners --games 30   # the model
    python bench/belief.py --speed 200    # an expert decision's CPU time: uniform, table and dealt worlds
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from analysis.evaluate import belief as B  # noqa: E402
from analysis.evaluate.core import CodeWorlds, unseen_tiles  # noqa: E402
from analysis.evaluate.panel import opens_next  # noqa: E402
from analysis.game.log import read_lines  # noqa: E402
from analysis.game.replay import replay_game  # noqa: E402
from analysis.players import View  # noqa: E402
from analysis.selfplay.simulate import play_game, specs  # noqa: E402


def _games(variant: str, n: int, hands: int, seed: str, bots: list[str], rules: dict | None = None) -> list:
    out = []
    for spec in specs(n, variant=variant, bots=bots, seed=seed, hands=hands, rules=rules):
        rec = play_game(spec)
        read = read_lines(rec.lines())
        out += [replay_game(g, keep_steps=True) for g in read.games]
    return out


def _opened_next(steps: list, i: int, seat: int) -> bool | None:
    """Did ``seat`` open on its next turn after step ``i`` (None: the hand ended first)?"""
    seen_turn = False
    for stp in steps[i + 1:]:
        ev = stp.event
        if ev.get("seat") == seat and ev.get("type") in ("draw", "take"):
            if seen_turn:
                return False
            seen_turn = True
        if ev.get("seat") == seat and ev.get("type") == "open" and seen_turn:
            return True
        if ev.get("seat") == seat and ev.get("type") == "discard" and seen_turn:
            return False
    return None


def _preset(v: str) -> tuple[str, dict | None]:
    """A preset name, or one with ``-partners`` added: (preset, rule overrides)."""
    return (v[:-len("-partners")], {"esli": True}) if v.endswith("-partners") else (v, None)


def _positions(results: list, every: int):  # type: ignore[no-untyped-def]
    """Every ``every``-th decision to draw in the games: (steps, index, state)."""
    k = 0
    for g in results:
        for h in g.hands:
            for i, stp in enumerate(h.steps):
                st = stp.state
                if st is None or st.over or st.phase != "draw":
                    continue
                k += 1
                if k % every == 0:
                    yield h.steps, i, st


def _proposals(v: View, n: int, rng: random.Random) -> tuple[list, np.ndarray]:
    """``n`` uniform worlds of the view, and their racks as worlds x 4 x 53 counts."""
    unseen, pinned = unseen_tiles(v)
    codes = CodeWorlds(v, unseen, pinned)
    got = [codes.draw(rng) for _ in range(n)]
    return got, B.racks_of(got)


def measure(variant: str, games: int, hands: int, every: int, proposals: int, seed: str, raw: bool = False) -> dict:
    t0 = time.perf_counter()
    results = _games(*_preset(variant)[:1], games, hands, seed, ["solver"] * 4, _preset(variant)[1])
    brier_u = brier_b = 0.0
    cells = 0
    esses = []
    preds: list[tuple[float, int]] = []
    rng = random.Random(f"bench-belief:{seed}")
    for steps, i, st in _positions(results, every):
        seat = st.turn
        v = View.of(st, seat)
        got, racks = _proposals(v, proposals, rng)
        sigs = B.signals(v)
        w, _, e = B.tempered(B.log_likelihood(racks, sigs, B.model_for(variant)), B.ESS_TARGET * proposals)
        esses.append(e / proposals)
        for s in range(4):
            if s == seat:
                continue
            held = racks[:, s, :52] > 0
            pu = held.mean(axis=0)
            pb = (held * w[:, None]).sum(axis=0)
            truth = np.zeros(52)
            for t in st.racks[s]:
                c = B.fast.code(t, st.okey)
                if c < 52:
                    truth[c] = 1
            mask = pu > 0  # faces it could hold at all
            brier_u += float(((pu - truth)[mask] ** 2).sum())
            brier_b += float(((pb - truth)[mask] ** 2).sum())
            cells += int(mask.sum())
        nxt = (seat + 1) % 4
        if st.opened[nxt] is None:
            did = _opened_next(steps, i, nxt)
            if did is not None:
                keep = B.systematic(w, 64, rng)
                p = opens_next(v, nxt, [got[j] for j in keep], raw=raw)
                preds.append((p, int(did)))
    bu, bb = brier_u / max(cells, 1), brier_b / max(cells, 1)
    deciles = []
    if preds:
        preds.sort()
        for d in range(10):
            part = [x for x in preds if d / 10 <= x[0] < (d + 1) / 10 or (d == 9 and x[0] == 1.0)]
            if part:
                deciles.append((d, len(part), statistics.mean(p for p, _ in part), statistics.mean(o for _, o in part)))
    return {"variant": variant, "positions": len(esses), "brier_uniform": bu, "brier_belief": bb,
            "improvement": 1 - bb / bu if bu else 0.0, "ess_share_median": statistics.median(esses) if esses else 0,
            "opens": preds, "deciles": deciles, "seconds": time.perf_counter() - t0}


def fit(variant: str, games: int, hands: int, every: int, proposals: int, seed: str, rules: dict | None = None) -> dict:
    """Each model key's likelihood ratio from self-play: how much more (or less) often the category
    holds in the true rack than in uniform worlds, relative to racks where it does not hold."""
    results = _games(variant, games, hands, seed, ["solver"] * 4, rules)
    rng = random.Random(f"bench-belief-fit:{seed}")
    true: dict[str, list[float]] = {k: [] for k in B.MODEL}
    prop: dict[str, list[float]] = {k: [] for k in B.MODEL}
    none_t: list[float] = []
    none_p: list[float] = []
    for _, _, st in _positions(results, every):
        v = View.of(st, st.turn)
        got, racks = _proposals(v, proposals, rng)
        t = np.zeros((1, 4, 53), dtype=np.uint8)
        for s in range(4):
            for x in st.racks[s]:
                t[0, s, B.fast.code(x, st.okey)] += 1
        sigs = B.signals(v)
        ft, fp = B.features(t, sigs), B.features(racks, sigs)
        for key in B.MODEL:
            true[key] += [float(a[0]) for a in ft[key]]
            prop[key] += [float(a.mean()) for a in fp[key]]
        # a discard's third category: it joins nothing (the reference of both discard ratios)
        for a, b, c, d in zip(ft["discard_completes"], ft["discard_joins"], fp["discard_completes"],
                              fp["discard_joins"]):
            none_t.append(float(1 - a[0] - b[0]))
            none_p.append(float(1 - c.mean() - d.mean()))
    out: dict[str, float] = {}
    counts: dict[str, int] = {}
    for key in B.MODEL:
        n = len(true[key])
        counts[key] = n
        if n < 20:
            out[key] = B.MODEL[key]
            continue
        pt = (sum(true[key]) + 0.5) / (n + 1)
        pp = (sum(prop[key]) + 0.5) / (n + 1)
        if key.startswith("discard_"):
            nt = (sum(none_t) + 0.5) / (len(none_t) + 1)
            np_ = (sum(none_p) + 0.5) / (len(none_p) + 1)
            r = (pt / pp) / (nt / np_)
        else:
            r = (pt / pp) / ((1 - pt) / (1 - pp))
        out[key] = round(min(5.0, max(0.02, r)), 3)
    return {"model": out, "observations": counts}


def speed(decisions: int, worlds: int) -> None:
    """CPU time of one decision as the expert makes it (its fixed worlds, pruning on), each belief
    (uniform, table, dealt) on the same spots of the sample games, in one run."""
    from analysis.evaluate import candidates, evaluate
    from analysis.game import read_and_replay

    games, _ = read_and_replay(str(Path(__file__).resolve().parents[1] / "data/sample/games.jsonl.gz"),
                               keep_steps=True)
    spots = []
    for g in games:
        for h in g.hands:
            for stp in h.steps:
                st = stp.state
                if st is None or st.over:
                    continue
                v = View.of(st, st.turn)
                c = candidates(v)
                if len(c) > 1:
                    spots.append((v, c))
    random.Random(1).shuffle(spots)
    spots = spots[:decisions]
    times: dict[str, list[float]] = {"uniform": [], "table": [], "dealt": []}
    for k, (v, c) in enumerate(spots):
        for b in times:
            t0 = time.process_time()
            evaluate(v, c, seed=k, worlds=worlds, belief=b)
            times[b].append(time.process_time() - t0)
    print(f"decisions: {len(spots)} sample spots, {worlds} worlds each (the expert's), CPU time of this process")
    for b, t in times.items():
        t = sorted(t)
        print(f"  {b:8s} median {1000 * statistics.median(t):6.1f} ms  p90 {1000 * t[int(0.9 * len(t))]:6.1f} ms"
              f"  (targets 50 / 150)")
    for b in ("table", "dealt"):
        print(f"  {b} / uniform, medians: {statistics.median(times[b]) / statistics.median(times['uniform']):.2f}")


def calibration_map(preds: list[tuple[float, int]], bins: int = 10, least: int = 8) -> list[list[float]]:
    """An increasing map from the raw chance to the observed frequency: the observed mean of each
    tenth of the raw chances holding at least ``least`` predictions, made monotone by pooling
    adjacent violators (weighted by counts); a list of [raw mean, observed] points."""
    pts = []
    for d in range(bins):
        part = [x for x in preds if d / bins <= x[0] < (d + 1) / bins or (d == bins - 1 and x[0] == 1.0)]
        if len(part) >= least:
            pts.append([statistics.mean(p for p, _ in part), statistics.mean(o for _, o in part), len(part)])
    blocks: list[list[float]] = []
    for x, y, n in pts:  # pool adjacent violators
        blocks.append([x * n, y * n, n, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            b = blocks.pop()
            for i in range(3):
                blocks[-1][i] += b[i]
    return [[round(x / n, 4), round(y / n, 4)] for x, y, n, _ in blocks]


def fit_opens(a: argparse.Namespace) -> dict[str, list[list[float]]]:
    """Each variant's "opens next turn" map, from the raw chances on the fit's seeds."""
    maps = {}
    for v in a.variants.split(","):
        r = measure(v, a.games, a.hands, a.every, a.proposals, f"fit-{a.seed}", raw=True)
        maps[v] = calibration_map(r["opens"])
        print(v, f"opens next turn ({len(r['opens'])} predictions), raw -> observed:", maps[v], flush=True)
    return maps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="101,101-classic,51")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--proposals", type=int, default=256)
    ap.add_argument("--seed", default="belief")
    ap.add_argument("--fit", action="store_true", help="fit the model on self-play and write "
                    "analysis/evaluate/belief_model.json (other seeds than the measurement's)")
    ap.add_argument("--fit-opens", action="store_true", help="fit only the 'opens next turn' maps, on the "
                    "likelihood ratios already in analysis/evaluate/belief_model.json (the judge's worlds stay as they are)")
    ap.add_argument("--speed", type=int, metavar="N", help="time N expert decisions: uniform, table and dealt worlds")
    a = ap.parse_args()
    if a.speed:
        from analysis.evaluate.expert import WORLDS

        speed(a.speed, WORLDS)
        return
    if a.fit_opens:
        doc = json.loads(B.MODEL_FILE.read_text(encoding="utf-8"))
        doc["opens_next"] = {**doc.get("opens_next", {}), **fit_opens(a)}
        doc["opens_next_about"] = ("the 'opens next turn' maps, fitted by python bench/belief.py --fit-opens --variants "
                                   f"{a.variants} --games {a.games} --hands {a.hands} --every {a.every} "
                                   f"--proposals {a.proposals} --seed {a.seed}")
        B.MODEL_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print("wrote", B.MODEL_FILE)
        return
    if a.fit:
        models, obs = {}, {}
        kept = {k: v for k, v in json.loads(B.MODEL_FILE.read_text(encoding="utf-8")).items()
                if k not in ("about", "models", "observations", "opens_next", "opens_next_about")}  # e.g. the dealt reading's
        for v in a.variants.split(","):
            variant, rules = _preset(v)
            got = fit(variant, a.games, a.hands, a.every, a.proposals, f"fit-{a.seed}", rules)
            models[v], obs[v] = got["model"], got["observations"]
            print(v, got["model"], got["observations"], flush=True)
        B.MODEL_FILE.write_text(json.dumps({**kept, "models": models}) + "\n", encoding="utf-8")
        B.reload()  # the calibration below reads the worlds weighed by the ratios just fitted
        maps = fit_opens(a)
        doc = {**kept, "about": "likelihood ratios of the belief's model (analysis/evaluate/belief.py), fitted by "
                        f"python bench/belief.py --fit --variants {a.variants} --games {a.games} --hands {a.hands} "
                        f"--every {a.every} --proposals {a.proposals} --seed {a.seed}",
               "models": models, "observations": obs, "opens_next": maps}
        B.MODEL_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print("wrote", B.MODEL_FILE)
        return
    print("variant | positions | Brier uniform | Brier belief | improvement (target >= 20%) | median ESS share | s")
    rows = []
    for v in a.variants.split(","):
        r = measure(v, a.games, a.hands, a.every, a.proposals, a.seed)
        rows.append(r)
        print(f"{v} | {r['positions']} | {r['brier_uniform']:.4f} | {r['brier_belief']:.4f} | "
              f"{100 * r['improvement']:.1f}% | {r['ess_share_median']:.2f} | {r['seconds']:.0f}", flush=True)
    print("\n'opens on its next turn' by decile: predicted vs observed (target within 5 points where a decile "
          "holds >= 2% of the predictions)")
    for r in rows:
        n = len(r["opens"])
        print(f"{r['variant']}: {n} predictions")
        for d, k, p, o in r["deciles"]:
            big = k >= 0.02 * n
            flag = ("ok" if abs(p - o) <= 0.05 else "MISS") if big else "small"
            print(f"  decile {d}: n={k} predicted {100 * p:.1f}% observed {100 * o:.1f}% {flag}")


if __name__ == "__main__":
    main()
