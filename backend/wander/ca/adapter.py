"""The engine's CAKernel port on the Wheeler kernel (embedding mode when a vector is given)."""

from __future__ import annotations

import numpy as np

from wander.ca.signals import CASignal, text_signal


class WheelerSignals:
    def signal(self, text: str, embedding: np.ndarray | None = None) -> CASignal:
        return text_signal(text, embedding=embedding)
