from __future__ import annotations

import hashlib

import numpy as np
import pytest

from wander.adapters.ca.seed import embedding_frame, hash_frame, hash_frames, projection_matrix, seed_frame, text_seed


def test_hash_frame_follows_the_recipe():
    text = "fix the python debug error"
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    assert text_seed(text) == seed
    expected = np.random.Generator(np.random.PCG64(seed)).uniform(-1, 1, (64, 64)).astype(np.float32)
    frame = hash_frame(text)
    assert frame.dtype == np.float32 and frame.shape == (64, 64)
    assert np.array_equal(frame, expected)
    assert frame.min() >= -1 and frame.max() <= 1


def test_hash_frames_are_deterministic_and_distinct():
    a = hash_frames(["alpha", "beta", "alpha"])
    assert np.array_equal(a[0], a[2])
    assert not np.array_equal(a[0], a[1])
    assert np.array_equal(seed_frame("alpha"), a[0])


def test_embedding_frame_is_fixed_bounded_and_smooth():
    rng = np.random.default_rng(0)
    v = rng.standard_normal(384).astype(np.float32)
    f = embedding_frame(v)
    assert f.shape == (64, 64) and f.dtype == np.float32
    assert np.array_equal(f, embedding_frame(v.copy()))
    assert f.min() > -1 and f.max() < 1
    near = embedding_frame(v + 0.05 * rng.standard_normal(384).astype(np.float32))
    far = embedding_frame(rng.standard_normal(384).astype(np.float32))
    r_near = np.corrcoef(f.ravel(), near.ravel())[0, 1]
    r_far = np.corrcoef(f.ravel(), far.ravel())[0, 1]
    assert r_near > 0.95 and abs(r_far) < 0.2
    assert projection_matrix(384).shape == (384, 4096)


@pytest.mark.parametrize("bad", [[], [float("nan")] * 4])
def test_embedding_frame_rejects_bad_vectors(bad):
    with pytest.raises(ValueError, match="embedding"):
        embedding_frame(bad)
