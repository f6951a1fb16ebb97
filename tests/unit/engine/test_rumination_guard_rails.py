"""Rumination guard rails (003) with a scripted ruminator and an in-memory evidence store."""

import numpy as np
import pytest

from wander.core.domain.models import Session
from wander.core.domain.views import EvidenceItem
from wander.core.engine import rumination as rum
from wander.core.engine.ports import RuminationReply


class EvidenceStore:
    """Store.lens_evidence only: each lens answers with fixed items (or nothing)."""

    def __init__(self, per_lens=2, empty=(), sim=0.7, repeat=(), sims=None):
        self.per_lens, self.empty, self.sim, self.calls = per_lens, set(empty), sim, []
        self.repeat, self.sims = set(repeat), sims or {}

    async def lens_evidence(self, session, lens, vector, k):
        self.calls.append(lens)
        if lens in self.empty:
            return []
        if lens in self.repeat:  # answers with what the loci lens returned already
            return [EvidenceItem("loci-0", "locus", "loci item 0", self.sim)]
        sim = self.sims.get(lens, self.sim)
        return [EvidenceItem(f"{lens}-{i}", lens, f"{lens} item {i}", sim) for i in range(self.per_lens)]


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
    store = EvidenceStore(per_lens=1, sim=0.2, repeat=set(rum.LENSES[-3:]))  # distant: the gap stays open
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
    # Rich, close evidence everywhere else: the two empty lenses have the largest gaps.
    store = EvidenceStore(per_lens=5, sim=0.95, empty={"crystals", "compost"})
    result = await rum.ruminate(store, SESSION, "x", V, rum.OfflineRuminator())
    assert result.decision == "crystallize"
    assert not any("rejected" in s for s in result.steps)
    absent = [f for f in result.findings if "confirmed absence" in f]
    assert any(f.startswith("crystals") for f in absent)
    assert {s["lens"] for s in result.steps[:2]} == {"crystals", "compost"}
    assert len({s["lens"] for s in result.steps}) >= rum.MIN_LENSES


def item(i, sim, kind="x"):
    return EvidenceItem(i, kind, i, sim)


def test_the_next_lens_is_the_largest_gap_among_those_not_covered():
    probe = {lens: [item(f"{lens}-{i}", 0.8) for i in range(5)] for lens in rum.LENSES}
    probe["failed_paths"] = [item("fp-0", 0.35)]  # far and thin: the widest gap
    lens, parts, gaps = rum.next_lens(probe, {})
    assert lens == "failed_paths" and gaps[lens] == max(gaps.values())
    assert parts["semantic"] == pytest.approx(0.65) and parts["quality"] == pytest.approx(0.8)
    # once explored, it is not offered again while other lenses are open
    lens2, _, gaps2 = rum.next_lens(probe, {"failed_paths": probe["failed_paths"]})
    assert lens2 != "failed_paths" and "failed_paths" not in gaps2


def test_a_lens_of_only_unrelated_items_has_the_gap_of_an_empty_one():
    unrelated = [item(f"c{i}", 0.12) for i in range(5)]  # earlier crystals about other things
    gap, parts = rum.lens_gap(unrelated, set())
    assert parts == {"semantic": pytest.approx(0.88), "quality": 0.0, "structural": 0.0}
    assert gap == pytest.approx(0.4 * 0.88) and gap < rum.lens_gap([], set())[0]
    # one relevant item among them: thin and orphaned count again
    gap_one, parts_one = rum.lens_gap([*unrelated[:4], item("c4", 0.5)], set())
    assert parts_one["quality"] == pytest.approx(0.8) and parts_one["structural"] == 1.0
    assert gap_one > rum.lens_gap([], set())[0]


def test_a_residue_covered_through_one_facet_is_no_orphan_in_the_others():
    facet = {f: [item(f"r{i}#{f}", 0.6) for i in range(5)] for f in ("connection", "tension")}
    gap_open, parts_open = rum.lens_gap(facet["tension"], set())
    gap_covered, parts_covered = rum.lens_gap(facet["tension"], {f"r{i}" for i in range(5)})
    assert parts_open["structural"] == 1.0 and parts_covered["structural"] == 0.0
    assert gap_covered == pytest.approx(gap_open - 0.3)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_first_lens_follows_the_evidence_not_a_list(seed):
    rng = np.random.default_rng(seed)
    firsts = set()
    for _ in range(10):
        sims = {lens: float(rng.uniform(0.3, 0.95)) for lens in rum.LENSES}
        store = EvidenceStore(per_lens=int(rng.integers(1, 6)), sims=sims)
        result = await rum.ruminate(store, SESSION, "x", V, rum.OfflineRuminator())
        first = result.steps[0]["lens"]
        assert first == max(rum.LENSES, key=lambda k: (1 - sims[k], -rum.LENSES.index(k)))
        firsts.add(first)
        assert len({s["lens"] for s in result.steps}) >= rum.MIN_LENSES and len(result.steps) <= rum.MAX_STEPS
    assert len(firsts) >= 3


def test_composite_gap_weights():
    gap, parts = rum.composite_gap({})
    assert gap == 1.0 and parts == {"semantic": 1.0, "quality": 1.0, "structural": 1.0}
    full = {lens: [EvidenceItem(f"{lens}-{i}", lens, "x", 1.0) for i in range(2)] for lens in rum.LENSES}
    assert rum.composite_gap(full)[0] == 0.0
