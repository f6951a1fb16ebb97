"""The wire contract of SANDWICH's REST calls: a foraging run and its log, a person's verdict
on a marginal sandwich, a question about the corpus, and the corpus's metrics
(GET /api/v1/sandwich/metrics). Exported with the API's models (models.EXPORTED)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from shared_schemas.common import Strict


class ForageRequest(Strict):
    """POST /api/v1/sandwich/forage: autonomous without source/topic; directed with one."""

    patience: int = Field(default=5, ge=1, le=100, description="Failures in a row before the forager rests.")
    source: str | None = Field(
        default=None,
        max_length=4000,
        description="A file or folder path, a URL, or an online source: `wikipedia:QUERY`, `arxiv:`, `feed:URL`, "
        "`stackexchange:QUERY`, `gutenberg:QUERY`, `ckan:QUERY`, `search:` (QUERY empty: the source's own pick).",
    )
    topic: str | None = Field(default=None, min_length=1, max_length=2000)
    max_attempts: int = Field(default=20, ge=1, le=500)
    seed: int | None = Field(default=None, ge=0, lt=2**32, description="Random seed of the autonomous forager.")
    depth: int | None = Field(
        default=None, ge=0, le=5, description="Wandering: links followed this deep (default WANDER_FORAGE_DEPTH)."
    )
    pages: int | None = Field(
        default=None, ge=0, le=200, description="Wandering: pages reached in all (default WANDER_FORAGE_PAGES)."
    )


class ForageRunOut(BaseModel):
    """POST /api/v1/sandwich/forage: what one foraging run did."""

    run_id: str
    mode: str = Field(description="autonomous | directed")
    attempts: int
    made: int = Field(description="Sandwiches stored by this run.")
    outcomes: dict[str, int] = Field(description="Attempts per outcome (success, no_bread, trivial, ...).")
    sandwich_ids: list[str]
    status: str
    farewell: str = Field(description="What the forager says when it rests.")


class ForageLogEntry(BaseModel):
    """One attempt in the foraging log (004's table): GET /api/v1/sandwich/log."""

    id: str
    ts: str
    run_id: str
    source_ref: str | None
    source_kind: str | None
    source_title: str | None
    curiosity_prompt: str
    outcome: str
    outcome_rationale: str
    sandwich_id: str | None


class ReviewDecision(Strict):
    """POST /api/v1/sandwich/reviews/{id}/accept|reject: a person's verdict on a marginal sandwich."""

    reviewer: str = Field(min_length=1, max_length=200, description="Who decides.")
    note: str = Field(default="", max_length=2000, description="Why (optional).")


class CorpusQuestion(Strict):
    """POST /api/v1/sandwich/ask: a question about the existing sandwiches (reflective mode)."""

    question: str = Field(min_length=1, max_length=2000, description="e.g. 'which ingredients are reused most?'")


# ---- SANDWICH corpus analysis (004, 5.3 / 7 / 8.1): GET /api/v1/sandwich/metrics ----


class MetricValue(BaseModel):
    value: float | None = Field(description="None while the corpus has too little to say.")
    target: str = Field(description="004 8.1's target, e.g. '> 0.3'.")
    met: bool | None


class TypeCount(BaseModel):
    structural_type: str
    sandwich_count: int
    avg_validity: float
    min_validity: float
    max_validity: float


class IngredientCount(BaseModel):
    text: str
    ingredient_type: Literal["bread", "filling"]
    usage_count: int


class ValidityPoint(BaseModel):
    day: str
    sandwiches: int
    avg_validity: float
    avg_novelty: float


class RunEfficiency(BaseModel):
    run_id: str
    mode: str
    started_at: str
    foraging_attempts: int
    sandwiches_made: int
    success_rate: float


class CrossDomainBread(BaseModel):
    bread_concept: str
    domain_count: int
    domains: list[str]


class SandwichMetrics(BaseModel):
    metrics: dict[str, MetricValue]
    counts: dict[str, int]
    outcomes: dict[str, int]
    type_distribution: list[TypeCount]
    ingredient_frequency: list[IngredientCount]
    validity_over_time: list[ValidityPoint]
    foraging_efficiency: list[RunEfficiency]
    cross_domain_breads: list[CrossDomainBread]


# In the generated files (ReviewDecision is the API's alone: it is in its OpenAPI document).
SANDWICH_MODELS: tuple[type[BaseModel], ...] = (
    ForageRequest,
    ForageRunOut,
    ForageLogEntry,
    CorpusQuestion,
    MetricValue,
    TypeCount,
    IngredientCount,
    ValidityPoint,
    RunEfficiency,
    CrossDomainBread,
    SandwichMetrics,
)
