"""The corpus's vectors, as cheaply as they can be had: the shipped ones (kb.shipped_vectors)
when they cover every text and the model agrees with a sample of them; otherwise the
machine's cache (kb.vector_cache), filled once from the shipped rows that still fit plus
the model's vectors for the rest (all of them when the shipped file is missing, of another
embedder, or disagrees with the model)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from wander.adapters.kb import shipped_vectors
from wander.adapters.kb.vector_cache import corpus_vectors

log = logging.getLogger(__name__)
START = logging.getLogger("wander.start")  # a start's phases (wander.bootstrap.warmup), shown by `wander serve`

Embed = Callable[[list[str]], np.ndarray]


def corpus_matrix(
    texts: Sequence[str],
    model: str,
    embed: Embed,
    cache: Path | None,
    *,
    embed_many: Embed | None = None,
    shipped_path: Path | None = None,
) -> np.ndarray:
    """One float32 row per text, from MODEL. EMBED embeds a few texts (the sample check);
    EMBED_MANY, many (with a progress bar; EMBED when None). CACHE: the machine's vector
    cache folder (None: none)."""
    embed_many = embed_many or embed
    texts = list(texts)
    shipped = shipped_vectors.load(model, shipped_path)
    matrix: np.ndarray | None = None
    found: np.ndarray | None = None
    if shipped is not None:
        matrix, found = shipped.lookup(texts)
        if not shipped.agrees(texts, matrix, found, embed):
            matrix = found = None
        elif found.all():
            log.debug("corpus vectors: the %d shipped with Wander (sample agrees with %s)", len(texts), model)
            return matrix

    def fill() -> np.ndarray:
        if matrix is None or found is None:
            return embed_many(texts)
        missing = np.flatnonzero(~found)
        START.info("corpus vectors: %d shipped, %d embedded now", len(texts) - missing.size, missing.size)
        matrix[missing] = embed_many([texts[i] for i in missing])
        return matrix

    key = f"{shipped_vectors.texts_fingerprint(texts)}:{model}"
    return corpus_vectors(cache, key, len(texts), fill)
