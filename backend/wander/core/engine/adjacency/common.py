"""Scoring shared by every strategy: the four component scores of 000, computed in one
vectorised pass over knowledge-base concepts, and the Candidate objects built from them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wander.core.domain import scoring
from wander.core.domain.models import Candidate, Scores
from wander.core.engine.ports import BandSampler
from wander.core.engine.walk import Walk

# Why a strategy's candidate was put forward (domain.models.WHYS); the band's draws toward
# the attractor say so themselves.
WHY = {"distance_band": "novelty", "bridging": "bridge", "analogy": "analogy", "tension": "tension"}
REACH = 0.5  # a domain is reached when its nearest member is at least this similar
FALLBACK_MIN = 8
# Each strategy scouts a pool of about this many concepts and puts forward its best: the
# same pressure of selection for all four, so their scores are comparable.
POOL = 48  # outside the field: at least this many of the concepts nearest the attractor
# Share of novelty that is the distance from the nearest locus once the walk homes in on the
# attractor (Walk.field_focus 1): the loci there would otherwise bunch up.
LATE_NEAR = 0.5
# Concepts drawn from the band of a knowledge base that draws it (ports.BandSampler): the
# pool, the uniform draws and room for those already visited or outside the field.
DRAW = 8 * POOL


def kb_candidates(
    walk: Walk,
    idx: np.ndarray,
    strategy: str,
    reasons: Sequence[str],
    limit: int | None = None,
    why: str | None = None,
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
    late = LATE_NEAR * walk.field_focus if walk.pull_baseline is not None else 0.0
    near = len(seen) and (scoring.NOVELTY_SPREAD < 1.0 or late > 0.0)
    max_seen = (seen @ vectors.T).max(axis=0) if near else np.zeros(len(idx))
    mean_seen = vectors @ walk.loci_mean
    interest = scoring.interestingness(d, walk.pull_sims[idx], crosses, walk.pull_baseline, walk.focus, walk.pull_here)
    novelty = scoring.novelty(max_seen, mean_seen)
    if late > 0.0:
        # Near the attractor the candidates are all alike to the walk as a whole; what keeps
        # the loci there apart is their distance from the nearest locus.
        novelty = (1.0 - late) * novelty + late * scoring.novelty(max_seen)
    # the domains a concept spans: those it is filed under, or those its neighbourhoods
    # reach (a bridge's, which the bridging strategy looks for), whichever are more
    spans = np.maximum(kb.domain_counts()[idx], 1 + kb.domain_reach(REACH)[idx])
    bridge = scoring.bridge_potential(crosses.astype(float), spans)
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
                why=why or WHY.get(strategy, strategy),
            )
        )
    return out


def in_field(walk: Walk, idx: np.ndarray, strict: bool = False) -> np.ndarray:
    """The attractor's field at this point of the wander (Walk.pull_floor: open early on,
    its core late). Where the field holds none (the walk has used it up around here), the
    ones nearest the attractor, the way back; all of them without an attractor.

    strict: once the field narrows (from the wander's last third, Walk.late_focus), the way
    back holds only concepts nearer the attractor than the current locus. The analogy, bridging and tension strategies find a handful of
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
    if strict and walk.late_focus > 0.0:
        here = float(np.asarray(walk.current.embedding, dtype=np.float32) @ walk.pull_vector)
        back = back[walk.pull_sims[back] > here]
    return back


def open_in_band(walk: Walk, dist: np.ndarray, low: float, high: float) -> np.ndarray:
    """Mask over the corpus: at cosine distance low-high from the current locus (`dist`),
    open to a step (Walk.open_mask) and in the attractor's field: where a strategy looks
    for its few best, so that they are not all out of scope."""
    mask = (dist >= low) & (dist <= high) & walk.open_mask
    floor = walk.pull_floor
    if floor is not None:
        mask &= walk.pull_sims >= floor
    return mask


def in_scope(walk: Walk, idx: np.ndarray) -> np.ndarray:
    """The indices that pass the session's scope (domains, drift, fence), are not yet loci
    and are no pun on the current locus (Walk.open_mask), within the attractor's field."""
    idx = np.asarray(idx, dtype=np.int64)
    if len(idx) == 0:
        return idx
    return in_field(walk, idx[walk.open_mask[idx]], strict=True)


def band_seed(walk: Walk, low: float, high: float) -> list[int]:
    """The seed of a step's band draw (replay draws the same)."""
    return [int(walk.session.random_seed) & 0xFFFFFFFF, walk.session.step_count + 1, 7, int(low * 10), int(high * 10)]


def band_row(walk: Walk, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """The concepts at cosine distance LOW-HIGH from the current locus, ascending, and their
    similarities to it: every one of them, from one row over the knowledge base; over one
    that draws its band (ports.BandSampler), the step's seeded draw of DRAW of them, the
    same draw the distance band strategy scores (the strategies share it)."""
    kb = walk.knowledge
    if isinstance(kb, BandSampler):
        idx, dist = kb.sample_band(walk.current.embedding, low, high, DRAW, band_seed(walk, low, high))
        order = np.argsort(idx, kind="stable")
        return idx[order], 1.0 - dist[order]
    sims = kb.similarities(walk.current.embedding)
    dist = 1.0 - sims
    idx = np.flatnonzero((dist >= low) & (dist <= high))
    return idx, sims[idx]


def open_at(walk: Walk, idx: np.ndarray) -> np.ndarray:
    """Mask over IDX: open to a step (Walk.open_mask) and in the attractor's field (what
    open_in_band asks of a whole row)."""
    floor = walk.pull_floor
    if floor is None:
        return walk.open_mask[idx]
    mask = walk.pull_sims[idx] >= floor
    mask[mask] = walk.open_mask[idx[mask]]  # asked only of those in the field (a large base: puns each)
    return mask
