"""From the rollout model's expected hand score to what a strong player really scores from there.

The evaluator plays the rest of a hand by its model's policy. If that policy plays worse than a
strong player from the same position, the model's value is too pessimistic, most where much is at
stake (an unopened seat late in the hand, facing the 202 of E5), and a monotone curve from the
model's value to the mean actual hand score mends the numbers a player reads (decisions never
need it: all candidates share the model, and a monotone map keeps their order). Curves are fitted
by ``python bench/calibrate.py --fit`` (isotonic regression over the expert's decisions in a
duplicate match, knots at equal-count chunks) on even-numbered deals and checked on the odd ones.

**No preset has a curve now.** The Python model of issue 14 needed one in ``101`` (positions it
put at 190 ended near 165). The compiled model that plays the rules (issue 20) does not: on the
expert's 14,242 decisions of a 500-deal ``101`` match it never fitted (README, *Expert*), its value
alone is within 9.9 points of the actual mean in every bin, while that old curve was off by up
to 40 there; ``101-classic`` is within 4.5 in every bin holding 2% of the decisions. ``51`` is
within 4.1 up to 100 and too pessimistic above it (README), and a curve fitted there did worse on
held-out deals than the value itself. A rule set other than a plain preset would keep the model's
value in any case: its scale differs (partner games count the team).
"""

from __future__ import annotations

import bisect

from analysis.game import Rules, preset

Curve = tuple[tuple[float, float], ...]  # (model value, actual mean) knots, increasing in both

# Fitted by `python bench/calibrate.py --fit --variant V m.jsonl` on the expert's decisions in
# `istaka match --bots expert,solver --variant V --deals 500 --deals-out m.jsonl` (README, *Expert*),
# kept only where it beats the model's value on the held-out deals: none does (the docstring).
CURVES: dict[str, Curve] = {}


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
