"""Analogy, A:B :: C:? : the offsets of relations already walked (A -> B) applied to the
current locus C, plus corpus relations (broader and narrower concepts of C)."""

from __future__ import annotations

import numpy as np

from wander.domain.geometry import BAND_HIGH, BAND_LOW, normalize
from wander.domain.models import Candidate
from wander.engine.adjacency.common import in_scope, kb_candidates, open_in_band
from wander.engine.walk import Walk

NAME = "analogy"
MIN_OFFSET_ALIGNMENT = 0.2  # cos(D - C, B - A) an analogy must reach
RECENT_RELATIONS = 8
PER_RELATION = 16  # the best 3CosAdd targets of each relation whose alignment is checked


def offset_alignment(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> float:
    """How well C -> D repeats A -> B: cosine of the two offsets."""
    return float(normalize(normalize(d) - normalize(c)) @ normalize(normalize(b) - normalize(a)))


def analogy(walk: Walk, limit: int = 8) -> list[Candidate]:
    kb = walk.knowledge
    c_vec = np.asarray(walk.current.embedding, dtype=np.float32)
    chosen: dict[int, str] = {}
    # 3CosAdd lands on B itself more often than not: leave out everything already walked.
    pairs = [(a, b) for a, b in walk.relations[-RECENT_RELATIONS:] if walk.current.id not in (a.id, b.id)]
    if pairs:
        # Each relation's 3CosAdd target c + b^ - a^ scored against the corpus: similarity is
        # linear in the vector, so from the rows of c, a and b (the corpus keeps the rows of
        # the walk's recent loci) rather than another pass over the corpus.
        s_c = kb.similarities(c_vec)
        rows = []
        for a, b in pairs:
            raw = c_vec + normalize(b.embedding) - normalize(a.embedding)
            norm = float(np.sqrt(raw @ raw))
            row = s_c + kb.unit_similarities(b.embedding) - kb.unit_similarities(a.embedding)
            rows.append(row / norm if norm > 0 else np.zeros_like(row))
        # one row per relation: each row's best PER_RELATION are found in contiguous memory
        sims = np.stack(rows).astype(np.float32, copy=False)
        # only what a step may reach (in the band, in scope, in the field): the corpus's best
        # few are mostly out of scope otherwise, and the analogy never competes
        sims[:, ~open_in_band(walk, 1.0 - kb.similarities(c_vec), BAND_LOW, BAND_HIGH)] = -np.inf
        top = np.argpartition(sims, -PER_RELATION, axis=1)[:, -PER_RELATION:]
    c_unit = normalize(c_vec)
    for col, (a, b) in enumerate(pairs):
        ranked = top[col][np.argsort(-sims[col, top[col]], kind="stable")]
        # offset_alignment for all of them at once
        aligns = normalize(normalize(kb.vectors(ranked)) - c_unit) @ normalize(
            normalize(b.embedding) - normalize(a.embedding)
        )
        for i, align in zip(ranked.tolist(), aligns.tolist()):
            if align >= MIN_OFFSET_ALIGNMENT and i not in chosen and np.isfinite(sims[col, i]):
                chosen[i] = (
                    f"'{a.concept}' is to '{b.concept}' as '{walk.current.concept}' is to "
                    f"'{kb.concept(i).label}' (offset alignment {align:.2f})"
                )
    own = kb.index_of(walk.current.kb_key) if walk.current.kb_key else None
    if own is not None:
        for j in kb.broader(own):
            chosen.setdefault(j, f"broader concept of '{walk.current.concept}' in the corpus")
        for j in kb.narrower(own)[:10]:
            chosen.setdefault(j, f"narrower concept of '{walk.current.concept}' in the corpus")
    if not chosen:
        return []
    idx = in_scope(walk, np.array(list(chosen), dtype=np.int64))
    return kb_candidates(walk, idx, NAME, [chosen[int(i)] for i in idx], limit)
