"""The wire contract of the SANDWICH corpus's pictures (004 7.3: GET /api/v1/sandwich/charts)
and of the review queue's rows (GET /api/v1/sandwich/reviews): what the analysis and review
pages draw."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class NetworkNode(BaseModel):
    """A sandwich in the network graph."""

    id: str
    name: str
    structural_type: str
    validity: float
    origin: str
    bread_top: str
    filling: str
    bread_bottom: str


class NetworkEdge(BaseModel):
    """A relation between two sandwiches (sandwich_relations), both among the graph's nodes."""

    source: str
    target: str
    relation_type: str
    similarity: float


class SandwichNetwork(BaseModel):
    nodes: list[NetworkNode]
    edges: list[NetworkEdge]
    relation_types: list[str] = Field(description="the relation types among the edges, sorted")
    total_sandwiches: int = Field(description="sandwiches in the corpus (the graph shows the newest `nodes`)")


class HierarchyNode(BaseModel):
    """A node of a tree (treemap, sunburst): its name, its value (a leaf's own; an inner node's
    is the sum of its children's), its children, and for a leaf sandwich its id and V."""

    name: str
    value: float
    children: list[HierarchyNode] = []
    id: str | None = None
    validity: float | None = None


class ValidityHistogram(BaseModel):
    """Validity scores binned (bin i holds bin_edges[i] <= V < bin_edges[i] + bin_width, the
    last bin includes 1.0), one row of counts per period (oldest first)."""

    bin_edges: list[float]
    bin_width: float
    period: str = Field(description="'day', or 'hour' when every score falls on one day")
    periods: list[str]
    counts: list[list[int]] = Field(description="counts[period][bin]")
    accept: float
    review: float
    scores: int = Field(description="how many scores are counted (corpus sandwiches and queued marginal ones)")


class HeatCell(BaseModel):
    domain: str
    structural_type: str
    count: int


class DomainStructureHeatmap(BaseModel):
    domains: list[str] = Field(description="the domains with most sandwiches, most first")
    types: list[str] = Field(description="the structural types, the taxonomy's order")
    cells: list[HeatCell] = Field(description="the non-zero cells")


class EfficiencyPoint(BaseModel):
    """A foraging run on the timeline: its attempts, what came of them, and its success rate."""

    run_id: str
    started_at: str
    mode: str
    attempts: int
    made: int
    rate: float | None = Field(description="made / attempts (None: no attempt logged)")
    outcomes: dict[str, int]


class SandwichCharts(BaseModel):
    network: SandwichNetwork
    # (no Field descriptions on the trees: a described $ref becomes a copy of the TypeScript type)
    ingredients: HierarchyNode  # ingredient role -> domain -> ingredient, valued by use count
    types: HierarchyNode  # (parent type ->) structural type -> sandwich, one per sandwich
    type_parents: bool = Field(description="whether a structural type sits inside its parent type (structural_types)")
    validity: ValidityHistogram
    heatmap: DomainStructureHeatmap
    efficiency: list[EfficiencyPoint] = Field(description="foraging runs, oldest first")


class SandwichReviewOut(BaseModel):
    """A marginal sandwich (0.5 <= V < 0.7) in the review queue, and its decision once made."""

    id: str
    created_at: str
    run_id: str | None
    source_id: str | None
    name: str
    description: str
    heuristic: str
    structural_type: str
    validity_score: float
    validity: dict[str, Any]
    bread_top: str
    filling: str
    bread_bottom: str
    ingredient_domains: dict[str, list[str]]
    assembly_rationale: str
    status: str
    decided_at: str | None
    reviewer: str | None
    note: str | None
    sandwich_id: str | None


class ReviewCounts(BaseModel):
    pending: int
    accepted: int
    rejected: int


CHART_MODELS: tuple[type[BaseModel], ...] = (
    NetworkNode,
    NetworkEdge,
    SandwichNetwork,
    HierarchyNode,
    ValidityHistogram,
    HeatCell,
    DomainStructureHeatmap,
    EfficiencyPoint,
    SandwichCharts,
    SandwichReviewOut,
    ReviewCounts,
)
