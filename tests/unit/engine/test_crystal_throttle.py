"""The crystallization throttle: at most one crystal in each stretch of CRYSTALLIZE_EVERY
steps, CRYSTAL_GAP apart at least, and the in-memory store reads it back on a reload as the
Postgres store does."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from wander.adapters.memory.inmemory_store import _last_crystal_step
from wander.core.engine.step import CRYSTAL_GAP, CRYSTALLIZE_EVERY, may_crystallize


def crystals_when_every_step_triggers(steps: int) -> list[int]:
    formed, last = [], 0
    for n in range(1, steps + 1):
        if may_crystallize(n, last):
            formed.append(n)
            last = n
    return formed


def test_a_trigger_on_every_step_gives_one_crystal_per_stretch():
    formed = crystals_when_every_step_triggers(300)
    assert len(formed) == 300 // CRYSTALLIZE_EVERY == 10
    assert [(n - 1) // CRYSTALLIZE_EVERY for n in formed] == list(range(10))


def test_a_stretch_whose_trigger_comes_late_still_has_its_crystal():
    # formed at 40 (stretch 31-60); the next stretch (61-90) opens at 61, but 61 is only 21
    # steps on, which the gap allows; 50 is in the same stretch as 40 and is not
    assert not may_crystallize(50, 40)
    assert may_crystallize(61, 40)
    # formed late in a stretch (58): the next stretch waits for the gap
    assert not may_crystallize(61, 58)
    assert not may_crystallize(58 + CRYSTAL_GAP - 1, 58)
    assert may_crystallize(58 + CRYSTAL_GAP, 58)
    assert may_crystallize(1, 0)  # none yet: the first trigger crystallizes


def test_the_in_memory_store_reads_back_the_step_of_the_latest_crystal():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    traces = [SimpleNamespace(step_number=n, created_at=t0 + timedelta(seconds=30 * n)) for n in range(1, 21)]
    assert _last_crystal_step(traces, []) == 0
    made = [SimpleNamespace(created_at=traces[6].created_at), SimpleNamespace(created_at=traces[12].created_at)]
    assert _last_crystal_step(traces, made) == 13
    # a crystal made by hand between steps counts as of the step before it
    made.append(SimpleNamespace(created_at=traces[15].created_at + timedelta(seconds=10)))
    assert _last_crystal_step(traces, made) == 16
