"""The quality bench's baselines: a greedy nearest-neighbour walk and uniform random walks in
the 0.3-0.7 band over the same corpus, and the figures every walk is measured by
(divergence, attractor pull, basin). Used by bench_quality.py."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

BAND = (0.3, 0.7)
DRIFT = 0.8  # NewWander's default max_drift_distance
BAND_WALKS = 5  # band-random walks per pair whose mean divergence the engine's must reach


@dataclass
class WalkStats:
    label: str
    divergence: float
    band_share: float
    pull: float
    basin: float
    basin_domain: str = ""
    confirmed: int = 0
    crystals: list[dict] = field(default_factory=list)
    # every sandwich the gate judged: a crystal's rejected first try (when it was reworked), then the crystal
    judged: list[dict] = field(default_factory=list)
    degenerate: int = 0
    repeated_sentences: int = 0
    facet_numbers: int = 0  # facets with a decimal in their own words
    quoted_numbers: int = 0  # facets with a decimal anywhere, quoted corpus glosses included
    step_ms: list[float] = field(default_factory=list)
    late_pull: float = 0.0  # last third: labels vs the attractor text, minus the seed text's own
    half_pull: float = 0.0  # the same over the second half
    bridge: str = ""  # a locus in both neighbourhoods, if any
    late_distinct: float = 1.0  # distinct loci among the last third's steps (1: no collapse)
    strategies: dict[str, float] = field(default_factory=dict)  # share of chosen steps
    whys: dict[str, float] = field(default_factory=dict)
    pun_hops: int = 0
    steps: int = 0
    first_lenses: int = 0  # distinct first lenses of the wander's crystals' ruminations
    trivial_rejections: int = 0  # crystals the gate turned down as restating a bread or its category
    template_share: float | None = None  # the words engineer's figure (wander's facet skeletons), when measured
    # the most facet texts of one kind, of any ten consecutive steps, that open alike (any of
    # their sentences); the same over the wander's crystal insights in order
    openings_in_a_row: int | None = None
    # the share of a facet kind's texts that say its most common clause, the highest kind
    clause_share: float | None = None
    insight_openings_in_a_row: int | None = None
    tension_corpus: float = (
        0.0  # share of tension steps the corpus sets against (opposites, wholes), not a contrasting domain
    )


def divergence(m: np.ndarray) -> float:
    """DAT-style: mean pairwise cosine distance of the visited concepts x 100."""
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    n = len(m)
    if n < 2:
        return 0.0
    s = m @ m.T
    return float((1.0 - s[np.triu_indices(n, 1)]).mean() * 100)


def attractor_domains(kb, seed_v: np.ndarray, attr_v: np.ndarray) -> set[int]:
    """Primary domains of the five corpus concepts nearest the seed and the attractor."""
    prim = kb.primary_domain_ids()
    return {int(prim[i]) for v in (seed_v, attr_v) for i, _ in kb.nearest(v, 5)}


def seed_anchor(kb, seed: str, seed_v: np.ndarray) -> np.ndarray:
    """The seed as the walk's loci are embedded: the corpus concept it resolves to, or the
    corpus concept nearest its embedding."""
    k = kb.find_label(seed)
    return kb.vector(k if k is not None else kb.nearest(seed_v, 1)[0][0])


def walk_figures(kb, path: np.ndarray, domains: list[int], anchor_v, attr_v, excluded: set[int]):
    """path[0] is the seed's corpus anchor; pull is measured against it."""
    pull = float((path[-50:] @ attr_v).mean() - anchor_v @ attr_v)
    tail = [d for d in domains[-50:] if d not in excluded]
    counts = Counter(tail)
    basin = counts.most_common(1)[0][1] / len(domains[-50:]) if counts else 0.0
    names = {v: k for k, v in kb._domain_ids.items()}
    return pull, basin, names.get(counts.most_common(1)[0][0], "-") if counts else "-"


def baseline(
    kb,
    kind: str,
    seed_v: np.ndarray,
    anchor_v: np.ndarray,
    attr_v: np.ndarray,
    steps: int,
    rng: np.random.Generator,
    excluded: set[int],
) -> WalkStats:
    """greedy: the nearest unvisited concept; band: uniform over unvisited concepts in the band
    within the wander's scope (drift at most DRIFT from the seed or from the attractor, as the
    engine's default session has: engine/scope.py); band_unscoped: the same over the whole corpus. Where none is in the band,
    the nearest unvisited concept in scope; once the scope is used up (a small scope holds
    fewer concepts than the walk has steps), visited ones come back, as the engine's loci do."""
    near = np.maximum(kb.similarities(seed_v), kb.similarities(attr_v))
    if kind == "band_seed":  # issue 12's scope, from the seed alone, for comparison with earlier runs
        near = kb.similarities(seed_v)
    scope = near >= 1.0 - DRIFT if kind in ("band", "band_seed") else np.ones(len(kb), dtype=bool)
    visited = np.zeros(len(kb), dtype=bool)
    cur = seed_v
    path, doms, in_band = [anchor_v], [], 0
    prim = kb.primary_domain_ids()
    for _ in range(steps):
        open_ = scope & ~visited
        if not open_.any():
            open_ = scope
        sims = np.where(open_, kb.similarities(cur), -9.0)
        if kind == "greedy":
            j = int(np.argmax(sims))
        else:
            idx = np.flatnonzero(open_ & (1 - sims >= BAND[0]) & (1 - sims <= BAND[1]))
            j = int(rng.choice(idx)) if len(idx) else int(np.argmax(sims))
        d = 1.0 - float(sims[j])
        in_band += BAND[0] <= d <= BAND[1]
        visited[j] = True
        cur = kb.vector(j)
        path.append(cur)
        doms.append(int(prim[j]))
    m = np.stack(path)
    pull, basin, bd = walk_figures(kb, m, doms, anchor_v, attr_v, excluded)
    return WalkStats(kind, divergence(m), in_band / steps, pull, basin, bd)


def pair_baselines(kb, embedder, seed: str, attractor: str, steps: int, rng: np.random.Generator):
    """A pair's baseline walks (one of each kind), the mean divergence of BAND_WALKS
    band-random walks, the domains excluded from its basin, and the seed's corpus anchor."""
    seed_v, attr_v = embedder.embed([seed, attractor])
    excluded = attractor_domains(kb, seed_v, attr_v)
    anchor_v = seed_anchor(kb, seed, seed_v)
    print(f"# seed anchor of '{seed}': cos to '{attractor}' {float(anchor_v @ attr_v):+.3f}", flush=True)
    rows = {
        kind: baseline(kb, kind, seed_v, anchor_v, attr_v, steps, rng, excluded)
        for kind in ("greedy", "band", "band_seed", "band_unscoped")
    }
    # One band-random walk's divergence varies by several points with its draws (79.9 and
    # 86.4 for knitting -> climate policy at 100 steps): the mean of a few is the target.
    extra = [baseline(kb, "band", seed_v, anchor_v, attr_v, steps, rng, excluded) for _ in range(BAND_WALKS - 1)]
    mean = float(np.mean([rows["band"].divergence] + [b.divergence for b in extra]))
    return rows, mean, excluded, anchor_v
