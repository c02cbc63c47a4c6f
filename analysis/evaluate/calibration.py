"""From the rollout model's expected hand score to what a strong player really scores from there.

The evaluator plays the rest of a hand by its model's policy. If that policy plays worse than a
strong player from the same position, the model's value is too pessimistic, most where much is at
stake (an unopened seat late in the hand, facing the 202 of E5), and a monotone curve from the
model's value to the mean actual hand score mends the numbers a player reads (decisions never
need it: all candidates share the model, and a monotone map keeps their order). Curves are fitted
by ``python bench/calibrate.py --fit --cross`` (isotonic regression over the expert's decisions in
duplicate matches, knots at equal-count chunks) on several matches, each checked through a curve
fitted on the others.

``101`` and ``51`` have a curve; ``101-classic`` and every other rule set keep the model's value.
The first (Python) rollout model needed one in ``101`` (positions it put at 190 ended near 165). The
compiled model that plays the rules is much closer, but over three matches of
the expert against ``solver`` (1,100 deals a preset: 35,311 decisions in ``101``, 50,184 in
``51``) it is still too pessimistic by 10.9 [8.0, 13.8] points in ``101``'s (50, 100] and by 10.8
[5.8, 15.8] in ``51``'s (100, 150], where the target is 10. The reason is the model's own future
play: the seat's later turns are played by the rollout policy (one best placing, a fixed discard
rule), while the expert searches each of those decisions again over ~100 worlds, so from a
position where the seat still has choices to make the expert scores better than the model says.
Checked file by file (each match through a curve fitted on the other two, ``bench/calibrate.py
--fit --cross``), the curves put every bin holding 2% of the decisions within 2.7 points
(``101``) and 0.9 (``51``); on a fourth match fitted on nothing, within 5.1 and 3.7.
``101-classic`` is within 4.5 points in every such bin without one (docs/calibration.md). A rule set
other than a plain preset keeps the model's value: its scale differs (partner games count the
team).
"""

from __future__ import annotations

import bisect

from analysis.game import Rules, preset

Curve = tuple[tuple[float, float], ...]  # (model value, actual mean) knots, increasing in both

# Fitted by `python bench/calibrate.py a.jsonl b.jsonl c.jsonl --variant V --fit --cross` on the
# `--deals-out` files of three `istaka match --bots expert,solver --variant V --jobs 2` matches
# (seeds s28final with 500 deals, s32calV and s33calV with 300; 2026-12-04, docs/calibration.md).
CURVES: dict[str, Curve] = {
    "101": ((-120.0, -119.4), (-81.5, -83.9), (-47.7, -51.3), (-24.8, -32.2), (-10.1, -19.7), (-0.5, -6.8),
            (5.8, -3.2), (11.2, 7.1), (16.0, 14.7), (20.4, 17.9), (24.9, 24.4), (29.4, 27.3), (36.5, 29.1),
            (43.7, 34.5), (48.7, 36.6), (54.2, 43.5), (60.2, 44.7), (66.5, 58.8), (73.3, 63.4), (80.6, 68.0),
            (88.3, 77.5), (96.3, 87.9), (105.1, 96.3), (115.1, 111.9), (126.7, 122.0), (141.0, 136.0),
            (158.2, 152.9), (176.4, 172.2), (193.5, 186.7), (202.3, 201.9), (225.1, 218.0)),
    "51": ((-44.7, -32.2), (-32.0, -24.5), (-27.3, -22.5), (-24.0, -20.0), (-20.1, -17.6), (-15.9, -15.0),
           (-13.1, -13.6), (-11.4, -12.1), (-8.9, -11.2), (-6.1, -6.9), (-4.2, -5.6), (-2.1, -3.2), (0.4, -0.2),
           (2.6, 2.2), (5.2, 4.6), (8.5, 9.2), (12.5, 10.5), (17.6, 16.9), (24.4, 24.0), (32.9, 29.7), (42.0, 39.6),
           (51.1, 48.7), (59.2, 55.5), (67.0, 60.8), (74.8, 69.1), (82.8, 74.5), (91.0, 84.5), (99.2, 94.5),
           (120.8, 104.9)),
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


KNOTS = 32  # equal-count chunks of a fit (16, 32 and 48 each mend the held-out bins to within 5; docs/calibration.md)


def fit_curve(pairs: list[tuple[float, float]], knots: int = KNOTS) -> Curve:
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


__all__ = ["CURVES", "KNOTS", "Curve", "apply_curve", "curve_for", "expected", "fit_curve"]
