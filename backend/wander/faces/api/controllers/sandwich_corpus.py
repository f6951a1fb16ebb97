"""/api/v1/sandwich/...: 004's data model read back, as `wander corpus types|related|bread|research`:
the structural types (parent, canonical examples, validity stats), a sandwich's relations of
every kind (5.3's similar structure among them), the sandwiches using a bread concept (5.3),
the relation counts, and 7.2's research queries by name."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, get
from litestar.params import Parameter

from wander.adapters.postgres.sandwich_corpus_queries import RESEARCH
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.faces.api.corpus import SandwichCorpus


class SandwichCorpusController(Controller):
    path = "/api/v1/sandwich"
    tags = ["sandwich"]

    @get("/structural-types")
    async def structural_types(self, corpus: SandwichCorpus) -> list[dict[str, Any]]:
        await corpus.sync()
        return await corpus.repo.structural_types()

    @get("/sandwiches/{sandwich_id:str}/related")
    async def related(
        self,
        sandwich_id: str,
        sandwiches: SandwichRepository,
        relation_type: Annotated[str | None, Parameter(query="type")] = None,
    ) -> list[dict[str, Any]]:
        """The sandwich's relations (`type`: similar, same_bread, same_filling, inverse,
        generalization, domain_transfer; none: all), strongest first."""
        return await sandwiches.related(sandwich_id, relation_type)

    @get("/relations")
    async def relations(self, sandwiches: SandwichRepository) -> dict[str, int]:
        """How many relations of each kind the corpus holds."""
        return await sandwiches.relation_counts()

    @get("/breads")
    async def breads(
        self, sandwiches: SandwichRepository, concept: str = "", limit: Annotated[int, Parameter(ge=1, le=500)] = 50
    ) -> list[dict[str, Any]]:
        """5.3: the sandwiches using a bread concept whose text contains `concept`."""
        return await sandwiches.by_bread(concept, limit)

    @get("/research")
    async def research_list(self) -> dict[str, str]:
        """7.2's research queries: name -> the question each answers."""
        return dict(RESEARCH)

    @get("/research/{name:str}")
    async def research(self, name: str, corpus: SandwichCorpus) -> dict[str, Any]:
        """{query, question, answer} of one of 7.2's research queries."""
        await corpus.sync()
        return await corpus.repo.research(name)
