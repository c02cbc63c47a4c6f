"""The evaluator's calibration curve: from the model's value to the actual mean."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

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
    # 101 and 51 have a curve (the model is ~11 too pessimistic in one bin each; docs/calibration.md)
    assert set(CURVES) == {"101", "51"}
    assert curve_for(preset("101-classic")) is None and expected(preset("101-classic"), 190.0) == 190.0
    for v in ("101", "51"):
        r = preset(v)
        assert curve_for(r) == CURVES[v] and expected(r, 75.0) < 75.0  # too pessimistic there: mended down
        partners = replace(r, esli=True)  # another scale: the team's score
        assert curve_for(partners) is None and expected(partners, 75.0) == 75.0
        assert curve_for(replace(r, x6=not r.x6)) is None  # an override is not the preset


def test_the_installed_curves_are_monotone_and_close_to_the_model_E5() -> None:
    for v, c in CURVES.items():
        assert len(c) >= 16
        assert all(a[0] < b[0] and a[1] <= b[1] for a, b in zip(c, c[1:])), v
        assert all(abs(y - x) <= 20 for x, y in c), v  # a correction, not a different scale
    assert expected(preset("101"), 202.0) == pytest.approx(202.0, abs=2)  # a sure unopened 202 (E5) stays 202


def test_the_bench_checks_each_match_through_a_curve_fitted_on_the_others(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """bench/calibrate.py --fit --cross: a model 12 points too pessimistic between 50 and 100 (a
    bias that every match shares) is off by 12 alone and mended on matches the curve never saw."""
    import json
    import sys
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    import calibrate

    files = []
    for m in range(3):
        rng = random.Random(m)
        path = tmp_path / f"m{m}.jsonl"
        with path.open("w") as fh:
            for deal in range(150):
                preds = [[rng.uniform(-60, 200) for _ in range(6)] for _ in range(4)]
                actual = []
                for ps in preds:  # a hand-seat's outcome: its first prediction, biased, plus noise
                    p = ps[0]
                    actual.append(round(p - (12 if 50 < p <= 100 else 0) + rng.gauss(0, 3)))
                    ps[1:] = [p] * 5
                fh.write(json.dumps({"deal": deal, "pred": preds, "a": actual}) + "\n")
        files.append(str(path))
    monkeypatch.setattr(sys, "argv", ["calibrate.py", *files, "--fit", "--cross", "--knots", "24", "--json"])
    calibrate.main()
    out = json.loads(capsys.readouterr().out)
    mid = lambda rows: next(r for r in rows if r["bin"] == "(50, 100]")  # noqa: E731
    assert out["decisions"] == 3 * 150 * 4 * 6
    assert mid(out["model"])["gap"] == pytest.approx(-12, abs=1.5)
    assert all(abs(r["gap"]) < 6 for r in out["calibrated"] if r["share"] >= 0.02)
    monkeypatch.setattr(sys, "argv", ["calibrate.py", files[0], "--cross", "--fit"])
    with pytest.raises(SystemExit):
        calibrate.main()  # one file cannot be checked against the others
