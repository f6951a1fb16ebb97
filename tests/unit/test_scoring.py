import numpy as np
import pytest

from wander.core.domain import scoring


def test_composite_weights_match_spec():
    assert scoring.composite(1, 0, 0, 0) == pytest.approx(0.3)
    assert scoring.composite(0, 1, 0, 0) == pytest.approx(0.3)
    assert scoring.composite(0, 0, 1, 0) == pytest.approx(0.2)
    assert scoring.composite(0, 0, 0, 1) == pytest.approx(0.2)
    assert scoring.composite(1, 1, 1, 1) == pytest.approx(1.0)


def test_softmax_probabilities_sum_to_one_and_order():
    p = scoring.softmax_probabilities(np.array([0.1, 0.5, 0.3]), 0.7)
    assert p.sum() == pytest.approx(1.0)
    assert p.argmax() == 1 and p.argmin() == 0


def test_low_temperature_is_greedy_high_is_flat():
    s = np.array([0.2, 0.25, 0.3])
    assert scoring.softmax_probabilities(s, 0.01)[2] == pytest.approx(1.0)
    flat = scoring.softmax_probabilities(s, 1000)
    assert flat.max() - flat.min() < 0.01


def test_equal_scores_are_uniform():
    assert scoring.softmax_probabilities(np.array([0.4, 0.4]), 0.5).tolist() == pytest.approx([0.5, 0.5])


def test_select_is_reproducible_per_seed_and_step():
    s = np.linspace(0, 1, 20)
    a = [scoring.softmax_select(s, 0.7, scoring.step_rng(42, n)) for n in range(1, 30)]
    b = [scoring.softmax_select(s, 0.7, scoring.step_rng(42, n)) for n in range(1, 30)]
    c = [scoring.softmax_select(s, 0.7, scoring.step_rng(43, n)) for n in range(1, 30)]
    assert a == b
    assert a != c


def test_select_rejects_empty():
    with pytest.raises(ValueError):
        scoring.softmax_select(np.array([]), 0.7, scoring.step_rng(0, 1))


def test_component_scores_stay_in_unit_interval():
    d = np.linspace(0, 1.5, 31)
    for arr in (
        scoring.interestingness(d, np.linspace(-1, 1, 31), d > 0.5),
        scoring.novelty(np.linspace(-1, 1, 31)),
        scoring.bridge_potential(np.linspace(0, 1, 31), np.arange(31)),
        scoring.uncertainty(np.arange(31), np.linspace(0, 2, 31)),
    ):
        assert np.all(arr >= 0) and np.all(arr <= 1)


def test_novelty_and_uncertainty_directions():
    assert scoring.novelty(0.9) < scoring.novelty(0.2)
    assert scoring.uncertainty(0, 0.5) > scoring.uncertainty(3, 0.5)
    assert scoring.interestingness(0.5, 0.4, True) > scoring.interestingness(0.31, 0.4, False)


def test_novelty_spread_counts_the_walk_as_a_whole():
    # as near the nearest locus, a concept unlike the walk as a whole is newer
    assert scoring.novelty(0.5, 0.1) > scoring.novelty(0.5, 0.35)
    assert scoring.novelty(0.5) == pytest.approx(0.5)
    both = scoring.novelty(np.linspace(-1, 1, 31), np.linspace(-1, 1, 31))
    assert np.all(both >= 0) and np.all(both <= 1)


def test_the_attractor_weighs_more_as_the_wander_goes_on():
    near, far = 0.45, 0.05  # cosine to the attractor; the seed's is 0.1

    def gain(focus):
        return scoring.interestingness(0.5, near, False, 0.1, focus=focus) - scoring.interestingness(
            0.5, far, False, 0.1, focus=focus
        )

    # nothing at the very start, a vague sense while the walk explores, most at the end
    assert gain(0.0) == pytest.approx(0.0)
    assert 0 < gain(1 / 3) < gain(1.0)
    # full focus is the weighting the attractor always had
    assert scoring.interestingness(0.5, near, True, 0.1) == pytest.approx(
        scoring.interestingness(0.5, near, True, 0.1, focus=1.0)
    )
    for f in (0.0, 0.5, 1.0):
        x = scoring.interestingness(np.linspace(0, 1.5, 31), np.linspace(-1, 1, 31), True, 0.1, focus=f)
        assert np.all(x >= 0) and np.all(x <= 1)


def test_a_walk_that_drifted_from_the_attractor_still_feels_the_way_back():
    """A seed near the attractor (0.25): candidates of a walk that drifted to 0.05 sit far
    below the seed's level. Counted from the seed alone they all score the same; counted from
    where the walk stands, a step that gains on it scores more, and a step above the seed's
    level scores as it always did."""
    seed, here = 0.25, 0.05
    pulls = np.array([-0.1, 0.06, 0.1, 0.14, 0.3, 0.5])

    def interest(here_=None):
        return scoring.interestingness(0.5, pulls, False, seed, focus=0.5, here=here_)

    alone, drifted = interest(), interest(here)
    assert np.ptp(alone[:4]) == pytest.approx(0.0)  # all below the seed's scale: no gradient
    assert np.all(np.diff(drifted[1:]) > 0)  # from where the walk stands, nearer is better
    assert drifted[0] == pytest.approx(alone[0])  # 0.1 or more farther than here: nothing gained
    assert drifted[-1] == pytest.approx(alone[-1])  # the top of the scale is the seed's, as before
    # a walk as near the attractor as the seed, or nearer, is scored as it always was
    for at in (seed, 0.4):
        assert np.array_equal(interest(at), alone)
    x = scoring.interestingness(np.linspace(0, 1.5, 31), np.linspace(-1, 1, 31), True, seed, focus=1.0, here=-0.5)
    assert np.all(x >= 0) and np.all(x <= 1)
