"""The crystal's filling is the concept nearest BOTH breads, not the one nearest their
midpoint alone (which can sit on one bread and restate it), and never a bread's broader
concept or a filling a crystal has used already, where there is a choice."""

from types import SimpleNamespace

import numpy as np

from wander.core.engine.sandwich_choice import _filling, stems_meet, word_stems


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


class Corpus:
    def __init__(self, rows):  # (label, vector, path)
        self.rows = rows
        self.matrix = np.stack([v for _, v, _ in rows])

    def __len__(self):
        return len(self.rows)

    def concept(self, i):
        label, _, path = self.rows[i]
        return SimpleNamespace(label=label, path=path)

    def vector(self, i):
        return self.matrix[i]

    def vectors(self, idx):
        return self.matrix[np.asarray(idx)]

    def nearest(self, v, k, exclude=()):
        sims = self.matrix @ (v / np.linalg.norm(v))
        order = [int(i) for i in np.argsort(-sims, kind="stable") if int(i) not in exclude]
        return [(i, float(sims[i])) for i in order[:k]]


B1, B2 = unit(1, 0, 0), unit(0.5, 0.866, 0)  # bread similarity 0.5
ROWS = [
    ("hound", B1, ("dog", "animal")),
    ("tabby", B2, ("cat", "animal")),
    ("animal", unit(0.9, 0.45, 0.05), ()),  # nearest the midpoint, but a bread's broader concept
    ("lopsided", unit(0.95, 0.2, 0.25), ()),  # next nearest the midpoint, but 0.95 like 'hound'
    ("between", unit(0.7, 0.55, 0.45), ()),  # near both breads (0.70 and 0.83)
    ("far", unit(0, 0, 1), ()),
]


def bread(i):
    return SimpleNamespace(concept=ROWS[i][0], embedding=ROWS[i][1])


def test_the_filling_is_the_concept_nearest_both_breads():
    kb = Corpus(ROWS)
    walk = SimpleNamespace(visited_mask=np.zeros(len(ROWS), dtype=bool))
    assert [i for i, _ in kb.nearest(unit(0.866, 0.5, 0), 3, exclude=[0, 1])] == [2, 3, 4]
    assert kb.concept(_filling(kb, walk, bread(0), bread(1), 0, 1)).label == "between"
    # a filling a crystal has used already is passed over while there is another
    used = frozenset({"between"})
    assert kb.concept(_filling(kb, walk, bread(0), bread(1), 0, 1, used)).label == "lopsided"


def test_a_filling_that_shares_a_breads_word_stem_is_passed_over():
    rows = [
        ("filming", B1, ()),
        ("tabby", B2, ()),
        ("film making", unit(0.72, 0.5, 0.48), ()),  # nearest both breads, but 'filming' again
        ("between", unit(0.7, 0.55, 0.45), ()),
    ]
    kb = Corpus(rows)
    walk = SimpleNamespace(visited_mask=np.zeros(len(rows), dtype=bool))
    b1 = SimpleNamespace(concept="filming", embedding=B1)
    b2 = SimpleNamespace(concept="tabby", embedding=B2)
    assert kb.concept(_filling(kb, walk, b1, b2, 0, 1)).label == "between"
    assert word_stems("film making") & word_stems("filming") == {"film"}
    assert word_stems("State Department") & word_stems("state government") == {"state"}
    assert not word_stems("baker") & word_stems("cookie")
    # one stem beginning another says the word again: 'weak' of 'weakness' begins 'weaken'
    assert stems_meet(word_stems("weakness"), word_stems("weakening"))
    assert stems_meet(word_stems("computer business"), word_stems("businessperson"))
    assert not stems_meet(word_stems("ballpark"), word_stems("home court"))
