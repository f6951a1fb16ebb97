"""Analogy, A:B :: C:? : the offsets of relations already walked (A -> B) applied to the
current locus C, plus corpus relations (broader and narrower concepts of C)."""

from __future__ import annotations

import numpy as np

from wander.core.domain.geometry import BAND_HIGH, BAND_LOW, normalize
from wander.core.domain.models import Candidate
from wander.core.engine.adjacency.common import band_row, in_scope, kb_candidates, open_at, open_in_band
from wander.core.engine.ports import BandSampler
from wander.core.engine.walk import Walk

NAME = "analogy"
MIN_OFFSET_ALIGNMENT = 0.2  # cos(D - C, B - A) an analogy must reach
# The walk's last relations whose offsets are applied to the current locus. With 8, the
# targets that repeat a relation (MIN_OFFSET_ALIGNMENT) among the few dozen a step may
# reach were 3-4 a step, and the analogy supplied under 10% of the steps of 7 in 48 wanders
# of the quality bench (the only strategy that did): 16 relations give it as many
# candidates as the others', at no more cost (their rows are the corpus's recent rows).
RECENT_RELATIONS = 16
PER_RELATION = 16  # the best 3CosAdd targets of each relation whose alignment is checked


def offset_alignment(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> float:
    """How well C -> D repeats A -> B: cosine of the two offsets."""
    return float(normalize(normalize(d) - normalize(c)) @ normalize(normalize(b) - normalize(a)))


def analogy(walk: Walk, limit: int = 8) -> list[Candidate]:
    kb = walk.knowledge
    c_vec = np.asarray(walk.current.embedding, dtype=np.float32)
    chosen: dict[int, str] = {}
    # 3CosAdd lands on B itself more often than not (loci already walked are not open to a
    # step); the last relation, whose B is the current locus, asks where the step before
    # would go on to ('A' is to 'C' as 'C' is to D); one that starts here asks nothing.
    pairs = [(a, b) for a, b in walk.relations[-RECENT_RELATIONS:] if walk.current.id != a.id]
    # only what a step may reach (in the band, in scope, in the field): the corpus's best few
    # are mostly out of scope otherwise, and the analogy never competes; a few hundred at
    # most, so each relation is scored over them alone
    drawn = isinstance(kb, BandSampler)  # a large knowledge base: its band's draw, no rows
    allowed, base = np.zeros(0, np.int64), np.zeros(0, np.float32)
    if pairs and drawn:
        band, sims = band_row(walk, BAND_LOW, BAND_HIGH)
        keep = open_at(walk, band)
        allowed, base = band[keep], sims[keep]
    elif pairs:
        s_c = kb.similarities(c_vec)
        allowed = np.flatnonzero(open_in_band(walk, 1.0 - s_c, BAND_LOW, BAND_HIGH))
        base = s_c[allowed]
    if len(allowed):
        c_unit = normalize(c_vec)
        vectors = kb.vectors(allowed)
        steps = normalize(normalize(vectors) - c_unit)  # D - C for every allowed D
        for a, b in pairs:
            # the relation's 3CosAdd target c + b^ - a^ scored from the rows the corpus keeps
            # for the walk's recent loci (similarity is linear in the vector)
            b_u, a_u = normalize(b.embedding), normalize(a.embedding)
            raw = c_vec + b_u - a_u
            norm = float(np.sqrt(raw @ raw))
            if norm <= 0:
                continue
            s_b = vectors @ b.embedding if drawn else kb.similarities(b.embedding)[allowed]
            s_a = vectors @ a.embedding if drawn else kb.similarities(a.embedding)[allowed]
            score = (
                base
                + s_b / max(float(np.sqrt(b.embedding @ b.embedding)), 1e-9)
                - s_a / max(float(np.sqrt(a.embedding @ a.embedding)), 1e-9)
            ) / norm
            # offset_alignment for every allowed target at once, then the best PER_RELATION
            # of those that repeat the relation: cut before the check, the 3CosAdd targets
            # (near the relation's B, a recent locus, by construction) left a few a step
            aligns = steps @ normalize(b_u - a_u)
            aligned = np.flatnonzero(aligns >= MIN_OFFSET_ALIGNMENT)
            top = aligned[np.argsort(-score[aligned], kind="stable")[:PER_RELATION]]
            for j, align in zip(top.tolist(), aligns[top].tolist()):
                i = int(allowed[j])
                if i not in chosen:
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
