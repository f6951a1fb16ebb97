"""The embedder runs all-MiniLM-L6-v2 on torch alone (wander.adapters.embed.bert); its vectors must be those
sentence-transformers gives for the same texts (the corpus in existing databases was
embedded that way), up to float rounding (padding within a batch moves the last bit).
The reference vectors are stored (tests/data, written by scripts/minilm_reference.py with
sentence-transformers): loading sentence-transformers here cost ~10 s of CPU per run."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from wander.adapters.embed.minilm import MiniLMEmbedder

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "minilm_reference.npz"


def test_vectors_equal_sentence_transformers():
    ref = np.load(REFERENCE)
    for texts, theirs in ((ref["texts"], ref["vectors"]), (ref["long"], ref["long_vectors"])):
        batch = [str(t) for t in texts]
        ours = MiniLMEmbedder().embed(batch)
        assert ours.shape == (len(batch), 384) and ours.dtype == np.float32
        assert float(np.abs(ours - theirs).max()) < 1e-6
        assert np.argmax(ours @ ours.T, axis=1).tolist() == np.argmax(theirs @ theirs.T, axis=1).tolist()
    # The stored texts: corpus glosses, empty, tiny, unicode, and one over 256 tokens.
    assert len(ref["texts"]) > 90 and "" in ref["texts"].tolist() and len(str(ref["long"][0]).split()) > 256


def test_embedding_imports_neither_transformers_nor_sentence_transformers():
    """Their imports cost seconds of CPU in every process that embeds (each CLI walk, worker
    and server start); the BERT pass needs only torch, safetensors and tokenizers."""
    code = (
        "import sys\n"
        "from wander.adapters.embed.minilm import MiniLMEmbedder\n"
        "assert MiniLMEmbedder().embed(['tide pool']).shape == (1, 384)\n"
        "print(sorted(m for m in ('transformers', 'sentence_transformers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
