"""The gate's structural checks on a small corpus of real WordNet shapes: a filling that
names the breads' category or restates a bread is trivial ("freshwater fish" for trout and
shellfish), the corpus's most abstract concepts are not ingredients, the breads must be the
same kind of thing and relate without the filling (the bread test), and an insight that only
says what one definition says is rejected."""

from types import SimpleNamespace

import numpy as np

from wander.core.domain import sandwich
from wander.core.engine import crystal_structure as cs

ROWS = [  # label, domain, path
    ("trout (fish)", "food", ("fish", "food", "solid", "matter", "physical entity", "entity")),
    ("shellfish", "food", ("seafood", "food", "solid", "matter", "physical entity", "entity")),
    ("freshwater fish", "food", ("seafood", "food", "solid", "matter", "physical entity", "entity")),
    ("food", "food", ("solid", "matter", "physical entity", "entity")),
    ("fish", "food", ("food", "solid", "matter", "physical entity", "entity")),
    ("fishmonger", "person", ("trader", "person", "organism", "living thing", "physical entity", "entity")),
    ("harbour", "location", ("port", "geographic point", "point", "location", "physical entity", "entity")),
    ("sonnet", "communication", ("poem", "verse", "writing", "communication", "abstract entity", "entity")),
    ("matter", "substance", ("physical entity", "entity")),
    # a sister of a bread: athlete and player are both contestants, the fan is not one
    ("player", "person", ("contestant", "person", "organism", "living thing", "physical entity", "entity")),
    ("athlete", "person", ("contestant", "person", "organism", "living thing", "physical entity", "entity")),
    ("sports fan", "person", ("fan", "enthusiast", "lover", "person", "organism", "living thing", "entity")),
    ("coach (trainer)", "person", ("trainer", "leader", "person", "organism", "living thing", "entity")),
    ("stadium", "artifact", ("structure", "artifact", "whole", "object", "physical entity", "entity")),
]
FILLER = [
    (f"thing {i}", "artifact", ("widget", "device", "instrumentality", "artifact", "physical entity", "entity"))
    for i in range(200)
]


class Corpus:
    def __init__(self):
        self.rows = ROWS + FILLER
        self.opp = {}

    def __len__(self):
        return len(self.rows)

    def concept(self, i):
        label, dom, path = self.rows[i]
        return SimpleNamespace(label=label, domains=(dom,), path=path, gloss="", opposites=())

    def opposites(self, i):
        return self.opp.get(i, [])


KB = Corpus()
TROUT, SHELLFISH, FRESHWATER, FOOD, FISH, FISHMONGER, HARBOUR, SONNET, MATTER = range(9)
PLAYER, ATHLETE, FAN, COACH, STADIUM = range(9, 14)


def test_a_filling_that_names_the_breads_category_is_trivial():
    assert "one more kind of 'food'" in cs.triviality(KB, FRESHWATER, TROUT, SHELLFISH)
    assert "shared broader concept" in cs.triviality(KB, FOOD, TROUT, SHELLFISH)
    assert "broader or narrower" in cs.triviality(KB, FISH, TROUT, SHELLFISH)
    assert cs.triviality(KB, FISHMONGER, TROUT, SHELLFISH) is None
    assert cs.triviality(KB, HARBOUR, TROUT, SHELLFISH) is None


def test_a_filling_that_is_a_sister_of_a_bread_is_trivial():
    # the breads share no category within two levels, yet the filling is one more
    # contestant beside the player: it names the player's kind again
    assert "one more kind of 'contestant', as 'player' is" in cs.triviality(KB, ATHLETE, PLAYER, FAN)
    assert "as 'player' is" in cs.triviality(KB, ATHLETE, FAN, PLAYER)  # either bread
    assert cs.triviality(KB, STADIUM, PLAYER, FAN) is None
    assert cs.triviality(KB, COACH, PLAYER, FAN) is None  # a person, not a contestant


NAMES = {
    "degradation": (1.0, 0.1, 0.0),
    "deterioration": (0.9, 0.3, 0.1),
    "weakening": (0.2, 1.0, 0.1),
    "repair": (0.1, 0.2, 1.0),
    "decline": (0.1, 0.95, 0.35),
}


def test_a_filling_or_a_bread_whose_name_reads_as_another_says_a_word_again():
    rows = [(name, "act", ("change", "action", "act", "event", "abstract entity", "entity")) for name in NAMES]
    kb = SimpleNamespace(concept=lambda i: SimpleNamespace(label=rows[i][0], path=rows[i][2]))
    degradation, deterioration, weakening, repair, decline = range(5)
    vector = lambda name: np.array(NAMES[name], dtype=np.float32)  # noqa: E731
    why = cs.names_alike(kb, degradation, weakening, deterioration, vector)
    assert why is not None and "'degradation' reads as 'deterioration'" in why
    assert cs.names_alike(kb, repair, weakening, deterioration, vector) is None
    # breads whose names read as one another: the bread relationship is a word said twice
    why = cs.names_alike(kb, repair, weakening, decline, vector)
    assert why is not None and "breads 'weakening' and 'decline'" in why
    v = sandwich.validity(B1, F, B2, np.zeros((0, 3)), structure=sandwich.Structure(names_alike=why))
    assert v.verdict == "rejected" and any(r.startswith("names alike:") for r in v.hard_failures())


def test_the_most_abstract_concepts_are_not_ingredients():
    assert cs.is_abstract(KB, MATTER)  # two levels from the root
    assert not cs.is_abstract(KB, FISHMONGER) and not cs.is_abstract(KB, SONNET)


def test_homology_and_the_bread_test():
    assert cs.homologous(KB, TROUT, SHELLFISH)  # both food
    assert not cs.homologous(KB, SONNET, HARBOUR)
    assert cs.bread_relation(KB, TROUT, SHELLFISH, 0.2) == "kin:food"
    assert cs.bread_relation(KB, TROUT, FISH, 0.2) == "kind_of:first"  # trout is a kind of fish
    assert cs.bread_relation(KB, FISH, TROUT, 0.2) == "kind_of:second"
    assert cs.bread_relation(KB, SONNET, HARBOUR, 0.2) is None  # nothing ties them: the bread test fails
    assert cs.bread_relation(KB, SONNET, HARBOUR, 0.5) == "similar"  # a similarity that holds on its own
    KB.opp[SONNET] = [HARBOUR]
    try:
        assert cs.bread_relation(KB, SONNET, HARBOUR, 0.2) == "opposites"
    finally:
        KB.opp.clear()


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


B1, B2, F = unit(1, 0, 0), unit(0.5, 0.866, 0), unit(0.7, 0.55, 0.45)


def test_structural_failures_reject_whatever_v_says():
    fine = sandwich.validity(B1, F, B2, np.zeros((0, 3)), structure=sandwich.Structure(bread_relation="similar"))
    assert fine.verdict == "accepted" and not fine.hard_failures()
    for shape, words in [
        (sandwich.Structure(trivial="the filling 'food' is the breads' shared broader concept"), "trivial"),
        (sandwich.Structure(abstract=("matter",)), "specificity"),
        (sandwich.Structure(homologous=False), "structural homology"),
        (sandwich.Structure(bread_relation=None), "bread test"),
        (sandwich.Structure(gloss_echo=(0.93, "sonnet")), "restates a definition"),
    ]:
        v = sandwich.validity(B1, F, B2, np.zeros((0, 3)), structure=shape)
        assert v.verdict == "rejected" and any(words in r for r in v.hard_failures()), words
        assert v.v == fine.v  # the graded parts do not change: the structure is a gate of its own
