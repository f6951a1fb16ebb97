"""The shipped corpus as an in-memory Knowledge index for benchmarks, without Postgres.

The embeddings are MiniLM's over each concept's embed text (what `ensure_corpus` stores),
computed once and cached under the temp folder keyed by the corpus fingerprint."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from wander.engine.ports import KnowledgeConcept
from wander.kb import corpus
from wander.kb.index import KnowledgeIndex


def load_index(embedder=None) -> KnowledgeIndex:
    concepts = corpus.load_corpus()
    cache = Path(tempfile.gettempdir()) / f"wander-bench-kb-{corpus.corpus_fingerprint()[:16]}.npy"
    if cache.exists():
        matrix = np.load(cache)
    else:
        if embedder is None:
            from wander.embed.minilm import MiniLMEmbedder

            embedder = MiniLMEmbedder()
        matrix = np.concatenate(
            [embedder.embed([c.embed_text for c in concepts[s : s + 512]]) for s in range(0, len(concepts), 512)]
        ).astype(np.float32)
        np.save(cache, matrix)
    kcs = [
        KnowledgeConcept(
            c.key, c.label, c.gloss, tuple(c.domains), tuple(c.path), tuple(c.opposites), "wordnet", tuple(c.broader)
        )
        for c in concepts
    ]
    return KnowledgeIndex(kcs, matrix)


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    kb = load_index()
    print(f"kb_concepts: {len(kb)} concepts")
    print(f"kb_load_time: {time.perf_counter() - t:.1f} s")
