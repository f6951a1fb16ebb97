"""The resonances as arrays (engine/resonance_rows.py) narrow the search only: over random
resonances and random seeds, what they find is what a loop over the resonance objects
finds, and they follow the list as it changes."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from wander.adapters.kb.index import KnowledgeIndex
from wander.core.domain.models import Resonance, ResonanceStatus
from wander.core.engine.ports import KnowledgeConcept
from wander.core.engine.resonance import decayed_strength
from wander.core.engine.resonance_rows import ResonanceRows, best_rows, opposite_labels

DIM = 16
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def knowledge() -> KnowledgeIndex:
    rng = np.random.default_rng(0)
    m = rng.standard_normal((40, DIM)).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    # c0..c39; every even concept's opposite is the next one
    concepts = [
        KnowledgeConcept(f"c{i}.n.01", f"c{i}", "", ("d",), (), (f"c{i + 1}",) if i % 2 == 0 else ()) for i in range(40)
    ]
    return KnowledgeIndex(concepts, m)


def resonances(seed: int, n: int) -> list[Resonance]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        v = rng.standard_normal(DIM).astype(np.float32)
        if i % 7 == 3:  # a twin of an earlier one: ties must resolve as the loop does
            v = out[i - 3].embedding.copy()
        out.append(
            Resonance(
                id=f"r{i}",
                project_id="p",
                session_id="s",
                themes=[f"c{int(t)}" for t in rng.integers(0, 40, size=2)],
                embedding=v / np.linalg.norm(v),
                strength=float(rng.uniform(0.05, 4.0)),
                status=ResonanceStatus.INVALIDATED if rng.random() < 0.2 else ResonanceStatus.CANDIDATE,
                last_reinforced_at=None if rng.random() < 0.1 else NOW - timedelta(days=float(rng.uniform(0, 30))),
                decay_rate=float(rng.uniform(0.0, 0.3)),
            )
        )
    return out


def loop_best(res: list[Resonance], v: np.ndarray) -> tuple[int | None, float]:
    """The best match as a loop over the objects finds it (first of equals wins)."""
    best, best_cos = None, -1.0
    for i, r in enumerate(res):
        if r.status == ResonanceStatus.INVALIDATED:
            continue
        c = float(r.embedding @ v)
        if c > best_cos:
            best, best_cos = i, c
    return best, best_cos


@pytest.mark.parametrize("seed", range(8))
def test_the_rows_find_what_a_loop_over_the_resonances_finds(seed):
    kb = knowledge()
    res = resonances(seed, 60)
    rows = ResonanceRows(kb)
    rows.sync(res)
    rng = np.random.default_rng(100 + seed)
    for _ in range(20):
        v = rng.standard_normal(DIM).astype(np.float32)
        v /= np.linalg.norm(v)
        if rng.random() < 0.3:  # exactly a resonance's own theme vector
            v = res[int(rng.integers(0, len(res)))].embedding.copy()
        near = best_rows(rows.similarities(v), np.flatnonzero(rows.active))
        exact = [(i, float(res[i].embedding @ v)) for i in near]
        found = max(exact, key=lambda t: (t[1], -t[0]))  # the first of the best, as the loop
        assert found == loop_best(res, v)

    floor = 0.25
    weak = set(np.flatnonzero(rows.active & rows.weakening(NOW, floor)).tolist())
    truly = {
        i for i, r in enumerate(res) if r.status != ResonanceStatus.INVALIDATED and decayed_strength(r, NOW) < floor
    }
    assert truly <= weak  # a superset: every one that must be invalidated is looked at

    for concept in ("c1", "c3", "c8"):
        expected = [i for i in np.flatnonzero(rows.active) if concept in opposite_labels(kb, res[i].themes)]
        assert rows.opposing(concept, np.flatnonzero(rows.active)) == expected


def test_the_rows_follow_the_list_as_it_changes():
    kb = knowledge()
    res = resonances(1, 20)
    rows = ResonanceRows(kb)
    rows.sync(res)
    changed = copy.copy(res[5])
    changed.embedding = res[9].embedding.copy()
    changed.status = ResonanceStatus.INVALIDATED
    res[5] = changed
    res.extend(resonances(2, 30))  # past the first buffer's size
    rows.sync(res)
    assert len(rows.active) == 50 and not rows.active[5]
    np.testing.assert_array_equal(rows.similarities(res[9].embedding)[[5, 9]], [1.0, 1.0])
    rows.sync(res[:10])  # the list replaced by a shorter one
    assert len(rows.active) == 10
    near = best_rows(rows.similarities(res[9].embedding), np.flatnonzero(rows.active)).tolist()
    assert 9 in near and 5 not in near  # row 5 is invalidated now, though its vector is row 9's


def test_no_active_resonance_means_no_match():
    rows = ResonanceRows(knowledge())
    rows.sync([])
    assert best_rows(rows.similarities(np.ones(DIM, dtype=np.float32)), np.flatnonzero(rows.active)).size == 0
