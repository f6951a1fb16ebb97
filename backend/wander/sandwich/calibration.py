"""8.2's calibration: how well V's verdict (V >= ACCEPT: a sandwich) agrees with people's
judgments (valid yes/no), and V's threshold and weights fitted to those judgments.

Two fits, both searched exhaustively (small, deterministic, explainable):
- threshold: the cut on V (the weights unchanged) that agrees with most judgments;
- weights: the four weights on a grid of the simplex (steps of STEP, summing to 1), each with
  its best threshold; ties go to the weights nearest the current ones, then the threshold
  nearest ACCEPT. Agreement is given on the judgments fitted to and, from HELD_OUT_MIN
  judgments on, out of fold (FOLDS-fold), since a fit to few judgments flatters itself.
Cohen's kappa beside each agreement says how much of it is more than chance. Pure numpy."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from wander.domain.sandwich import ACCEPT, WEIGHTS

PARTS = tuple(WEIGHTS)  # bread_compat, containment, non_triviality, novelty
STEP = 0.05
MIN_JUDGMENTS = 5
HELD_OUT_MIN = 10
FOLDS = 5


@dataclass(frozen=True)
class Judged:
    """One judgment as the calibration needs it: the person's verdict and the automatic V and
    parts the sandwich had when judged."""

    valid: bool
    auto_v: float
    parts: dict[str, float]
    quality: int = 3


def kappa(pred: np.ndarray, truth: np.ndarray) -> float | None:
    """Cohen's kappa of two yes/no labelings; None when chance agreement is total."""
    po = float((pred == truth).mean())
    p1, t1 = float(pred.mean()), float(truth.mean())
    pe = p1 * t1 + (1 - p1) * (1 - t1)
    return None if pe >= 1 else round((po - pe) / (1 - pe), 4)


def _score(v: np.ndarray, truth: np.ndarray, threshold: float) -> dict[str, Any]:
    pred = v >= threshold
    return {"agreement": round(float((pred == truth).mean()), 4), "kappa": kappa(pred, truth)}


def best_threshold(v: np.ndarray, truth: np.ndarray, prefer: float = ACCEPT) -> tuple[float, int]:
    """(threshold, judgments agreed with) maximizing agreement of v >= threshold with truth;
    the cuts tried lie midway between neighbouring values (and beyond both ends)."""
    u = np.unique(np.round(v, 6))
    cuts = np.concatenate([[u[0] - 0.01], (u[:-1] + u[1:]) / 2, [u[-1] + 0.01]]) if len(u) else np.array([prefer])
    agree = np.array([int(((v >= c) == truth).sum()) for c in cuts])
    best = agree.max()
    ties = cuts[agree == best]
    c = float(ties[np.argmin(np.abs(ties - prefer))])
    return round(c, 4), int(best)


def _grid() -> np.ndarray:
    steps = int(round(1 / STEP))
    rows = [
        (a, b, c, steps - a - b - c) for a, b, c in itertools.product(range(steps + 1), repeat=3) if a + b + c <= steps
    ]
    return np.array(rows, dtype=np.float64) / steps


def fit_weights(parts: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, float]:
    """(weights, threshold) agreeing with most judgments over the grid (ties: nearest the
    current weights, then the threshold nearest ACCEPT)."""
    current = np.array([WEIGHTS[p] for p in PARTS])
    grid = _grid()
    scored = []
    for w in grid:
        t, agreed = best_threshold(parts @ w, truth)
        scored.append((-agreed, float(np.abs(w - current).sum()), abs(t - ACCEPT), t, w))
    best = min(scored, key=lambda x: x[:3])
    return best[4], best[3]


def _held_out(parts: np.ndarray, truth: np.ndarray) -> float:
    n = len(truth)
    order = np.random.default_rng(0).permutation(n)
    hits = 0
    for f in range(FOLDS):
        test = order[f::FOLDS]
        train = np.setdiff1d(order, test)
        w, t = fit_weights(parts[train], truth[train])
        hits += int(((parts[test] @ w >= t) == truth[test]).sum())
    return round(hits / n, 4)


def _spearman(a: np.ndarray, b: np.ndarray) -> float | None:
    if len(a) < 3 or np.all(a == a[0]) or np.all(b == b[0]):
        return None
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    return round(float(np.corrcoef(ra, rb)[0, 1]), 4)


def calibrate(judged: list[Judged]) -> dict[str, Any]:
    """The calibration report: agreement before (V's current weights and ACCEPT), with the
    threshold refitted, and with weights and threshold refitted; the rank correlation of V
    with the people's quality ratings."""
    n = len(judged)
    current = {"weights": dict(WEIGHTS), "threshold": ACCEPT}
    report: dict[str, Any] = {"n": n, "valid": sum(j.valid for j in judged), "before": current, "fitted": False}
    if n == 0:
        report["summary"] = "No judgments yet: judge sandwiches on the evaluation page first."
        return report
    truth = np.array([j.valid for j in judged], dtype=bool)
    v = np.array([j.auto_v for j in judged], dtype=np.float64)
    parts = np.array([[float(j.parts.get(p, 0.0)) for p in PARTS] for j in judged], dtype=np.float64)
    report["before"] = {**current, **_score(v, truth, ACCEPT)}
    report["v_quality_spearman"] = _spearman(v, np.array([j.quality for j in judged], dtype=float))
    if n < MIN_JUDGMENTS or truth.all() or not truth.any():
        why = f"fewer than {MIN_JUDGMENTS} judgments" if n < MIN_JUDGMENTS else "every judgment says the same"
        report["summary"] = f"Nothing to fit yet ({why}): agreement {report['before']['agreement']:.0%} as V stands."
        return report
    t, _ = best_threshold(v, truth)
    report["threshold_only"] = {"weights": dict(WEIGHTS), "threshold": t, **_score(v, truth, t)}
    w, tw = fit_weights(parts, truth)
    weights = {p: round(float(x), 4) for p, x in zip(PARTS, w)}
    report["after"] = {"weights": weights, "threshold": tw, **_score(parts @ w, truth, tw)}
    report["held_out_agreement"] = _held_out(parts, truth) if n >= HELD_OUT_MIN else None
    report["fitted"] = True
    report["summary"] = (
        f"{n} judgments: V agrees with {report['before']['agreement']:.0%} as it stands, "
        f"{report['threshold_only']['agreement']:.0%} with the threshold at {t}, "
        f"{report['after']['agreement']:.0%} with the weights refitted"
        + (
            f" ({report['held_out_agreement']:.0%} out of fold)."
            if report["held_out_agreement"] is not None
            else " (too few judgments for an out-of-fold figure)."
        )
    )
    return report
