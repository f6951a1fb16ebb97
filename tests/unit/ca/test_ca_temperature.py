from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from wander.adapters.ca.temperature import COLD, HOT, WARM, temperature, temperature_and_tier, tier

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def test_known_points():
    assert temperature(0, NOW, NOW) == pytest.approx(0.3)
    assert temperature(10, NOW - timedelta(days=7), NOW) == pytest.approx(0.5)
    assert temperature(3, NOW - timedelta(days=14), NOW) == pytest.approx((0.3 + 0.21) * 0.25)
    assert temperature(25, NOW, NOW) == pytest.approx(1.0)  # hits saturate


def test_tiers():
    assert tier(0.6) == HOT and tier(0.5999) == WARM
    assert tier(0.3) == WARM and tier(0.2999) == COLD
    assert temperature_and_tier(0, NOW, NOW) == (pytest.approx(0.3), WARM)
    assert temperature_and_tier(10, NOW, NOW)[1] == HOT
    assert temperature_and_tier(0, NOW - timedelta(days=1), NOW)[1] == COLD


def test_clock_inputs():
    naive = datetime(2026, 3, 1, 12, 0)
    assert temperature(0, naive, NOW) == pytest.approx(0.3)  # naive = UTC
    assert temperature(10, NOW.timestamp() - 7 * 86400, NOW.timestamp()) == pytest.approx(0.5)
    assert temperature(0, NOW + timedelta(days=3), NOW) == pytest.approx(0.3)  # future = now


def test_importing_temperature_does_not_pull_numpy():
    code = "import sys, wander.adapters.ca.temperature; assert 'numpy' not in sys.modules, 'numpy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
