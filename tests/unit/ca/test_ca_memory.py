"""WheelerMemory: routing, Pearson recall, hits, temperature, reconstruction, eviction."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from wander.adapters.ca import rotation
from wander.adapters.ca.kernel import CHAOTIC, CONVERGED, OSCILLATING, Evolution
from wander.adapters.ca.wheeler_memory import (
    GENERAL,
    MemoryInputError,
    WheelerMemory,
    pearson_many,
    select_chunk,
    select_recall_chunks,
)

TEXTS = [
    "fix the python debug error",
    "buy groceries and schedule dentist",
    "quantum physics equation for the particle",
    "solder the pcb and flash the arduino firmware",
    "a walk through the old harbour at dawn",
    "the wheeler attractor brick",
]


class Clock:
    def __init__(self):
        self.now = datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now

    def advance(self, days: float):
        self.now += timedelta(days=days)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def mem(tmp_path, clock, xp):
    m = WheelerMemory(tmp_path / "memory", capacity=100, clock=clock, xp=xp)
    for t in TEXTS:
        m.store(t)
    return m


def test_routing():
    assert select_chunk("fix the python debug error") == "code"
    assert select_chunk("buy groceries and schedule dentist") == "daily_tasks"
    assert select_chunk("a walk by the sea") == GENERAL
    assert select_chunk("python and physics") == GENERAL  # a tie
    chunks = select_recall_chunks("debug the arduino firmware in python", ["science", "code", "meta"])
    assert chunks[:2] == ["code", "hardware"] and GENERAL in chunks
    assert set(chunks) >= {"science", "meta"}  # every chunk on disk is searched


def test_store_routes_and_persists(mem, tmp_path):
    chunks = {e.text: e.chunk for e in mem.entries()}
    assert chunks["fix the python debug error"] == "code"
    assert chunks["a walk through the old harbour at dawn"] == GENERAL
    assert all(e.state == CONVERGED for e in mem.entries())
    assert mem.store(TEXTS[0]) == mem.memory_id(TEXTS[0])
    assert len(mem) == len(TEXTS)  # storing again is idempotent
    again = WheelerMemory(tmp_path / "memory")
    assert {e.id for e in again.entries()} == {e.id for e in mem.entries()}
    for e in mem.entries():
        assert np.array_equal(again.attractor(e.id), mem.attractor(e.id))
        assert np.array_equal(mem.brick(e.id).attractor, mem.attractor(e.id))
    assert (tmp_path / "memory" / "chunks" / "code" / "index.json").exists()
    assert all(e.outcome == CONVERGED for e in again.entries())
    assert mem.brick(mem.memory_id(TEXTS[0])).metadata["rotation_outcome"] == CONVERGED


def test_a_text_no_angle_settles_is_stored_as_failed_all_rotations(tmp_path, monkeypatch):
    def oscillating(frames, keep_history=False, **kw):
        out = []
        for f in frames:
            history = np.stack([f, -f] * 30)  # every cell's role flips each tick: a 2-cycle
            out.append(Evolution(history[-1], OSCILLATING, 59, history=history, period=2, oscillating_cells=4096))
        return out

    monkeypatch.setattr(rotation, "evolve_batch", oscillating)
    m = WheelerMemory(tmp_path / "m")
    e = m.store_entry("a thought that will not settle")
    assert (e.state, e.outcome, e.attempts) == (OSCILLATING, "FAILED_ALL_ROTATIONS", 4)
    assert WheelerMemory(tmp_path / "m").get(e.id).outcome == "FAILED_ALL_ROTATIONS"  # persisted
    brick = m.brick(e.id)
    assert brick.metadata["rotation_outcome"] == "FAILED_ALL_ROTATIONS"
    assert brick.cycle_period == 2 and brick.find_divergence_point() == 0


def test_an_index_written_before_outcomes_reads_them_from_the_state(tmp_path):
    m = WheelerMemory(tmp_path / "m")
    e = m.store_entry("an older memory")
    index = tmp_path / "m" / "chunks" / e.chunk / "index.json"
    data = json.loads(index.read_text())
    for entry in data["entries"]:
        del entry["outcome"]
    data["entries"].append({**data["entries"][0], "id": "x" * 16, "state": CHAOTIC})
    index.write_text(json.dumps(data))
    back = {x.id: x.outcome for x in WheelerMemory(tmp_path / "m").entries()}
    assert back == {e.id: CONVERGED, "x" * 16: "FAILED_ALL_ROTATIONS"}


def test_recall_puts_the_identical_text_first(mem, clock):
    hits = mem.recall("quantum physics equation for the particle", top_k=3)
    assert hits[0].text == "quantum physics equation for the particle"
    assert hits[0].correlation == pytest.approx(1.0, abs=1e-6)
    assert all(abs(h.correlation) < 0.5 for h in hits[1:])
    assert len(hits) == 3


def test_recall_correlates_with_every_memory(mem):
    hits = mem.recall("something never stored", top_k=100, bump=False)
    assert len(hits) == len(TEXTS)
    stored = np.stack([mem.attractor(h.id).ravel() for h in hits])
    query = mem.query_attractor("something never stored").ravel()
    expected = [np.corrcoef(s, query)[0, 1] for s in stored]
    assert [h.correlation for h in hits] == pytest.approx(expected, abs=1e-9)
    assert all(h.hits == 0 for h in hits)


def test_recall_bumps_hits_and_access(mem, clock):
    clock.advance(7)
    h = mem.recall(TEXTS[1], top_k=1)[0]
    assert h.hits == 1
    e = mem.get(h.id)
    assert e.hits == 1 and e.last_access == clock.now.isoformat()
    assert h.temperature == pytest.approx(0.37) and h.tier == "warm"
    others = [x for x in mem.temperatures() if x[0].id != h.id]
    assert all(t == pytest.approx(0.15) and tr == "cold" for _, t, tr in others)


def test_temperature_boost_reorders(mem, clock):
    for _ in range(10):
        mem.recall(TEXTS[4], top_k=1)  # make it hot
    clock.advance(1)
    plain = mem.recall("an unrelated query", top_k=6, bump=False)
    boosted = mem.recall("an unrelated query", top_k=6, temperature_boost=5.0, bump=False)
    assert boosted[0].text == TEXTS[4]
    assert boosted[0].score == pytest.approx(boosted[0].correlation + 5.0 * boosted[0].temperature)
    assert {h.id for h in plain} == {h.id for h in boosted}


def test_reconstruction(mem):
    e = mem.entries()[0]
    rec = mem.reconstruct(e.id, e.text)
    assert rec.state == CONVERGED
    assert np.corrcoef(rec.attractor.ravel(), mem.attractor(e.id).ravel())[0, 1] > 0.99
    hits = mem.recall(e.text, top_k=2, reconstruct=True)
    assert hits[0].reconstruction is not None and hits[0].reconstruction.state == CONVERGED


def test_eviction_of_the_coldest_ten_percent(tmp_path, clock):
    m = WheelerMemory(tmp_path / "m", capacity=20, clock=clock, keep_bricks=True)
    texts = [f"memory number {i}" for i in range(20)]
    for t in texts:
        m.store(t)
        clock.advance(1)  # older memories are colder
    for t in texts[:3]:
        m.recall(t, top_k=1)  # the three oldest are recalled now: warm again
    cold_ids = {m.memory_id(texts[3]), m.memory_id(texts[4])}
    bricks = [m.brick(i) for i in cold_ids]  # they exist before eviction
    assert len(bricks) == 2
    m.store("one more memory")
    assert len(m) == 19  # 20 - 2 evicted + 1 stored
    ids = {e.id for e in m.entries()}
    assert not ids & cold_ids
    assert {m.memory_id(t) for t in texts[:3]} <= ids
    for i in cold_ids:
        with pytest.raises(KeyError):
            m.brick(i)
    fresh = WheelerMemory(tmp_path / "m")  # rows rewritten consistently on disk
    for e in fresh.entries():
        assert np.array_equal(fresh.attractor(e.id), m.attractor(e.id))
    assert fresh.recall("memory number 10", top_k=1)[0].correlation == pytest.approx(1.0, abs=1e-6)


def test_bad_input(mem):
    with pytest.raises(MemoryInputError, match="text"):
        mem.store("   ")
    with pytest.raises(MemoryInputError, match="top_k"):
        mem.recall("x", top_k=0)
    with pytest.raises(MemoryInputError, match="query"):
        mem.recall("")
    with pytest.raises(MemoryInputError, match="capacity"):
        WheelerMemory(mem.root, capacity=0)


def test_pearson_many_matches_corrcoef():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 50))
    q = rng.standard_normal(50)
    expected = [np.corrcoef(row, q)[0, 1] for row in a]
    assert pearson_many(a, q) == pytest.approx(expected, abs=1e-12)
    assert pearson_many(np.ones((1, 50)), q)[0] == 0.0  # constant rows correlate 0


def test_info(mem):
    info = mem.info()
    assert info["count"] == len(TEXTS) and info["backend"] in ("numpy", "cupy")
    assert info["tiers"]["warm"] == len(TEXTS)
    assert info["chunks"]["code"]["count"] == 1
    assert info["rotation"]["0"]["successes"] == len(TEXTS)
