"""The knowledge base's Postgres round trip: what load_all reads is what replace_source wrote."""

from __future__ import annotations

import numpy as np

from wander.adapters.postgres.database import make_engine
from wander.adapters.postgres.kb_repository import KbRepository, KbRow, vectors_from_send
from wander.core.domain.views import KnowledgeSource


async def test_load_all_reads_back_every_vector_bit_for_bit(db_url):
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((5, 384)).astype(np.float32)
    vectors[0, :3] = [0.0, -0.0, 1e-38]  # zeros and a subnormal-adjacent value survive too
    rows = [
        KbRow(f"note-{i}", f"note {i}", f"text {i}", f"gloss {i}", ("strategy",), (), (), (), "test") for i in range(5)
    ]
    db = make_engine(db_url)
    try:
        kb = KbRepository(db)
        await kb.replace_source("test", "fp", "test-embedder", rows, vectors)
        loaded, matrix = await kb.load_all()
        sources = {s.source: s for s in await kb.sources()}
    finally:
        await db.dispose()
    assert matrix.dtype == np.float32 and matrix.shape == (len(loaded), 384)
    mine = [i for i, r in enumerate(loaded) if r.source == "test"]
    assert [loaded[i].key for i in mine] == [r.key for r in rows]
    np.testing.assert_array_equal(matrix[mine], vectors)
    assert len(loaded) > 10_000  # and the corpus the template holds, all of it
    mine_source = sources["test"]  # the source's row, as a typed read model
    assert isinstance(mine_source, KnowledgeSource)
    assert (mine_source.fingerprint, mine_source.concepts, mine_source.embedder) == ("fp", 5, "test-embedder")
    assert mine_source.loaded_at is not None and len(sources) >= 2  # the shipped corpus too


def test_vectors_from_send_of_nothing_is_empty():
    assert vectors_from_send([]).shape == (0, 0)


async def _kb_indexes(db) -> dict[str, str]:
    from sqlalchemy import text

    async with db.connect() as conn:
        q = text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kb_concepts'")
        return {r[0]: r[1] for r in (await conn.execute(q)).all()}


async def test_a_large_load_builds_the_vector_index_once_and_a_failed_one_keeps_it(db_url):
    """From REBUILD_INDEX_FROM rows a load drops the HNSW index and builds it after the
    rows; the index is there afterwards, the same, and covers the new rows (a nearest-
    neighbour query through it finds them); a load that fails leaves rows and index as
    they were."""
    from sqlalchemy import text

    from wander.adapters.postgres.kb_repository import REBUILD_INDEX_FROM

    n = REBUILD_INDEX_FROM + 10
    rng = np.random.default_rng(8)
    # a cluster of its own (random directions would be all alike to the graph's search)
    vectors = (rng.standard_normal(384) + 0.3 * rng.standard_normal((n, 384))).astype(np.float32)
    rows = [KbRow(f"bulk-{i}", f"bulk {i}", f"text {i}", "", ("strategy",), (), (), (), "bulk") for i in range(n)]
    db = make_engine(db_url)
    try:
        kb = KbRepository(db)
        before = await _kb_indexes(db)
        await kb.replace_source("bulk", "fp1", "test-embedder", rows, vectors)
        assert await _kb_indexes(db) == before and "hnsw" in before["idx_kb_embedding"]
        async with db.connect() as conn:
            await conn.execute(text("SET LOCAL enable_seqscan = off"))
            await conn.execute(text("SET LOCAL hnsw.ef_search = 200"))
            probe = "[" + ",".join(map(str, vectors[3].tolist())) + "]"
            plan = "\n".join(
                r[0]
                for r in (
                    await conn.execute(
                        text("EXPLAIN SELECT key FROM kb_concepts ORDER BY embedding <=> CAST(:v AS vector) LIMIT 5"),
                        {"v": probe},
                    )
                ).all()
            )
            found = (
                await conn.execute(
                    text("SELECT key FROM kb_concepts ORDER BY embedding <=> CAST(:v AS vector) LIMIT 5"), {"v": probe}
                )
            ).scalars()
            nearest = list(found)
        assert "idx_kb_embedding" in plan and "bulk-3" in nearest, nearest

        broken = vectors.copy()
        broken[-1, 0] = np.nan  # pgvector refuses NaN: the whole load rolls back
        try:
            await kb.replace_source("bulk", "fp2", "test-embedder", rows, broken)
        except Exception:  # noqa: BLE001  (the driver's error for the NaN row)
            pass
        else:
            raise AssertionError("a vector with NaN was stored")
        assert await _kb_indexes(db) == before
        loaded, _ = await kb.load_all()
        assert sum(r.source == "bulk" for r in loaded) == n
        assert await kb.source_fingerprint("bulk") == "fp1"
    finally:
        await db.dispose()
