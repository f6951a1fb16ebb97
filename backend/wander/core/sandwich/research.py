"""7.2's seventh research query, "can we predict sandwich validity from ingredient embeddings
alone?", answered by a fit: ridge regression from the three ingredients' embeddings (bread
top, filling, bread bottom, concatenated) to V, scored by k-fold cross-validation against
the baseline that predicts the training folds' mean V. Pure numpy."""

from __future__ import annotations

from typing import Any

import numpy as np

MIN_SANDWICHES = 8
FOLDS = 5
ALPHA = 1.0


def _ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    mx, my = x.mean(axis=0), float(y.mean())
    xc = x - mx
    # Dual form: fewer sandwiches than features.
    k = xc @ xc.T
    a = np.linalg.solve(k + alpha * np.eye(len(k)), y - my)
    w = xc.T @ a
    return w, my - float(mx @ w)


def predict_validity(features: np.ndarray, v: np.ndarray, folds: int = FOLDS, alpha: float = ALPHA) -> dict[str, Any]:
    """features: one row per sandwich (its ingredients' embeddings side by side); v: its V.
    {n, folds, mae, baseline_mae, r2, predictable, answer}; r2 is 1 - SSE / SSE of the
    baseline, out of fold (> 0: the embeddings say something of V that the mean does not)."""
    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(v, dtype=np.float64)
    n = len(y)
    if n < MIN_SANDWICHES:
        return {
            "n": n,
            "folds": 0,
            "mae": None,
            "baseline_mae": None,
            "r2": None,
            "predictable": None,
            "answer": f"not enough sandwiches with ingredient embeddings to tell ({n} < {MIN_SANDWICHES})",
        }
    k = min(folds, n)
    order = np.random.default_rng(0).permutation(n)
    pred, base = np.zeros(n), np.zeros(n)
    for f in range(k):
        test = order[f::k]
        train = np.setdiff1d(order, test)
        w, b = _ridge(x[train], y[train], alpha)
        pred[test] = x[test] @ w + b
        base[test] = y[train].mean()
    sse, sse0 = float(((pred - y) ** 2).sum()), float(((base - y) ** 2).sum())
    r2 = 1.0 - sse / sse0 if sse0 > 0 else 0.0
    predictable = r2 > 0.1
    return {
        "n": n,
        "folds": k,
        "mae": round(float(np.abs(pred - y).mean()), 4),
        "baseline_mae": round(float(np.abs(base - y).mean()), 4),
        "r2": round(r2, 4),
        "predictable": predictable,
        "answer": (
            f"yes, in part: the embeddings explain {r2:.0%} of V's variance out of fold"
            if predictable
            else f"no: out of fold the embeddings do no better than the mean V (r2 {r2:.2f})"
        ),
    }
