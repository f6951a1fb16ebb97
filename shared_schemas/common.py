"""Shapes that both the API bodies (models.py) and the event payloads (events.py) use."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SessionStatusName = Literal["active", "paused", "completed", "abandoned"]
SourceTypeName = Literal["SEED", "ADJACENT", "BRIDGED", "SERENDIPITOUS"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LocusOut(BaseModel):
    id: str
    concept: str
    domains: list[str]
    source_type: SourceTypeName
    kb_key: str | None
    visit_count: int
    abstraction_level: float
    novelty_score: float
    interestingness: float
    actionability: float
    uncertainty: float


class ResidueOut(BaseModel):
    connection: str
    tension: str
    bridge: str
    surprise: str
    possibility: str
    themes: list[str]
    interestingness: float
    actionability: float
    model_used: str


class CandidateOut(BaseModel):
    concept: str
    kb_key: str | None
    locus_id: str | None
    domains: list[str]
    strategy: str
    reason: str
    distance: float
    scores: dict[str, float]
    probability: float | None = None
    why: str = Field(
        default="",
        description="Why it was put forward: toward the attractor, bridge, analogy, tension, novelty or a person's hint.",
    )


class FenceAnchorOut(BaseModel):
    """One anchor of a wander's fence (its embedding stays on the server)."""

    concept: str
    action: Literal["include", "exclude"]


class BridgeLink(BaseModel):
    """A locus bridges to another across domains (000 wander_loci.bridges_to)."""

    locus_id: str
    concept: str
    bridge_type: str = Field(
        description="bridge concept, seed-attractor span, domain crossing (the step that reached it) "
        "or near across domains (an earlier locus off the path)"
    )
    strength: float
    domains: list[str] = Field(default_factory=list, description="the other locus's domains, then this one's")
    via: str | None = Field(default=None, description="what crosses, as the dweller said it")


class ContradictionLink(BaseModel):
    """A locus contradicts another (000 wander_loci.contradicts): the tension, in words."""

    locus_id: str
    concept: str
    tension_description: str
