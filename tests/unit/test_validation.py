import math

import pytest

from wander.core.domain import validation as v
from wander.core.domain.errors import InvalidInput


@pytest.mark.parametrize("bad", ["", "   ", "\n\t", None])
def test_empty_seed_is_refused(bad):
    with pytest.raises(InvalidInput) as e:
        v.clean_text("seed_concept", bad)
    assert e.value.field == "seed_concept"


def test_text_is_collapsed_and_capped():
    assert v.clean_text("seed", "  a   b ") == "a b"
    with pytest.raises(InvalidInput, match="at most"):
        v.clean_text("seed", "x" * (v.MAX_TEXT + 1))


@pytest.mark.parametrize("bad", [0, -1, v.MAX_STEPS_LIMIT + 1, 10**9, 2.5, True])
def test_steps_out_of_range(bad):
    with pytest.raises(InvalidInput) as e:
        v.check_steps("steps", bad)
    assert e.value.field == "steps"


@pytest.mark.parametrize("bad", [0, -0.5, math.inf, math.nan, 11])
def test_temperature_must_be_positive_and_finite(bad):
    with pytest.raises(InvalidInput) as e:
        v.check_temperature(bad)
    assert e.value.field == "temperature"


def test_domains_normalised_and_unknown_named():
    known = {"artifact", "cognition"}
    assert v.check_domains("allowed_domains", ["noun.Artifact", "artifact", "cognition"], known) == [
        "artifact",
        "cognition",
    ]
    with pytest.raises(InvalidInput, match="unknown domain 'astrology'"):
        v.check_domains("allowed_domains", ["astrology"], known)


def test_domains_with_capitals_come_back_as_the_corpus_spells_them():
    """GET /domains lists topic domains such as 'American football'; create must take them."""
    known = {"artifact", "American football"}
    assert v.check_domains("forbidden_domains", ["American football", "american FOOTBALL"], known) == [
        "American football"
    ]


def test_random_seed_range():
    assert v.check_random_seed(0) == 0
    with pytest.raises(InvalidInput):
        v.check_random_seed(-1)
