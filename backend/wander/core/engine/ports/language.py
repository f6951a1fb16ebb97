"""The models a wander thinks with: the embedder, the dweller, the proposer of adjacencies
and the ruminator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from wander.core.domain.models import Locus, Residue, Session
from wander.core.domain.views import EvidenceItem


class Embedder(Protocol):
    name: str

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalised float32 rows, one per text."""
        ...


@dataclass
class DwellRequest:
    session: Session  # carries the cloud budget and what has been spent of it
    current: Locus
    encountered: Locus
    recent_themes: list[str] = field(default_factory=list)
    active_resonances: list[str] = field(default_factory=list)
    # The routing rule's inputs (001 "Decision Logic").
    bridge_score: float = 0.0
    resonance_proximity: float = 0.0
    crystallization_candidate: bool = False
    # The walk's own history, loaded with it from the store (so any process taking the step
    # hears the same): the last steps' words by facet, oldest first, and the locus the step
    # before this one set out from (two steps back from where this one arrives).
    recent_facets: list[dict[str, str]] = field(default_factory=list)
    two_steps_back: Locus | None = None


class Dweller(Protocol):
    name: str

    async def dwell(self, request: DwellRequest) -> Residue:
        """A residue; route, tokens_used and cost_cents say what it cost. Never raises for a
        bad model answer: that comes back as a residue with failed=True and raw_output."""
        ...


class ConceptProposer(Protocol):
    """A model asked for adjacencies: analogies and tensions (returns concept names; a
    model's answer is engine.model_spend.Proposals, saying what it cost). budget_cents:
    the cloud budget a call may spend (None: no limit given)."""

    async def propose_analogies(
        self, a: str, b: str, c: str, n: int = 5, *, budget_cents: int | None = None
    ) -> list[str]:
        """'a is to b as c is to ?'"""
        ...

    async def propose_tensions(self, concept: str, n: int = 5, *, budget_cents: int | None = None) -> list[str]:
        """What stands in productive tension with the concept?"""
        ...


@dataclass
class RuminationTurn:
    """One step of a rumination (003), as shown to a model: what the queries returned."""

    step: int
    lens: str  # the node type being explored (loci, residues, resonances, ...)
    gap: str  # what is missing, in words
    evidence: list[EvidenceItem]  # the store's answer to this step's query
    findings_so_far: list[str]
    coverage: float  # share of lenses explored


@dataclass
class RuminationReply:
    finding: str
    monologue: str
    cited_ids: list[str]
    signal: str  # CONTINUE | CRYSTALLIZE
    insight: str | None = None  # the proposed crystal text when signal is CRYSTALLIZE
    spent: list[tuple[str, int, int]] = field(default_factory=list)  # (route, calls, cents) per model asked


class RuminationModel(Protocol):
    """budget_cents: the cloud budget the turn may spend; the engine passes it only when it
    has one (a rumination outside a step has none: no cloud)."""

    async def ruminate(
        self, seed: str, turn: RuminationTurn, *, budget_cents: int | None = None
    ) -> RuminationReply: ...
