#!/usr/bin/env python3
"""Write the corpus's vectors beside it (backend/wander/adapters/kb/data/concepts.vectors.npz), the
second step of `make kb`: every concept's embed text through the shipped MiniLM model,
kept as float16 (wander.adapters.kb.shipped_vectors), and the corpus's domain neighbourhoods over
them (wander.adapters.kb.reach_cache). Rows whose text the file already has are
kept; only new or changed texts are embedded (a corpus rebuilt with other fields but the
same texts is left as it is). Prints the file's size and how close float16 stays to the
model's float32 vectors.

    .venv/bin/python scripts/build_vectors.py [--all]   # --all: embed every text again
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from wander.adapters.embed.minilm import MiniLMEmbedder
from wander.adapters.kb import corpus, reach_cache, shipped_vectors
from wander.adapters.kb.index import KnowledgeIndex
from wander.core.engine.ports import KnowledgeConcept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="embed every text again, reusing nothing")
    args = parser.parse_args(argv)

    embedder = MiniLMEmbedder()
    texts = [c.embed_text for c in corpus.load_corpus()]
    path = shipped_vectors.VECTORS_FILE
    old = None if args.all else shipped_vectors.load(embedder.name)
    if old is not None and old.fingerprint == shipped_vectors.texts_fingerprint(texts):
        print(f"{path.name}: up to date ({len(texts)} texts, {embedder.name})")
        write_domain_reach(embedder.name)
        return 0
    matrix = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    found = np.zeros(len(texts), dtype=bool)
    if old is not None:
        matrix, found = old.lookup(texts)
    missing = np.flatnonzero(~found)
    started = time.perf_counter()
    print(f"{path.name}: embedding {missing.size} of {len(texts)} texts with {embedder.name} ...", flush=True)
    if missing.size:
        matrix[missing] = embedder.embed([texts[i] for i in missing])
    shipped_vectors.write(path, texts, matrix, embedder.name)
    check = shipped_vectors.load(embedder.name)
    assert check is not None
    stored, _ = check.lookup(texts)
    cosines = (stored[missing] * matrix[missing]).sum(axis=1) if missing.size else np.ones(1)
    print(
        f"{path.name}: {len(texts)} rows, {path.stat().st_size / 1e6:.1f} MB, "
        f"{time.perf_counter() - started:.0f} s; float16 vs float32 cosine min {cosines.min():.6f}"
    )
    write_domain_reach(embedder.name)
    return 0


def write_domain_reach(model: str) -> None:
    """The corpus's per-domain neighbourhoods over the shipped vectors (what a server computes
    at its first start: wander.adapters.kb.reach_cache), kept beside them; an older table is removed."""
    concepts = corpus.load_corpus()
    shipped = shipped_vectors.load(model)
    assert shipped is not None
    matrix, found = shipped.lookup([c.embed_text for c in concepts])
    assert found.all()
    index = KnowledgeIndex(
        [
            KnowledgeConcept(
                c.key,
                c.label,
                c.gloss,
                tuple(c.domains),
                tuple(c.path),
                tuple(c.opposites),
                "wordnet",
                tuple(c.broader),
            )
            for c in concepts
        ],
        matrix,
    )
    wanted = reach_cache.path_for(reach_cache.SHIPPED, index)
    if wanted.is_file():
        print(f"{wanted.name}: up to date")
        return
    for old in reach_cache.SHIPPED.glob("domain-reach-*.npz"):
        old.unlink()
    index.prepare_domain_reach()
    reach_cache.keep(index, reach_cache.SHIPPED)
    print(f"{wanted.name}: {wanted.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    sys.exit(main())
