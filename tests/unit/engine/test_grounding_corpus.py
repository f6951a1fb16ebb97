"""Over the shipped corpus and MiniLM (engine/grounding.py): real words the corpus lacks are
taken by their meaning, made-up texts are refused, whatever their spelling."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.kb import corpus, shipped_vectors
from wander.adapters.kb.index import KnowledgeIndex
from wander.core.domain.errors import InvalidInput
from wander.core.engine.grounding import check_grounded, nonsense_texts, vocabulary, words
from wander.core.engine.ports import KnowledgeConcept

REAL = ["smartphone", "Bitcoin", "Netflix", "podcast", "Wikipedia", "cryptocurrency", "selfie", "microservices"]
MADE_UP = ["xqzvbnm plorf", "qwxz lkjhg", "zzzz", "fjdksla", "florgle wimbo", "blorp", "plonk trebbit", "brrrzt"]


@pytest.fixture(scope="module")
def shipped(embedder):
    concepts = corpus.load_corpus()
    vectors = shipped_vectors.load(embedder.name)
    assert vectors is not None
    matrix, _ = vectors.lookup([c.embed_text for c in concepts])
    kcs = [KnowledgeConcept(c.key, c.label, c.gloss, tuple(c.domains), tuple(c.path)) for c in concepts]
    kb = KnowledgeIndex(kcs, matrix.astype(np.float32))
    return kb, np.asarray(embedder.embed(nonsense_texts(kb)), dtype=np.float32)


@pytest.mark.parametrize("text", REAL)
def test_a_real_word_the_corpus_lacks_is_taken_by_its_meaning(shipped, embedder, text):
    kb, nonsense = shipped
    assert not words(text) & vocabulary(kb), f"'{text}' became a corpus word: pick another"
    check_grounded("seed_concept", text, embedder.embed([text])[0], kb, nonsense)


@pytest.mark.parametrize("text", MADE_UP)
def test_a_made_up_text_is_refused(shipped, embedder, text):
    kb, nonsense = shipped
    with pytest.raises(InvalidInput) as e:
        check_grounded("attractor", text, embedder.embed([text])[0], kb, nonsense)
    assert e.value.field == "attractor" and len(e.value.suggestions) == 3
