"""A step's candidates (000 "Wander Step Algorithm", stages 1-3): the four strategies'
adjacencies (and a model's proposals, when one is configured), kept to the scope, one per
concept, ranked by composite score; or the one concept a person injected."""

from __future__ import annotations

import numpy as np

from wander.core.domain import scoring
from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.domain.models import Candidate, Scores
from wander.core.engine import model_spend
from wander.core.engine.adjacency.analogy import analogy
from wander.core.engine.adjacency.bridging import bridging
from wander.core.engine.adjacency.distance_band import distance_band
from wander.core.engine.adjacency.tension import tension
from wander.core.engine.ports import ConceptProposer, Embedder
from wander.core.engine.scope import passes_scope
from wander.core.engine.step_context import StepContext
from wander.core.engine.walk import Walk

NOMINEES = 6  # candidates each strategy puts forward a step
MIN_IN_BAND = 8  # out-of-band candidates are dropped while at least this many are in the band


async def gather_candidates(
    walk: Walk, ctx: StepContext | None = None, spend: model_spend.Spend | None = None
) -> list[Candidate]:
    """All four strategies' candidates (and a model's, when one is configured), in scope,
    one per concept, ranked by composite score, best first.

    Each strategy puts forward its NOMINEES best of a pool of the same size (the band: a
    few best, its draws toward the attractor and at random, and earlier loci), so the four
    compete on their merits in the softmax: the band's best of thousands against a few of
    each other strategy's gave the band 96% of the steps."""
    # A concept two strategies put forward counts as the more specific one's (first here):
    # in a small scope the band's pool holds most of what the others find.
    found = (
        analogy(walk, limit=NOMINEES)
        + tension(walk, limit=NOMINEES // 2)
        + bridging(walk, limit=NOMINEES // 2)
        + distance_band(walk)
    )
    if ctx is not None and ctx.proposer is not None:
        found += await model_candidates(walk, ctx.proposer, ctx.embedder, spend or model_spend.Spend())
    best: dict[str, Candidate] = {}
    for c in found:
        key = c.locus_id or c.kb_key or c.concept
        if key not in best or c.scores.composite > best[key].scores.composite:
            best[key] = c
    found_all = list(best.values())
    # Steps keep to the 0.3-0.7 band: other strategies' candidates outside it (a corpus
    # hypernym can be very close) stay in only when the band has too few.
    in_band = [c for c in found_all if BAND_LOW <= c.distance <= BAND_HIGH]
    if len(in_band) >= MIN_IN_BAND:
        found_all = in_band
    return sorted(found_all, key=lambda c: c.scores.composite if c.scores else 0.0, reverse=True)


async def model_candidates(
    walk: Walk, proposer: ConceptProposer, embedder: Embedder, spend: model_spend.Spend
) -> list[Candidate]:
    """Concepts a model proposes by analogy and tension, embedded and scoped like any other;
    what asking cost is added to `spend` (a cloud model is asked within the budget left)."""
    current = walk.current
    names: list[tuple[str, str]] = []
    try:
        if walk.relations:
            a, b = walk.relations[-1]
            left = model_spend.budget_left(walk.session, spend.cloud_cents)
            got = await proposer.propose_analogies(a.concept, b.concept, current.concept, budget_cents=left)
            spend.add(got)
            names += [(n, f"model: '{a.concept}' is to '{b.concept}' as '{current.concept}' is to '{n}'") for n in got]
        left = model_spend.budget_left(walk.session, spend.cloud_cents)
        got = await proposer.propose_tensions(current.concept, budget_cents=left)
        spend.add(got)
        names += [(n, f"model: in productive tension with '{current.concept}'") for n in got]
    except Exception:  # a model's trouble never stops the wander
        return []
    names = [(n, r) for n, r in names if n.strip() and n not in walk.concepts_seen][:8]
    if not names:
        return []
    vectors = embedder.embed([n for n, _ in names])
    out = []
    for (name, reason), v in zip(names, vectors):
        nearest = walk.knowledge.nearest(v, 1)[0][0]
        domains = list(walk.knowledge.concept(nearest).domains[:1])
        if not passes_scope(domains, v, walk.session, walk.fence):
            continue
        dist = 1.0 - float(v @ current.embedding)
        seen = walk.loci_matrix
        nov = float(scoring.novelty(float((seen @ v).max()) if len(seen) else 0.0, float(v @ walk.loci_mean)))
        crosses = not set(domains) & set(current.domains)
        interest = float(
            scoring.interestingness(
                dist, float(v @ walk.pull_vector), crosses, walk.pull_baseline, walk.focus, walk.pull_here
            )
        )
        bridge = float(scoring.bridge_potential(float(crosses), len(domains)))
        unc = float(scoring.uncertainty(0, 1.0 - float(v @ walk.session.seed_embedding)))
        strategy = "analogy" if reason.startswith("model: '") else "tension"
        out.append(
            Candidate(
                concept=name,
                embedding=v,
                domains=domains,
                strategy=strategy,
                reason=reason,
                distance=dist,
                scores=Scores(interest, nov, bridge, unc, float(scoring.composite(interest, nov, bridge, unc))),
                why=strategy,
            )
        )
    return out


async def injected_candidate(walk: Walk, ctx: StepContext) -> Candidate | None:
    """The concept a person asked the wander to visit next, as the step's one candidate."""
    inj = walk.session.pending_injection
    if not inj:
        return None
    concept = inj["concept"]
    existing = next((lo for lo in walk.loci if lo.concept == concept), None)
    kb = walk.knowledge
    k = kb.find_label(concept)
    v = (
        existing.embedding
        if existing is not None
        else (kb.vector(k) if k is not None else ctx.embedder.embed([concept])[0])
    )
    domains = (
        existing.domains
        if existing is not None
        else list(kb.concept(k if k is not None else kb.nearest(v, 1)[0][0]).domains)
    )
    dist = 1.0 - float(np.asarray(v) @ walk.current.embedding)
    return Candidate(
        concept=concept,
        embedding=np.asarray(v, dtype=np.float32),
        domains=domains,
        strategy="injected",
        reason="injected by a person (forced visit)",
        why="a person's hint",
        distance=dist,
        kb_key=kb.concept(k).key if k is not None and existing is None else (existing.kb_key if existing else None),
        locus_id=existing.id if existing else None,
        scores=Scores(1.0, 1.0, 0.0, 0.5, 1.0),
    )
