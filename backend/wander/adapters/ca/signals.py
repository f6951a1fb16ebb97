"""The seam Wander's engine uses: the CA outcome of a text as an epistemic signal.

- CONVERGED: the text settles; the locus's uncertainty goes down (-0.10);
- OSCILLATING: the CA cannot decide; uncertainty goes up (+0.15);
- CHAOTIC: no pattern in the budget; uncertainty up (+0.20) and the text is flagged as
  needing rephrasing.

The outcome is the one after rotation retry (0/90/180/270 degrees, first CONVERGED wins,
otherwise the best failure and the retry's state FAILED_ALL_ROTATIONS), as a store would
see it. Batches of texts evolve together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from .image import DIVERGING, attractor_png
from .kernel import CHAOTIC, CONVERGED, OSCILLATING
from .rotation import evolve_with_rotation
from .seed import embedding_frame, hash_frame

ADJUSTMENTS = {CONVERGED: -0.10, OSCILLATING: 0.15, CHAOTIC: 0.20}


@dataclass(frozen=True)
class CASignal:
    state: str  # CONVERGED | OSCILLATING | CHAOTIC
    ticks: int
    adjustment: float  # add to the locus's uncertainty (then clamp to [0, 1])
    needs_rephrasing: bool
    rotation: int = 0  # angle whose outcome this is
    attempts: int = 1
    outcome: str = CONVERGED  # the rotation retry's: CONVERGED | FAILED_ALL_ROTATIONS


def ca_uncertainty_adjustment(state: str) -> float:
    """Change to a locus's uncertainty for a CA outcome: -0.10, +0.15 or +0.20."""
    try:
        return ADJUSTMENTS[state]
    except KeyError:
        raise ValueError(f"state: must be one of {', '.join(ADJUSTMENTS)}, got {state!r}") from None


def needs_rephrasing(state: str) -> bool:
    ca_uncertainty_adjustment(state)  # validates
    return state == CHAOTIC


def _check(text: Any, field_name: str = "text") -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{field_name}: must be a non-empty string")
    return text


def text_signals(
    texts: Sequence[str],
    *,
    embeddings: Sequence[Any] | None = None,
    xp: ModuleType | None = None,
) -> list[CASignal]:
    """CA signals of many texts, evolved as one batch (embedding mode when vectors given)."""
    for i, t in enumerate(texts):
        _check(t, f"texts[{i}]")
    if not texts:
        return []
    if embeddings is not None:
        if len(embeddings) != len(texts):
            raise ValueError(f"embeddings: {len(embeddings)} vectors for {len(texts)} texts")
        seeds = np.stack([embedding_frame(v) for v in embeddings])
    else:
        seeds = np.stack([hash_frame(t) for t in texts])
    out = []
    for r in evolve_with_rotation(seeds, xp=xp):
        out.append(
            CASignal(
                state=r.state,
                ticks=r.ticks,
                adjustment=ca_uncertainty_adjustment(r.state),
                needs_rephrasing=r.state == CHAOTIC,
                rotation=r.angle,
                attempts=r.attempts,
                outcome=r.outcome,
            )
        )
    return out


def text_signal(text: str, *, embedding: Any | None = None, xp: ModuleType | None = None) -> CASignal:
    """CA signal of one text: state, ticks, uncertainty adjustment, needs_rephrasing."""
    _check(text)
    embs = None if embedding is None else [embedding]
    return text_signals([text], embeddings=embs, xp=xp)[0]


def attractor_for_text(text: str, *, embedding: Any | None = None, xp: ModuleType | None = None) -> np.ndarray:
    """The 64x64 attractor of a text (after rotation retry)."""
    _check(text)
    seed = embedding_frame(embedding) if embedding is not None else hash_frame(text)
    return evolve_with_rotation(seed, xp=xp)[0].attractor


def attractor_png_for_text(
    text: str,
    *,
    scale: int = 4,
    colormap: str = DIVERGING,
    embedding: Any | None = None,
    xp: ModuleType | None = None,
) -> bytes:
    """PNG bytes of a text's attractor: a crystal's visual fingerprint."""
    return attractor_png(attractor_for_text(text, embedding=embedding, xp=xp), scale=scale, colormap=colormap)


__all__ = [
    "ADJUSTMENTS",
    "CASignal",
    "attractor_for_text",
    "attractor_png_for_text",
    "ca_uncertainty_adjustment",
    "needs_rephrasing",
    "text_signal",
    "text_signals",
]
