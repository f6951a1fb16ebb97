"""Read models of the SANDWICH corpus (004): what the store reads back about sandwiches,
foraging runs and their log, and the analysis queries' rows, as typed plain data. No I/O.

Each class holds one query's row, its fields named as the query's columns. Ids and times are
text (ISO 8601) and numbers plain floats and ints, as the faces print them: a class turned
into a dict (dataclasses.asdict) is the JSON the API and the CLI have always given."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class SandwichRow:
    """A stored sandwich without its embeddings (the sandwiches table's columns, in order)."""

    id: str
    name: str
    description: str
    created_at: str
    validity_score: float
    bread_compat_score: float
    containment_score: float
    nontrivial_score: float
    novelty_score: float
    bread_top: str
    bread_bottom: str
    filling: str
    source_id: str | None
    structural_type: str
    domains: list[str]
    origin: str  # forager | crystal
    crystal_id: str | None
    assembly_rationale: str
    validation_rationale: str
    reuben_commentary: str


@dataclass(frozen=True)
class SimilarSandwich:
    """A hit of the vector similarity search over the sandwiches (004 5.3)."""

    id: str
    name: str
    description: str
    bread_top: str
    filling: str
    bread_bottom: str
    similarity: float


@dataclass(frozen=True)
class TypeExample:
    """The corpus's best sandwich of one structural type (the pedagogical mode's example)."""

    structural_type: str
    name: str
    bread_top: str
    filling: str
    bread_bottom: str
    v: float


@dataclass(frozen=True)
class ForageLogRow:
    """One attempt of the foraging log, with the kind and title of its source."""

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


@dataclass(frozen=True)
class ForageRunRow:
    """A foraging run as stored (the foraging_runs table's columns, in order)."""

    id: str
    mode: str  # autonomous | directed
    target: str | None
    patience: int
    status: str
    attempts: int
    made: int
    event_seq: int
    started_at: str
    finished_at: str | None


# ---- the analysis queries of 004 (7, 8.1) ------------------------------------------------------


@dataclass(frozen=True)
class TypeDistributionRow:
    structural_type: str
    sandwich_count: int
    avg_validity: float
    min_validity: float
    max_validity: float


@dataclass(frozen=True)
class IngredientFrequencyRow:
    text: str
    ingredient_type: str  # bread | filling
    usage_count: int


@dataclass(frozen=True)
class ValidityOverTimeRow:
    day: str
    sandwiches: int
    avg_validity: float
    avg_novelty: float


@dataclass(frozen=True)
class ForagingEfficiencyRow:
    run_id: str
    mode: str
    started_at: str
    foraging_attempts: int
    sandwiches_made: int
    success_rate: float  # percent, 2 decimals


@dataclass(frozen=True)
class CrossDomainBreadRow:
    bread_concept: str
    domain_count: int
    domains: list[str]


@dataclass(frozen=True)
class MetricInputs:
    """The raw figures behind 8.1's metrics (wander.core.sandwich.analysis.metrics)."""

    attempts: int
    made: int
    sandwiches: int
    mean_validity: float | None  # None while no sandwich is accepted
    unique_ingredients: int
    types_used: int
    cross_domain: int
    novelty_series: list[float] = field(default_factory=list)  # by creation, oldest first


@dataclass(frozen=True, eq=False)  # arrays do not compare to one bool
class UnstoredCrystal:
    """A wander's crystal (not invalidated) with its two bread loci, not yet a sandwich."""

    id: str
    insight: str
    validity: dict | None  # the sandwich gate's V breakdown, filling and reasons
    structural_type: str | None
    domains: list[str] | None
    bread_a: str
    bread_a_embedding: np.ndarray
    bread_a_domains: list[str] | None
    bread_b: str
    bread_b_embedding: np.ndarray
    bread_b_domains: list[str] | None
