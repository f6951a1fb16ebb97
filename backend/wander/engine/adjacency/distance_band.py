"""Distance-band sampling: concepts at cosine distance 0.3-0.7 from the current locus, over
the knowledge base, the wander's earlier loci and its compost, scored in one vectorised pass."""

from __future__ import annotations

import numpy as np

from wander.domain import scoring
from wander.domain.geometry import BAND_HIGH, BAND_LOW
from wander.domain.models import Candidate, Scores
from wander.engine.adjacency.common import kb_candidates
from wander.engine.scope import passes_scope
from wander.engine.walk import Walk

NAME = "distance_band"
# Bands tried in order when the one before yields nothing in scope; the first is 000's.
BANDS = ((BAND_LOW, BAND_HIGH), (0.2, 0.8), (0.0, 1.2))


def distance_band(walk: Walk, limit: int = 24) -> list[Candidate]:
    for low, high in BANDS:
        found = (_knowledge_candidates(walk, low, high, limit) + _loci_candidates(walk, low, high)
                 + _compost_candidates(walk, low, high))  # fmt: skip
        if found:
            return found
    return []


def _knowledge_candidates(walk: Walk, low: float, high: float, limit: int) -> list[Candidate]:
    kb = walk.knowledge
    dist = 1.0 - kb.similarities(walk.current.embedding)
    mask = (dist >= low) & (dist <= high) & walk.scope_mask
    visited = walk.visited_kb_indices()
    if visited:
        mask[visited] = False  # those come back as loci, with their visit counts
    idx = np.flatnonzero(mask)
    reasons = [f"cosine distance {dist[i]:.2f} from '{walk.current.concept}' (band {low:.1f}-{high:.1f})"
               for i in idx]  # fmt: skip
    return kb_candidates(walk, idx, NAME, reasons, limit)


def _loci_candidates(walk: Walk, low: float, high: float) -> list[Candidate]:
    current = walk.current
    seen = walk.loci_matrix
    if len(seen) < 2:
        return []
    dist = 1.0 - seen @ np.asarray(current.embedding, dtype=np.float32)
    pull = seen @ walk.pull_vector
    seed_sims = seen @ np.asarray(walk.session.seed_embedding, dtype=np.float32)
    out = []
    for i, locus in enumerate(walk.loci):
        if locus.id == current.id or not (low <= dist[i] <= high):
            continue
        if not passes_scope(locus.domains, locus.embedding, walk.session, walk.fence):
            continue
        crosses = not set(locus.domains) & set(current.domains)
        interest = float(scoring.interestingness(dist[i], pull[i], crosses))
        bridge = float(scoring.bridge_potential(float(crosses), len(locus.domains)))
        uncert = float(scoring.uncertainty(locus.visit_count, 1.0 - seed_sims[i]))
        novelty = 0.0  # already part of the wander
        comp = float(scoring.composite(interest, novelty, bridge, uncert))
        out.append(Candidate(
            concept=locus.concept, embedding=locus.embedding, domains=list(locus.domains), strategy=NAME,
            reason=f"earlier locus at cosine distance {dist[i]:.2f}, visited {locus.visit_count}x",
            distance=float(dist[i]), kb_key=locus.kb_key, locus_id=locus.id,
            abstraction_level=locus.abstraction_level, scores=Scores(interest, novelty, bridge, uncert, comp),
        ))  # fmt: skip
    return out


def _compost_candidates(walk: Walk, low: float, high: float) -> list[Candidate]:
    """Decayed warm memory is gone from the working set but still reachable by distance."""
    compost = walk.compost
    if not compost:
        return []
    matrix = np.stack([c.embedding for c in compost])
    dist = 1.0 - matrix @ np.asarray(walk.current.embedding, dtype=np.float32)
    seen = walk.loci_matrix
    out = []
    for i, item in enumerate(compost):
        if not (low <= dist[i] <= high) or item.text in walk.concepts_seen:
            continue
        if not passes_scope(item.domains, item.embedding, walk.session, walk.fence):
            continue
        pull = float(item.embedding @ walk.pull_vector)
        novelty = float(scoring.novelty(float((seen @ item.embedding).max()) if len(seen) else 0.0))
        interest = float(scoring.interestingness(dist[i], pull, False))
        uncert = float(scoring.uncertainty(0, 1.0 - float(item.embedding @ walk.session.seed_embedding)))
        comp = float(scoring.composite(interest, novelty, 0.0, uncert))
        out.append(Candidate(
            concept=item.text, embedding=item.embedding, domains=list(item.domains), strategy=NAME,
            reason=f"compost ({item.kind}) at cosine distance {dist[i]:.2f}", distance=float(dist[i]),
            scores=Scores(interest, novelty, 0.0, uncert, comp),
        ))  # fmt: skip
    return out
