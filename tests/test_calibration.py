"""The evaluator's calibration curve (issue 14): from the model's value to the actual mean."""

from __future__ import annotations

import random
from dataclasses import replace

from analysis.evaluate.calibration import CURVES, apply_curve, curve_for, expected, fit_curve
from analysis.game import preset


def test_the_curve_interpolates_between_knots_and_keeps_slope_one_beyond() -> None:
    c = ((0.0, 10.0), (100.0, 60.0))
    assert apply_curve(c, 50.0) == 35.0
    assert apply_curve(c, -20.0) == -10.0 and apply_curve(c, 130.0) == 90.0
    assert apply_curve(None, 42.0) == 42.0 and apply_curve((), 42.0) == 42.0


def test_a_fitted_curve_is_monotone_and_recovers_a_known_relation() -> None:
    rng = random.Random(3)
    pairs = []
    for _ in range(20_000):
        x = rng.uniform(-100, 250)
        pairs.append((x + rng.gauss(0, 5), 0.8 * x + 5 + rng.gauss(0, 40)))  # a noisy truth
    c = fit_curve(pairs)
    assert len(c) >= 8
    assert all(a[0] < b[0] and a[1] <= b[1] for a, b in zip(c, c[1:]))
    for x in (0.0, 100.0, 200.0):
        assert abs(apply_curve(c, x) - (0.8 * x + 5)) < 8


def test_fit_pools_what_goes_the_wrong_way() -> None:
    pairs = [(float(i), float(-i)) for i in range(64)]  # actual falls as the prediction rises
    c = fit_curve(pairs, knots=8)
    assert len(c) == 1 and c[0][1] == -31.5


def test_only_plain_presets_with_a_fitted_curve_are_mapped() -> None:
    r = preset("101")
    assert "101" in CURVES and curve_for(r) == CURVES["101"]
    assert expected(r, 190.0) < 190.0  # the model is pessimistic where the 202 of E5 looms
    for v, c in CURVES.items():  # every fitted curve rises in both coordinates
        assert curve_for(preset(v)) == c and all(a[0] < b[0] and a[1] <= b[1] for a, b in zip(c, c[1:]))
    assert expected(preset("51"), 100.0) == 100.0  # no curve for 51: it did worse than the model held out
    partners = replace(r, esli=True)
    assert curve_for(partners) is None and expected(partners, 190.0) == 190.0
