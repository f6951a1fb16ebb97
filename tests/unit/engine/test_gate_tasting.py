"""The gate tastes several different sandwiches at each crystallization: the ranked
candidates' first few that share neither their breads nor their filling with one taken
before; what it weighed and passed over is not weighed again, after a reload too."""

from types import SimpleNamespace

import numpy as np

from wander.core.domain import sandwich as gate
from wander.core.domain.models import Crystal
from wander.core.engine.crystallizer import weighed_before
from wander.core.engine.sandwich_choice import best, promised, ranked, tasting, widened

LABELS = ["hound", "tabby", "between", "reef", "harbour", "tide", "kennel", "lagoon"]


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


VECTORS = {
    "hound": unit(1, 0, 0, 0),
    "tabby": unit(0.5, 0.866, 0, 0),
    "between": unit(0.866, 0.5, 0.5, 0),
    "reef": unit(0, 0, 1, 1),
    "harbour": unit(0, 1, 0, 1),
    "tide": unit(0.3, 0.5, 0.5, 0.8),
    "kennel": unit(1, 0.9, 0, 0.2),
    "lagoon": unit(0.5, 0.4, 0.6, 0.7),
}
DOMAIN = {"hound": "noun.animal", "tabby": "noun.animal", "between": "noun.animal", "kennel": "noun.artifact"}


class Corpus:
    """Concepts without a path or relations: the gate's structure reads no kinship, so the
    breads relate by similarity alone ('similar' from 0.4) and are of one kind by domain."""

    def __len__(self):
        return len(LABELS)

    def concept(self, i):
        return SimpleNamespace(label=LABELS[i], path=[], gloss="", domains=[DOMAIN.get(LABELS[i], "noun.object")])

    def vector(self, i):
        return VECTORS[LABELS[i]]

    def relations_between(self, a, b):
        return []

    def opposites(self, i):
        return []


def locus(label):
    return SimpleNamespace(id=f"l-{label}", concept=label, embedding=VECTORS[label])


def sandwich(b1, b2, filling):
    return (locus(b1), locus(b2), LABELS.index(b1), LABELS.index(b2), LABELS.index(filling))


def test_the_tasting_takes_different_breads_and_fillings_in_rank_order():
    order = [
        sandwich("hound", "tabby", "between"),
        sandwich("hound", "tabby", "kennel"),  # the same breads again
        sandwich("reef", "harbour", "between"),  # the same filling again
        sandwich("reef", "harbour", "tide"),
        sandwich("hound", "reef", "lagoon"),  # one bread shared: another pair
        sandwich("tabby", "harbour", "kennel"),
    ]
    kb = Corpus()
    assert tasting(kb, order, 6, 3) == [order[0], order[3], order[4]]
    assert tasting(kb, order, 6, 1) == [order[0]]
    assert tasting(kb, order, 6, 10) == [order[0], order[3], order[4], order[5]]
    # only the sound ones beside the first: one that breaks a rule is not tasted
    assert tasting(kb, order, 4, 3) == [order[0], order[3]]
    assert tasting(kb, order, 0, 3) == [order[0]]


def test_the_ranking_puts_the_sound_first_by_promised_v_and_best_is_its_first():
    kb = Corpus()
    candidates = [
        sandwich("hound", "reef", "tide"),  # unrelated breads (0.0): a hard failure
        sandwich("reef", "harbour", "tide"),
        sandwich("hound", "tabby", "between"),
        sandwich("reef", "harbour", "lagoon"),
    ]
    none = np.zeros((0, 4), dtype=np.float32)
    order, sound = ranked(kb, candidates, none)
    assert sorted(map(id, order)) == sorted(map(id, candidates)) and sound == 3
    assert order[-1] is candidates[0]  # the unsound one last, whatever its V
    assert best(kb, candidates, none) is order[0]
    assert ranked(kb, candidates[:1], none) == ([candidates[0]], 0)
    # equal promise: the earlier candidate first
    twice = [candidates[1], candidates[1]]
    assert ranked(kb, twice, none)[0][0] is twice[0]


def test_what_the_crystals_record_as_weighed_is_not_weighed_again():
    c = Crystal.__new__(Crystal)
    c.validity = {
        "filling": "between",
        "reworked_from": {"bread_ids": ["a", "b"], "filling": "tide", "verdict": "rejected"},
        "also_weighed": [
            {"bread_ids": ["c", "d"], "filling": "reef", "verdict": "accepted"},
            {"bread_ids": ["a", "e"], "filling": "lagoon", "verdict": "review"},
        ],
    }
    bare = Crystal.__new__(Crystal)
    bare.validity = {"filling": "kennel"}
    assert weighed_before([c, bare]) == {
        (frozenset({"a", "b"}), "tide"),
        (frozenset({"c", "d"}), "reef"),
        (frozenset({"a", "e"}), "lagoon"),
    }


def _pair(s12: float, near: float):
    """Two breads `s12` alike and a filling `near` to each (unit vectors in three dimensions)."""
    b1, b2 = unit(1, 0, 0), unit(s12, np.sqrt(1 - s12**2), 0)
    mid = (b1 + b2) / np.linalg.norm(b1 + b2)
    cos = near / float(mid @ b1)
    return b1, b2, unit(*(cos * mid + np.sqrt(1 - cos**2) * np.array([0, 0, 1.0])))


class Related(Corpus):
    """Breads of one kind (a domain) that relate by a corpus relation, whatever their similarity."""

    def __init__(self, vectors):
        self.labels = list(vectors)
        self.vectors = vectors

    def __len__(self):
        return len(self.labels)

    def concept(self, i):
        return SimpleNamespace(label=self.labels[i], path=[], gloss="", domains=["noun.act"])

    def vector(self, i):
        return self.vectors[self.labels[i]]

    def relations_between(self, a, b):
        return ["parts"]


def test_a_sandwich_that_promises_to_stand_is_tasted_before_one_with_a_higher_v_that_cannot():
    # the second filling stands between breads alike enough that it does not mediate (it is
    # not nearer each than they are to each other): its V is higher, its verdict is review
    a1, a2, fa = _pair(0.33, 0.6)
    c1, c2, fc = _pair(0.5, 0.48)
    kb = Related({"a1": a1, "a2": a2, "fa": fa, "c1": c1, "c2": c2, "fc": fc})
    stands = (SimpleNamespace(id="a1", embedding=a1), SimpleNamespace(id="a2", embedding=a2), 0, 1, 2)
    short = (SimpleNamespace(id="c1", embedding=c1), SimpleNamespace(id="c2", embedding=c2), 3, 4, 5)
    none = np.zeros((0, 3), dtype=np.float32)
    v_stands = gate.validity(a1, fa, a2, none, structure=gate.Structure(bread_relation="relation:parts"))
    v_short = gate.validity(c1, fc, c2, none, structure=gate.Structure(bread_relation="relation:parts"))
    assert v_stands.verdict == "accepted" and v_short.verdict == "review" and v_short.v > v_stands.v
    assert ranked(kb, [short, stands], none) == ([stands, short], 2)
    # what each promises (the verdict a review's second try is taken for) is what the gate then says
    assert [promised(kb, c, none).verdict for c in (stands, short)] == ["accepted", "review"]
    # a sandwich whose names read alike breaks a rule: it goes after the sound ones
    alike = lambda c: "the filling 'fa' reads as 'a1'" if c is stands else None  # noqa: E731
    assert ranked(kb, [stands, short], none, alike) == ([short, stands], 1)


def test_a_tasting_short_of_sandwiches_is_filled_from_the_wider_pool_by_promise():
    kb = Corpus()
    none = np.zeros((0, 4), dtype=np.float32)
    first = sandwich("hound", "tabby", "between")
    weighed = [first, sandwich("hound", "tabby", "kennel")]
    wider = [
        sandwich("hound", "tabby", "kennel"),  # weighed already among the nearest
        sandwich("hound", "reef", "tide"),  # unrelated breads: breaks a rule, not tasted
        sandwich("reef", "harbour", "tide"),  # promises to be accepted, V 0.78
        sandwich("hound", "tabby", "lagoon"),  # the first's breads again (and only review)
        sandwich("reef", "harbour", "lagoon"),  # promises to be accepted, V 0.79: the best
    ]
    assert [promised(kb, c, none).verdict for c in wider[2:]] == ["accepted", "review", "accepted"]
    assert promised(kb, wider[4], none).v > promised(kb, wider[2], none).v
    # the best promise of the wider pool joins the nearest pool's pick; the next ones share
    # their breads with one taken
    assert widened(kb, [first], weighed, wider, none, n=3) == [first, wider[4]]
    # nothing is added once there are n, nor from an empty pool
    assert widened(kb, [first], weighed, wider, none, n=1) == [first]
    assert widened(kb, [first], weighed, [], none, n=3) == [first]
    # the nearest pool's picks come first whatever the wider pool promises
    assert widened(kb, [wider[3]], [wider[3]], wider[2:3], none, n=2) == [wider[3], wider[2]]
