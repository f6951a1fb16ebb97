"""Distance-band sampling: concepts at cosine distance 0.3-0.7 from the current locus,
over the knowledge base and the wander's earlier loci, scored in one vectorised pass."""

from __future__ import annotations

import numpy as np

from wander.domain import scoring
from wander.domain.geometry import BAND_HIGH, BAND_LOW
from wander.domain.models import Candidate, Scores
from wander.engine.scope import passes_scope
from wander.engine.walk import Walk

NAME = "distance_band"
# Bands tried in order when the one before yields nothing in scope; the first is 000's.
BANDS = ((BAND_LOW, BAND_HIGH), (0.2, 0.8), (0.0, 1.2))


def distance_band(walk: Walk, limit: int = 24) -> list[Candidate]:
    for low, high in BANDS:
        found = _knowledge_candidates(walk, low, high, limit) + _loci_candidates(walk, low, high)
        if found:
            return found
    return []


def _knowledge_candidates(walk: Walk, low: float, high: float, limit: int) -> list[Candidate]:
    kb = walk.knowledge
    current = walk.current
    dist = 1.0 - kb.similarities(current.embedding)
    mask = (dist >= low) & (dist <= high) & walk.scope_mask
    visited = walk.visited_kb_indices()
    if visited:
        mask[visited] = False  # those come back as loci, with their visit counts
    idx = np.flatnonzero(mask)
    if len(idx) == 0:
        return []
    d = dist[idx]
    current_domains = np.array([kb.domain_id(x) for x in current.domains], dtype=np.int32)
    crosses = ~np.isin(kb.primary_domain_ids()[idx], current_domains)
    vectors = kb.vectors(idx)
    seen = walk.loci_matrix
    max_seen = (seen @ vectors.T).max(axis=0) if len(seen) else np.zeros(len(idx))
    interest = scoring.interestingness(d, walk.pull_sims[idx], crosses)
    novelty = scoring.novelty(max_seen)
    bridge = scoring.bridge_potential(crosses.astype(float), kb.domain_counts()[idx])
    uncert = scoring.uncertainty(np.zeros(len(idx)), 1.0 - walk.seed_sims[idx])
    comp = scoring.composite(interest, novelty, bridge, uncert)
    top = np.argsort(-comp, kind="stable")[:limit]
    out = []
    for j in top:
        c = kb.concept(int(idx[j]))
        out.append(
            Candidate(
                concept=c.label,
                embedding=vectors[j],
                domains=list(c.domains),
                strategy=NAME,
                reason=f"cosine distance {d[j]:.2f} from '{current.concept}' (band {low:.1f}-{high:.1f})",
                distance=float(d[j]),
                kb_key=c.key,
                abstraction_level=c.abstraction_level,
                scores=Scores(float(interest[j]), float(novelty[j]), float(bridge[j]), float(uncert[j]), float(comp[j])),
            )
        )
    return out


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
        if not passes_scope(locus.domains, locus.embedding, walk.session):
            continue
        crosses = not set(locus.domains) & set(current.domains)
        interest = float(scoring.interestingness(dist[i], pull[i], crosses))
        bridge = float(scoring.bridge_potential(float(crosses), len(locus.domains)))
        uncert = float(scoring.uncertainty(locus.visit_count, 1.0 - seed_sims[i]))
        novelty = 0.0  # already part of the wander
        comp = float(scoring.composite(interest, novelty, bridge, uncert))
        out.append(
            Candidate(
                concept=locus.concept,
                embedding=locus.embedding,
                domains=list(locus.domains),
                strategy=NAME,
                reason=f"earlier locus at cosine distance {dist[i]:.2f}, visited {locus.visit_count}x",
                distance=float(dist[i]),
                kb_key=locus.kb_key,
                locus_id=locus.id,
                abstraction_level=locus.abstraction_level,
                scores=Scores(interest, novelty, bridge, uncert, comp),
            )
        )
    return out
