"""Cross-domain bridging: concepts whose per-domain neighbourhoods reach several domains
(a concept with close neighbours in two or more other domains is a natural bridge), taken
from the wider neighbourhood of the current locus."""

from __future__ import annotations

import numpy as np

from wander.domain.models import Candidate
from wander.engine.adjacency.common import in_scope, kb_candidates
from wander.engine.walk import Walk

NAME = "bridging"
REACH = 0.5  # a domain is reached when its nearest member is at least this similar
MIN_DOMAINS = 2  # a bridge reaches at least two domains besides its own
BAND = (0.3, 0.8)


def bridging(walk: Walk, limit: int = 8) -> list[Candidate]:
    kb = walk.knowledge
    dist = 1.0 - kb.similarities(walk.current.embedding)
    reach = kb.domain_reach(REACH)
    idx = np.flatnonzero((dist >= BAND[0]) & (dist <= BAND[1]) & (reach >= MIN_DOMAINS))
    idx = in_scope(walk, idx)
    if len(idx) == 0:
        return []
    # Keep the most far-reaching first (naming a bridge's neighbours costs a pass over the
    # corpus each, so only `limit` are named), then let the common scores order them.
    idx = idx[np.argsort(-reach[idx], kind="stable")][:limit]
    reasons = []
    for i in idx:
        spans = kb.domain_neighbours(int(i), REACH)[:3]
        text = ", ".join(f"{d} via '{kb.concept(j).label}' ({s:.2f})" for d, j, s in spans)
        reasons.append(f"reaches {int(reach[i])} other domains: {text}")
    return kb_candidates(walk, idx, NAME, reasons, limit)
