"""The wire contract of what the mind map asks for besides the event stream: where a wander's
attractor lies among its loci (GET /api/v1/wander/sessions/{id}/attractor)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AttractorLocusOut(BaseModel):
    locus_id: str
    similarity: float = Field(description="Cosine similarity of the locus's embedding to the attractor's.")


class AttractorOut(BaseModel):
    """The loci nearest a wander's attractor, nearest first: the map marks the attractor
    toward them (it is a direction in meaning, not a place on the map)."""

    attractor: str | None = Field(description="The wander's attractor; null when it has none (then no loci).")
    nearest: list[AttractorLocusOut]
    seed_similarity: float | None = Field(
        default=None, description="The seed locus's similarity to the attractor: what the walk started from."
    )


MAP_MODELS = (AttractorLocusOut, AttractorOut)
