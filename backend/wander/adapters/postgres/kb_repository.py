"""kb_concepts and kb_sources: the knowledge base in Postgres."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy import LargeBinary, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.tables import KbConcept, KbSource
from wander.core.domain.views import KnowledgeSource

K = KbConcept.__table__
KS = KbSource.__table__
EMBEDDING_INDEX = next(i for i in K.indexes if i.name == "idx_kb_embedding")
# From this many rows on, a load drops the HNSW index and builds it once after the rows:
# growing it row by row costs ~1 ms a row (14,000 corpus rows: 19 s; built after: ~2 s).
REBUILD_INDEX_FROM = 1000


@dataclass(frozen=True)
class KbRow:
    key: str
    label: str
    text: str
    gloss: str
    domains: tuple[str, ...]
    broader: tuple[str, ...]
    path: tuple[str, ...]
    opposites: tuple[str, ...]
    source: str


class KbRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def source_fingerprint(self, source: str) -> str | None:
        async with self.engine.connect() as conn:
            return (await conn.execute(select(KS.c.fingerprint).where(KS.c.source == source))).scalar_one_or_none()

    async def replace_source(
        self,
        source: str,
        fingerprint: str,
        embedder: str,
        rows: Sequence[KbRow],
        vectors: np.ndarray,
        batch: int = 2000,
    ) -> None:
        """Replace every concept of a source, and record its fingerprint, in one transaction."""
        rebuild = len(rows) >= REBUILD_INDEX_FROM
        async with self.engine.begin() as conn:
            await conn.execute(delete(K).where(K.c.source == source))
            if rebuild:  # in the transaction: a failed load keeps the index as it was
                await conn.run_sync(lambda c: EMBEDDING_INDEX.drop(c, checkfirst=True))
            for start in range(0, len(rows), batch):
                chunk = rows[start : start + batch]
                await conn.execute(
                    insert(K),
                    [
                        dict(
                            key=r.key,
                            label=r.label,
                            text=r.text,
                            gloss=r.gloss,
                            domains=list(r.domains),
                            broader=list(r.broader),
                            path=list(r.path),
                            opposites=list(r.opposites),
                            source=r.source,
                            embedding=vectors[start + i],
                        )
                        for i, r in enumerate(chunk)
                    ],
                )
            if rebuild:
                await conn.run_sync(lambda c: EMBEDDING_INDEX.create(c, checkfirst=True))
            await conn.execute(delete(KS).where(KS.c.source == source))
            await conn.execute(
                insert(KS).values(source=source, fingerprint=fingerprint, concepts=len(rows), embedder=embedder)
            )

    async def load_all(self) -> tuple[list[KbRow], np.ndarray]:
        """Every concept in id order with its embedding matrix."""
        q = select(
            K.c.key,
            K.c.label,
            K.c.text,
            K.c.gloss,
            K.c.domains,
            K.c.broader,
            K.c.path,
            K.c.opposites,
            K.c.source,
            # pgvector's binary form: the text form costs seconds to parse for a 14k corpus
            func.vector_send(K.c.embedding, type_=LargeBinary).label("embedding"),
        ).order_by(K.c.id)
        async with self.engine.connect() as conn:
            result = (await conn.execute(q)).all()
        rows = [
            KbRow(
                r.key,
                r.label,
                r.text,
                r.gloss,
                tuple(r.domains),
                tuple(r.broader),
                tuple(r.path),
                tuple(r.opposites),
                r.source,
            )
            for r in result
        ]
        return rows, vectors_from_send([r.embedding for r in result])

    async def stats(self) -> list[tuple[str, str, int]]:
        """(source, first domain, count) for every combination present."""
        domain = K.c.domains[1]
        q = select(K.c.source, domain, func.count()).group_by(K.c.source, domain).order_by(K.c.source, domain)
        async with self.engine.connect() as conn:
            return [(r[0], r[1] or "-", r[2]) for r in (await conn.execute(q)).all()]

    async def sources(self) -> list[KnowledgeSource]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(KS).order_by(KS.c.source))).all()
        return [KnowledgeSource(r.source, r.fingerprint, r.concepts, r.embedder, r.loaded_at) for r in rows]


def vectors_from_send(blobs: Sequence[bytes]) -> np.ndarray:
    """The (n, dim) float32 matrix of pgvector values in their binary form (vector_send):
    a big-endian uint16 dim, a uint16 left unused, then dim big-endian float32s each."""
    if not blobs:
        return np.zeros((0, 0), np.float32)
    dim = int.from_bytes(blobs[0][:2], "big")
    rows = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), 4 + 4 * dim)
    return rows[:, 4:].copy().view(">f4").astype(np.float32)
