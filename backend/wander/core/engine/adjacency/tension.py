"""Tension: concepts in productive opposition to the current locus, first those the corpus
itself sets against it (its opposites, the opposites of concepts near it, and the whole
it is a part or member of, or its parts and members: the part against the whole), then,
to fill the strategy's nominees, concepts of contrasting domains that the offset from the
current locus points away from its own domain (a weaker opposition: only where it is
the one at hand)."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.domain.models import Candidate
from wander.core.engine.adjacency.common import band_row, in_scope, kb_candidates, open_at
from wander.core.engine.ports import BandSampler, Knowledge
from wander.core.engine.walk import Walk

NAME = "tension"
BAND = (BAND_LOW, BAND_HIGH)  # steps keep to the band (candidates.gather_candidates)
CONTRAST_K = 8  # the concepts of other domains pulled farthest from its own (not every other domain)
NEAR_OPPOSITE = 0.5  # a concept at least this similar to the current locus lends it its opposites
# The corpus's part/whole and member/group links, read as the part set against the whole.
WHOLES = {
    "part_of": "'{a}' is a part of '{b}': the part set against the whole",
    "parts": "'{b}' is a part of '{a}': the whole set against its part",
    "member_of": "'{a}' is a member of '{b}': the one set against the many",
    "members": "'{b}' is a member of '{a}': the many set against the one",
    "substance_of": "'{a}' is the stuff of '{b}': the matter set against the thing",
    "substances": "'{a}' is made of '{b}': the thing set against its matter",
}
_PAIRS: Any = weakref.WeakKeyDictionary()


def opposite_pairs(kb: Knowledge) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (a, b) of concepts the corpus calls opposites, both ways (built once per
    knowledge base)."""
    try:
        found = _PAIRS.get(kb)
    except TypeError:  # not weakly referenceable (a test double): build it each time
        found = None
    if found is None and isinstance(kb, BandSampler):
        found = kb.opposite_pairs()  # from the concepts that name opposites, not every concept
    if found is None:
        pairs = {(i, j) for i in range(len(kb)) for j in kb.opposites(i) if j != i}
        pairs |= {(j, i) for i, j in pairs}
        ordered = sorted(pairs)
        found = (
            np.array([a for a, _ in ordered], dtype=np.int64),
            np.array([b for _, b in ordered], dtype=np.int64),
        )
        try:
            _PAIRS[kb] = found
        except TypeError:
            pass
    return found


def corpus_tensions(walk: Walk) -> dict[int, str]:
    """What the corpus sets against the current locus, with the reason: its opposites, the
    opposites of concepts near it, its wholes and parts, members and groups."""
    kb = walk.knowledge
    current = walk.current
    chosen: dict[int, str] = {}
    own = kb.index_of(current.kb_key) if current.kb_key else None
    anchors = [own] if own is not None else [i for i, _ in kb.nearest(current.embedding, 3)]
    for a in anchors:
        for j in kb.opposites(a):
            chosen.setdefault(j, f"opposite of '{kb.concept(a).label}' in the corpus")
    a_idx, b_idx = opposite_pairs(kb)
    if len(a_idx):
        near = kb.vectors(a_idx) @ np.asarray(current.embedding, dtype=np.float32)
        for k in np.argsort(-near, kind="stable"):
            if near[k] < NEAR_OPPOSITE:
                break
            a, b = int(a_idx[k]), int(b_idx[k])
            if a != own:
                chosen.setdefault(b, f"opposite of '{kb.concept(a).label}', a near neighbour of '{current.concept}'")
    if own is not None:
        for kind, j in kb.linked(own):
            if kind in WHOLES:
                chosen.setdefault(j, WHOLES[kind].format(a=current.concept, b=kb.concept(j).label))
    chosen.pop(own if own is not None else -1, None)
    return chosen


def tension(walk: Walk, limit: int = 6) -> list[Candidate]:
    kb = walk.knowledge
    current = walk.current
    found: list[Candidate] = []
    chosen = corpus_tensions(walk)
    if chosen:
        idx = in_scope(walk, np.array(list(chosen), dtype=np.int64))
        found = kb_candidates(walk, idx, NAME, [chosen[int(i)] for i in idx], limit)
    if len(found) >= limit or not current.domains:
        return found
    # Contrasting domains: in band, sharing no domain with the current locus, and pulled
    # away from the current locus's own domain more than towards it.
    band, _ = band_row(walk, *BAND)  # every band member, or a large knowledge base's draw
    band = band[open_at(walk, band)]
    if isinstance(kb, BandSampler):  # no domain shared (asked of the drawn, not a row of the corpus)
        here = set(current.domains)
        band = band[np.array([not here & set(kb.concept(int(i)).domains) for i in band], dtype=bool)]
    else:
        band = band[~kb.domain_mask(list(current.domains), [])[band]]  # no domain shared
    centroid = kb.domain_centroid(current.domains[0])
    if not len(band) or centroid is None:
        return found
    # what the corpus relates to the current locus (a topic and its member: 'seek time' and
    # 'computer science') is no contrast, whatever their domains' names
    own = kb.index_of(current.kb_key) if current.kb_key else None
    if own is not None:
        band = band[~np.isin(band, [j for _, j in kb.linked(own)])]
    if not len(band):
        return found
    taken = {c.kb_key for c in found}
    away = kb.vectors(band) @ centroid
    contrast = [
        int(i) for i in band[np.argsort(away, kind="stable")][:CONTRAST_K] if kb.concept(int(i)).key not in taken
    ]
    idx = in_scope(walk, np.array(contrast, dtype=np.int64))
    reasons = [
        f"contrasting domain: {', '.join(kb.concept(int(i)).domains)} against {', '.join(current.domains)}" for i in idx
    ]
    return found + kb_candidates(walk, idx, NAME, reasons, limit - len(found))
