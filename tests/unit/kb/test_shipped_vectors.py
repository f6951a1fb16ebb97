"""The corpus vectors shipped beside the corpus: compact (float16) yet within 0.999 cosine of
the model's float32 vectors, found by the text that was embedded (not by the corpus file),
checked against the model on a sample, and embedded again only where they do not fit."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.kb import shipped_vectors
from wander.adapters.kb.corpus_embedding import corpus_matrix
from wander.adapters.kb.shipped_vectors import ShippedVectors, load, text_hashes, texts_fingerprint, write

MODEL = "test-model"


def unit_rows(n: int, dim: int = 32, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


class Model:
    """An embedder that knows a vector per text and counts what it was asked."""

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        self.of = dict(zip(texts, vectors, strict=True))
        self.asked: list[int] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.asked.append(len(texts))
        return np.array([self.of[t] for t in texts], dtype=np.float32)


@pytest.fixture
def corpus_texts() -> list[str]:
    return [f"concept {i}: a gloss of it" for i in range(200)]


def test_round_trip_is_compact_and_close_to_float32(tmp_path, corpus_texts):
    vectors = unit_rows(len(corpus_texts), dim=384)
    path = tmp_path / "v.npz"
    write(path, corpus_texts, vectors, MODEL)
    shipped = load(MODEL, path)
    assert shipped is not None and shipped.vectors.dtype == np.float16
    matrix, found = shipped.lookup(corpus_texts)
    assert found.all() and matrix.dtype == np.float32
    cosines = (matrix * vectors).sum(axis=1)
    assert cosines.min() >= 0.9999
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-6)
    assert path.stat().st_size < len(corpus_texts) * 384 * 4 * 0.6  # about half of float32


def test_rows_are_found_by_their_text_in_any_order(tmp_path, corpus_texts):
    vectors = unit_rows(len(corpus_texts))
    path = tmp_path / "v.npz"
    write(path, corpus_texts, vectors, MODEL)
    shipped = load(MODEL, path)
    assert shipped is not None
    changed = corpus_texts[::-1][:150] + ["a concept that is new: never embedded", "concept 3: a new gloss"]
    matrix, found = shipped.lookup(changed)
    assert found[:150].all() and not found[150:].any()
    assert (matrix[150:] == 0).all()
    expected = vectors[::-1][:150]
    assert ((matrix[:150] * expected).sum(axis=1) > 0.9999).all()


def test_another_model_or_a_broken_file_finds_nothing(tmp_path, corpus_texts):
    path = tmp_path / "v.npz"
    assert load(MODEL, path) is None  # missing
    write(path, corpus_texts, unit_rows(len(corpus_texts)), MODEL)
    assert load("other-model", path) is None
    path.write_bytes(b"not an npz")
    assert load(MODEL, path) is None


def test_shipped_vectors_that_agree_are_used_and_only_a_sample_embedded(tmp_path, corpus_texts):
    vectors = unit_rows(len(corpus_texts))
    path = tmp_path / "v.npz"
    write(path, corpus_texts, vectors, MODEL)
    model = Model(corpus_texts, vectors)
    cache = tmp_path / "cache"
    got = corpus_matrix(corpus_texts, MODEL, model, cache, shipped_path=path)
    assert model.asked == [shipped_vectors.SAMPLE_ROWS]
    assert ((got * vectors).sum(axis=1) > 0.9999).all()
    assert not cache.exists() or not list(cache.glob("corpus-*.npy"))  # nothing embedded, nothing cached


def test_vectors_that_disagree_with_the_model_are_embedded_again_once(tmp_path, corpus_texts):
    path = tmp_path / "v.npz"
    write(path, corpus_texts, unit_rows(len(corpus_texts), seed=1), MODEL)  # another model's vectors
    truth = unit_rows(len(corpus_texts), seed=2)
    model = Model(corpus_texts, truth)
    cache = tmp_path / "cache"
    got = corpus_matrix(corpus_texts, MODEL, model, cache, shipped_path=path)
    assert model.asked == [shipped_vectors.SAMPLE_ROWS, len(corpus_texts)]
    assert np.array_equal(got, truth)
    again = Model(corpus_texts, truth)
    assert np.array_equal(corpus_matrix(corpus_texts, MODEL, again, cache, shipped_path=path), truth)
    assert again.asked == [shipped_vectors.SAMPLE_ROWS]  # the machine cache held them


def test_only_texts_the_file_lacks_are_embedded(tmp_path, corpus_texts):
    vectors = unit_rows(len(corpus_texts) + 3)
    path = tmp_path / "v.npz"
    write(path, corpus_texts, vectors[: len(corpus_texts)], MODEL)
    grown = [*corpus_texts, "new one: x", "new two: y", "new three: z"]
    model = Model(grown, vectors)
    got = corpus_matrix(grown, MODEL, model, None, shipped_path=path)
    assert model.asked == [shipped_vectors.SAMPLE_ROWS, 3]
    assert ((got * vectors).sum(axis=1) > 0.9999).all()


def test_no_shipped_file_embeds_everything(tmp_path, corpus_texts):
    vectors = unit_rows(len(corpus_texts))
    model = Model(corpus_texts, vectors)
    got = corpus_matrix(corpus_texts, MODEL, model, None, shipped_path=tmp_path / "none.npz")
    assert model.asked == [len(corpus_texts)] and np.array_equal(got, vectors)


def test_keys_are_the_texts():
    assert texts_fingerprint(["a", "b"]) != texts_fingerprint(["b", "a"])
    assert texts_fingerprint(["ab"]) != texts_fingerprint(["a", "b"])
    hashes = text_hashes(["a", "b", "a"])
    assert hashes.dtype == np.uint64 and hashes[0] == hashes[2] != hashes[1]
    empty = ShippedVectors(MODEL, texts_fingerprint([]), np.zeros(0, np.uint64), np.zeros((0, 4), np.float16))
    assert not empty.agrees([], np.zeros((0, 4), np.float32), np.zeros(0, bool), lambda t: np.zeros((0, 4)))
