"""One wander step (000 "Wander Step Algorithm"): adjacencies from four strategies -> scope
-> rank -> softmax select -> dwell -> resonance -> maybe crystallize -> memory layers ->
breakers; the trace, residue, loci, resonances, memory, crystal and events are committed in
one transaction, and only then does the in-memory walk move on."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field

import numpy as np

from shared_schemas.events import (
    AdjacenciesFoundPayload,
    BudgetLowPayload,
    CircuitTrippedPayload,
    FenceApproachedPayload,
    LocusVisitedPayload,
    SessionCompletedPayload,
    SessionPausedPayload,
    StepCompletedPayload,
    StepStartedPayload,
)
from wander.core.domain import scoring
from wander.core.domain.errors import NoCandidates
from wander.core.domain.geometry import BAND_HIGH, BAND_LOW
from wander.core.domain.models import (
    Candidate,
    Crystal,
    Event,
    EventDraft,
    HotItem,
    Locus,
    Residue,
    ResonanceStatus,
    Scores,
    SessionStatus,
    SourceType,
    Trace,
    new_id,
)
from wander.core.domain.themes import keep_themes
from wander.core.engine import breakers, connections, model_spend, resonance, tiers
from wander.core.engine import events as ev
from wander.core.engine import fence as fences
from wander.core.engine.adjacency.analogy import analogy
from wander.core.engine.adjacency.bridging import bridging
from wander.core.engine.adjacency.distance_band import distance_band
from wander.core.engine.adjacency.tension import tension
from wander.core.engine.crystallizer import Crystallizer
from wander.core.engine.ports import (
    CAKernel,
    Clock,
    ConceptProposer,
    Dweller,
    DwellRequest,
    Embedder,
    EventBus,
    StepCommit,
    Store,
)
from wander.core.engine.scope import passes_scope
from wander.core.engine.themes import degenerate_themes
from wander.core.engine.walk import Walk

TOP_K = 24  # a ranking's upper half: chosen below it is a serendipitous step
NOMINEES = 6  # candidates each strategy puts forward a step
MIN_IN_BAND = 8  # out-of-band candidates are dropped while at least this many are in the band
STRONG_LOCUS = 0.8  # a residue this interesting calls for crystallization...
CRYSTALLIZE_EVERY = 30  # ...and so does a confirmed resonance, at most once in each stretch of this many steps
CRYSTAL_GAP = 15  # and this many steps apart at least
ACTIVE_RESONANCES_SHOWN = 8  # the dweller hears of the first this many active resonances


@dataclass
class StepContext:
    store: Store
    dweller: Dweller
    clock: Clock
    embedder: Embedder
    crystallizer: Crystallizer
    ca: CAKernel | None = None
    proposer: ConceptProposer | None = None
    worker_id: str | None = None
    hot_limit: int = tiers.HOT_LIMIT
    bus: EventBus | None = None  # publishes wander.step.started before the step's work


@dataclass
class StepResult:
    step_number: int
    from_locus: Locus
    to_locus: Locus
    residue: Residue
    candidates: list[Candidate]
    chosen: Candidate
    probability: float
    events: list[Event] = field(default_factory=list)
    resonances_detected: int = 0
    crystal: Crystal | None = None
    tripped: str | None = None


def may_crystallize(step_number: int, last: int) -> bool:
    """At most one crystal in each stretch of CRYSTALLIZE_EVERY steps (1-30, 31-60, ...: at
    most 10 per 300), CRYSTAL_GAP steps apart at least. A stretch whose first trigger came
    late still has its crystal, so a wander's crystals keep pace with its length instead of
    slipping a few steps each time (a fixed gap of 30 gave 8 where 10 fit)."""
    if last <= 0:
        return True
    same_stretch = (step_number - 1) // CRYSTALLIZE_EVERY == (last - 1) // CRYSTALLIZE_EVERY
    return not same_stretch and step_number - last >= CRYSTAL_GAP


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
        found += await _model_candidates(walk, ctx, spend or model_spend.Spend())
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


async def _model_candidates(walk: Walk, ctx: StepContext, spend: model_spend.Spend) -> list[Candidate]:
    """Concepts a model proposes by analogy and tension, embedded and scoped like any other;
    what asking cost is added to `spend` (a cloud model is asked within the budget left)."""
    current = walk.current
    names: list[tuple[str, str]] = []
    try:
        if walk.relations:
            a, b = walk.relations[-1]
            left = model_spend.budget_left(walk.session, spend.cloud_cents)
            got = await ctx.proposer.propose_analogies(a.concept, b.concept, current.concept, budget_cents=left)
            spend.add(got)
            names += [(n, f"model: '{a.concept}' is to '{b.concept}' as '{current.concept}' is to '{n}'") for n in got]
        left = model_spend.budget_left(walk.session, spend.cloud_cents)
        got = await ctx.proposer.propose_tensions(current.concept, budget_cents=left)
        spend.add(got)
        names += [(n, f"model: in productive tension with '{current.concept}'") for n in got]
    except Exception:  # a model's trouble never stops the wander
        return []
    names = [(n, r) for n, r in names if n.strip() and n not in walk.concepts_seen][:8]
    if not names:
        return []
    vectors = ctx.embedder.embed([n for n, _ in names])
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
            scoring.interestingness(dist, float(v @ walk.pull_vector), crosses, walk.pull_baseline, walk.focus)
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


async def _injected(walk: Walk, ctx: StepContext) -> Candidate | None:
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


def _source_type(candidate: Candidate, current: Locus, rank: int) -> SourceType:
    if candidate.strategy == "bridging" or not set(candidate.domains) & set(current.domains):
        return SourceType.BRIDGED
    if rank >= TOP_K // 2:
        return SourceType.SERENDIPITOUS  # chosen from the lower half of the ranking
    return SourceType.ADJACENT


async def take_step(walk: Walk, ctx: StepContext, guard_resonances: bool = True) -> StepResult:
    """guard_resonances: the commit refuses (ResonanceMoved) when a resonance this step
    changed moved meanwhile; without it the step's version is written whole."""
    step_number = walk.session.step_count + 1
    current = walk.current
    # Live, before the step's work: its own small transaction, published at once; it also
    # reads what a person changed meanwhile (a fence or an injection counts now).
    controls, started = await ctx.store.start_step(
        walk.session.id,
        [ev.draft(StepStartedPayload(session_id=walk.session.id, step_number=step_number, from_locus_id=current.id))],
    )
    walk.session = controls.merged_into(walk.session)
    session = walk.session
    if ctx.bus is not None:
        await ctx.bus.publish(started)
    drafts: list[EventDraft] = []

    spend = model_spend.Spend()  # the model helpers' (proposals, rumination), beside the dwelling's usage
    injected = await _injected(walk, ctx)
    if injected is not None:
        candidates, chosen, chosen_index, probs = [injected], injected, 0, np.ones(1)
    else:
        candidates = await gather_candidates(walk, ctx, spend)
        if not candidates:
            raise NoCandidates(f"no concept in scope is reachable from '{current.concept}'")
        scores = np.array([c.scores.composite for c in candidates])
        chosen_index = scoring.softmax_select(
            scores, session.temperature, scoring.step_rng(session.random_seed, step_number)
        )
        probs = scoring.softmax_probabilities(scores, session.temperature)
        chosen = candidates[chosen_index]
    if session.fence:
        for c in candidates:
            near = fences.approaching(session.fence, c.embedding)
            if near:
                drafts.append(
                    ev.draft(
                        FenceApproachedPayload(
                            session_id=session.id,
                            step_number=step_number,
                            concept=c.concept,
                            anchor=near[0],
                            boundary=near[1],
                            cosine=round(near[2], 4),
                        )
                    )
                )  # type: ignore[arg-type]  # include | exclude
                break
    now = ctx.clock.now()

    new_loci: list[Locus] = []
    if chosen.locus_id:
        target = copy.copy(walk.by_id[chosen.locus_id])
    else:
        target = Locus(
            id=new_id(),
            session_id=session.id,
            concept=chosen.concept,
            embedding=np.asarray(chosen.embedding, dtype=np.float32),
            source_type=_source_type(chosen, current, chosen_index),
            domains=list(chosen.domains),
            abstraction_level=chosen.abstraction_level,
            kb_key=chosen.kb_key,
            first_encountered=now,
        )
        new_loci.append(target)
    target.visit_count += 1
    target.last_visited = now
    target.novelty_score = chosen.scores.novelty
    target.uncertainty = chosen.scores.uncertainty
    ca_state = None
    if ctx.ca is not None:
        # CONVERGED lowers uncertainty, OSCILLATING raises it, CHAOTIC flags the text (DESIGN 1).
        signal = ctx.ca.signal(target.concept, target.embedding)
        ca_state = {
            "state": signal.state,
            "outcome": signal.outcome,
            "adjustment": signal.adjustment,
            "needs_rephrasing": signal.needs_rephrasing,
        }
        target.uncertainty = float(np.clip(target.uncertainty + signal.adjustment, 0.0, 1.0))
    target.adjacent_to = [
        *target.adjacent_to,
        {"locus_id": current.id, "distance": round(chosen.distance, 4), "strength": round(chosen.scores.composite, 4)},
    ]

    proximity = resonance.proximity(walk, target.embedding)
    residue = await ctx.dweller.dwell(
        DwellRequest(
            session=model_spend.charged(session, spend),  # the budget the proposals left
            current=current,
            encountered=target,
            recent_themes=list(walk.recent_themes),
            active_resonances=[
                ", ".join(r.themes[:4])
                for r in itertools.islice(
                    (r for r in walk.resonances if r.status != ResonanceStatus.INVALIDATED), ACTIVE_RESONANCES_SHOWN
                )
            ],
            bridge_score=chosen.scores.bridge_potential,
            resonance_proximity=proximity,
            crystallization_candidate=proximity > 0.8,
        )
    )
    # A theme every concept shares is not a theme, whichever dweller named it.
    residue.themes = keep_themes(residue.themes, degenerate_themes(walk.knowledge))
    target.interestingness = residue.interestingness
    target.actionability = residue.actionability
    learned = connections.learn(walk, current, target, chosen, residue)
    residue_id = new_id()

    res = resonance.check_resonances(walk, residue, residue_id, target, now)
    drafts += res.events

    trace = Trace(
        id=new_id(),
        session_id=session.id,
        step_number=step_number,
        from_locus_id=current.id,
        to_locus_id=target.id,
        adjacencies_considered=len(candidates),
        selection_scores={
            **chosen.scores.as_dict(),
            "probability": round(float(probs[chosen_index]), 4),
            "distance": round(chosen.distance, 4),
            "strategy": chosen.strategy,
            "why": chosen.why,
            **({"ca": ca_state} if ca_state else {}),
        },
        selection_reason=f"{chosen.why or chosen.strategy} ({chosen.strategy}): {chosen.reason}; rank {chosen_index + 1} of {len(candidates)}, "
        f"p={probs[chosen_index]:.3f} at T={session.temperature}",
        model_used=residue.model_used,
        tokens_used=residue.tokens_used,
        cost_cents=residue.cost_cents,
        worker_id=ctx.worker_id,
        created_at=now,
    )

    # Memory layers: the encounter enters HOT; HOT over its limit compresses into WARM;
    # cold WARM becomes COMPOST. Worked out on a copy, applied after the commit.
    hot_before = list(walk.hot)
    walk.hot = hot_before + [
        HotItem(
            step_number,
            residue_id,
            current.concept,
            target.concept,
            list(target.domains),
            list(residue.themes),
            _themes_vector(residue, target),
            residue.interestingness,
        )
    ]
    mem = tiers.compress(walk, ctx.hot_limit, now)
    mem = tiers.decay(walk, now, mem)
    hot_after, walk.hot = walk.hot, hot_before

    # The walk as it will be once this step is in, for crystallization to ruminate over.
    advanced = copy.copy(session)
    advanced.step_count = step_number
    advanced.current_locus_id = target.id
    advanced.last_step_at = now
    advanced.pending_injection = None
    usage = {
        "local_calls": int(residue.route == "local"),
        "cloud_calls": int(residue.route == "cloud"),
        "cloud_spent_cents": residue.cost_cents if residue.route == "cloud" else 0,
    }
    crystal = None
    trigger = None
    # A crystal only from a confirmed resonance (just confirmed, or reinforced again once
    # confirmed) or a strong locus, and at most one in each stretch of CRYSTALLIZE_EVERY steps.
    if may_crystallize(step_number, walk.last_crystallize_step):
        confirmed = (
            res.confirmed[0]
            if res.confirmed
            else (res.matched if res.matched is not None and res.matched.status == "confirmed" else None)
        )
        if confirmed is not None:
            trigger = ("resonance", confirmed)
        elif residue.interestingness >= STRONG_LOCUS:
            trigger = ("locus", None)
    if trigger is not None:
        walk.last_crystallize_step = step_number
        left = model_spend.budget_left(session, usage["cloud_spent_cents"] + spend.cloud_cents)
        outcome = await ctx.crystallizer.crystallize(
            _preview(walk, target, new_loci), trigger[0], target, trigger[1], budget_cents=left
        )
        crystal = outcome.crystal
        drafts += outcome.events
        spend.add_all(outcome.rumination.spend)
    usage = spend.into(usage)
    advanced.local_calls = session.local_calls + usage["local_calls"]
    advanced.cloud_calls = session.cloud_calls + usage["cloud_calls"]
    advanced.cloud_spent_cents = session.cloud_spent_cents + usage["cloud_spent_cents"]

    drafts += [
        ev.draft(
            AdjacenciesFoundPayload(
                session_id=session.id,
                step_number=step_number,
                from_locus_id=current.id,
                candidates=[ev.candidate_summary(c, float(p)) for c, p in zip(candidates, probs)],
            )
        ),
        ev.draft(
            LocusVisitedPayload(
                session_id=session.id, step_number=step_number, locus=ev.locus_summary(target), new=bool(new_loci)
            )
        ),
        ev.draft(
            StepCompletedPayload(
                session_id=session.id,
                step_number=step_number,
                from_locus=ev.locus_summary(current),
                to_locus=ev.locus_summary(target),
                trace_id=trace.id,
                residue=ev.residue_summary(residue),
                selection_reason=trace.selection_reason,
                resonances_detected=res.detected,
                strategy=chosen.strategy,
                why=chosen.why,
                bridges=learned.bridges,
                contradictions=learned.contradictions,
            )
        ),
    ]
    budget = session.cloud_budget_cents
    if budget > 0 and session.cloud_spent_cents < 0.8 * budget <= advanced.cloud_spent_cents:
        drafts.append(
            ev.draft(
                BudgetLowPayload(
                    session_id=session.id,
                    spent_cents=advanced.cloud_spent_cents,
                    budget_cents=budget,
                    share=round(advanced.cloud_spent_cents / budget, 4),
                )
            )
        )

    tripped = None
    if step_number >= session.max_steps:
        advanced.status, advanced.completed_at, advanced.stopped_reason = SessionStatus.COMPLETED, now, "max_steps"
        drafts.append(
            ev.draft(
                SessionCompletedPayload(
                    session_id=session.id, status="completed", reason="max_steps", step_count=step_number
                )
            )
        )
    else:
        targets = [b.id for _, b in walk.relations[-breakers.LOOP_WINDOW :]] + [target.id]
        # only the window's loci are named
        concepts = {i: walk.by_id[i].concept for i in targets if i in walk.by_id} | {target.id: target.concept}
        for check in (
            breakers.budget_exhausted(advanced),
            breakers.loop_detected(targets, concepts),
            breakers.drift_exceeded(advanced, target),
            breakers.checkpoint_due(advanced, step_number),
        ):
            if check:
                tripped = check[0]
                advanced.status, advanced.stopped_reason = SessionStatus.PAUSED, check[0]
                if check[0] != "checkpoint":
                    drafts.append(
                        ev.draft(
                            CircuitTrippedPayload(
                                session_id=session.id, reason=check[0], detail=check[1], step_number=step_number
                            )
                        )
                    )
                drafts.append(
                    ev.draft(
                        SessionPausedPayload(
                            session_id=session.id,
                            status="paused",
                            reason=check[0],
                            detail=check[1],
                            step_count=step_number,
                        )
                    )
                )
                break

    committed = await ctx.store.commit_step(
        StepCommit(
            session=advanced,
            expected_step_count=session.step_count,
            usage=usage,
            new_loci=new_loci,
            visited_locus=target,
            trace=trace,
            residue=residue,
            residue_id=residue_id,
            events=drafts,
            resonances=res.changed,
            resonance_bases=res.bases if guard_resonances else {},
            warm_new=mem.warm_new,
            warm_updated=mem.warm_updated,
            warm_to_compost=mem.warm_to_compost,
            crystal=crystal,
            consumed_injection=session.pending_injection if injected is not None else None,
        )
    )
    # Only after the commit does the in-memory walk move on.
    walk.session = advanced
    if new_loci:
        walk.add_locus(target)
    else:
        walk.by_id[target.id].__dict__.update(target.__dict__)
    walk.relations.append((current, walk.by_id[target.id]))
    walk.recent_themes.extend(residue.themes)
    walk.hot = hot_after
    tiers.apply(walk, mem)
    resonance.apply(walk, res)
    return StepResult(
        step_number,
        current,
        target,
        residue,
        candidates,
        chosen,
        float(probs[chosen_index]),
        committed,
        res.detected,
        crystal,
        tripped,
    )


def _themes_vector(residue: Residue, target: Locus) -> np.ndarray:
    v = residue.themes_embedding if residue.themes_embedding is not None else target.embedding
    return np.asarray(v, dtype=np.float32)


def _preview(walk: Walk, target: Locus, new_loci: list[Locus]) -> Walk:
    """A shallow view of the walk with this step's new locus in it (nothing is committed)."""
    view = copy.copy(walk)
    if new_loci:
        view.loci = [*walk.loci, target]
    return view
