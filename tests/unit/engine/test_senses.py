"""Senses kept apart: a step to another sense of the current concept's word is a pun
(engine/adjacency/senses.py), unless the corpus relates the two on its own."""

import numpy as np

from wander.core.engine.adjacency.senses import Senses, lemmas_of
from wander.core.engine.ports import KnowledgeConcept


class Corpus:
    """What Senses reads of the Knowledge port."""

    def __init__(self, concepts: list[KnowledgeConcept]):
        self.concepts = concepts
        self.keys = {c.key: i for i, c in enumerate(concepts)}

    def __len__(self):
        return len(self.concepts)

    def concept(self, i):
        return self.concepts[i]

    def broader(self, i):
        return [self.keys[k] for k in self.concepts[i].broader if k in self.keys]

    def narrower(self, i):
        return [j for j, c in enumerate(self.concepts) if self.concepts[i].key in c.broader]


def concept(key, label, broader=()):
    return KnowledgeConcept(key, label, "gloss", ("artifact",), broader=tuple(broader))


CORPUS = Corpus(
    [
        concept("wash.n.01", "wash (water-base paint)"),  # 0
        concept("wash.n.02", "wash (work)", broader=["work.n.01"]),  # 1
        concept("work.n.01", "work"),  # 2
        concept("washer.n.03", "washing machine"),  # 3: its synset's first word is 'washer'
        concept("washer.n.01", "washer (seal)"),  # 4
        concept("bank.n.01", "bank (slope)"),  # 5
        concept("depository_financial_institution.n.01", "bank (financial institution)"),  # 6
        concept("work.n.02", "work (product)", broader=["work.n.01"]),  # 7: narrower than 'work'
    ]
)


def test_a_concepts_words_are_its_label_its_keys_first_word_and_its_listed_lemmas():
    assert lemmas_of(CORPUS.concept(1)) == {"wash"}
    assert lemmas_of(CORPUS.concept(3)) == {"washing machine", "washer"}
    assert lemmas_of(CORPUS.concept(6)) == {"bank", "depository financial institution"}

    class Listed:  # a corpus that lists every lemma of the synset
        key, label, lemmas = "bank.n.09", "bank building", ("bank building", "Bank")

    assert lemmas_of(Listed()) == {"bank building", "bank"}  # type: ignore[arg-type]


def test_another_sense_of_the_same_word_is_a_pun():
    s = Senses(CORPUS)
    assert s.is_pun(1, 0)  # wash (work) -> wash (water-base paint)
    assert s.is_pun(0, 1)
    assert s.is_pun(5, 6)  # bank (slope) -> the money bank
    assert s.is_pun(3, 4)  # 'washer' is a word of both
    assert set(s.puns(1).tolist()) == {0}
    assert set(s.puns(5).tolist()) == {6}


def test_a_corpus_relation_is_an_adjacency_not_a_pun():
    s = Senses(CORPUS)
    assert not s.is_pun(2, 7) and not s.is_pun(7, 2)  # 'work' and its narrower 'work (product)'
    assert 7 not in s.puns(2).tolist()
    assert not s.is_pun(1, 2)  # no shared word
    assert not s.is_pun(1, 1)


def test_a_locus_outside_the_corpus_puns_by_its_text():
    s = Senses(CORPUS)
    assert set(s.puns(None, "Bank").tolist()) == {5, 6}
    assert s.is_pun(None, 0, a_text="wash")
    assert not s.is_pun(None, 2, a_text="tide pools")
    assert len(s.puns(None, "tide pools")) == 0
    assert isinstance(s.puns(None, "x"), np.ndarray)


def test_a_compound_whose_head_is_another_sense_of_the_word_is_a_pun():
    corpus = Corpus(
        [
            concept("table.n.01", "table (array)"),  # 0
            concept("table.n.02", "table (furniture)"),  # 1
            concept("worktable.n.01", "work table", broader=["table.n.02"]),  # 2
            concept("desk_table.n.01", "writing table", broader=["worktable.n.01"]),  # 3: two levels below
        ]
    )
    s = Senses(corpus)
    assert s.is_pun(0, 2) and s.is_pun(2, 0)  # the array's 'table' is not the furniture's
    assert 2 in s.puns(0).tolist() and 3 in s.puns(0).tolist()
    assert not s.is_pun(1, 2) and not s.is_pun(1, 3)  # kin within the lineage
    assert 3 not in s.puns(1).tolist() and 2 not in s.puns(1).tolist()
