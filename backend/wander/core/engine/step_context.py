"""What a step works with (the ports and the crystallizer) and what it gives back."""

from __future__ import annotations

from dataclasses import dataclass, field

from wander.core.domain.models import Candidate, Crystal, Event, Locus, Residue
from wander.core.engine import tiers
from wander.core.engine.crystallizer import Crystallizer
from wander.core.engine.ports import CAKernel, Clock, ConceptProposer, Dweller, Embedder, EventBus, StepStore


@dataclass
class StepContext:
    store: StepStore  # the step starts and commits through it
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
