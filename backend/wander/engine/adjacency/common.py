"""Scoring shared by every strategy: the four component scores of 000, computed in one
vectorised pass over knowledge-base concepts, and the Candidate objects built from them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.domain import scoring
from wander.domain.models import Candidate, Scores
from wander.engine.walk import Walk

FALLBACK_MIN = 8  # outside the field: at least this many of the concepts nearest the attractor


def kb_candidates(
    walk: Walk, idx: np.ndarray, strategy: str, reasons: Sequence[str], limit: int | None = None
) -> list[Candidate]:
    """Candidates for knowledge-base concepts `idx` (already in scope), best composite first."""
    kb = walk.knowledge
    idx = np.asarray(idx, dtype=np.int64)
    if len(idx) == 0:
        return []
    current = walk.current
    vectors = kb.vectors(idx)
    d = 1.0 - vectors @ np.asarray(current.embedding, dtype=np.float32)
    current_domains = np.array([kb.domain_id(x) for x in current.domains], dtype=np.int32)
    crosses = ~np.isin(kb.primary_domain_ids()[idx], current_domains)
    seen = walk.loci_matrix
    # nearness to the loci (candidates x loci, a step's costliest product) only where novelty weighs it
    near = len(seen) and scoring.NOVELTY_SPREAD < 1.0
    max_seen = (seen @ vectors.T).max(axis=0) if near else np.zeros(len(idx))
    mean_seen = vectors @ walk.loci_mean
    interest = scoring.interestingness(d, walk.pull_sims[idx], crosses, walk.pull_baseline, walk.focus)
    novelty = scoring.novelty(max_seen, mean_seen)
    bridge = scoring.bridge_potential(crosses.astype(float), kb.domain_counts()[idx])
    uncert = scoring.uncertainty(np.zeros(len(idx)), 1.0 - walk.seed_sims[idx])
    comp = scoring.composite(interest, novelty, bridge, uncert)
    order = np.argsort(-comp, kind="stable")
    if limit is not None:
        order = order[:limit]
    out = []
    for j in order:
        c = kb.concept(int(idx[j]))
        out.append(
            Candidate(
                concept=c.label,
                embedding=vectors[j],
                domains=list(c.domains),
                strategy=strategy,
                reason=reasons[j],
                distance=float(d[j]),
                kb_key=c.key,
                abstraction_level=c.abstraction_level,
                scores=Scores(
                    float(interest[j]), float(novelty[j]), float(bridge[j]), float(uncert[j]), float(comp[j])
                ),
            )
        )
    return out


def in_field(walk: Walk, idx: np.ndarray, strict: bool = False) -> np.ndarray:
    """The attractor's field at this point of the wander (Walk.pull_floor: open early on,
    its core late). Where the field holds none (the walk has used it up around here), the
    ones nearest the attractor, the way back; all of them without an attractor.

    strict: once the field narrows, the way back holds only concepts nearer the attractor
    than the current locus. The analogy, bridging and tension strategies find a handful of
    concepts each, often none in the core; their nearest-to-the-attractor would still lead
    away from it (photosynthesis -> energy storage late: 'fertilization' at cos 0.03 where
    the core starts at 0.16). The band's draws keep the plain way back, so a step always has
    candidates."""
    floor = walk.pull_floor
    if floor is None or len(idx) == 0:
        return idx
    held = idx[walk.pull_sims[idx] >= floor]
    if len(held):
        return held
    back = idx[np.argsort(-walk.pull_sims[idx], kind="stable")[: max(FALLBACK_MIN, len(idx) // 10)]]
    if strict and walk.focus > 0.0:
        here = float(np.asarray(walk.current.embedding, dtype=np.float32) @ walk.pull_vector)
        back = back[walk.pull_sims[back] > here]
    return back


def in_scope(walk: Walk, idx: np.ndarray) -> np.ndarray:
    """The indices that pass the session's scope (domains, drift, fence) and are not yet loci."""
    idx = np.asarray(idx, dtype=np.int64)
    if len(idx) == 0:
        return idx
    keep = walk.scope_mask[idx] & ~walk.visited_mask[idx]
    return in_field(walk, idx[keep], strict=True)
