"""One wander step (000 "Wander Step Algorithm"), stage by stage: adjacencies from four
strategies -> scope -> rank -> softmax select -> dwell -> resonance -> maybe crystallize ->
state -> memory layers -> events and breakers. The trace, residue, loci, resonances, memory,
crystal and events are committed in one transaction, and only then does the in-memory walk
move on."""

from __future__ import annotations

import copy
import itertools
from datetime import datetime
from typing import Any

import numpy as np

from shared_schemas.events import StepStartedPayload
from wander.core.domain.models import (
    Candidate,
    HotItem,
    Locus,
    Residue,
    ResonanceStatus,
    Session,
    Trace,
    new_id,
)
from wander.core.domain.themes import keep_themes
from wander.core.engine import connections, model_spend, resonance, step_events, tiers
from wander.core.engine import events as ev
from wander.core.engine.arrival import arrive
from wander.core.engine.ports import DwellRequest, StepCommit
from wander.core.engine.selection import Choice, choose
from wander.core.engine.step_context import StepContext, StepResult
from wander.core.engine.themes import degenerate_themes
from wander.core.engine.walk import Walk

STRONG_LOCUS = 0.8  # a residue this interesting calls for crystallization...
CRYSTALLIZE_EVERY = 25  # ...and so does a confirmed resonance, at most once in each stretch of this many steps
CRYSTAL_GAP = 12  # and this many steps apart at least, the walk's start included
ACTIVE_RESONANCES_SHOWN = 8  # the dweller hears of the first this many active resonances
RECENT_WORDS = 12  # ...and the words of the walk's last this many steps


def may_crystallize(step_number: int, last: int) -> bool:
    """At most one crystal in each stretch of CRYSTALLIZE_EVERY steps (1-25, 26-50, ...: four
    in a 100-step wander, the length a person often runs, and 12 in 300), CRYSTAL_GAP steps
    apart at least. The walk's start counts as the step before the first: a crystal from the
    first few steps had one or two loci to make bread of (69 of 334 crystallizations of 84
    100-step wanders came before step 15; most weighed a single sandwich, and 4 found no
    bread at all yet used up their stretch). A stretch whose first trigger came late still
    has its crystal, so a wander's crystals keep pace with its length instead of slipping a
    few steps each time (a fixed gap of 30 gave 8 where 10 fit)."""
    if last <= 0:
        return step_number >= CRYSTAL_GAP
    same_stretch = (step_number - 1) // CRYSTALLIZE_EVERY == (last - 1) // CRYSTALLIZE_EVERY
    return not same_stretch and step_number - last >= CRYSTAL_GAP


async def take_step(walk: Walk, ctx: StepContext, guard_resonances: bool = True) -> StepResult:
    """guard_resonances: the commit refuses (ResonanceMoved) when a resonance this step
    changed moved meanwhile; without it the step's version is written whole."""
    step_number = walk.session.step_count + 1
    current = walk.current
    await _announce(walk, ctx, step_number)
    session = walk.session
    spend = model_spend.Spend()  # the model helpers' (proposals, rumination), beside the dwelling's usage
    choice = await choose(walk, ctx, step_number, spend)  # 1-4: adjacencies, scope, rank, select
    drafts = step_events.fence_warning(session, step_number, choice.candidates)
    now = ctx.clock.now()
    target, new_loci, ca_state = arrive(walk, ctx, current, choice, now)
    residue = await _dwell(walk, ctx, current, target, choice.chosen, spend)  # 5: dwell
    learned = connections.learn(walk, current, target, choice.chosen, residue)
    residue_id = new_id()
    res = resonance.check_resonances(walk, residue, residue_id, target, now)  # 6: resonance
    drafts += res.events
    trace = _trace(ctx, session, step_number, current, target, choice, residue, ca_state, now)
    hot_after, mem = _memory_layers(walk, ctx, step_number, residue_id, current, target, residue, now)  # 9
    advanced = _advanced(session, target, step_number, now)  # 8: the state once this step is in
    usage = _dwelling_usage(residue)
    crystal = None
    if trigger := _crystal_trigger(walk, step_number, res, residue):  # 7: maybe crystallize
        walk.last_crystallize_step = step_number
        left = model_spend.budget_left(session, usage["cloud_spent_cents"] + spend.cloud_cents)
        outcome = await ctx.crystallizer.crystallize(
            _preview(walk, target, new_loci), trigger[0], target, trigger[1], budget_cents=left
        )
        crystal = outcome.crystal
        drafts += outcome.events
        spend.add_all(outcome.rumination.spend)
    usage = spend.into(usage)
    _charge(advanced, session, usage)
    drafts += step_events.completed(
        session, step_number, current, target, choice, trace, residue, res, learned, new_loci
    )
    drafts += step_events.budget_low(session, advanced)
    tripped, stopped = step_events.end_or_pause(walk, advanced, target, step_number, now)  # 10: circuit breakers
    drafts += stopped
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
            consumed_injection=session.pending_injection if choice.injected else None,
        )
    )
    _move_on(walk, advanced, current, target, bool(new_loci), residue, hot_after, mem, res)
    return StepResult(
        step_number,
        current,
        target,
        residue,
        choice.candidates,
        choice.chosen,
        choice.probability,
        committed,
        res.detected,
        crystal,
        tripped,
    )


async def _announce(walk: Walk, ctx: StepContext, step_number: int) -> None:
    """Live, before the step's work: its own small transaction, published at once; it also
    reads what a person changed meanwhile (a fence or an injection counts now)."""
    controls, started = await ctx.store.start_step(
        walk.session.id,
        [
            ev.draft(
                StepStartedPayload(session_id=walk.session.id, step_number=step_number, from_locus_id=walk.current.id)
            )
        ],
    )
    walk.session = controls.merged_into(walk.session)
    if ctx.bus is not None:
        await ctx.bus.publish(started)


async def _dwell(
    walk: Walk, ctx: StepContext, current: Locus, target: Locus, chosen: Candidate, spend: model_spend.Spend
) -> Residue:
    """The dweller's reflection on the encounter, within the budget the proposals left; the
    reached locus takes its interestingness and actionability."""
    proximity = resonance.proximity(walk, target.embedding)
    active = (r for r in walk.resonances if r.status != ResonanceStatus.INVALIDATED)
    residue = await ctx.dweller.dwell(
        DwellRequest(
            session=model_spend.charged(walk.session, spend),
            current=current,
            encountered=target,
            recent_themes=list(walk.recent_themes),
            active_resonances=[", ".join(r.themes[:4]) for r in itertools.islice(active, ACTIVE_RESONANCES_SHOWN)],
            bridge_score=chosen.scores.bridge_potential,
            resonance_proximity=proximity,
            crystallization_candidate=proximity > 0.8,
            recent_facets=[h.facets for h in walk.hot[-RECENT_WORDS:]],
            two_steps_back=_set_out_before(walk, current),
        )
    )
    # A theme every concept shares is not a theme, whichever dweller named it.
    residue.themes = keep_themes(residue.themes, degenerate_themes(walk.knowledge))
    target.interestingness = residue.interestingness
    target.actionability = residue.actionability
    return residue


def _trace(
    ctx: StepContext,
    session: Session,
    step_number: int,
    current: Locus,
    target: Locus,
    choice: Choice,
    residue: Residue,
    ca_state: dict[str, Any] | None,
    now: datetime,
) -> Trace:
    """The step's record: where from, where to, among how many, and why."""
    chosen, rank, p = choice.chosen, choice.index, choice.probability
    return Trace(
        id=new_id(),
        session_id=session.id,
        step_number=step_number,
        from_locus_id=current.id,
        to_locus_id=target.id,
        adjacencies_considered=len(choice.candidates),
        selection_scores={
            **chosen.scores.as_dict(),
            "probability": round(p, 4),
            "distance": round(chosen.distance, 4),
            "strategy": chosen.strategy,
            "why": chosen.why,
            **({"ca": ca_state} if ca_state else {}),
        },
        selection_reason=f"{chosen.why or chosen.strategy} ({chosen.strategy}): {chosen.reason}; rank {rank + 1} of {len(choice.candidates)}, "
        f"p={p:.3f} at T={session.temperature}",
        model_used=residue.model_used,
        tokens_used=residue.tokens_used,
        cost_cents=residue.cost_cents,
        worker_id=ctx.worker_id,
        created_at=now,
    )


def _memory_layers(
    walk: Walk,
    ctx: StepContext,
    step_number: int,
    residue_id: str,
    current: Locus,
    target: Locus,
    residue: Residue,
    now: datetime,
) -> tuple[list[HotItem], tiers.MemoryChange]:
    """The encounter enters HOT; HOT over its limit compresses into WARM; cold WARM becomes
    COMPOST. Worked out on a copy (the walk's HOT is left as it was): returns HOT as it will
    be and the change to apply after the commit."""
    hot_before = list(walk.hot)
    themes_vector = residue.themes_embedding if residue.themes_embedding is not None else target.embedding
    item = HotItem(
        step_number,
        residue_id,
        current.concept,
        target.concept,
        list(target.domains),
        list(residue.themes),
        np.asarray(themes_vector, dtype=np.float32),
        residue.interestingness,
        residue.facets(),
    )
    walk.hot = hot_before + [item]
    mem = tiers.compress(walk, ctx.hot_limit, now)
    mem = tiers.decay(walk, now, mem)
    hot_after, walk.hot = walk.hot, hot_before
    return hot_after, mem


def _advanced(session: Session, target: Locus, step_number: int, now: datetime) -> Session:
    """The session as it will be once this step is in (its usage is charged later)."""
    advanced = copy.copy(session)
    advanced.step_count = step_number
    advanced.current_locus_id = target.id
    advanced.last_step_at = now
    advanced.pending_injection = None
    return advanced


def _dwelling_usage(residue: Residue) -> dict[str, int]:
    return {
        "local_calls": int(residue.route == "local"),
        "cloud_calls": int(residue.route == "cloud"),
        "cloud_spent_cents": residue.cost_cents if residue.route == "cloud" else 0,
    }


def _crystal_trigger(
    walk: Walk, step_number: int, res: resonance.ResonanceOutcome, residue: Residue
) -> tuple[str, Any] | None:
    """A crystal only from a confirmed resonance (just confirmed, or reinforced again once
    confirmed) or a strong locus, and at most one in each stretch of CRYSTALLIZE_EVERY steps."""
    if not may_crystallize(step_number, walk.last_crystallize_step):
        return None
    confirmed = (
        res.confirmed[0]
        if res.confirmed
        else (res.matched if res.matched is not None and res.matched.status == "confirmed" else None)
    )
    if confirmed is not None:
        return ("resonance", confirmed)
    if residue.interestingness >= STRONG_LOCUS:
        return ("locus", None)
    return None


def _set_out_before(walk: Walk, current: Locus) -> Locus | None:
    """Where the step that reached CURRENT set out from."""
    if walk.relations and walk.relations[-1][1].id == current.id:
        return walk.relations[-1][0]
    return None


def _preview(walk: Walk, target: Locus, new_loci: list[Locus]) -> Walk:
    """A shallow view of the walk with this step's new locus in it (nothing is committed)."""
    view = copy.copy(walk)
    if new_loci:
        view.loci = [*walk.loci, target]
    return view


def _charge(advanced: Session, session: Session, usage: dict[str, int]) -> None:
    advanced.local_calls = session.local_calls + usage["local_calls"]
    advanced.cloud_calls = session.cloud_calls + usage["cloud_calls"]
    advanced.cloud_spent_cents = session.cloud_spent_cents + usage["cloud_spent_cents"]


def _move_on(
    walk: Walk,
    advanced: Session,
    current: Locus,
    target: Locus,
    is_new: bool,
    residue: Residue,
    hot_after: list[HotItem],
    mem: tiers.MemoryChange,
    res: resonance.ResonanceOutcome,
) -> None:
    """Only after the commit does the in-memory walk move on."""
    walk.session = advanced
    if is_new:
        walk.add_locus(target)
    else:
        walk.by_id[target.id].__dict__.update(target.__dict__)
    walk.relations.append((current, walk.by_id[target.id]))
    walk.recent_themes.extend(residue.themes)
    walk.hot = hot_after
    tiers.apply(walk, mem)
    resonance.apply(walk, res)
