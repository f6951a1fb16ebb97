"""The ports the engine depends on: adapters implement them; the engine imports only these.

knowledge: the concepts the wander walks; language: the models it thinks with; runtime: the
clock, the event bus and the CA's signal; store: the store by aggregate, what a step writes,
and what the faces read."""

from wander.core.engine.ports.knowledge import (
    RELATION_KINDS,
    BandSampler,
    ConceptRelations,
    Knowledge,
    KnowledgeConcept,
    RelatedConcept,
)
from wander.core.engine.ports.language import (
    ConceptProposer,
    Dweller,
    DwellRequest,
    Embedder,
    RuminationModel,
    RuminationReply,
    RuminationTurn,
)
from wander.core.engine.ports.runtime import (
    CAKernel,
    CASignal,
    Clock,
    EventBus,
)
from wander.core.engine.ports.store import (
    ControlStore,
    CrystalStore,
    EvidenceStore,
    FenceChange,
    InjectionChange,
    LocusStore,
    ReadStore,
    SessionControls,
    SessionStore,
    StepCommit,
    StepStore,
    Store,
    WalkState,
)

__all__ = [
    "BandSampler",
    "CAKernel",
    "CASignal",
    "Clock",
    "ConceptProposer",
    "ConceptRelations",
    "ControlStore",
    "CrystalStore",
    "DwellRequest",
    "Dweller",
    "Embedder",
    "EventBus",
    "EvidenceStore",
    "FenceChange",
    "InjectionChange",
    "Knowledge",
    "KnowledgeConcept",
    "LocusStore",
    "RELATION_KINDS",
    "ReadStore",
    "RelatedConcept",
    "RuminationModel",
    "RuminationReply",
    "RuminationTurn",
    "SessionControls",
    "SessionStore",
    "StepCommit",
    "StepStore",
    "Store",
    "WalkState",
]
