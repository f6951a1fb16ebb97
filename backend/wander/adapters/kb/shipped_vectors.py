"""The corpus's vectors shipped beside it (``data/concepts.vectors.npz``, written by
``scripts/build_vectors.py`` in ``make kb``), so a new machine loads the corpus in seconds
instead of embedding 14,000 concepts.

Stored compactly as float16 (10 MB; each row's cosine with the float32 vector it came from
is above 0.99999). Each row is keyed by a hash of the text that was embedded, not by the
corpus file: a corpus rebuilt with other fields but the same texts keeps its vectors, and
a row whose text changed is simply not found (and embedded). The embedder's name is kept
too; another embedder finds nothing. Nothing here loads a model: `agrees` is handed the
embedding function."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

VECTORS_FILE: Path = Path(__file__).resolve().parent / "data" / "concepts.vectors.npz"
FORMAT = "wander-corpus-vectors/1"
SAMPLE_ROWS = 16  # rows embedded again at load to check the file against the model
MIN_AGREEMENT = 0.999  # the lowest cosine a sampled row may have with the model's vector


def text_hashes(texts: Sequence[str]) -> np.ndarray:
    """A 64-bit hash of each text (the key of its row)."""
    return np.array(
        [int.from_bytes(hashlib.blake2b(t.encode("utf-8"), digest_size=8).digest(), "little") for t in texts],
        dtype=np.uint64,
    )


def texts_fingerprint(texts: Sequence[str]) -> str:
    """SHA-256 over the texts in order: what a set of corpus vectors was made from."""
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _unit(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


def write(path: Path, texts: Sequence[str], vectors: np.ndarray, model: str) -> None:
    """Keep VECTORS (one row per text, from MODEL) in PATH, float16."""
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim != 2 or vectors.shape[0] != len(texts):
        raise ValueError(f"vectors: {vectors.shape} rows for {len(texts)} texts")
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(
        tmp,
        format=np.array(FORMAT),
        model=np.array(model),
        fingerprint=np.array(texts_fingerprint(texts)),
        hashes=text_hashes(texts),
        vectors=vectors.astype(np.float16),
    )
    tmp.replace(path)


@dataclass(frozen=True)
class ShippedVectors:
    model: str
    fingerprint: str
    hashes: np.ndarray  # uint64, one per row
    vectors: np.ndarray  # float16 rows

    def lookup(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(matrix, found): float32 unit rows for TEXTS where the file has their text, zero
        rows elsewhere, and which rows were found."""
        matrix = np.zeros((len(texts), self.vectors.shape[1]), dtype=np.float32)
        if texts_fingerprint(texts) == self.fingerprint:  # the same texts in the same order
            matrix[:] = _unit(self.vectors)
            return matrix, np.ones(len(texts), dtype=bool)
        row_of = {int(h): i for i, h in enumerate(self.hashes)}
        rows = np.array([row_of.get(int(h), -1) for h in text_hashes(texts)], dtype=np.int64)
        found = rows >= 0
        if found.any():
            matrix[found] = _unit(self.vectors[rows[found]])
        return matrix, found

    def agrees(
        self, texts: Sequence[str], matrix: np.ndarray, found: np.ndarray, embed: Callable[[list[str]], np.ndarray]
    ) -> bool:
        """Whether the model (EMBED) still makes these vectors: a sample of the found rows,
        spread over the corpus, embedded again, each within MIN_AGREEMENT cosine."""
        rows = np.flatnonzero(found)
        if rows.size == 0:
            return False
        sample = rows[np.linspace(0, rows.size - 1, min(SAMPLE_ROWS, rows.size)).astype(np.int64)]
        fresh = _unit(embed([texts[i] for i in sample]))
        cosines = (fresh * matrix[sample]).sum(axis=1)
        if float(cosines.min()) < MIN_AGREEMENT:
            log.warning(
                "shipped corpus vectors disagree with the %s embedder (lowest cosine %.4f on %d sampled rows): embedding again",
                self.model,
                float(cosines.min()),
                sample.size,
            )
            return False
        return True


def load(model: str, path: Path | None = None) -> ShippedVectors | None:
    """The shipped vectors of MODEL, None when the file is missing, unreadable or of another
    embedder (each said in the log)."""
    p = path or VECTORS_FILE
    if not p.is_file():
        log.info("no shipped corpus vectors at %s", p)
        return None
    try:
        with np.load(p, allow_pickle=False) as data:
            fmt, file_model = str(data["format"]), str(data["model"])
            shipped = ShippedVectors(file_model, str(data["fingerprint"]), data["hashes"], data["vectors"])
    except (OSError, ValueError, KeyError) as exc:
        log.warning("shipped corpus vectors in %s unusable (%s)", p, exc)
        return None
    if fmt != FORMAT or shipped.vectors.ndim != 2 or shipped.hashes.shape != (shipped.vectors.shape[0],):
        log.warning("shipped corpus vectors in %s are not %s", p, FORMAT)
        return None
    if file_model != model:
        log.info("shipped corpus vectors are %s's, not %s's", file_model, model)
        return None
    if not np.isfinite(shipped.vectors).all():
        log.warning("shipped corpus vectors in %s hold non-finite values", p)
        return None
    return shipped
