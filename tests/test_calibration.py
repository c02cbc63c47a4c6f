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


def test_only_plain_presets_with_a_fitted_curve_are_mapped(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from analysis.evaluate import calibration

    for v in ("101", "101-classic", "51"):  # the compiled model needs no curve (README, Expert)
        assert curve_for(preset(v)) is None and expected(preset(v), 190.0) == 190.0
    assert CURVES == {}
    curve = ((0.0, 0.0), (200.0, 160.0))  # were one fitted, it maps the plain preset only
    monkeypatch.setitem(calibration.CURVES, "101", curve)
    r = preset("101")
    assert curve_for(r) == curve and expected(r, 190.0) == 152.0
    partners = replace(r, esli=True)
    assert curve_for(partners) is None and expected(partners, 190.0) == 190.0
    assert expected(preset("51"), 100.0) == 100.0
