"""From the rollout model's expected hand score to what a strong player really scores from there.

The evaluator plays the rest of a hand by its model's simple policy (:mod:`.sim`). A strong
player does better than that policy from the same position, and most where much is at stake (an
unopened seat late in the hand, facing the 202 of E5): measured over the expert's own decisions
in duplicate matches, positions the model puts at 190 end near 165. Decisions do not need the
correction (all candidates share the model, and a monotone map keeps their order); the numbers a
player reads do. So each preset has a monotone curve from the model's value to the mean actual
hand score, fitted by ``python bench/calibrate.py --fit`` (isotonic regression over the expert's
decisions, knots at equal-count chunks) on even-numbered deals and checked on the odd ones
(README, *Expert*). ``101`` has one. ``51`` has none: a curve fitted the same way did worse on
the held-out deals than the model's value (largest gap up to 100 points: 7.2 against 3.4), so its
value is shown as it is; ``101-classic`` has not been fitted. A rule set other than a plain preset
keeps the model's value: its scale differs (partner games count the team) and no curve was
fitted for it.
"""

from __future__ import annotations

import bisect

from analysis.game import Rules, preset

Curve = tuple[tuple[float, float], ...]  # (model value, actual mean) knots, increasing in both

# Fitted by `python bench/calibrate.py --fit --variant V m.jsonl` on the expert's decisions in
# `istaka match --bots expert,solver --variant V --deals 500 --seed final --deals-out m.jsonl` (README, *Expert*).
CURVES: dict[str, Curve] = {
    "101": ((-60.2, -60.9), (-6.0, -0.8), (6.6, 13.5), (14.9, 24.1), (23.3, 29.1), (32.7, 40.4), (43.8, 49.2),
            (58.0, 55.2), (78.2, 71.9), (101.2, 87.6), (125.0, 101.1), (154.3, 111.8), (180.7, 137.1),
            (197.1, 160.2), (202.4, 198.5), (230.0, 210.2)),
}


def curve_for(rules: Rules) -> Curve | None:
    """The preset's curve when ``rules`` are that preset unchanged, else None."""
    c = CURVES.get(rules.variant)
    if c is None or rules != preset(rules.variant):
        return None
    return c


def apply_curve(curve: Curve | None, x: float) -> float:
    """``x`` through the curve: linear between knots, slope 1 beyond the ends."""
    if not curve:
        return x
    xs = [k[0] for k in curve]
    i = bisect.bisect_left(xs, x)
    if i == 0:
        return curve[0][1] + (x - curve[0][0])
    if i == len(curve):
        return curve[-1][1] + (x - curve[-1][0])
    (x0, y0), (x1, y1) = curve[i - 1], curve[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1


def expected(rules: Rules, x: float) -> float:
    """The expected hand score a player reads for the model's value ``x`` under ``rules``."""
    return apply_curve(curve_for(rules), x)


def fit_curve(pairs: list[tuple[float, float]], knots: int = 16) -> Curve:
    """A monotone curve through (prediction, actual) pairs: equal-count chunks of the sorted
    predictions, their means, then pool-adjacent-violators so that the actual means increase."""
    pts = sorted(pairs)
    n = len(pts)
    if n < knots:
        return ()
    chunks = [pts[i * n // knots:(i + 1) * n // knots] for i in range(knots)]
    blocks: list[list[float]] = []  # [sum x, sum y, count]
    for ch in chunks:
        blocks.append([sum(p for p, _ in ch), sum(y for _, y in ch), float(len(ch))])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            a = blocks.pop()
            blocks[-1] = [blocks[-1][0] + a[0], blocks[-1][1] + a[1], blocks[-1][2] + a[2]]
    return tuple((round(sx / k, 1), round(sy / k, 1)) for sx, sy, k in blocks)


__all__ = ["CURVES", "Curve", "apply_curve", "curve_for", "expected", "fit_curve"]
