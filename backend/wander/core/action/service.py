"""The action service: propose (evaluate + fractal-encode), decide (the human gate) and
execute (decode the reviewed image, then the executor under its limits). Every stage
writes its event through the outbox and publishes it on the bus."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from shared_schemas.events import (
    ProposalApprovedPayload,
    ProposalEncodedPayload,
    ProposalExecutedPayload,
    ProposalProposedPayload,
    ProposalRefusedPayload,
    ProposalRejectedPayload,
    Subject,
)
from wander.core.action import codec
from wander.core.action.ports import CrystalContext, Evaluator, Limits, Order, Proposal
from wander.core.domain.errors import InvalidInput, NotFound, Refused
from wander.core.domain.models import EventDraft
from wander.core.engine.events import draft

SUBJECTS = tuple(s for s in Subject if s.startswith("wander.proposal."))


def summary(p: Proposal) -> dict[str, Any]:
    e = p.evaluation
    return {
        "id": p.id,
        "crystal_id": p.crystal_id,
        "status": p.status,
        "action": e.get("action"),
        "expected_value_cents": e.get("expected_value_cents"),
        "cost_cents": e.get("cost_cents"),
        "image_sha256": p.image_sha256,
    }


@dataclass
class ActionService:
    store: Any  # the main Store (crystals, loci, residues)
    repo: Any  # ActionRepository
    wallet: Any  # an Executor (PaperWallet)
    evaluator: Evaluator
    keys: codec.Keys
    limits: Limits
    bus: Any
    require_token: bool = False  # with WANDER_API_TOKEN set, only a token holder's approval counts

    async def _context(self, crystal_id: str) -> CrystalContext:
        found = await self.store.find_crystals(status=None, crystal_id=crystal_id)
        if not found:
            raise NotFound("crystal", crystal_id)
        c = found[0]
        if c.validity.get("verdict") != "accepted" and not c.human_approved:
            raise Refused(
                f"crystal {crystal_id} is not accepted (verdict {c.validity.get('verdict')!r}); "
                "only accepted crystals become proposals",
                409,
            )
        ctx = CrystalContext(c)
        for lid in (c.bread_a_locus_id, c.source_locus_id, c.bread_b_locus_id):
            if lid and c.session_id and lid not in ctx.loci:
                locus = await self.store.locus(c.session_id, lid)
                if locus is not None:
                    ctx.loci[lid] = locus.concept
                    ctx.residues += [
                        {
                            "step": s.step_number,
                            "from": s.from_concept,
                            "to": s.to_concept,
                            "connection": s.connection,
                            "possibility": s.possibility,
                        }
                        for s in await self.store.locus_steps(lid)
                        if s.to_locus_id == lid
                    ][:2]
        return ctx

    async def propose(self, crystal_id: str) -> Proposal:
        ctx = await self._context(crystal_id)
        evaluation = await self.evaluator.evaluate(ctx)
        evaluator = str(evaluation.get("evaluator") or self.evaluator.name)  # the rules, when a model fell back
        pid = str(uuid.uuid4())
        sid = ctx.crystal.session_id
        plaintext = json.dumps(
            {"proposal_id": pid, "crystal_id": crystal_id, "session_id": sid, "evaluation": evaluation},
            sort_keys=True,
            default=str,
        ).encode()
        png, params = codec.encode(plaintext, self.keys)
        sha = codec.sha256(png)
        drafts = [
            draft(
                ProposalProposedPayload(
                    proposal_id=pid,
                    crystal_id=crystal_id,
                    session_id=sid,
                    status="pending",
                    action=evaluation["action"],
                    expected_value_cents=evaluation["expected_value_cents"],
                    cost_cents=evaluation["cost_cents"],
                    evaluator=evaluator,
                )
            ),
            draft(
                ProposalEncodedPayload(
                    proposal_id=pid,
                    crystal_id=crystal_id,
                    session_id=sid,
                    image_sha256=sha,
                    image_url=f"/api/v1/wander/proposals/{pid}/image.png",
                    bytes=len(png),
                    side=params.side,
                )
            ),
        ]
        events = await self.repo.add(
            {
                "id": uuid.UUID(pid),
                "crystal_id": uuid.UUID(crystal_id),
                "session_id": uuid.UUID(sid) if sid else None,
                "status": "pending",
                "evaluator": evaluator,
                "evaluation": json.loads(json.dumps(evaluation, default=str)),
                "image": png,
                "image_sha256": sha,
                "params": json.loads(params.canonical()),
            },
            drafts,
        )
        await self.bus.publish(events)
        return await self.get(pid)

    async def get(self, proposal_id: str) -> Proposal:
        p = await self.repo.get(proposal_id)
        if p is None:
            raise NotFound("proposal", proposal_id)
        return p

    async def image(self, proposal_id: str) -> bytes:
        await self.get(proposal_id)
        return await self.repo.image(proposal_id)

    async def decide(
        self,
        proposal_id: str,
        decision: str,
        reviewer: str,
        image_sha256: str,
        *,
        token_verified: bool,
        via: str,
        note: str | None = None,
    ) -> Proposal:
        if decision not in ("approved", "rejected"):
            raise InvalidInput("decision", "must be approved or rejected")
        reviewer = (reviewer or "").strip()
        if not reviewer or len(reviewer) > 200:
            raise InvalidInput("reviewer", "who decides: a name of 1..200 characters")
        if len(image_sha256 or "") != 64:
            raise InvalidInput("image_sha256", "the sha256 (64 hex digits) of the image you reviewed")
        if self.require_token and not token_verified:
            raise Refused("a decision needs the API token (WANDER_API_TOKEN is set)", 403)
        await self.get(proposal_id)

        def drafts(sid: str | None) -> list[EventDraft]:
            payload = ProposalApprovedPayload if decision == "approved" else ProposalRejectedPayload
            return [
                draft(
                    payload(
                        proposal_id=proposal_id,
                        session_id=sid,
                        status=decision,  # type: ignore[arg-type]
                        reviewer=reviewer,
                        image_sha256=image_sha256,
                        via=via,
                        token_verified=token_verified,
                    )
                )
            ]

        events = await self.repo.decide(
            proposal_id, decision, reviewer, image_sha256.lower(), token_verified, via, note, drafts
        )
        await self.bus.publish(events)
        return await self.get(proposal_id)

    async def execute(self, proposal_id: str) -> Proposal:
        p = await self.get(proposal_id)

        def drafts(kind: str, **extra: Any) -> list[EventDraft]:
            if kind == "executed":
                return [
                    draft(
                        ProposalExecutedPayload(
                            proposal_id=proposal_id, session_id=p.session_id, status="executed", **extra
                        )
                    )
                ]
            return [
                draft(
                    ProposalRefusedPayload(proposal_id=proposal_id, session_id=p.session_id, status="refused", **extra)
                )
            ]

        png = await self.repo.image(proposal_id)
        try:
            content = json.loads(codec.decode(png, self.keys))
            if content.get("proposal_id") != proposal_id:
                raise codec.DecodeError("the image encodes another proposal")
        except codec.DecodeError as exc:
            reason = f"the image does not decode under this key: {exc}"
            await self.bus.publish(await self.repo.events(p.session_id, drafts("refused", reason=reason)))
            raise Refused(reason, 409) from exc
        e = content["evaluation"]
        order = Order(
            proposal_id,
            "",
            codec.sha256(png),
            content.get("session_id"),
            str(e["asset"]),
            int(e["cost_cents"]),
            int(e["worst_case_loss_cents"]),
        )
        try:
            _, events = await self.wallet.execute(order, self.limits, self.require_token, drafts)
        except Refused as exc:
            await self.bus.publish(getattr(exc, "events", []))
            raise
        await self.bus.publish(events)
        return await self.get(proposal_id)
