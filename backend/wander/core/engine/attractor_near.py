"""Where a wander's attractor lies among its loci, read-only: the loci nearest it in meaning.
The attractor is a direction (001: a vague sense of what is sought), not a place the walk
has been: the map marks it toward these."""

from __future__ import annotations

import numpy as np

from wander.core.domain.geometry import normalize
from wander.core.domain.models import Locus, Session

NEAREST = 12  # loci the map places the attractor's mark toward


def nearest_to_attractor(session: Session, loci: list[Locus], k: int = NEAREST) -> list[tuple[str, float]]:
    """(locus id, cosine similarity to the attractor) for the k loci nearest it, nearest
    first; none without an attractor."""
    if session.attractor_embedding is None or not loci:
        return []
    m = normalize(np.stack([np.asarray(lo.embedding, dtype=np.float32) for lo in loci]))
    sims = m @ normalize(np.asarray(session.attractor_embedding, dtype=np.float32))
    top = np.argsort(-sims, kind="stable")[:k]
    return [(loci[i].id, round(float(sims[i]), 4)) for i in top]


def seed_similarity(session: Session) -> float | None:
    """The seed's similarity to the attractor (None without one)."""
    if session.attractor_embedding is None:
        return None
    a = normalize(np.asarray(session.attractor_embedding, dtype=np.float32))
    return round(float(normalize(np.asarray(session.seed_embedding, dtype=np.float32)) @ a), 4)
