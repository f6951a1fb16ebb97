from __future__ import annotations

import numpy as np
import pytest

from wander.adapters.sources.egress import EgressPolicy
from wander.adapters.sources.fetch import Fetcher, HostLimiter


@pytest.fixture
def fetcher():
    """A fetcher allowed to reach the tests' loopback servers, with no pause between requests."""
    f = Fetcher(
        EgressPolicy.from_settings(["127.0.0.1/32"]),
        timeout_s=3,
        max_bytes=200_000,
        limiter=HostLimiter(0.0),
        max_retry_after_s=2,
    )
    yield f
    f.close()


@pytest.fixture
def rng():
    return np.random.default_rng(5)
