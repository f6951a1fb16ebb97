"""8.2's calibration on constructed judgments: agreement before and after, the threshold and
the weights fitted to what people said, and the honest cases (none, too few, all alike)."""

from __future__ import annotations

import numpy as np

from wander.core.domain.sandwich import ACCEPT, WEIGHTS
from wander.core.sandwich.calibration import PARTS, Judged, best_threshold, calibrate, fit_weights, kappa


def judged(parts: dict[str, float], valid: bool, quality: int = 3) -> Judged:
    v = sum(WEIGHTS[p] * parts[p] for p in PARTS)
    return Judged(valid, v, parts, quality)


def test_no_judgments_and_too_few_say_so():
    assert calibrate([])["fitted"] is False and "No judgments" in calibrate([])["summary"]
    few = [judged(dict.fromkeys(PARTS, 0.9), True), judged(dict.fromkeys(PARTS, 0.2), False)]
    report = calibrate(few)
    assert report["fitted"] is False and report["before"]["agreement"] == 1.0 and "fewer than" in report["summary"]
    alike = [judged(dict.fromkeys(PARTS, x), True) for x in (0.2, 0.5, 0.8, 0.9, 0.95)]
    assert "every judgment says the same" in calibrate(alike)["summary"]


def test_a_stricter_person_moves_the_threshold_up():
    # People call a sandwich valid only from V 0.8 on; V's 0.7 lets 0.7-0.8 through.
    rows = [judged(dict.fromkeys(PARTS, x), x >= 0.8) for x in np.linspace(0.5, 1.0, 21)]
    report = calibrate(rows)
    wrong_before = sum(1 for r in rows if (r.auto_v >= ACCEPT) != r.valid)
    assert wrong_before > 0 and report["before"]["agreement"] == round(1 - wrong_before / len(rows), 4)
    assert report["threshold_only"]["agreement"] == 1.0 and 0.775 <= report["threshold_only"]["threshold"] <= 0.8
    assert report["after"]["agreement"] == 1.0 and report["fitted"]
    assert report["held_out_agreement"] is not None and report["held_out_agreement"] >= 0.9
    assert "agrees with" in report["summary"]


def test_weights_follow_the_part_people_care_about():
    # People judge by containment alone; V's weights mix the four parts, so no threshold on V
    # separates the judgments, while weights that stress containment do.
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(60):
        p = {k: float(x) for k, x in zip(PARTS, rng.uniform(0, 1, 4))}
        rows.append(judged(p, p["containment"] >= 0.6))
    report = calibrate(rows)
    assert report["threshold_only"]["agreement"] < 0.9
    after = report["after"]
    assert after["agreement"] >= 0.95 > report["threshold_only"]["agreement"]
    assert after["weights"]["containment"] == max(after["weights"].values())
    assert abs(sum(after["weights"].values()) - 1.0) < 1e-6
    assert report["after"]["kappa"] > report["before"]["kappa"]


def test_best_threshold_and_fit_weights_directly():
    v = np.array([0.1, 0.2, 0.6, 0.9])
    assert best_threshold(v, np.array([False, False, True, True])) == (0.4, 4)
    parts = np.array([[1, 0, 0, 0], [0, 1, 0, 0]] * 4, dtype=float)
    truth = np.array([True, False] * 4)
    w, t = fit_weights(parts, truth)
    assert ((parts @ w >= t) == truth).all() and w[0] > w[1]


def test_kappa():
    a = np.array([True, False, True, False])
    assert kappa(a, a) == 1.0 and kappa(a, ~a) == -1.0
    assert kappa(np.ones(4, bool), np.ones(4, bool)) is None


def test_quality_ranks_with_v():
    rows = [judged(dict.fromkeys(PARTS, x), x >= 0.7, quality=int(1 + 4 * x)) for x in np.linspace(0.3, 1, 8)]
    assert calibrate(rows)["v_quality_spearman"] > 0.9
