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
    assert len(formed) == 300 // CRYSTALLIZE_EVERY == 12
    assert [(n - 1) // CRYSTALLIZE_EVERY for n in formed] == list(range(12))
    # a 100-step wander, the length a person often runs, has a crystal in each of its four stretches
    assert len(crystals_when_every_step_triggers(100)) == 4


def test_the_first_crystal_waits_for_the_walk_to_have_bread():
    # the walk's start counts as the step before the first crystal: the gap holds from it too
    assert not any(may_crystallize(n, 0) for n in range(1, CRYSTAL_GAP))
    assert may_crystallize(CRYSTAL_GAP, 0)
    assert crystals_when_every_step_triggers(300)[0] == CRYSTAL_GAP


def test_a_stretch_whose_trigger_comes_late_still_has_its_crystal():
    # formed at 30 (stretch 26-50); the next stretch (51-75) opens at 51, 21 steps on, which
    # the gap allows; 45 is in the same stretch as 30 and is not
    assert not may_crystallize(45, 30)
    assert may_crystallize(51, 30)
    # formed late in a stretch (48): the next stretch waits for the gap
    assert not may_crystallize(51, 48)
    assert not may_crystallize(48 + CRYSTAL_GAP - 1, 48)
    assert may_crystallize(48 + CRYSTAL_GAP, 48)


def test_the_in_memory_store_reads_back_the_step_of_the_latest_crystal():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    traces = [SimpleNamespace(step_number=n, created_at=t0 + timedelta(seconds=30 * n)) for n in range(1, 21)]
    assert _last_crystal_step(traces, []) == 0
    made = [SimpleNamespace(created_at=traces[6].created_at), SimpleNamespace(created_at=traces[12].created_at)]
    assert _last_crystal_step(traces, made) == 13
    # a crystal made by hand between steps counts as of the step before it
    made.append(SimpleNamespace(created_at=traces[15].created_at + timedelta(seconds=10)))
    assert _last_crystal_step(traces, made) == 16
