"""A server's first-start work in the background: `current` names what is being prepared
while it runs, and nothing once all is done; the neighbourhoods are computed once, also
when a step asks for them meanwhile, and kept for the next start."""

from __future__ import annotations

import threading

import numpy as np

from wander.adapters.kb import reach_cache
from wander.adapters.kb.index import KnowledgeIndex
from wander.bootstrap.warmup import Warmup
from wander.core.engine.ports import KnowledgeConcept


class SlowReach:
    """A knowledge index whose neighbourhoods take until `release` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.computed = 0

    def domain_reach_table(self):
        return None if not self.computed else ("table",)

    def prepare_domain_reach(self) -> None:
        self.release.wait(30)
        self.computed += 1


def test_current_names_the_work_until_it_is_done():
    kb = SlowReach()
    warmup = Warmup()
    warmup.start(kb, None)
    assert "domain neighbourhoods" in (warmup.current or "")
    assert not warmup.wait(0.05)
    kb.release.set()
    assert warmup.wait(60)
    assert warmup.current is None and kb.computed == 1


def test_nothing_to_compute_when_the_neighbourhoods_were_kept():
    kb = SlowReach()
    kb.computed = 1  # restored from the cache folder
    warmup = Warmup()
    warmup.start(kb, None)
    assert "domain neighbourhoods" not in (warmup.current or "")
    assert warmup.wait(60) and kb.computed == 1


def small_index() -> KnowledgeIndex:
    rng = np.random.default_rng(0)
    matrix = rng.standard_normal((60, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    concepts = [
        KnowledgeConcept(f"c{i}.n.01", f"c{i}", "", (("act", "animal", "food")[i % 3],), (), (), "wordnet", ())
        for i in range(60)
    ]
    return KnowledgeIndex(concepts, matrix)


def test_neighbourhoods_computed_once_by_the_warmup_and_kept(tmp_path):
    index = small_index()
    warmup = Warmup()
    warmup.start(index, tmp_path)
    assert warmup.wait(120)
    table = index.domain_reach_table()
    assert table is not None and table[0].shape == (60, 3)
    again = small_index()
    assert reach_cache.restore(again, tmp_path)  # the next start reads them
    assert np.array_equal(again.domain_reach_table()[0], table[0])


def test_a_step_asking_meanwhile_waits_for_the_same_table(monkeypatch):
    index = small_index()
    computed = []
    compute = index._compute_domain_reach

    def slow_compute() -> None:
        computed.append(1)
        threading.Event().wait(0.2)  # long enough for every thread to ask meanwhile
        compute()

    monkeypatch.setattr(index, "_compute_domain_reach", slow_compute)
    results = []
    threads = [threading.Thread(target=lambda: results.append(index.domain_reach(0.1))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(computed) == 1 and len(results) == 4
    assert all(np.array_equal(r, results[0]) for r in results)


def test_a_step_while_the_kernel_compiles_takes_the_numpy_passes_with_the_same_outcome(monkeypatch):
    from wander.adapters.ca import kernel
    from wander.adapters.ca.seed import hash_frame

    frames = np.stack([hash_frame(t) for t in ("tide", "information asymmetry", "harbour")])
    fused = kernel.evolve_batch(frames, fused=True)
    monkeypatch.setattr(kernel.fused, "_fused_state", [])  # not loaded yet in this "process" ...
    assert kernel.fused._fused_lock.acquire(timeout=60)  # ... and another thread is compiling it
    try:
        assert kernel.fused.fused_for(frames, np, None) is None
        meanwhile = kernel.evolve_batch(frames)
    finally:
        kernel.fused._fused_lock.release()
    assert [(e.state, e.ticks) for e in meanwhile] == [(e.state, e.ticks) for e in fused]
    assert all(np.array_equal(a.attractor, b.attractor) for a, b in zip(meanwhile, fused, strict=True))
