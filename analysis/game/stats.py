"""The 95% intervals every figure shares: Student's t quantile, the interval of a mean, and of a
mean known only by its sum and sum of squares. Duplicate matches, duplicate sets, the skill line
and the style table all call these, so one number means one thing everywhere."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z975 = 1.959964  # the normal 97.5% quantile


def t975(df: int) -> float:
    """Student's t two-sided 95% quantile for ``df`` degrees of freedom: the exact values for df
    1-3, else the Cornish-Fisher expansion (within 0.001 of the exact one from df 4 on)."""
    if df <= 0:
        return math.inf
    if df <= 3:
        return (12.706, 4.303, 3.182)[df - 1]
    z = Z975
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def sums_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """(mean, low, high) of ``n`` values from their sum and sum of squares, with the 95% Student t
    interval (nan without values, infinite below two)."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    m = total / n
    if n < 2:
        return (m, -math.inf, math.inf)
    var = max(0.0, (squares - n * m * m) / (n - 1))
    h = t975(n - 1) * math.sqrt(var / n)
    return (m, m - h, m + h)


def mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``xs`` with its 95% Student t interval (nan without values,
    infinite for one)."""
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(xs) / n
    if n == 1:
        return (m, -math.inf, math.inf)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return (m, m - h, m + h)


def wilson(k: float, n: float) -> tuple[float, float]:
    """The 95% Wilson interval of a rate k/n ((nan, nan) without trials)."""
    if n <= 0:
        return (math.nan, math.nan)
    z, p = Z975, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return (max(0.0, c - h), min(1.0, c + h))


__all__ = ["Z975", "mean_interval", "sums_interval", "t975", "wilson"]
