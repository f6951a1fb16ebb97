"""Distance-band sampling: concepts at cosine distance 0.3-0.7 from the current locus, over
the knowledge base, the wander's earlier loci and its compost, scored in one vectorised pass."""

from __future__ import annotations

import numpy as np

from wander.core.domain import scoring
from wander.core.domain.geometry import BAND_HIGH, BAND_LOW, normalize
from wander.core.domain.models import Candidate, Scores
from wander.core.engine import fence as fences
from wander.core.engine.adjacency.common import DRAW, POOL, band_seed, in_field, kb_candidates
from wander.core.engine.breakers import LOOP_WINDOW
from wander.core.engine.ports import BandSampler
from wander.core.engine.scope import domains_allowed, drift_sims, passes_scope
from wander.core.engine.walk import Walk

NAME = "distance_band"
# Bands tried in order when the one before yields nothing in scope; the first is 000's.
BANDS = ((BAND_LOW, BAND_HIGH), (0.2, 0.8), (0.0, 1.2))
TOWARD_K = 4  # candidates whose step points most directly at the attractor
SAMPLE_K = 4  # candidates drawn uniformly from the band
BEST_K = 6  # the best of its pool
LOCI_K = 2  # earlier loci (and compost items) put forward, the best by composite score
TOWARD, SAMPLED = "toward the attractor", "sampled from the band"  # how their reasons end
GAIN = 0.05  # a step this much nearer the attractor than the current locus heads toward it


def distance_band(walk: Walk, limit: int = BEST_K) -> list[Candidate]:
    # Loci the walk went to within the loop breaker's window are not gone back to while a
    # wider band holds others: a long wander that has seen what its scope holds around here
    # went round two or three of them until loop_detected tripped.
    recent = {b.id for _, b in walk.relations[-(LOOP_WINDOW - 1) :]} | {walk.current.id}
    for avoid in (recent, set()):
        for low, high in BANDS:
            fresh = _knowledge_candidates(walk, low, high, limit)
            # Earlier loci: a few while new concepts wait in the band; every one in the band
            # once the walk has seen what its scope holds around here.
            k = LOCI_K if len(fresh) >= limit else None
            found = fresh + _loci_candidates(walk, low, high, k, avoid) + _compost_candidates(walk, low, high, k)
            if found:
                return found
    return []


def _knowledge_candidates(walk: Walk, low: float, high: float, limit: int) -> list[Candidate]:
    """Three draws from the band, within the attractor's field: the best by composite score,
    the concepts whose step from here points most directly at the attractor, and a seeded
    uniform sample (serendipity, so the walk does not settle where the scores favour)."""
    kb = walk.knowledge
    seed = [int(walk.session.random_seed) & 0xFFFFFFFF, walk.session.step_count + 1, 7]
    idx, dist, sims = _band(walk, low, high, seed)
    if len(idx) == 0:
        return []
    reasons = _Reasons(walk, dist, low, high)
    idx = in_field(walk, idx)
    rng = np.random.default_rng(seed)
    # The best of a pool as large as the other strategies' (common.POOL), not of the whole
    # band: the best of thousands always outscored the best of a few dozen.
    pool = rng.choice(idx, size=min(POOL, len(idx)), replace=False)
    out = kb_candidates(walk, pool, NAME, reasons.of(pool), limit)  # type: ignore[arg-type]  # a lazy Sequence[str]
    _say_toward(walk, out)
    taken = {c.kb_key for c in out}
    toward = idx[np.argsort(-_toward(walk, sims[idx], idx), kind="stable")[: toward_draws(walk)]]
    sample = rng.choice(idx, size=min(SAMPLE_K, len(idx)), replace=False)
    for extra, how in ((toward, TOWARD), (sample, SAMPLED)):
        extra = np.array([i for i in extra if kb.concept(int(i)).key not in taken], dtype=np.int64)
        found = kb_candidates(
            walk,
            extra,
            NAME,
            [f"{reasons.text(int(i))}, {how}" for i in extra],
            why="novelty",
        )
        _say_toward(walk, found, drawn_toward=how == TOWARD)
        taken |= {c.kb_key for c in found}
        out += found
    return out


def toward_draws(walk: Walk) -> int:
    """How many of the band's draws point at the attractor: as many as the attractor weighs
    now (Walk.focus, nothing at the first step, all TOWARD_K once the field narrows to its
    core). Offered from the first step, they took the walk onto the attractor's own ground
    early (surgery -> team sports: 'team sport', 0.80 to it, at step 6 of 100; beekeeping ->
    traffic: 'traffic control' at step 3, and on roads from there)."""
    if walk.session.attractor_embedding is None:
        return 0
    return int(round(TOWARD_K * walk.focus))


def _band(walk: Walk, low: float, high: float, seed: list[int]) -> tuple[np.ndarray, _Lookup, _Lookup]:
    """The concepts at cosine distance LOW-HIGH from the current locus that are open to a
    step (loci already visited come back as loci, with their visit counts), and lookups of
    their distances and similarities to it. Every concept is scored, unless the knowledge base is one that draws
    its band (ports.BandSampler): then a seeded draw of DRAW of them, read within a bound."""
    kb = walk.knowledge
    if isinstance(kb, BandSampler):
        drawn, d = kb.sample_band(walk.current.embedding, low, high, DRAW, band_seed(walk, low, high))
        keep = walk.open_mask[drawn]
        return drawn[keep], _Drawn(drawn[keep], d[keep]), _Drawn(drawn[keep], 1.0 - d[keep])
    sims = kb.similarities(walk.current.embedding)
    dist = 1.0 - sims
    return np.flatnonzero((dist >= low) & (dist <= high) & walk.open_mask), dist, sims


class _Drawn:
    """Values of drawn concepts, looked up by concept index like a whole row's."""

    def __init__(self, idx: np.ndarray, dist: np.ndarray):
        self._at = dict(zip(idx.tolist(), dist.tolist()))

    def __getitem__(self, i: np.ndarray | int) -> np.ndarray:
        return np.array([self._at[int(j)] for j in np.atleast_1d(i)], dtype=np.float32).reshape(np.shape(i))


def _say_toward(walk: Walk, found: list[Candidate], drawn_toward: bool = False) -> None:
    """A band candidate whose step gains on the attractor (at least GAIN nearer it than the
    current locus, and nearer it than the seed's anchor) is put forward as a step toward the
    attractor: the pull is part of its score, and it is what the step does. One drawn for
    the direction of its step (TOWARD) says so once it comes any nearer."""
    if walk.pull_baseline is None or not found:
        return
    here = float(np.asarray(walk.current.embedding, dtype=np.float32) @ walk.pull_vector)
    floor = here + 1e-6 if drawn_toward else max(here + GAIN, walk.pull_baseline)
    for c in found:
        if float(np.asarray(c.embedding, dtype=np.float32) @ walk.pull_vector) >= floor:
            c.why = "toward the attractor"


def _toward(walk: Walk, sims: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Cosine between each step (concept - current) and the way to the attractor
    (attractor - current), from similarities alone (SIMS: concepts IDX's to the current
    locus): (v.a - v.c - c.a + 1) / (|v - c| |a - c|)."""
    ca = float(np.asarray(walk.current.embedding, dtype=np.float32) @ walk.pull_vector)
    num = walk.pull_sims[idx] - sims - ca + 1.0
    den = np.sqrt(np.maximum(2.0 - 2.0 * sims, 1e-9)) * np.sqrt(max(2.0 - 2.0 * ca, 1e-9))
    return num / den


_Lookup = np.ndarray | _Drawn  # a concept index -> its value (a whole row, or the drawn's)


class _Reasons:
    """Reason texts made only for the candidates kept (the band holds thousands)."""

    def __init__(self, walk: Walk, dist: _Lookup, low: float, high: float):
        self.walk, self.dist, self.low, self.high = walk, dist, low, high

    def text(self, i: int) -> str:
        return (
            f"cosine distance {self.dist[i]:.2f} from '{self.walk.current.concept}' "
            f"(band {self.low:.1f}-{self.high:.1f})"
        )

    def of(self, idx: np.ndarray) -> _Lazy:
        return _Lazy(self, idx)


class _Lazy:
    def __init__(self, reasons: _Reasons, idx: np.ndarray):
        self.reasons, self.idx = reasons, idx

    def __len__(self) -> int:
        return len(self.idx)

    def __getitem__(self, j: int) -> str:
        return self.reasons.text(int(self.idx[j]))


def _loci_candidates(
    walk: Walk, low: float, high: float, k: int | None = LOCI_K, avoid: set[str] | frozenset[str] = frozenset()
) -> list[Candidate]:
    current = walk.current
    seen = walk.loci_matrix
    if len(seen) < 2:
        return []
    dist = 1.0 - seen @ np.asarray(current.embedding, dtype=np.float32)
    pull = seen @ walk.pull_vector
    seed_sims = seen @ np.asarray(walk.session.seed_embedding, dtype=np.float32)
    # the scope (drift, fence) and the attractor's field as masks over all loci at once
    keep = (dist >= low) & (dist <= high)
    unit = normalize(seen)
    attractor = walk.session.attractor_embedding
    near = drift_sims(
        unit @ normalize(walk.session.seed_embedding), None if attractor is None else unit @ normalize(attractor)
    )
    keep &= 1.0 - near <= walk.session.max_drift_distance
    floor = walk.pull_floor
    if floor is not None:
        keep &= pull >= floor
    if walk.fence:
        keep[keep] = fences.inside_mask(walk.fence, seen[keep])
    kb = walk.knowledge
    in_kb = {
        i: j
        for i in np.flatnonzero(keep).tolist()
        if (key := walk.loci[i].kb_key) and (j := kb.index_of(key)) is not None
    }
    puns = {j for j, pun in zip(in_kb.values(), walk.pun_mask(np.array(list(in_kb.values()), dtype=np.int64))) if pun}
    rows = [
        i
        for i in np.flatnonzero(keep).tolist()
        if walk.loci[i].id != current.id
        and walk.loci[i].id not in avoid
        and domains_allowed(walk.loci[i].domains, walk.session)
        and in_kb.get(i) not in puns
    ]
    if not rows:
        return []
    loci = [walk.loci[i] for i in rows]
    here = set(current.domains)
    crosses = np.array([not set(lo.domains) & here for lo in loci], dtype=bool)
    interest = scoring.interestingness(dist[rows], pull[rows], crosses, walk.pull_baseline, walk.focus, walk.pull_here)
    bridge = scoring.bridge_potential(crosses.astype(float), [len(lo.domains) for lo in loci])
    uncert = scoring.uncertainty([lo.visit_count for lo in loci], 1.0 - seed_sims[rows])
    # Already part of the wander (nearness 1, which novelty does not weigh): its spread
    # counts, going back to a locus unlike the walk as a whole keeps the walk spread (a small
    # scope runs out of new concepts, and then the way back is most of the walk).
    novelty = scoring.novelty(np.ones(len(rows)), seen[rows] @ walk.loci_mean)
    comp = scoring.composite(interest, novelty, bridge, uncert)
    best = set(np.argsort(-comp, kind="stable")[:k].tolist())  # a few, like every strategy's
    return [
        Candidate(
            concept=lo.concept,
            embedding=lo.embedding,
            domains=list(lo.domains),
            strategy=NAME,
            reason=f"earlier locus at cosine distance {dist[i]:.2f}, visited {lo.visit_count}x",
            distance=float(dist[i]),
            kb_key=lo.kb_key,
            locus_id=lo.id,
            abstraction_level=lo.abstraction_level,
            scores=Scores(float(interest[j]), float(novelty[j]), float(bridge[j]), float(uncert[j]), float(comp[j])),
            why="novelty",
        )
        for j, (i, lo) in enumerate(zip(rows, loci))
        if j in best
    ]


def _compost_candidates(walk: Walk, low: float, high: float, k: int | None = LOCI_K) -> list[Candidate]:
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
        novelty = float(
            scoring.novelty(
                float((seen @ item.embedding).max()) if len(seen) else 0.0, float(item.embedding @ walk.loci_mean)
            )
        )
        interest = float(scoring.interestingness(dist[i], pull, False, walk.pull_baseline, walk.focus, walk.pull_here))
        uncert = float(scoring.uncertainty(0, 1.0 - float(item.embedding @ walk.session.seed_embedding)))
        comp = float(scoring.composite(interest, novelty, 0.0, uncert))
        out.append(
            Candidate(
                concept=item.text,
                embedding=item.embedding,
                domains=list(item.domains),
                strategy=NAME,
                reason=f"compost ({item.kind}) at cosine distance {dist[i]:.2f}",
                distance=float(dist[i]),
                scores=Scores(interest, novelty, 0.0, uncert, comp),
                why="novelty",
            )
        )
    return sorted(out, key=lambda c: -c.scores.composite if c.scores else 0.0)[:k]
