"""Scope checks every candidate must pass (001 layers 1 and 2): allowed and forbidden
domains, drift, and the fence.

Drift is measured from the seed, or from the attractor where that is nearer: the attractor
is where the person asked the walk to head, so its neighbourhood is in scope as much as
the seed's (measured from the seed alone, 'tide pools' -> 'how software tests should work'
kept 440 concepts, none nearer the attractor than cosine 0.17: the walk could not head
there at all)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.core.domain.geometry import cosine_distance
from wander.core.domain.models import FenceAnchor, Session
from wander.core.engine import fence as fences


def domains_allowed(domains: list[str] | tuple[str, ...], session: Session) -> bool:
    if any(d in session.forbidden_domains for d in domains):
        return False
    if session.allowed_domains and not any(d in session.allowed_domains for d in domains):
        return False
    return True


def drift(embedding: np.ndarray, session: Session) -> float:
    """Cosine distance from the seed, or from the attractor where that is nearer."""
    d = cosine_distance(embedding, session.seed_embedding)
    if session.attractor_embedding is not None:
        d = min(d, cosine_distance(embedding, session.attractor_embedding))
    return d


def drift_sims(seed_sims: np.ndarray, attractor_sims: np.ndarray | None) -> np.ndarray:
    """drift's similarity, 1 - drift, for rows already compared with the seed and attractor."""
    return seed_sims if attractor_sims is None else np.maximum(seed_sims, attractor_sims)


def within_drift(embedding: np.ndarray, session: Session) -> bool:
    return drift(embedding, session) <= session.max_drift_distance


def passes_scope(
    domains: list[str] | tuple[str, ...],
    embedding: np.ndarray,
    session: Session,
    fence: Sequence[FenceAnchor] = (),
) -> bool:
    return (
        domains_allowed(domains, session)
        and within_drift(embedding, session)
        and (not fence or fences.inside(fence, embedding))
    )
