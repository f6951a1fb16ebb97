"""The corpus's domain neighbourhoods kept on disk: a restored table answers exactly as a
computed one, and a stale, foreign or broken file is never used."""

from __future__ import annotations

import numpy as np

from wander.adapters.kb import reach_cache
from wander.adapters.kb.index import KnowledgeIndex
from wander.core.engine.ports import KnowledgeConcept

DOMAINS = ["animal", "artifact", "cognition", "food"]


def small_index(seed: int = 3, n: int = 60) -> KnowledgeIndex:
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, 16)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    concepts = [
        KnowledgeConcept(f"c{i}.n.01", f"c{i}", f"gloss {i}", (DOMAINS[i % 4],), (), (), "corpus", ()) for i in range(n)
    ]
    return KnowledgeIndex(concepts, m)


def test_a_kept_table_restores_to_the_same_answers(tmp_path):
    first = small_index()
    counts = first.domain_reach(0.2).copy()
    neighbours = first.domain_neighbours(5, 0.2)
    reach_cache.keep(first, tmp_path)
    assert len(list(tmp_path.glob("domain-reach-*.npz"))) == 1

    second = small_index()
    assert second.domain_reach_table() is None
    assert reach_cache.restore(second, tmp_path)
    np.testing.assert_array_equal(second.domain_reach(0.2), counts)
    assert second.domain_neighbours(5, 0.2) == neighbours


def test_nothing_is_kept_before_it_is_computed(tmp_path):
    reach_cache.keep(small_index(), tmp_path)
    assert not list(tmp_path.iterdir())


def test_another_corpus_does_not_use_it(tmp_path):
    first = small_index(seed=3)
    first.domain_reach(0.2)
    reach_cache.keep(first, tmp_path)
    other = small_index(seed=4)
    assert other.content_key() != first.content_key()
    assert not reach_cache.restore(other, tmp_path)
    assert other.domain_reach_table() is None


def test_a_broken_file_means_computing_again(tmp_path):
    index = small_index()
    index.domain_reach(0.2)
    reach_cache.keep(index, tmp_path)
    (path,) = tmp_path.glob("domain-reach-*.npz")
    path.write_bytes(b"not an npz")
    fresh = small_index()
    assert not reach_cache.restore(fresh, tmp_path)
    np.testing.assert_array_equal(fresh.domain_reach(0.2), index.domain_reach(0.2))


def test_an_unwritable_folder_is_not_an_error(tmp_path):
    index = small_index()
    index.domain_reach(0.2)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    reach_cache.keep(index, blocker / "cache")  # a folder under a file: cannot be made
    assert not (blocker / "cache").exists()
