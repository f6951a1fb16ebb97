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

from wander.core.domain.sandwich import ACCEPT, WEIGHTS

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
    the cuts tried lie midway between neighbouring distinct values (and beyond both ends).
    One sort and two running sums: a cut below the k lowest values agrees with the "no"s among
    them and the "yes"s above."""
    n = len(v)
    if n == 0:
        return round(prefer, 4), 0
    order = np.argsort(v, kind="stable")
    vs, ts = np.round(v[order], 6), truth[order].astype(np.int64)
    below_no = np.concatenate([[0], np.cumsum(1 - ts)])  # k = 0..n values below the cut
    above_yes = int(ts.sum()) - np.concatenate([[0], np.cumsum(ts)])
    agree = below_no + above_yes
    k = np.arange(n + 1)
    inner = k[1:-1][vs[1:] > vs[:-1]] if n > 1 else np.array([], dtype=np.int64)
    ks = np.concatenate([[0], inner, [n]])
    cuts = np.concatenate([[vs[0] - 0.01], (vs[inner - 1] + vs[inner]) / 2, [vs[-1] + 0.01]])
    scores = agree[ks]
    best = scores.max()
    ties = cuts[scores == best]
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
    current weights, then the threshold nearest ACCEPT): best_threshold for every weighting
    of the grid at once, one column each."""
    current = np.array([WEIGHTS[p] for p in PARTS])
    grid = _grid()
    v = np.round(parts @ grid.T, 6)  # one column per weighting
    order = np.argsort(v, axis=0, kind="stable")
    vs = np.take_along_axis(v, order, axis=0)
    ts = truth[order].astype(np.int64)
    zero = np.zeros((1, len(grid)), dtype=np.int64)
    agree = np.vstack([zero, np.cumsum(1 - ts, axis=0)]) + (int(truth.sum()) - np.vstack([zero, np.cumsum(ts, axis=0)]))
    cuts = np.vstack([vs[:1] - 0.01, (vs[:-1] + vs[1:]) / 2, vs[-1:] + 0.01])
    edge = np.ones((1, len(grid)), dtype=bool)
    agree = np.where(np.vstack([edge, vs[1:] > vs[:-1], edge]), agree, -1)
    top = agree.max()
    best: tuple[float, float, int, float] | None = None
    for g in np.flatnonzero(agree.max(axis=0) == top):
        ties = cuts[agree[:, g] == top, g]
        t = float(ties[np.argmin(np.abs(ties - ACCEPT))])
        key = (float(np.abs(grid[g] - current).sum()), abs(t - ACCEPT), int(g), t)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return grid[best[2]], round(best[3], 4)


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
