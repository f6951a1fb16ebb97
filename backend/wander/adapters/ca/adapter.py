"""The engine's CAKernel port on the Wheeler kernel (embedding mode when a vector is given)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from wander.adapters.ca.signals import CASignal, text_signal

SIGNALS_KEPT = 2048  # ~3 MB of keys (a 384-d float32 vector is 1.5 KB)


class WheelerSignals:
    """A signal is a pure function of the vector (of the text when there is none), and walks
    come back to the same concepts, as do the wanders over one corpus: the last SIGNALS_KEPT
    outcomes are kept, so a revisit does not evolve the CA again (~2 ms of a step)."""

    def __init__(self, kept: int = SIGNALS_KEPT) -> None:
        self._signal = lru_cache(maxsize=kept)(_evolved)

    def signal(self, text: str, embedding: np.ndarray | None = None) -> CASignal:
        if embedding is None:
            return self._signal(text, None, (), b"")
        v = np.ascontiguousarray(embedding)  # its own dtype: the frame is computed as before
        return self._signal(text, v.dtype.str, v.shape, v.tobytes())


def _evolved(text: str, dtype: str | None, shape: tuple[int, ...], data: bytes) -> CASignal:
    embedding = None if dtype is None else np.frombuffer(data, dtype=dtype).reshape(shape)
    return text_signal(text, embedding=embedding)
