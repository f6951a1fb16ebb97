"""004's five identification heuristics over the shipped corpus, each named on the candidate it
produced with its evidence; 'no sandwich here' with the reason; offline names made from the
heuristic and the breads."""

from __future__ import annotations

import numpy as np
import pytest

from wander.core.domain.geometry import normalize
from wander.core.sandwich import naming
from wander.core.sandwich.heuristics import EXPLICIT_BOUNDS, HEURISTICS, HIERARCHY, OPPOSITION, PERSPECTIVAL, TEMPORAL
from wander.core.sandwich.identifier import Identifier


@pytest.fixture(scope="module")
def identify(knowledge, embedder):
    ident = Identifier(knowledge, embed=embedder.embed)

    def run(text: str):
        return ident.identify(text, normalize(embedder.embed([text])[0]))

    return run


def labels(c) -> tuple[str, str, str]:
    return tuple(x.label.split(" (")[0] for x in (c.bread_top, c.filling, c.bread_bottom))  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("heuristic", "text", "triple", "evidence"),
    [
        (
            EXPLICIT_BOUNDS,
            "A shore lies between the sea and the land, where the tide leaves sand and shells.",
            ("sea", "shore", "land"),
            "'A shore lies between the sea and the land'",
        ),
        (
            EXPLICIT_BOUNDS,
            "Heat flows from the furnace to the radiator through the pipe.",
            ("furnace", "heat", "radiator"),
            "'from the furnace to the radiator'",
        ),
        (
            OPPOSITION,
            "Diplomacy is war versus peace: negotiation is the treaty that ends a conflict.",
            ("war", "diplomacy", "peace"),
            "versus peace'",
        ),
        (
            OPPOSITION,
            "Black and white photographs show every complexion as a shade of grey.",
            ("black", "complexion", "White"),
            "are opposites in the corpus",
        ),
        (
            HIERARCHY,
            "The draft animal pulled the plough; every work animal on the farm was an animal of great strength.",
            ("animal", "work animal", "draft animal"),
            "in the corpus",
        ),
        (
            TEMPORAL,
            "The war begins with mobilization and ends with an armistice; the treaty follows the battle.",
            ("mobilization", "battle", "armistice"),
            "'begins with mobilization and ends with an armistice'",
        ),
        (
            PERSPECTIVAL,
            "According to the physicist, light is a wave; according to the chemist, it is a particle. "
            "The scientist in each of them studies the same light.",
            ("physicist", "scientist", "chemist"),
            "'According to the physicist",
        ),
    ],
)
def test_each_heuristic_names_the_candidate_it_produced(identify, heuristic, text, triple, evidence):
    found = identify(text)
    mine = [c for c in found.candidates if c.heuristic == heuristic]
    assert mine, found.notes
    assert triple in [labels(c) for c in mine] and any(evidence in c.evidence for c in mine)


def test_the_corpus_sees_two_domains_as_two_perspectives(identify):
    found = identify("A sparrow is a kind of bird that builds a nest in a hedge and feeds on seeds.")
    perspectival = [c for c in found.candidates if c.heuristic == PERSPECTIVAL]
    assert perspectival and all(c.bread_top.domains[0] != c.bread_bottom.domains[0] for c in perspectival)
    assert "see from two domains" in perspectival[0].evidence
    assert any(c.heuristic == HIERARCHY and "is a kind of bird" in c.evidence for c in found.candidates)


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("Hello, hello, hello.", "no sandwich here: no bread pair among 1 concept(s)"),
        ("The committee met on Tuesday.", "no sandwich here: no bread pair among 2 concept(s)"),
    ],
)
def test_no_sandwich_here_says_why_heuristic_by_heuristic(identify, text, head):
    found = identify(text)
    assert not found.candidates and found.reason.startswith(head)
    for h in HEURISTICS:
        assert f"{h}: " in found.reason


def test_a_pair_without_a_filling_is_reported_by_its_heuristic(identify):
    found = identify(
        "According to economists, a market sets the price of labour; according to ecologists, it is habitat."
    )
    assert "nothing lies between 'economist' and" in found.notes[PERSPECTIVAL]  # plural read as the concept


def test_offline_names_say_what_the_sandwich_is():
    made = {h: naming.name(h, "sea", "shore", "land (real property)", ("object", "location")) for h in HEURISTICS}
    for h, n in made.items():
        assert "Shore" in n and "Sea" in n and "(" not in n, n
        assert "Club" not in n or h == OPPOSITION
    assert naming.name(EXPLICIT_BOUNDS, "a", "b", "c") == naming.name(EXPLICIT_BOUNDS, "a", "b", "c")  # stable
    assert len({naming.name(TEMPORAL, f"x{i}", "f", "y") for i in range(12)}) > 1  # templates vary


def test_a_repetitive_text_gives_a_bounded_number_of_candidates(identify):
    text = " ".join(["A shore lies between the sea and the land."] * 30)
    found = identify(text)
    assert len(found.candidates) <= 60 and np.isfinite([c.margin for c in found.candidates]).all()
