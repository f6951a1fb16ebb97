"""A crystal's structural type is named only when the classifier is confident: the nearest
type leads the next by sandwich.TYPE_MARGIN, or the corpus lists the breads as opposites.
The crystal keeps its nearest type and the figures; the formed event names no type below."""

from __future__ import annotations

import numpy as np

from wander.core.domain import sandwich as sw
from wander.core.domain.models import Crystal, CrystalStatus
from wander.core.engine.crystallizer import crystal_summary

PROTOS = {
    "Bound": np.array([1.0, 0.0, 0.0]),
    "Dialectic": np.array([0.0, 1.0, 0.0]),
    "Temporal": np.array([0.0, 0.0, 1.0]),
}


def unit(*xs):
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_a_clear_lead_is_confident_a_near_tie_is_not():
    clear = sw.type_confidence(unit(0.1, 0.2, 1), PROTOS, False)
    assert clear["type_confident"] is True and clear["type_margin"] >= sw.TYPE_MARGIN
    tie = sw.type_confidence(unit(1, 0.98, 0), PROTOS, False)
    assert tie["type_confident"] is False and 0 <= tie["type_margin"] < sw.TYPE_MARGIN
    assert abs(tie["type_similarity"] - float(unit(1, 0.98, 0)[0])) < 1e-3


def test_opposite_breads_are_dialectic_by_fact():
    assert sw.type_confidence(unit(1, 0.98, 0), PROTOS, True)["type_confident"] is True


def crystal(validity: dict) -> Crystal:
    return Crystal(
        id="c",
        project_id="p",
        session_id="s",
        insight="i",
        embedding=unit(1, 0, 0),
        confidence=0.7,
        actionability=0.5,
        domains=[],
        status=CrystalStatus.ACTIVE,
        structural_type="Temporal",
        validity=validity,
    )


def test_the_formed_event_names_the_type_only_when_confident():
    assert crystal_summary(crystal({"V": 0.7, "type_confident": True})).structural_type == "Temporal"
    assert crystal_summary(crystal({"V": 0.7, "type_confident": False})).structural_type is None
    # a crystal from before the figures were kept, or made elsewhere, keeps its type
    assert crystal_summary(crystal({"V": 0.7})).structural_type == "Temporal"
