"""Sense slips the shared-word check misses (engine/adjacency/sense_slips.py): a one-word
compound and its tail, a gloss's word and another sense of it, a kind of one sense and
another sense of its word. Each is a pun, unless the corpus makes the two kin."""

import numpy as np

from wander.core.engine.adjacency.senses import Senses
from wander.core.engine.ports import KnowledgeConcept

DIM = 8


def unit(*parts: tuple[int, float]) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    for axis, x in parts:
        v[axis] = x
    return v / np.linalg.norm(v)


class Corpus:
    """What Senses and its slips read of the Knowledge port."""

    def __init__(self, rows: list[tuple[KnowledgeConcept, np.ndarray]]):
        self.concepts = [c for c, _ in rows]
        self.matrix = np.stack([v for _, v in rows])
        self.keys = {c.key: i for i, c in enumerate(self.concepts)}

    def __len__(self):
        return len(self.concepts)

    def concept(self, i):
        return self.concepts[i]

    def vector(self, i):
        return self.matrix[i]

    def vectors(self, idx):
        return self.matrix[np.asarray(idx, dtype=np.int64)]

    def broader(self, i):
        return [self.keys[k] for k in self.concepts[i].broader if k in self.keys]

    def narrower(self, i):
        return [j for j, c in enumerate(self.concepts) if self.concepts[i].key in c.broader]


def concept(key, label, gloss, path=(), broader=()):
    return KnowledgeConcept(key, label, gloss, ("artifact",), path=tuple(path), broader=tuple(broader))


T, M, D, S, F, X, Y, Z = range(DIM)  # axes: transport, medium, drive, slope, finance, and three others
ROWS = [
    (
        concept("vehicle.n.01", "vehicle (transport)", "a conveyance that transports people", ["conveyance"]),
        unit((T, 1)),
    ),
    (concept("vehicle.n.02", "vehicle (medium)", "a medium for the expression of something", ["medium"]), unit((M, 1))),
    (concept("conveyance.n.03", "conveyance", "something that serves as a means of transport"), unit((T, 1), (X, 1))),
    (
        concept("car.n.01", "car", "a motor vehicle with four wheels", ["vehicle", "conveyance"], ["vehicle.n.01"]),
        unit((T, 1), (Y, 1)),
    ),
    # a kind of the conveyance that reads more like the medium: it is nearer the medium
    (
        concept("bus.n.09", "bus (metaphor)", "a conveyance of ideas", ["vehicle", "conveyance"], ["vehicle.n.01"]),
        unit((M, 1), (T, 0.1), (Z, 1)),
    ),
    # the corpus lacks 'car' here: the path says what it is a kind of
    (
        concept("cab.n.03", "taxi", "a car driven by a person", ["car", "motor vehicle", "vehicle", "conveyance"]),
        unit((T, 1), (Y, 1), (X, 0.3), (M, 0.2)),
    ),
    # nearer the medium than the conveyance, but not by MARGIN: its gloss means the first sense
    (concept("test_drive.n.01", "test drive", "a test of a vehicle on the road"), unit((T, 0.5), (M, 0.55), (D, 1))),
    (concept("bank.n.01", "bank (slope)", "sloping land beside a body of water"), unit((S, 1))),
    (concept("depository_financial_institution.n.01", "bank (financial institution)", "takes deposits"), unit((F, 1))),
    # far nearer the bank that takes deposits than the first sense, the slope
    (concept("deposit.n.04", "bank deposit", "money deposited in a bank"), unit((F, 1), (Z, 1))),
    (concept("haircut.n.01", "haircut", "the style in which hair has been cut"), unit((X, 1), (Y, 1))),
    (concept("hair.n.01", "hair", "a covering of the body"), unit((X, 1))),
    (concept("cut.n.01", "cut", "a share of the profits"), unit((F, 0.3), (Z, 1))),
    (concept("shortcut.n.01", "shortcut", "a route shorter than the usual one"), unit((D, 1), (Z, 1))),
]
CORPUS = Corpus(ROWS)


def at(label: str) -> int:
    return next(i for i, c in enumerate(CORPUS.concepts) if c.label == label)


def pun(a: str, b: str) -> bool:
    s = Senses(CORPUS)
    return s.is_pun(at(a), at(b))


def test_a_one_word_compound_and_another_concept_named_by_its_tail_are_a_pun():
    assert pun("haircut", "cut") and pun("cut", "haircut")  # 'hair' + 'cut'
    assert not pun("shortcut", "cut")  # 'short' is no word of the corpus: no compound read there


def test_a_glosss_word_read_in_its_first_sense_unless_another_is_clearly_nearer():
    assert pun("test drive", "vehicle (medium)") and pun("vehicle (medium)", "test drive")
    assert not pun("test drive", "vehicle (transport)")
    assert pun("bank deposit", "bank (slope)")
    assert not pun("bank deposit", "bank (financial institution)")


def test_a_kind_of_one_sense_and_another_sense_of_its_word_are_a_pun():
    assert pun("taxi", "vehicle (medium)") and pun("vehicle (medium)", "taxi")  # through its path
    assert pun("car", "vehicle (medium)")
    assert not pun("bus (metaphor)", "vehicle (medium)")  # nearer the medium than its own sense
    assert not pun("car", "vehicle (transport)")  # kin in the corpus


def test_the_puns_left_out_of_a_step_are_the_pairs_is_pun_calls_puns():
    s = Senses(CORPUS)
    for a in range(len(CORPUS)):
        expected = {b for b in range(len(CORPUS)) if b != a and s.is_pun(a, b)}
        assert set(s.puns(a).tolist()) == expected, CORPUS.concept(a).label
