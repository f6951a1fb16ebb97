import numpy as np
import pytest

from wander.core.domain import sandwich as sw


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_weights_and_thresholds_are_those_of_004():
    assert sw.WEIGHTS == {"bread_compat": 0.25, "containment": 0.35, "non_triviality": 0.20, "novelty": 0.20}
    assert (sw.ACCEPT, sw.REVIEW) == (0.7, 0.5)


def test_bread_must_be_related_but_not_identical():
    assert sw.bread_compat(0.6) == 1.0
    assert sw.bread_compat(0.95) == 0.0 and sw.bread_compat(0.1) == 0.0
    assert 0 < sw.bread_compat(0.45) < 1


def test_a_mediating_filling_scores_high():
    b1, b2 = unit(1, 0, 0), unit(0.5, 0.866, 0)  # bread similarity 0.5
    filling = unit(0.866, 0.5, 1.0)  # between them, closer to each than they are to each other
    val = sw.validity(b1, filling, b2, np.zeros((0, 3)))
    assert val.containment > 0.5 and val.non_triviality > 0.5
    assert val.v >= 0.7 and val.verdict == "accepted" and not val.reasons()


def test_trivial_and_non_mediating_fillings_are_rejected_with_reasons():
    b1, b2 = unit(1, 0, 0), unit(0.5, 0.866, 0)
    val = sw.validity(b1, b1, b2, np.zeros((0, 3)))  # the filling restates a bread
    assert val.non_triviality == 0.0 and any("trivial" in r for r in val.reasons())
    away = sw.validity(b1, unit(0, 0, 1), b2, np.zeros((0, 3)))
    assert away.containment == 0.0 and away.non_triviality == 0.0 and away.verdict == "rejected"


def test_a_high_v_whose_filling_does_not_mediate_is_kept_for_review_not_accepted():
    # V leans on the breads' fit and the filling's distinctness; a filling no nearer each
    # bread than the breads are to each other does not stand between them (004, 4.3)
    for s12, near in ((0.6, 0.57), (0.5, 0.48), (0.45, 0.44)):
        val = sw.Validity(
            bread_compat=sw.bread_compat(s12),
            containment=sw.containment(near, near + 0.05, s12),
            non_triviality=1.0,
            novelty=1.0,
            bread_similarity=s12,
            filling_similarities=(near, near + 0.05),
        )
        assert val.containment < sw.MEDIATES and val.v >= sw.ACCEPT, val.as_dict()
        assert val.verdict == "review" and not val.hard_failures()
        assert any("does not mediate" in r for r in val.reasons())
    mediating = sw.Validity(1.0, sw.containment(0.62, 0.65, 0.6), 1.0, 1.0, 0.6, (0.62, 0.65))
    assert mediating.containment >= sw.MEDIATES and mediating.verdict == "accepted"


def test_novelty_against_existing_crystals():
    f = unit(1, 1, 0)
    assert sw.novelty(f, np.stack([f])) == pytest.approx(0.0, abs=1e-6)
    assert sw.novelty(f, np.zeros((0, 3))) == 1.0


def test_structural_type_is_the_nearest_prototype_unless_opposites():
    protos = {"Bound": unit(1, 0, 0), "Dialectic": unit(0, 1, 0), "Temporal": unit(0, 0, 1)}
    assert sw.structural_type(unit(0.1, 0.2, 1), protos, False)[0] == "Temporal"
    assert sw.structural_type(unit(1, 0, 0), protos, True)[0] == "Dialectic"
    assert len(sw.TAXONOMY) == 10


def test_hard_failures_reject_whatever_v_says():
    b1, b2 = unit(1, 0, 0), unit(0.5, 0.866, 0)
    good = unit(0.866, 0.5, 0.8)
    ancestor = sw.validity(b1, good, b2, np.zeros((0, 3)), filling_in_lineage=True)
    assert ancestor.non_triviality == 0.0 and ancestor.verdict == "rejected"
    assert "trivial: the filling is a broader concept of a bread" in ancestor.hard_failures()
    far1, far2 = unit(1, 0, 0), unit(0, 1, 0)  # unrelated breads: nonsense, even with a filling between them
    nonsense = sw.validity(far1, unit(1, 1, 0), far2, np.zeros((0, 3)))
    assert nonsense.verdict == "rejected" and "nonsense: the breads are unrelated" in nonsense.hard_failures()
    repeat = sw.validity(b1, good, b2, np.stack([good]))
    assert repeat.verdict == "rejected" and "a repeat of an existing crystal" in repeat.hard_failures()


def test_non_triviality_is_graded_not_saturated():
    # fillings nearer and nearer one bread: the part falls steadily instead of sitting at 1
    values = [sw.non_triviality(s, 0.5) for s in (0.5, 0.6, 0.7, 0.8)]
    assert values == sorted(values, reverse=True) and len(set(values)) == 4 and values[-1] > 0
