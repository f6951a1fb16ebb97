"""Gap-driven rumination (seed 003) over the wander's own graph before a crystal forms.

The lenses are the node types the wander has: loci, the five residue facets, resonances,
crystals, failed paths, constraints (fences and budgets) and compost. The rumination first
queries every lens once (003's initial exploration); then each step explores the lens with
the largest gap among those not covered yet, that gap computed from what the lens returned
against what the lenses explored before it covered (lens_gap), records a finding (or a
confirmed absence) and a monologue, recomputes the composite gap

    gap = 0.4 semantic + 0.3 quality + 0.3 structural

and the ruminator signals [CONTINUE] or [CRYSTALLIZE]. Guard rails: no crystallizing before
MIN_LENSES lenses are explored (a premature signal is refused), crystallization forced at
MAX_STEPS, stuck detection (two steps whose answers repeat what was found), and a finding may only cite
ids that the queries returned (otherwise it is rejected)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from wander.core.domain.models import Session
from wander.core.domain.views import EvidenceItem
from wander.core.engine.model_spend import Spend
from wander.core.engine.ports import EvidenceStore, RuminationModel, RuminationReply, RuminationTurn

LENSES = (
    "loci",
    "connection",
    "tension",
    "bridge",
    "surprise",
    "possibility",
    "resonances",
    "crystals",
    "failed_paths",
    "constraints",
    "compost",
)
MIN_LENSES = 8
MAX_STEPS = 12
GAP_CLOSED = 0.45
EVIDENCE_K = 5
RELEVANT = 0.3  # evidence at least this similar to the stimulus counts as substantial


@dataclass
class RuminationResult:
    decision: str  # crystallize | abort
    reason: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    # id -> item, all returned; plain records, as the crystal keeps them (supporting_evidence)
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    coverage: float = 0.0
    final_gap: float = 1.0
    insight: str | None = None
    spend: Spend = field(default_factory=Spend)  # what the model's turns cost (engine.model_spend)


def composite_gap(explored: dict[str, list[EvidenceItem]]) -> tuple[float, dict[str, float]]:
    """0.4 semantic (how far the best evidence is from the stimulus) + 0.3 quality (share of
    explored lenses with thin evidence) + 0.3 structural (share of lenses not explored)."""
    structural = 1.0 - len(explored) / len(LENSES)
    if explored:
        bests = [max((e.sim for e in ev), default=0.0) for ev in explored.values()]
        semantic = float(np.clip(1.0 - np.mean(bests), 0.0, 1.0))
        thin = [sum(1 for e in ev if e.sim >= RELEVANT) < 2 for ev in explored.values()]
        quality = float(np.mean(thin))
    else:
        semantic, quality = 1.0, 1.0
    parts = {"semantic": semantic, "quality": quality, "structural": structural}
    return 0.4 * semantic + 0.3 * quality + 0.3 * structural, parts


def _node(item_id: str) -> str:
    """The graph node an evidence item belongs to: a residue's five facets are one residue."""
    return item_id.split("#", 1)[0]


def _measurable(evidence: list[EvidenceItem]) -> list[EvidenceItem]:
    """Items whose similarity means something (the budget line of the constraints lens has none)."""
    return [e for e in evidence if e.type != "constraint" or e.id.startswith("fence:")]


def lens_gap(evidence: list[EvidenceItem], covered: set[str] | frozenset[str]) -> tuple[float, dict[str, float]]:
    """One lens's composite gap, 0.4 semantic + 0.3 quality + 0.3 structural, from what it
    returned and what the lenses explored before it covered:
    semantic, how poorly its best item fits the stimulus (1 - its similarity); quality, the
    share of its answer that is not relevant evidence (of EVIDENCE_K slots); structural, the
    share of its items whose node nothing organises yet (orphans: no lens explored so far
    touched it, and no crystal of the project holds it as evidence or is it). A lens that
    returned nothing has nothing that fits (semantic 1) and nothing to organise or complete;
    nor has one that returned only what is not relevant (below RELEVANT: earlier crystals
    about other things, say), whose gap is its semantic part alone: counted as thin and
    orphaned, unrelated items made such a lens outrank every lens with something to say, and
    the crystals lens opened nearly every rumination of a long wander."""
    items = _measurable(evidence)
    if not items:
        parts = {"semantic": 1.0, "quality": 0.0, "structural": 0.0}
    elif all(e.sim < RELEVANT for e in items):
        parts = {
            "semantic": float(np.clip(1.0 - max(e.sim for e in items), 0.0, 1.0)),
            "quality": 0.0,
            "structural": 0.0,
        }
    else:
        relevant = sum(1 for e in items if e.sim >= RELEVANT)
        parts = {
            "semantic": float(np.clip(1.0 - max(e.sim for e in items), 0.0, 1.0)),
            "quality": 1.0 - min(relevant, EVIDENCE_K) / EVIDENCE_K,
            "structural": sum(1 for e in items if _node(e.id) not in covered) / len(items),
        }
    return 0.4 * parts["semantic"] + 0.3 * parts["quality"] + 0.3 * parts["structural"], parts


def next_lens(
    probe: dict[str, list[EvidenceItem]],
    explored: dict[str, list[EvidenceItem]],
    organized: frozenset[str] = frozenset(),
) -> tuple[str, dict[str, float], dict[str, float]]:
    """The lens with the largest gap among those not covered yet (ties: LENSES order), with
    its parts and every open lens's gap; once all are covered, the one with the largest gap
    again (a second look, which stuck detection ends if it brings nothing new)."""
    covered = organized | {_node(e.id) for ev in explored.values() for e in ev}
    open_ = [lens for lens in LENSES if lens not in explored] or list(LENSES)
    gaps = {lens: lens_gap(probe.get(lens, []), covered) for lens in open_}
    lens = max(open_, key=lambda k: gaps[k][0])  # the first of equals
    return lens, gaps[lens][1], {k: round(g, 4) for k, (g, _) in gaps.items()}


class OfflineRuminator:
    """A ruminator without a model: findings read off the evidence, honest about absences."""

    async def ruminate(self, seed: str, turn: RuminationTurn, *, budget_cents: int | None = None) -> RuminationReply:
        ev = sorted(turn.evidence, key=lambda e: -e.sim)
        if ev:
            top = ev[:2]
            finding = f"{turn.lens}: " + "; ".join(f"{e.summary} ({e.type} {e.id[:8]}, cos {e.sim:.2f})" for e in top)
            cited = [e.id for e in top]
            monologue = (
                f"Looking at '{seed}' through {turn.lens}: {len(ev)} items answer, the closest at cos "
                f"{ev[0].sim:.2f}. {turn.gap}."
            )
        else:
            finding = f"{turn.lens}: confirmed absence, nothing of this kind near '{seed}'"
            cited = []
            monologue = f"Nothing in {turn.lens} speaks to '{seed}' yet; that absence is itself information."
        signal = "CRYSTALLIZE" if turn.coverage * len(LENSES) >= MIN_LENSES and turn.step >= MIN_LENSES else "CONTINUE"
        return RuminationReply(finding=finding, monologue=monologue, cited_ids=cited, signal=signal)


async def ruminate(
    store: EvidenceStore,
    session: Session,
    seed: str,
    vector: np.ndarray,
    model: RuminationModel,
    organized: frozenset[str] = frozenset(),
    budget_cents: int | None = None,
) -> RuminationResult:
    """`organized`: graph nodes the project's crystals already hold (their ids and the ids of
    their evidence), which are no orphans for the structural gap. `budget_cents`: the cloud
    budget the whole rumination may spend (each turn is given what is left of it); None:
    the model is not told of one (a rumination outside a step)."""
    explored: dict[str, list[EvidenceItem]] = {}
    result = RuminationResult(decision="abort", reason="")
    seen: set[str] = set()
    dry_steps = 0
    # 003's initial exploration: every lens queried once; what each returned, set against
    # what the lenses explored so far covered, is its gap.
    probe = {lens: await store.lens_evidence(session, lens, vector, EVIDENCE_K) for lens in LENSES}
    for step in range(1, MAX_STEPS + 1):
        gap_before, _ = composite_gap(explored)
        lens, parts, open_gaps = next_lens(probe, explored, organized)
        evidence = probe[lens] if lens not in explored else await store.lens_evidence(session, lens, vector, EVIDENCE_K)
        for e in evidence:
            result.evidence[e.id] = asdict(e)
        turn = _turn(step, lens, parts, open_gaps[lens], evidence, explored, result.findings)
        if budget_cents is None:
            reply = await model.ruminate(seed, turn)
        else:
            reply = await model.ruminate(seed, turn, budget_cents=max(0, budget_cents - result.spend.cloud_cents))
        result.spend.add(reply)
        returned = {e.id for e in evidence}
        record = _record(step, lens, gap_before, open_gaps, returned, reply)
        if "rejected" not in record:
            result.findings.append(reply.finding)
        explored[lens] = evidence
        new = returned - seen
        seen |= returned
        # a repeated answer brings nothing new; an absence, found once, is news (003)
        dry_steps = dry_steps + 1 if returned and not new else 0
        gap_after, _ = composite_gap(explored)
        record["gap_after"] = round(gap_after, 4)
        result.steps.append(record)
        if _settled(result, record, reply, len(explored), gap_after, dry_steps):
            break
    else:
        result.steps[-1]["guard"] = f"forced [CRYSTALLIZE] at {MAX_STEPS} steps"
        result.decision, result.reason = "crystallize", f"forced at {MAX_STEPS} steps"
    result.coverage = len(explored) / len(LENSES)
    result.final_gap = composite_gap(explored)[0]
    return result


def _turn(
    step: int,
    lens: str,
    parts: dict[str, float],
    gap: float,
    evidence: list[EvidenceItem],
    explored: dict[str, list[EvidenceItem]],
    findings: list[str],
) -> RuminationTurn:
    """What the ruminator is shown this step: the lens, why it (its gap), what it returned."""
    have = [k for k in LENSES if k in explored]
    gap_text = (
        f"gap {gap:.2f} at {lens} (semantic {parts['semantic']:.2f}, quality {parts['quality']:.2f}, "
        f"structural {parts['structural']:.2f}), the largest of the lenses not covered; "
        + (f"covered so far: {', '.join(have)}" if have else "nothing covered yet")
    )
    return RuminationTurn(
        step=step,
        lens=lens,
        gap=gap_text,
        evidence=evidence,
        findings_so_far=list(findings),
        coverage=len(set(explored) | {lens}) / len(LENSES),
    )


def _record(
    step: int, lens: str, gap_before: float, open_gaps: dict[str, float], returned: set[str], reply: RuminationReply
) -> dict[str, Any]:
    """The step as the crystal keeps it; a finding citing ids the queries did not return is
    marked rejected."""
    record: dict[str, Any] = {
        "step": step,
        "lens": lens,
        "gap_before": round(gap_before, 4),
        "lens_gaps": open_gaps,
        "evidence_ids": sorted(returned),
        "finding": reply.finding,
        "monologue": reply.monologue,
        "signal": reply.signal,
    }
    model_used = getattr(reply, "model_used", "")
    if model_used:  # which model ruminated (the heavy cloud model, a local one) and at what cost
        record["model"] = model_used
        record["route"] = getattr(reply, "route", "")
        record["cost_cents"] = getattr(reply, "cost_cents", 0)
    invented = [i for i in reply.cited_ids if i not in returned]
    if invented:
        record["rejected"] = f"cites ids the queries did not return: {invented}"
    return record


def _settled(
    result: RuminationResult,
    record: dict[str, Any],
    reply: RuminationReply,
    explored: int,
    gap_after: float,
    dry_steps: int,
) -> bool:
    """The guard rails: whether the rumination ends after this step (the decision and the
    reason set on `result`, a refused or stuck signal noted on `record`)."""
    enough = explored >= MIN_LENSES
    if reply.signal == "CRYSTALLIZE":
        if not enough:
            record["guard"] = f"premature [CRYSTALLIZE] refused: {explored} of {MIN_LENSES} lenses explored"
        else:
            result.decision, result.reason, result.insight = "crystallize", "signalled", reply.insight
            return True
    if enough and gap_after < GAP_CLOSED:
        result.decision, result.reason, result.insight = "crystallize", "gaps closed", reply.insight
        return True
    if dry_steps >= 2:
        record["guard"] = "stuck: two steps brought nothing new"
        result.decision = "crystallize" if enough else "abort"
        result.reason = "stuck"
        return True
    return False
