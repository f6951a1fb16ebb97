"""A seed or attractor that matches nothing in the corpus is refused, naming the field and
the nearest concepts (engine/grounding.py): both its words and its meaning must miss."""

import numpy as np
import pytest

from wander.adapters.kb.index import KnowledgeIndex
from wander.core.domain.errors import InvalidInput
from wander.core.engine.grounding import FLOOR, check_grounded, nonsense_texts, vocabulary, words
from wander.core.engine.ports import KnowledgeConcept

CONCEPTS = [
    KnowledgeConcept("tide.n.01", "tide", "the periodic rise and fall of the sea", ("phenomenon",)),
    KnowledgeConcept("pool.n.01", "pool (water)", "a small body of still water", ("object",)),
    KnowledgeConcept("test.n.01", "test", "trying something to find out about it", ("act",)),
]


@pytest.fixture
def kb():
    m = np.eye(3, 4, dtype=np.float32)
    return KnowledgeIndex(CONCEPTS, m)


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_nonsense_far_from_every_concept_is_refused_with_suggestions(kb):
    v = unit(0.2, 0.1, 0.05, 1.0)  # nearest 'tide' at about 0.19
    with pytest.raises(InvalidInput) as e:
        check_grounded("seed_concept", "xqzvbnm plorf", v, kb)
    assert e.value.field == "seed_concept"
    assert e.value.suggestions == ["tide", "pool (water)", "test"]
    assert "matches nothing in the corpus" in e.value.reason and "'tide'" in e.value.reason
    with pytest.raises(InvalidInput) as e:
        check_grounded("attractor", "qwxz", v, kb)
    assert e.value.field == "attractor"


def test_a_word_of_the_corpus_or_a_near_meaning_is_enough(kb):
    far = unit(0.2, 0.1, 0.05, 1.0)
    check_grounded("seed_concept", "Tide pools", far, kb)  # 'tide' is a label word
    check_grounded("seed_concept", "still", far, kb)  # a gloss word
    near = unit(1.0, 0.0, 0.0, 0.9)  # about 0.74 to 'tide'
    assert float(near @ kb.vector(0)) >= FLOOR
    check_grounded("seed_concept", "flotsam", near, kb)


def test_with_made_up_references_the_nearer_of_concept_and_nonsense_decides(kb):
    nonsense = np.stack([unit(0.0, 0.0, -0.5, 1.0)] * 6)  # made-up strings live near axis 4
    gibberish = unit(0.2, 0.1, 0.05, 1.0)  # nearer the made-up strings than any concept
    with pytest.raises(InvalidInput) as e:
        check_grounded("seed_concept", "florgle wimbo", gibberish, kb, nonsense)
    assert "made-up words" in e.value.reason and e.value.suggestions[0] == "tide"
    # below the floor but nearer a concept than the made-up strings: a meaning
    meaningful = unit(1.0, -1.0, -1.0, -2.0)
    assert float(meaningful @ kb.vector(0)) < FLOOR
    check_grounded("seed_concept", "Zeitgeist", meaningful, kb, nonsense)
    check_grounded("seed_concept", "florgle tide", gibberish, kb, nonsense)  # a corpus word


def test_the_made_up_texts_are_fixed_and_not_corpus_words(kb):
    texts = nonsense_texts(kb, 40)
    assert texts == nonsense_texts(kb, 40) and len(set(texts)) == 40
    assert not any(words(t) & vocabulary(kb) for t in texts)
