"""Wheeler CA kernel (seed 002): seeds, the batched 3-state CA, rotation retry, bricks,
temperature, chunked Pearson-recall memory, pictures and the engine's signal seam.

Exports resolve lazily, so ``import wander.adapters.ca.temperature`` stays free of NumPy.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    # kernel
    "CONVERGED": "kernel",
    "OSCILLATING": "kernel",
    "CHAOTIC": "kernel",
    "Evolution": "kernel",
    "ca_step": "kernel",
    "evolve": "kernel",
    "evolve_batch": "kernel",
    "evolve_reference": "kernel",
    "detect_oscillation": "kernel",
    # seeds
    "hash_frame": "seed",
    "embedding_frame": "seed",
    "seed_frame": "seed",
    # rotation
    "evolve_with_rotation": "rotation",
    "RotationStats": "rotation",
    # temperature
    "temperature": "temperature",
    "tier": "temperature",
    # bricks
    "Brick": "bricks",
    "first_differing_tick": "bricks",
    "FAILED_ALL_ROTATIONS": "rotation",
    # memory
    "WheelerMemory": "wheeler_memory",
    "RecallHit": "memory_files",
    "MemoryEntry": "memory_files",
    # pictures
    "attractor_png": "image",
    "brick_gif": "image",
    "brick_strip": "image",
    # engine seam
    "CASignal": "signals",
    "ca_uncertainty_adjustment": "signals",
    "text_signal": "signals",
    "text_signals": "signals",
    "attractor_png_for_text": "signals",
    # backend
    "get_xp": "xp",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'wander.adapters.ca' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
