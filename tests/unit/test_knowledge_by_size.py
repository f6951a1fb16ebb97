"""The knowledge index is chosen by the knowledge base's size, and the approximate index's
vectors are kept and grown, not rebuilt, when imported or foraged concepts come after those
they were built over: the new concepts join what a new wander walks."""

from __future__ import annotations

import asyncio
import types

import numpy as np
import pytest

from tests.clustered_vectors import clustered
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import ScaledVectors
from wander.bootstrap import knowledge as loading
from wander.core.domain.models import Locus, Session, SourceType
from wander.core.engine.candidates import gather_candidates
from wander.core.engine.ports import KnowledgeConcept, WalkState
from wander.core.engine.walk import Walk
from wander.core.sandwich.model import Content

N, DIM, NOTES = 1200, 24, 150


def corpus() -> tuple[list[KnowledgeConcept], np.ndarray]:
    m, which = clustered(np.random.default_rng(3), N + NOTES, DIM, 8, 0.9)
    concepts = [
        KnowledgeConcept(f"c{i}", f"concept {i}", f"gloss {i}", (f"d{which[i]}",), source="synthetic") for i in range(N)
    ]
    notes = [
        KnowledgeConcept(f"note{i}", f"note {i}", f"my note {i}", (f"d{which[N + i]}",), source="import:/notes")
        for i in range(NOTES)
    ]
    return concepts + notes, m


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []
    real = ScaledVectors.build.__func__  # type: ignore[attr-defined]

    def counting(cls, matrix, *args, **kwargs):
        made.append(len(matrix))
        return real(cls, matrix, *args, **kwargs)

    monkeypatch.setattr(ScaledVectors, "build", classmethod(counting))
    return made


def test_the_index_is_chosen_by_size(tmp_path) -> None:
    concepts, m = corpus()
    assert type(loading.knowledge_index(concepts[:N], m[:N], tmp_path, scale_from=N + 1)) is KnowledgeIndex
    assert isinstance(loading.knowledge_index(concepts[:N], m[:N], tmp_path, scale_from=N), ApproximateIndex)


def test_kept_vectors_are_grown_by_imported_concepts_not_rebuilt(tmp_path, builds: list[int]) -> None:
    concepts, m = corpus()
    first = loading.knowledge_index(concepts[:N], m[:N], tmp_path, scale_from=100)
    again = loading.knowledge_index(concepts[:N], m[:N], tmp_path, scale_from=100)
    assert builds == [N] and len(first) == len(again) == N
    grown = loading.knowledge_index(concepts, m, tmp_path, scale_from=100)  # notes imported since
    assert builds == [N] and isinstance(grown, ApproximateIndex) and len(grown) == N + NOTES
    note = grown.index_of("note7")
    assert note == N + 7 and grown.nearest(m[N + 7], 1)[0][0] == note
    # the next start finds the grown vectors kept
    assert len(loading.knowledge_index(concepts, m, tmp_path, scale_from=100)) == N + NOTES and builds == [N]
    # other vectors under the same keys (another embedder): built again
    loading.knowledge_index(concepts, -m, tmp_path, scale_from=100)
    assert builds == [N, N + NOTES]
    # a wander over the grown index walks to the notes
    reached = set()
    for start in range(N, N + 30):
        walk = walk_from(grown, start)
        reached |= {c.kb_key for c in asyncio.run(gather_candidates(walk)) if (c.kb_key or "").startswith("note")}
    assert reached


def test_a_live_index_grows_for_new_wanders() -> None:
    concepts, m = corpus()
    for index in (KnowledgeIndex(concepts[:N], m[:N]), ApproximateIndex(concepts[:N], m[:N])):
        bigger = loading.grown(index, concepts[N:], m[N:])
        assert len(bigger) == N + NOTES and len(index) == N and type(bigger) is type(index)
        assert bigger.index_of("note3") == N + 3 and index.index_of("note3") is None
        assert bigger.nearest(m[N + 3], 1)[0][0] == N + 3


def walk_from(kb, at: int) -> Walk:
    c = kb.concept(at)
    session = Session(
        id="s",
        project_id="p",
        name="w",
        seed_concept=c.label,
        seed_embedding=kb.vector(at),
        max_steps=50,
        random_seed=1,
        current_locus_id="l0",
    )
    locus = Locus(
        id="l0",
        session_id="s",
        concept=c.label,
        embedding=kb.vector(at),
        source_type=SourceType.SEED,
        domains=list(c.domains),
        kb_key=c.key,
    )
    return Walk(WalkState(session=session, loci=[locus], recent_themes=[]), kb)


class _Kb:
    def __init__(self) -> None:
        self.written: list[tuple[str, list, np.ndarray]] = []

    async def replace_source(self, source, fingerprint, embedder, rows, vectors) -> None:
        self.written.append((source, list(rows), vectors))


def test_a_foraged_page_joins_the_live_approximate_index() -> None:
    concepts, m = corpus()
    index = ApproximateIndex(concepts[:N], m[:N])
    app = types.SimpleNamespace(kb=_Kb(), embedder=types.SimpleNamespace(name="e"), knowledge=index)
    app.engine = types.SimpleNamespace(knowledge=index)
    page = Content("Tide pools: rocky pools on a seashore.", "url", "http://example.org/tide", "Tide pools", "d3")
    asyncio.run(loading.learn_foraged(app, page, m[N]))
    ((source, rows, vectors),) = app.kb.written
    assert source == "forage:http://example.org/tide" and rows[0].label == "Tide pools" and vectors.shape == (1, DIM)
    live = app.engine.knowledge
    assert live is app.knowledge and len(live) == N + 1 and len(index) == N
    i = live.index_of(rows[0].key)
    assert i == N and live.concept(i).domains == ("d3",) and live.nearest(m[N], 1)[0][0] == N
    # a new wander from near the page can walk to it
    reached = {c.kb_key for s in range(N - 40, N) for c in asyncio.run(gather_candidates(walk_from(live, s)))}
    assert rows[0].key in reached
