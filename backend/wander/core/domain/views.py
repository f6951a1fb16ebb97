"""Read models: what the faces read back about a wander, as typed plain data. No I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class StepView:
    """One step of a walk as stored: the trace, the concepts of its two loci, and its
    residue (the facets are None where a step has no residue)."""

    id: str
    session_id: str
    step_number: int
    from_locus_id: str | None
    to_locus_id: str
    from_concept: str | None
    to_concept: str
    to_domains: list[str] = field(default_factory=list)
    adjacencies_considered: int | None = None
    selection_scores: dict[str, Any] = field(default_factory=dict)
    selection_reason: str | None = None
    model_used: str | None = None
    tokens_used: int | None = None
    cost_cents: int = 0
    worker_id: str | None = None
    created_at: datetime | None = None
    connection: str | None = None
    tension: str | None = None
    bridge: str | None = None
    surprise: str | None = None
    possibility: str | None = None
    themes: list[str] = field(default_factory=list)
    residue_interestingness: float | None = None
    residue_actionability: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    FACETS = ("connection", "tension", "bridge", "surprise", "possibility")

    @property
    def has_residue(self) -> bool:
        return self.connection is not None

    def facets(self) -> dict[str, str | None]:
        return {name: getattr(self, name) for name in self.FACETS}


@dataclass(frozen=True)
class SimilarItem:
    """A semantic search hit: a locus, crystal or resonance and its cosine similarity."""

    type: str
    id: str
    session_id: str | None
    text: str
    similarity: float


@dataclass(frozen=True)
class EvidenceItem:
    """What a rumination lens finds in the wander's graph (003): a node, its kind (locus,
    residue.<facet>, resonance, crystal, failed_path, compost, constraint), a short summary
    and its cosine similarity to the stimulus (0 for constraints without a vector)."""

    id: str
    type: str
    summary: str
    sim: float


@dataclass(frozen=True)
class StoredProjection:
    """A wander's stored 2-D fit: {locus_id: [x, y]} for the loci it was fitted on."""

    session_id: str
    fit_id: str
    method: str  # umap | pca
    points: dict[str, list[float]]
    n_loci: int
    created_at: datetime | None


@dataclass(frozen=True)
class KnowledgeSource:
    """A source loaded into the knowledge base (the shipped corpus, an imported path)."""

    source: str
    fingerprint: str
    concepts: int
    embedder: str
    loaded_at: datetime | None
