"""/api/v1/sandwich/evaluation/...: 8.2's human evaluation, as the evaluation page and
`wander corpus judge|calibrate|failures` use it: a blind sample of sandwiches, crystals and
marginal sandwiches to judge, the judgments (valid yes/no; quality, creativity, clarity and
name 1-5), the calibration report (V's threshold and weights fitted to the judgments, with
agreement before and after) and 8.3's failure table."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from litestar import Controller, get, post
from litestar.params import Parameter

from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.core.sandwich.calibration import calibrate
from wander.faces.api.corpus import SandwichCorpus


class SandwichEvaluationController(Controller):
    path = "/api/v1/sandwich/evaluation"
    tags = ["sandwich"]

    @get("/sample")
    async def sample(
        self, corpus: SandwichCorpus, n: Annotated[int, Parameter(ge=1, le=50)] = 5, judge: str | None = None
    ) -> list[dict[str, Any]]:
        """Up to `n` subjects the `judge` has not judged, without their V (judged blind)."""
        await corpus.sync()
        return await corpus.repo.evaluation_sample(n, judge)

    @post("/judgments", status_code=201)
    async def judge(self, data: dict[str, Any], sandwiches: SandwichRepository) -> dict[str, Any]:
        """{subject_kind, subject_id, judge, valid, quality, creativity, clarity, name_quality,
        note?}: stored with the subject's V as it is now; judging again replaces it. A bad
        field is a 422 naming it; an unknown subject a 404."""
        return await sandwiches.record_judgment(data)

    @get("/judgments")
    async def judgments(
        self, sandwiches: SandwichRepository, limit: Annotated[int, Parameter(ge=1, le=1000)] = 200
    ) -> list[dict[str, Any]]:
        return await sandwiches.judgments(limit)

    @get("/calibration")
    async def calibration(self, sandwiches: SandwichRepository) -> dict[str, Any]:
        """8.2's calibration report (wander.core.sandwich.calibration.calibrate)."""
        judged = await sandwiches.judged()
        return await asyncio.to_thread(calibrate, judged)  # a grid search: off the event loop

    @get("/failures")
    async def failures(self, sandwiches: SandwichRepository) -> list[dict[str, Any]]:
        """8.3's failure table: per failure type its count, what is captured and examples."""
        return await sandwiches.failures()
