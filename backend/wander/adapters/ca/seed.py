"""Text -> 64x64 seed frame, by SHA-256 (exact) or by embedding (semantic).

SHA-256 mode (the reference's): the first 8 bytes of SHA-256(UTF-8 text), big-endian,
seed NumPy's PCG64; the frame is 64x64 float32 uniform in [-1, 1).

Embedding mode: a vector (384-d for MiniLM; any dimension works) goes through a fixed
Gaussian random projection (seeded with PROJECTION_SEED, one matrix per input dimension,
cached) to 4096 cells. The 4096 projected values are standardized (zero mean, unit
standard deviation over the frame) and passed through tanh, which maps them smoothly into
(-1, 1) while keeping their order; nearby embeddings give nearby frames.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

FRAME_SIZE = 64
FRAME_SHAPE = (FRAME_SIZE, FRAME_SIZE)
N_CELLS = FRAME_SIZE * FRAME_SIZE
PROJECTION_SEED = 0x57A4DE12  # fixed: changing it changes every embedding-mode frame


def text_seed(text: str) -> int:
    """The 64-bit PCG64 seed of ``text``: first 8 bytes of SHA-256, big-endian."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def text_key(text: str, length: int = 16) -> str:
    """Stable hex id of a text (prefix of its SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def hash_frame(text: str) -> np.ndarray:
    """64x64 float32 seed frame, uniform in [-1, 1), determined by SHA-256 of ``text``."""
    rng = np.random.Generator(np.random.PCG64(text_seed(text)))
    return rng.uniform(-1.0, 1.0, size=FRAME_SHAPE).astype(np.float32)


def hash_frames(texts: list[str]) -> np.ndarray:
    """(B, 64, 64) float32 stack of :func:`hash_frame` for each text."""
    out = np.empty((len(texts), *FRAME_SHAPE), dtype=np.float32)
    for i, t in enumerate(texts):
        out[i] = hash_frame(t)
    return out


@lru_cache(maxsize=4)
def projection_matrix(dim: int) -> np.ndarray:
    """Fixed (dim, 4096) float32 Gaussian projection, N(0, 1/dim) entries."""
    if dim <= 0:
        raise ValueError(f"embedding: dimension must be positive, got {dim}")
    rng = np.random.Generator(np.random.PCG64(PROJECTION_SEED + dim))
    m = rng.standard_normal((dim, N_CELLS)).astype(np.float32)
    m /= np.float32(np.sqrt(dim))
    m.setflags(write=False)
    return m


def embedding_frame(vector: np.ndarray | list[float]) -> np.ndarray:
    """64x64 float32 frame in (-1, 1) from an embedding vector (see module docstring)."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    if v.size == 0:
        raise ValueError("embedding: vector is empty")
    if not np.all(np.isfinite(v)):
        raise ValueError("embedding: vector has non-finite values")
    z = v @ projection_matrix(v.size)
    std = float(z.std())
    if std == 0.0:
        return np.zeros(FRAME_SHAPE, dtype=np.float32)
    z = (z - z.mean()) / np.float32(std)
    return np.tanh(z).astype(np.float32).reshape(FRAME_SHAPE)


def seed_frame(text: str, embedding: np.ndarray | list[float] | None = None) -> np.ndarray:
    """Seed frame for ``text``: embedding mode when a vector is given, SHA-256 mode otherwise."""
    if embedding is not None:
        return embedding_frame(embedding)
    return hash_frame(text)
