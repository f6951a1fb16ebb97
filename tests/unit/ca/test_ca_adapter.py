"""WheelerSignals, the engine's CA port: the signal text_signal gives, kept for a revisit."""

from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca import adapter
from wander.adapters.ca.adapter import WheelerSignals
from wander.adapters.ca.signals import text_signal


def test_signals_equal_text_signal_and_a_revisit_does_not_evolve_again(monkeypatch):
    rng = np.random.default_rng(5)
    vectors = [rng.standard_normal(384).astype(np.float32) for _ in range(6)]
    vectors.append(rng.standard_normal(384))  # float64 is evolved as float64, as before
    expected = [text_signal(f"concept {i}", embedding=v) for i, v in enumerate(vectors)]
    expected.append(text_signal("by its text alone"))

    evolved: list[str] = []
    real = adapter.text_signal

    def counting(text, **kw):
        evolved.append(text)
        return real(text, **kw)

    monkeypatch.setattr(adapter, "text_signal", counting)
    ca = WheelerSignals()
    for _ in range(3):
        got = [ca.signal(f"concept {i}", v) for i, v in enumerate(vectors)]
        got.append(ca.signal("by its text alone"))
        assert got == expected
    assert len(evolved) == len(expected)  # each once
    assert {s.state for s in expected} <= {"CONVERGED", "OSCILLATING", "CHAOTIC"}


def test_a_changed_vector_is_evolved_again_and_bad_text_still_fails():
    ca = WheelerSignals(kept=2)
    v = np.random.default_rng(6).standard_normal(384).astype(np.float32)
    first = ca.signal("x", v)
    w = v.copy()
    w[0] += 1.0
    assert ca.signal("x", w) == text_signal("x", embedding=w)
    assert ca.signal("x", v) == first
    with pytest.raises(ValueError, match="text"):
        ca.signal("  ", v)
