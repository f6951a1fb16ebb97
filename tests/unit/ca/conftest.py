"""Fixtures of the CA tests: every test that takes ``xp`` runs on each available backend
(NumPy always, CuPy where a CUDA device is present)."""

from __future__ import annotations

import pytest

from wander.adapters.ca.xp import available_backends, get_xp


@pytest.fixture(params=available_backends())
def xp(request):
    return get_xp(request.param)


@pytest.fixture(autouse=True)
def _no_backend_env(monkeypatch):
    monkeypatch.delenv("WANDER_CA_BACKEND", raising=False)
