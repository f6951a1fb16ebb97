"""The knowledge base's Postgres round trip: what load_all reads is what replace_source wrote."""

from __future__ import annotations

import numpy as np

from wander.store.database import make_engine
from wander.store.kb_repository import KbRepository, KbRow, vectors_from_send


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
    finally:
        await db.dispose()
    assert matrix.dtype == np.float32 and matrix.shape == (len(loaded), 384)
    mine = [i for i, r in enumerate(loaded) if r.source == "test"]
    assert [loaded[i].key for i in mine] == [r.key for r in rows]
    np.testing.assert_array_equal(matrix[mine], vectors)
    assert len(loaded) > 10_000  # and the corpus the template holds, all of it


def test_vectors_from_send_of_nothing_is_empty():
    assert vectors_from_send([]).shape == (0, 0)
