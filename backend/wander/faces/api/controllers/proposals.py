"""The economic action layer's endpoints: propose from an accepted crystal, the review
queue, the fractal image, approve/reject (the human gate), execute, the paper wallet.
With WANDER_API_TOKEN set every request already carries the token (the app's guard), so
a decision made here is a token holder's."""

from __future__ import annotations

from dataclasses import asdict
from typing import get_args

from litestar import Controller, Request, Response, get, post

from shared_schemas.action import DecisionRequest, ProposalOut, ProposalStatus, WalletOut
from wander.bootstrap.action_factory import ActionServices
from wander.core.domain.errors import InvalidInput
from wander.core.domain.validation import parse_uuid
from wander.faces.api.api_settings import ApiSettings
from wander.faces.wire import proposal_out

STATUSES = get_args(ProposalStatus)


class ProposalController(Controller):
    path = "/api/v1/wander"
    tags = ["action"]

    @post("/crystals/{crystal_id:str}/proposals", status_code=201)
    async def propose(self, crystal_id: str, actions: ActionServices) -> ProposalOut:
        return proposal_out(await actions.current().propose(crystal_id))

    @get("/proposals")
    async def list_proposals(
        self, actions: ActionServices, status: str | None = None, session_id: str | None = None
    ) -> list[ProposalOut]:
        if status is not None and status not in STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(STATUSES)} (got '{status}')")
        if session_id is not None:
            if parse_uuid(session_id) is None:
                raise InvalidInput("session_id", "not a valid id")
        return [proposal_out(p) for p in await actions.current().repo.find(status, session_id)]

    @get("/proposals/{proposal_id:str}")
    async def get_proposal(self, proposal_id: str, actions: ActionServices) -> ProposalOut:
        return proposal_out(await actions.current().get(proposal_id))

    @get("/proposals/{proposal_id:str}/image.png", media_type="image/png")
    async def image(self, proposal_id: str, actions: ActionServices) -> Response[bytes]:
        png = await actions.current().image(proposal_id)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def _decide(
        self,
        decision: str,
        proposal_id: str,
        data: DecisionRequest,
        actions: ActionServices,
        api: ApiSettings,
        via: str,
    ) -> ProposalOut:
        p = await actions.current().decide(
            proposal_id,
            decision,
            data.reviewer,
            data.image_sha256,
            token_verified=bool(api.token),  # the guard let this request in with the token
            via=via,
            note=data.note,
        )
        return proposal_out(p)

    @post("/proposals/{proposal_id:str}/approve", status_code=200)
    async def approve(
        self, proposal_id: str, data: DecisionRequest, actions: ActionServices, api: ApiSettings, request: Request
    ) -> ProposalOut:
        return await self._decide("approved", proposal_id, data, actions, api, _via(request))

    @post("/proposals/{proposal_id:str}/reject", status_code=200)
    async def reject(
        self, proposal_id: str, data: DecisionRequest, actions: ActionServices, api: ApiSettings, request: Request
    ) -> ProposalOut:
        return await self._decide("rejected", proposal_id, data, actions, api, _via(request))

    @post("/proposals/{proposal_id:str}/execute", status_code=200)
    async def execute(self, proposal_id: str, actions: ActionServices) -> ProposalOut:
        return proposal_out(await actions.current().execute(proposal_id))

    @get("/wallet")
    async def wallet(self, actions: ActionServices) -> WalletOut:
        s = actions.current()
        return WalletOut.model_validate(asdict(await s.wallet.state(s.limits)))


# The header VISLZR sends with a person's decision: recorded "via web", the way a decision
# made with `wander` is recorded "via cli" (an HTTP client that says nothing is "api").
CLIENT_HEADER = "x-wander-client"


def _via(request: Request) -> str:
    return "web" if request.headers.get(CLIENT_HEADER, "").strip().lower() == "vislzr" else "api"


__all__ = ["ProposalController"]
