"""Tension: concepts in productive opposition to the current locus: its opposites in the
corpus (and its neighbours' opposites), and concepts of contrasting domains that the
offset from the current locus points away from its own domain."""

from __future__ import annotations

import numpy as np

from wander.domain.geometry import BAND_HIGH, BAND_LOW
from wander.domain.models import Candidate
from wander.engine.adjacency.common import in_scope, kb_candidates, open_in_band
from wander.engine.walk import Walk

NAME = "tension"
BAND = (BAND_LOW, BAND_HIGH)  # steps keep to the band (step.gather_candidates)
CONTRAST_K = 8  # the concepts of other domains pulled farthest from its own (not every other domain)


def tension(walk: Walk, limit: int = 6) -> list[Candidate]:
    kb = walk.knowledge
    current = walk.current
    chosen: dict[int, str] = {}
    own = kb.index_of(current.kb_key) if current.kb_key else None
    anchors = [own] if own is not None else [i for i, _ in kb.nearest(current.embedding, 3)]
    for a in anchors:
        for j in kb.opposites(a):
            chosen.setdefault(j, f"opposite of '{kb.concept(a).label}' in the corpus")
    for a, _ in kb.nearest(current.embedding, 8):
        for j in kb.opposites(a):
            chosen.setdefault(j, f"opposite of '{kb.concept(a).label}', a near neighbour of '{current.concept}'")
    # Contrasting domains: in band, sharing no domain with the current locus, and pulled
    # away from the current locus's own domain more than towards it.
    dist = 1.0 - kb.similarities(current.embedding)
    band = np.flatnonzero(open_in_band(walk, dist, *BAND))
    band = band[~kb.domain_mask(list(current.domains), [])[band]] if current.domains else band  # no domain shared
    if len(band) and current.domains:
        centroid = kb.domain_centroid(current.domains[0])
        if centroid is not None:
            away = kb.vectors(band) @ centroid
            for i in band[np.argsort(away, kind="stable")][:CONTRAST_K]:
                chosen.setdefault(
                    int(i),
                    f"contrasting domain: {', '.join(kb.concept(int(i)).domains)} against {', '.join(current.domains)}",
                )
    if not chosen:
        return []
    idx = in_scope(walk, np.array(list(chosen), dtype=np.int64))
    return kb_candidates(walk, idx, NAME, [chosen[int(i)] for i in idx], limit)
