"""The shipped corpus as an in-memory Knowledge index for benchmarks, without Postgres.

The embeddings are MiniLM's over each concept's embed text (what `ensure_corpus` stores):
the vectors shipped with Wander, checked against the model on a sample
(wander.adapters.kb.corpus_embedding); only when they do not fit, the machine's corpus vector
cache (wander.adapters.kb.vector_cache), embedded there once."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from wander.adapters.kb import corpus
from wander.adapters.kb.corpus_embedding import corpus_matrix
from wander.adapters.kb.index import KnowledgeIndex
from wander.bootstrap.settings import load_settings
from wander.core.engine.ports import KnowledgeConcept


def load_index(embedder=None) -> KnowledgeIndex:
    concepts = corpus.load_corpus()
    if embedder is None:
        from wander.adapters.embed.minilm import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    texts = [c.embed_text for c in concepts]
    folder = load_settings().vector_cache_dir or Path(tempfile.gettempdir()) / "wander-bench-vectors"
    matrix = corpus_matrix(texts, embedder.name, embedder.embed, folder)
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
