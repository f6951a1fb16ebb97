"""Foraged pages join the knowledge base: a file the forager reads becomes a concept (kept in
the kb table, so the next load walks it), once, however often it is foraged again."""

from __future__ import annotations

from sqlalchemy import text

from wander.adapters.postgres.kb_repository import KbRepository
from wander.bootstrap.foraging import make_forager
from wander.bootstrap.wiring import load_knowledge

PAGE = (
    "# Tide pools\n\nA tide pool is a rocky pool on a seashore, filled with seawater at low tide. "
    "Anemones, barnacles and sea stars live between the pressure of the waves and the heat of the sun, "
    "bounded by the high water mark above and the low water mark below.\n"
)


async def test_a_foraged_file_becomes_a_concept_the_next_load_walks(app, tmp_path):
    page = tmp_path / "shore" / "tidepools.md"
    page.parent.mkdir()
    page.write_text(PAGE)
    forager = make_forager(app, seed=4)
    await forager.run(patience=2, source=str(page))
    async with app.db.connect() as conn:
        found = (
            await conn.execute(
                text("SELECT key, label, source FROM kb_concepts WHERE source LIKE :s"), {"s": f"forage:%{page.name}%"}
            )
        ).all()
    assert len(found) == 1 and found[0].key.startswith("forage:") and "Tide pools" in found[0].label
    knowledge = await load_knowledge(KbRepository(app.db))
    i = knowledge.index_of(found[0].key)
    assert i is not None and knowledge.concept(i).source == found[0].source
    assert knowledge.nearest(knowledge.vector(i), 1)[0][0] == i
    await forager.run(patience=2, source=str(page))  # the same content again: a duplicate, learned once
    async with app.db.connect() as conn:
        again = (
            await conn.execute(
                text("SELECT count(*) FROM kb_concepts WHERE source LIKE :s"), {"s": f"forage:%{page.name}%"}
            )
        ).scalar()
    assert again == 1
