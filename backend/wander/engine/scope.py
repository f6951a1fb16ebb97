"""Scope checks every candidate must pass (001 layers 1 and 2): allowed and forbidden
domains, drift from the seed, and the fence."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.domain.geometry import cosine_distance
from wander.domain.models import FenceAnchor, Session
from wander.engine import fence as fences


def domains_allowed(domains: list[str] | tuple[str, ...], session: Session) -> bool:
    if any(d in session.forbidden_domains for d in domains):
        return False
    if session.allowed_domains and not any(d in session.allowed_domains for d in domains):
        return False
    return True


def within_drift(embedding: np.ndarray, session: Session) -> bool:
    return cosine_distance(embedding, session.seed_embedding) <= session.max_drift_distance


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
