"""The economic action layer's endpoints: propose from an accepted crystal, the review
queue, the fractal image, approve/reject (the human gate), execute, the paper wallet.
With WANDER_API_TOKEN set every request already carries the token (the app's guard), so
a decision made here is a token holder's."""

from __future__ import annotations

from dataclasses import asdict
from typing import get_args

from litestar import Controller, Request, Response, get, post

from shared_schemas.action import DecisionOut, DecisionRequest, ProposalOut, ProposalStatus, WalletOut
from wander.bootstrap.action_factory import action_service
from wander.core.action.ports import Proposal
from wander.core.domain.errors import InvalidInput
from wander.core.domain.validation import parse_uuid
from wander.faces.api.deps import Services

STATUSES = get_args(ProposalStatus)


def proposal_out(p: Proposal) -> ProposalOut:
    return ProposalOut(
        id=p.id,
        crystal_id=p.crystal_id,
        session_id=p.session_id,
        status=p.status,  # type: ignore[arg-type]
        evaluator=p.evaluator,
        evaluation=p.evaluation,
        image_sha256=p.image_sha256,
        image_url=f"/api/v1/wander/proposals/{p.id}/image.png",
        params=p.params,
        created_at=p.created_at,
        decision=DecisionOut(**asdict(p.decision)) if p.decision else None,
        execution=p.execution,
    )


def _service(svc: Services, request: Request):
    settings = getattr(request.app.state, "api_settings", None)
    return action_service(svc.app, require_token=bool(settings and settings.token))


def _token_verified(request: Request) -> bool:
    settings = getattr(request.app.state, "api_settings", None)
    return bool(settings and settings.token)  # the guard let this request in with the token


class ProposalController(Controller):
    path = "/api/v1/wander"
    tags = ["action"]

    @post("/crystals/{crystal_id:str}/proposals", status_code=201)
    async def propose(self, crystal_id: str, svc: Services, request: Request) -> ProposalOut:
        return proposal_out(await _service(svc, request).propose(crystal_id))

    @get("/proposals")
    async def list_proposals(
        self, svc: Services, request: Request, status: str | None = None, session_id: str | None = None
    ) -> list[ProposalOut]:
        if status is not None and status not in STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(STATUSES)} (got '{status}')")
        if session_id is not None:
            if parse_uuid(session_id) is None:
                raise InvalidInput("session_id", "not a valid id")
        return [proposal_out(p) for p in await _service(svc, request).repo.find(status, session_id)]

    @get("/proposals/{proposal_id:str}")
    async def get_proposal(self, proposal_id: str, svc: Services, request: Request) -> ProposalOut:
        return proposal_out(await _service(svc, request).get(proposal_id))

    @get("/proposals/{proposal_id:str}/image.png", media_type="image/png")
    async def image(self, proposal_id: str, svc: Services, request: Request) -> Response[bytes]:
        png = await _service(svc, request).image(proposal_id)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def _decide(
        self, decision: str, proposal_id: str, data: DecisionRequest, svc: Services, request: Request
    ) -> ProposalOut:
        p = await _service(svc, request).decide(
            proposal_id,
            decision,
            data.reviewer,
            data.image_sha256,
            token_verified=_token_verified(request),
            via=_via(request),
            note=data.note,
        )
        return proposal_out(p)

    @post("/proposals/{proposal_id:str}/approve", status_code=200)
    async def approve(self, proposal_id: str, data: DecisionRequest, svc: Services, request: Request) -> ProposalOut:
        return await self._decide("approved", proposal_id, data, svc, request)

    @post("/proposals/{proposal_id:str}/reject", status_code=200)
    async def reject(self, proposal_id: str, data: DecisionRequest, svc: Services, request: Request) -> ProposalOut:
        return await self._decide("rejected", proposal_id, data, svc, request)

    @post("/proposals/{proposal_id:str}/execute", status_code=200)
    async def execute(self, proposal_id: str, svc: Services, request: Request) -> ProposalOut:
        return proposal_out(await _service(svc, request).execute(proposal_id))

    @get("/wallet")
    async def wallet(self, svc: Services, request: Request) -> WalletOut:
        s = _service(svc, request)
        return WalletOut.model_validate(asdict(await s.wallet.state(s.limits)))


# The header VISLZR sends with a person's decision: recorded "via web", the way a decision
# made with `wander` is recorded "via cli" (an HTTP client that says nothing is "api").
CLIENT_HEADER = "x-wander-client"


def _via(request: Request) -> str:
    return "web" if request.headers.get(CLIENT_HEADER, "").strip().lower() == "vislzr" else "api"


__all__ = ["ProposalController"]
