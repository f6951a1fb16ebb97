"""7.2's "can we predict validity from ingredient embeddings alone?": the fit says yes where V
follows the embeddings and no where it is noise."""

from __future__ import annotations

import numpy as np

from wander.core.sandwich.research import MIN_SANDWICHES, predict_validity


def test_predictable_and_unpredictable_validity():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(60, 12))
    w = rng.normal(size=12)
    v = 0.5 + 0.05 * (x @ w)
    yes = predict_validity(x, v)
    assert yes["predictable"] and yes["r2"] > 0.8 and yes["mae"] < yes["baseline_mae"]
    noise = predict_validity(x, rng.uniform(0.5, 1.0, 60))
    assert noise["predictable"] is False and noise["r2"] <= 0.1 and noise["answer"].startswith("no")


def test_too_few_sandwiches():
    got = predict_validity(np.zeros((MIN_SANDWICHES - 1, 3)), np.zeros(MIN_SANDWICHES - 1))
    assert got["predictable"] is None and "not enough" in got["answer"]
