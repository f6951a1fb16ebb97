"""The attractor's core late in a wander is what is left to see near the attractor: the
CORE nearest in-scope concepts the walk has not visited yet, so a walk that has seen part
of it is not forced back over its own steps (issue 12: divergence in a small scope)."""

import numpy as np
import pytest

from wander.domain.models import Locus, Session, SourceType
from wander.engine import walk as walkmod
from wander.engine.ports import WalkState
from wander.engine.walk import Walk

N = 400


class Corpus:
    """Just what Walk reads of the Knowledge port: N unit vectors in 3-D, keys k0.."""

    def __init__(self, seed: int):
        rng = np.random.default_rng(seed)
        v = rng.normal(size=(N, 3)).astype(np.float32)
        self.matrix = v / np.linalg.norm(v, axis=1, keepdims=True)
        self.dim = 3

    def __len__(self):
        return N

    def similarities(self, v):
        return self.matrix @ np.asarray(v, dtype=np.float32)

    def domain_mask(self, allowed, forbidden):
        return np.ones(N, dtype=bool)

    def find_label(self, text):
        return None

    def index_of(self, key):
        return int(key[1:])

    def vectors(self, idx):
        return self.matrix[idx]


def make_walk(seed: int, visited: list[int], drift: float = 2.0) -> Walk:
    kb = Corpus(seed)
    session = Session(
        id="s",
        project_id="p",
        name="w",
        seed_concept="seed",
        seed_embedding=kb.matrix[0],
        attractor="attractor",
        attractor_embedding=kb.matrix[1],
        max_drift_distance=drift,
        max_steps=100,
        step_count=99,  # the last step: the attractor's field is its core
    )
    loci = [
        Locus(
            id=f"l{i}",
            session_id="s",
            concept=f"c{i}",
            embedding=kb.matrix[i],
            source_type=SourceType.SEED,
            domains=[],
            kb_key=f"k{i}",
        )
        for i in visited
    ]
    return Walk(WalkState(session=session, loci=loci, recent_themes=[]), kb)


def core_floor(sims: np.ndarray) -> float:
    return float(np.sort(sims)[::-1][walkmod.CORE - 1])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_core_is_the_nearest_concepts_not_yet_visited(seed):
    fresh = make_walk(seed, [])
    pull = fresh.pull_sims
    assert fresh.focus == 1.0
    assert fresh.pull_floor == pytest.approx(core_floor(pull))
    # visit the twenty concepts nearest the attractor: the core moves on to the next ones
    nearest = np.argsort(-pull)[:20].tolist()
    walk = make_walk(seed, nearest)
    rest = np.delete(pull, nearest)
    assert walk.pull_floor == pytest.approx(core_floor(rest))
    assert walk.pull_floor < fresh.pull_floor
    # every concept above the floor is one the walk has not seen
    above = np.flatnonzero(pull >= walk.pull_floor)
    assert len(set(above.tolist()) - set(nearest)) == walkmod.CORE


def test_the_core_floor_follows_each_new_locus():
    walk = make_walk(7, [])
    before = walk.pull_floor
    top = int(np.argmax(walk.pull_sims))
    walk.add_locus(
        Locus(
            id="new",
            session_id="s",
            concept="c",
            embedding=walk.knowledge.matrix[top],
            source_type=SourceType.ADJACENT,
            domains=[],
            kb_key=f"k{top}",
        )
    )
    assert walk.pull_floor < before


def test_once_the_scope_is_nearly_seen_the_core_is_the_nearest_in_scope():
    """Fewer than CORE concepts left unvisited: the core falls back to the CORE nearest of
    the whole scope, visited or not (the walk may go back to them)."""
    kb_pull = make_walk(3, []).pull_sims
    visited = np.argsort(-kb_pull)[: N - walkmod.CORE + 1].tolist()
    walk = make_walk(3, visited)
    assert walk.pull_floor == pytest.approx(core_floor(kb_pull))


def test_early_on_the_field_is_the_whole_scope():
    walk = make_walk(4, [])
    walk.session.step_count = 10
    assert walk.focus == 0.0
    assert walk.pull_floor == pytest.approx(float(walk.pull_sims.min()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_core_stays_in_the_attractors_neighbourhood(seed):
    """However much of the core the walk has seen, the field stays within the REACH
    concepts nearest the attractor."""
    pull = make_walk(seed, []).pull_sims
    order = np.argsort(-pull)
    walk = make_walk(seed, order[:100].tolist())  # the 64 unvisited nearest reach down to rank 164
    assert walk.pull_floor == pytest.approx(float(pull[order[walkmod.REACH - 1]]))
