"""The review queue of the SANDWICH corpus (sandwich_tables.REVIEWS): marginal sandwiches kept
in the transaction of their foraging attempt, listed for a person, and decided once: an
accepted one becomes a sandwich of the corpus (with its ingredients and relations), a
rejected one stays in the queue's history."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from wander.adapters.postgres.sandwich_tables import REVIEW_STATUSES, REVIEWS
from wander.core.domain.errors import Conflict, InvalidInput, NotFound
from wander.core.sandwich.model import Ingredient, Sandwich

EMBEDDINGS = ("bread_top_embedding", "filling_embedding", "bread_bottom_embedding", "sandwich_embedding")


@dataclass(frozen=True)
class ReviewRow:
    """A marginal sandwich in the queue (the table's columns but the embeddings)."""

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


class SandwichReviews:
    """Mixed into SandwichRepository (it provides engine, _fetch and _store_sandwich)."""

    engine: Any
    if TYPE_CHECKING:  # what SandwichRepository and SandwichReadModels provide

        async def _fetch(self, make: Any, query: Any, **params: Any) -> list[Any]: ...

        async def _store_sandwich(self, conn: AsyncConnection, s: Sandwich, source_id: Any, crystal_id: Any) -> Any: ...

    async def _queue_review(self, conn: AsyncConnection, run_id: str | None, source_id: Any, s: Sandwich) -> Any:
        return (
            await conn.execute(
                insert(REVIEWS)
                .values(
                    run_id=uuid.UUID(run_id) if run_id else None,
                    source_id=source_id,
                    name=s.name,
                    description=s.description,
                    heuristic=str(s.validity.get("heuristic") or ""),
                    structural_type=s.structural_type,
                    validity_score=float(np.clip(s.validity["V"], 0, 1)),
                    validity=_jsonable(s.validity),
                    bread_top=s.bread_top.label,
                    filling=s.filling.label,
                    bread_bottom=s.bread_bottom.label,
                    ingredient_domains={
                        "bread_top": list(s.bread_top.domains),
                        "filling": list(s.filling.domains),
                        "bread_bottom": list(s.bread_bottom.domains),
                    },
                    bread_top_embedding=s.bread_top.vector,
                    filling_embedding=s.filling.vector,
                    bread_bottom_embedding=s.bread_bottom.vector,
                    sandwich_embedding=s.embedding,
                    assembly_rationale=s.assembly_rationale,
                )
                .returning(REVIEWS.c.id)
            )
        ).scalar_one()

    async def reviews(self, status: str | None = "pending", limit: int = 50) -> list[ReviewRow]:
        """The queue, oldest first (pending by default; None: every status)."""
        if status is not None and status not in REVIEW_STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(REVIEW_STATUSES)} (got '{status}')")
        cols = [c for c in REVIEWS.c if c.name not in EMBEDDINGS]
        q = select(*cols).order_by(REVIEWS.c.created_at, REVIEWS.c.id).limit(limit)
        if status is not None:
            q = q.where(REVIEWS.c.status == status)
        return await self._fetch(ReviewRow, q)

    async def review(self, review_id: str) -> ReviewRow:
        rid = _uuid(review_id)
        cols = [c for c in REVIEWS.c if c.name not in EMBEDDINGS]
        found = await self._fetch(ReviewRow, select(*cols).where(REVIEWS.c.id == rid))
        if not found:
            raise NotFound("review", review_id)
        return found[0]

    async def decide_review(self, review_id: str, accept: bool, reviewer: str, note: str = "") -> ReviewRow:
        """Accept (the sandwich joins the corpus) or reject, once; Conflict when decided before."""
        rid = _uuid(review_id)
        reviewer = (reviewer or "").strip()
        if not reviewer:
            raise InvalidInput("reviewer", "must not be empty")
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(REVIEWS).where(REVIEWS.c.id == rid).with_for_update())).one_or_none()
            if row is None:
                raise NotFound("review", review_id)
            if row.status != "pending":
                raise Conflict(f"review {review_id} was already {row.status}")
            sandwich_id = None
            if accept:
                sandwich_id = await self._store_sandwich(conn, _sandwich(row, reviewer), row.source_id, None)
            await conn.execute(
                update(REVIEWS)
                .where(REVIEWS.c.id == rid)
                .values(
                    status="accepted" if accept else "rejected",
                    decided_at=func.now(),
                    reviewer=reviewer,
                    note=note or None,
                    sandwich_id=sandwich_id,
                )
            )
        return await self.review(review_id)


def _uuid(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound("review", str(value)) from None


def _jsonable(d: dict[str, Any]) -> dict[str, Any]:
    def plain(x: Any) -> Any:
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [plain(v) for v in x]
        if isinstance(x, np.generic):
            return x.item()
        return x if isinstance(x, str | int | float | bool) or x is None else str(x)

    return plain(d)


def _sandwich(row: Any, reviewer: str) -> Sandwich:
    """The queued sandwich, whole again, as the corpus stores it."""
    doms = row.ingredient_domains or {}

    def ing(role: str) -> Ingredient:
        return Ingredient(
            -1,
            getattr(row, role),
            tuple(doms.get(role) or ()),
            np.asarray(getattr(row, f"{role}_embedding"), dtype=np.float32),
        )

    return Sandwich(
        name=row.name,
        description=row.description,
        bread_top=ing("bread_top"),
        filling=ing("filling"),
        bread_bottom=ing("bread_bottom"),
        structural_type=row.structural_type,
        validity=dict(row.validity),
        embedding=np.asarray(row.sandwich_embedding, dtype=np.float32),
        assembly_rationale=row.assembly_rationale,
        commentary=f"Marginal (V {row.validity_score:.2f}), accepted by {reviewer} on review.",
    )
