"""Rumination guard rails (003) with a scripted ruminator and an in-memory evidence store."""

import numpy as np

from wander.domain.models import Session
from wander.domain.views import EvidenceItem
from wander.engine import rumination as rum
from wander.engine.ports import RuminationReply


class EvidenceStore:
    """Store.lens_evidence only: each lens answers with fixed items (or nothing)."""

    def __init__(self, per_lens=2, empty=(), sim=0.7):
        self.per_lens, self.empty, self.sim, self.calls = per_lens, set(empty), sim, []

    async def lens_evidence(self, session, lens, vector, k):
        self.calls.append(lens)
        if lens in self.empty:
            return []
        return [EvidenceItem(f"{lens}-{i}", lens, f"{lens} item {i}", self.sim) for i in range(self.per_lens)]


class Scripted:
    def __init__(self, fn):
        self.fn = fn

    async def ruminate(self, seed, turn):
        return self.fn(turn)


SESSION = Session(id="s", project_id="p", name="n", seed_concept="x", seed_embedding=np.ones(4) / 2)
V = np.ones(4, dtype=np.float32) / 2


def reply(turn, signal="CONTINUE", cited=None):
    ids = [e.id for e in turn.evidence][:1] if cited is None else cited
    return RuminationReply(finding=f"finding {turn.step}", monologue="...", cited_ids=ids, signal=signal)


async def test_premature_crystallize_is_refused_below_minimum_coverage():
    result = await rum.ruminate(EvidenceStore(), SESSION, "x", V, Scripted(lambda t: reply(t, "CRYSTALLIZE")))
    refused = [s for s in result.steps if "premature" in s.get("guard", "")]
    assert len(refused) == rum.MIN_LENSES - 1
    assert result.decision == "crystallize" and len(result.steps) == rum.MIN_LENSES


async def test_crystallization_is_forced_at_twelve_steps():
    never = Scripted(lambda t: reply(t, "CONTINUE"))
    # Thin, distant evidence keeps the gap open, so only the step limit ends it.
    result = await rum.ruminate(EvidenceStore(per_lens=1, sim=0.2), SESSION, "x", V, never)
    assert len(result.steps) == rum.MAX_STEPS == 12
    assert "forced" in result.steps[-1]["guard"] and result.decision == "crystallize"


async def test_stuck_is_detected_when_steps_bring_nothing_new():
    store = EvidenceStore(per_lens=1, empty=set(rum.LENSES[-3:]))
    result = await rum.ruminate(store, SESSION, "x", V, Scripted(lambda t: reply(t, "CONTINUE")))
    assert result.reason == "stuck"
    assert any("stuck" in s.get("guard", "") for s in result.steps)
    assert len(result.steps) < rum.MAX_STEPS


async def test_a_finding_citing_an_id_not_returned_is_rejected():
    def liar(t):
        return reply(t, "CONTINUE", cited=["invented-id"] if t.step == 2 else None)

    result = await rum.ruminate(EvidenceStore(), SESSION, "x", V, Scripted(liar))
    second = result.steps[1]
    assert "invented-id" in second["rejected"]
    assert "finding 2" not in result.findings
    assert "finding 1" in result.findings


async def test_offline_ruminator_cites_only_what_it_was_shown():
    store = EvidenceStore(empty={"crystals", "compost"})
    result = await rum.ruminate(store, SESSION, "x", V, rum.OfflineRuminator())
    assert result.decision == "crystallize"
    assert not any("rejected" in s for s in result.steps)
    absent = [f for f in result.findings if "confirmed absence" in f]
    assert any(f.startswith("crystals") for f in absent)
    assert len({s["lens"] for s in result.steps}) >= rum.MIN_LENSES


def test_composite_gap_weights():
    gap, parts = rum.composite_gap({})
    assert gap == 1.0 and parts == {"semantic": 1.0, "quality": 1.0, "structural": 1.0}
    full = {lens: [EvidenceItem(f"{lens}-{i}", lens, "x", 1.0) for i in range(2)] for lens in rum.LENSES}
    assert rum.composite_gap(full)[0] == 0.0
