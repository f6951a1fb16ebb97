"""Cross-domain bridging: concepts whose per-domain neighbourhoods reach several domains
(a concept with close neighbours in two or more other domains is a natural bridge), taken
from the wider neighbourhood of the current locus; and, with an attractor, concepts that
sit in both the seed's and the attractor's neighbourhoods (a bridge between where the walk
began and where it is asked to head)."""

from __future__ import annotations

import numpy as np

from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.domain.models import Candidate
from wander.core.engine.adjacency.common import POOL, REACH, band_row, in_scope, kb_candidates
from wander.core.engine.walk import Walk

NAME = "bridging"
MIN_DOMAINS = 2  # a bridge reaches at least two domains besides its own
BAND = (BAND_LOW, BAND_HIGH)  # steps keep to the band (candidates.gather_candidates)
SPAN = 0.9  # a seed-attractor bridge is among the 10% nearest both (what bench_quality counts as one)
SPAN_K = 4  # at most this many of them a step


def bridging(walk: Walk, limit: int = 8) -> list[Candidate]:
    kb = walk.knowledge
    band, _ = band_row(walk, *BAND)  # every band member, or a large knowledge base's draw
    reach = kb.domain_reach(REACH)
    idx = in_scope(walk, band[reach[band] >= MIN_DOMAINS])
    out: list[Candidate] = []
    if len(idx):
        # The POOL most far-reaching, the best of them by the common scores; only those kept
        # are named (naming a bridge's neighbours costs a pass over a domain each).
        idx = idx[np.argsort(-reach[idx], kind="stable")][:POOL]
        out = kb_candidates(walk, idx, NAME, [""] * len(idx), limit)
        kept = [kb.index_of(c.kb_key or "") for c in out]
        for c, i, spans in zip(out, kept, _spans(kb, [i for i in kept if i is not None])):
            text = ", ".join(f"{d} ({s:.2f})" for d, s in spans)
            c.reason = f"reaches {int(reach[i]) if i is not None else 0} other domains: {text}"
    if walk.span is not None:
        between = in_scope(walk, band[walk.span[band] >= SPAN])
        taken = {c.kb_key for c in out}
        between = np.array(
            [i for i in between[np.argsort(-walk.span[between], kind="stable")] if kb.concept(int(i)).key not in taken][
                :SPAN_K
            ],
            dtype=np.int64,
        )
        s, a = walk.session.seed_concept, walk.session.attractor
        reasons = [f"between '{s}' and '{a}': among the {100 * (1 - walk.span[i]):.0f}% nearest both" for i in between]
        out += kb_candidates(walk, between, NAME, reasons)
    return out


def _spans(kb, idx: list[int], k: int = 3) -> list[list[tuple[str, float]]]:
    """For each concept, up to k other primary domains it reaches (REACH), with how near their
    nearest member is: read from the knowledge base's per-domain neighbourhoods (a row a
    concept), not found by a pass over a domain per concept (~30 ms each)."""
    table = kb.domain_reach_table() if hasattr(kb, "domain_reach_table") else None
    if table is None:
        return [[(d, s) for d, _, s in kb.domain_neighbours(i, REACH)[:k]] for i in idx]
    reach, doms = table
    prim = kb.primary_domain_ids()
    names = {kb.domain_id(d): d for d in kb.domains()}
    out = []
    for i in idx:
        row = reach[i]
        order = np.argsort(-row, kind="stable")
        found = [
            (names.get(int(doms[c]), "?"), float(row[c]))
            for c in order
            if row[c] >= REACH and int(doms[c]) != int(prim[i])
        ][:k]
        out.append(found)
    return out
