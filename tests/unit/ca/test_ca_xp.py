from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.ca import xp as xpmod
from wander.bootstrap.settings import load_settings


def test_numpy_backend_always_works():
    assert xpmod.get_xp("numpy") is np
    assert "numpy" in xpmod.available_backends()


def test_backend_comes_from_the_environment(monkeypatch):
    monkeypatch.setattr(xpmod, "_default_backend", xpmod._default_backend)  # restored after the test
    monkeypatch.setenv("WANDER_CA_BACKEND", "numpy")
    xpmod.use_backend(load_settings().ca.backend)  # what the composition root does at start-up
    assert xpmod.get_xp() is np
    assert xpmod.requested_backend() == "numpy"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(xpmod.CABackendError, match="WANDER_CA_BACKEND"):
        xpmod.get_xp("tpu")


@pytest.mark.skipif(xpmod.cupy_available(), reason="CuPy with a CUDA device is present")
def test_cupy_without_gpu_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(xpmod, "_default_backend", xpmod._default_backend)  # restored after the test
    monkeypatch.setenv("WANDER_CA_BACKEND", "cupy")
    xpmod.use_backend(load_settings().ca.backend)
    with pytest.raises(xpmod.CABackendError, match="WANDER_CA_BACKEND: 'cupy' was asked for"):
        xpmod.get_xp()
    assert xpmod.get_xp("auto") is np


def test_to_numpy_passes_numpy_through():
    a = np.zeros(3)
    assert xpmod.to_numpy(a) is a
