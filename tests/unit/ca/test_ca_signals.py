from __future__ import annotations

import io

import pytest
from PIL import Image

from wander.adapters.ca import rotation
from wander.adapters.ca.kernel import CHAOTIC, CONVERGED, OSCILLATING, Evolution
from wander.adapters.ca.signals import (
    attractor_png_for_text,
    ca_uncertainty_adjustment,
    text_signal,
    text_signals,
)


def test_adjustments():
    assert ca_uncertainty_adjustment(CONVERGED) == pytest.approx(-0.1)
    assert ca_uncertainty_adjustment(OSCILLATING) == pytest.approx(0.15)
    assert ca_uncertainty_adjustment(CHAOTIC) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="state"):
        ca_uncertainty_adjustment("MAYBE")


def test_text_signal_of_a_typical_text(xp):
    s = text_signal("a bridge between music and mathematics", xp=xp)
    assert s.state == CONVERGED and s.adjustment == pytest.approx(-0.1)
    assert not s.needs_rephrasing and s.ticks > 0 and s.rotation == 0 and s.outcome == CONVERGED


def test_batch_matches_singles():
    texts = ["one", "two", "three"]
    assert text_signals(texts) == [text_signal(t) for t in texts]


def test_chaotic_text_needs_rephrasing(monkeypatch):
    def chaotic(frames, **kw):
        return [Evolution(attractor=f, state=CHAOTIC, ticks=1000) for f in frames]

    monkeypatch.setattr(rotation, "evolve_batch", chaotic)
    s = text_signal("an incoherent text")
    assert s.state == CHAOTIC and s.needs_rephrasing and s.adjustment == pytest.approx(0.2)
    assert s.attempts == 4 and s.outcome == "FAILED_ALL_ROTATIONS"


def test_attractor_png_for_text():
    im = Image.open(io.BytesIO(attractor_png_for_text("crystal", scale=2)))
    assert im.format == "PNG" and im.size == (128, 128)


def test_empty_text_is_refused():
    with pytest.raises(ValueError, match="text"):
        text_signal(" ")
