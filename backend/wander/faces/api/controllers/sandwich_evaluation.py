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

from wander.faces.api.deps import Services


class SandwichEvaluationController(Controller):
    path = "/api/v1/sandwich/evaluation"
    tags = ["sandwich"]

    @get("/sample")
    async def sample(
        self, svc: Services, n: Annotated[int, Parameter(ge=1, le=50)] = 5, judge: str | None = None
    ) -> list[dict[str, Any]]:
        """Up to `n` subjects the `judge` has not judged, without their V (judged blind)."""
        from wander.bootstrap.foraging import sync_crystals

        await sync_crystals(svc.app.sandwiches, svc.app.embedder)
        return await svc.app.sandwiches.evaluation_sample(n, judge)

    @post("/judgments", status_code=201)
    async def judge(self, data: dict[str, Any], svc: Services) -> dict[str, Any]:
        """{subject_kind, subject_id, judge, valid, quality, creativity, clarity, name_quality,
        note?}: stored with the subject's V as it is now; judging again replaces it. A bad
        field is a 422 naming it; an unknown subject a 404."""
        return await svc.app.sandwiches.record_judgment(data)

    @get("/judgments")
    async def judgments(
        self, svc: Services, limit: Annotated[int, Parameter(ge=1, le=1000)] = 200
    ) -> list[dict[str, Any]]:
        return await svc.app.sandwiches.judgments(limit)

    @get("/calibration")
    async def calibration(self, svc: Services) -> dict[str, Any]:
        """8.2's calibration report (wander.core.sandwich.calibration.calibrate)."""
        from wander.core.sandwich.calibration import calibrate

        judged = await svc.app.sandwiches.judged()
        return await asyncio.to_thread(calibrate, judged)  # a grid search: off the event loop

    @get("/failures")
    async def failures(self, svc: Services) -> list[dict[str, Any]]:
        """8.3's failure table: per failure type its count, what is captured and examples."""
        return await svc.app.sandwiches.failures()
