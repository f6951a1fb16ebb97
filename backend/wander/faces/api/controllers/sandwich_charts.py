"""/api/v1/sandwich/charts and /review-counts: the SANDWICH corpus's pictures (004 7.3: the
sandwich network, the ingredient treemap, the structural type sunburst, the validity histogram
over time, the domain x structure heatmap and the foraging efficiency timeline) and the review
queue's counts, read from the sandwich tables for the analysis and review pages."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter

from shared_schemas.sandwich_charts import ReviewCounts, SandwichCharts
from wander.adapters.postgres import sandwich_charts
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.faces.api.corpus import SandwichCorpus


class SandwichChartsController(Controller):
    path = "/api/v1/sandwich"
    tags = ["sandwich"]

    @get("/charts")
    async def charts(
        self,
        corpus: SandwichCorpus,
        nodes: Annotated[int, Parameter(ge=1, le=1000, description="sandwiches in the network graph, newest")] = 200,
        ingredients: Annotated[int, Parameter(ge=1, le=2000, description="most used ingredients in the treemap")] = 300,
        domains: Annotated[
            int, Parameter(ge=1, le=100, description="domains with most sandwiches in the heatmap")
        ] = 20,
        runs: Annotated[int, Parameter(ge=1, le=1000, description="newest foraging runs on the timeline")] = 100,
        leaves: Annotated[int, Parameter(ge=1, le=500, description="sandwiches per type in the sunburst, best V")] = 40,
    ) -> SandwichCharts:
        await corpus.sync()  # the wanders' crystals are sandwiches too
        data = await sandwich_charts.chart_data(
            corpus.repo.engine, nodes=nodes, ingredients=ingredients, domains=domains, runs=runs, leaves=leaves
        )
        return SandwichCharts.model_validate(data)

    @get("/review-counts")
    async def review_counts(self, sandwiches: SandwichRepository) -> ReviewCounts:
        """How many marginal sandwiches wait for a person, and how many were accepted or rejected."""
        return ReviewCounts.model_validate(await sandwich_charts.review_counts(sandwiches.engine))
