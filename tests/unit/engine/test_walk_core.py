"""The attractor's core late in a wander is what is left to see near the attractor: the
CORE nearest in-scope concepts the walk has not visited yet, so a walk that has seen part
of it is not forced back over its own steps (divergence in a small scope), and
no farther from the attractor than the seed (attractor pull)."""

import dataclasses

import numpy as np
import pytest

from wander.core.domain.models import Locus, Session, SourceType
from wander.core.engine import walk as walkmod
from wander.core.engine.adjacency.common import in_field
from wander.core.engine.ports import WalkState
from wander.core.engine.walk import Walk

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


def make_walk(seed: int, visited: list[int], drift: float = 2.0, seed_index: int = 0, steps: int = 100) -> Walk:
    """seed_index: the corpus concept the seed is (its anchor, and the attractor pull's baseline);
    the walk stands at the last of its STEPS steps."""
    kb = Corpus(seed)
    session = Session(
        id="s",
        project_id="p",
        name="w",
        seed_concept="seed",
        seed_embedding=kb.matrix[seed_index],
        attractor="attractor",
        attractor_embedding=kb.matrix[1],
        max_drift_distance=drift,
        max_steps=steps,
        step_count=steps - 1,  # the last step: the attractor's field is its core
        current_locus_id=f"l{visited[-1]}" if visited else None,
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
    assert walk.field_focus == 0.0
    assert walk.pull_floor == pytest.approx(float(walk.pull_sims.min()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_core_stays_in_the_attractors_neighbourhood(seed):
    """However much of the core the walk has seen, the field stays within the REACH
    concepts nearest the attractor."""
    pull = make_walk(seed, []).pull_sims
    order = np.argsort(-pull)
    walk = make_walk(seed, order[:100].tolist())  # the 64 unvisited nearest reach down to rank 164
    assert walk.pull_floor == pytest.approx(float(pull[order[walkmod.REACH - 1]]))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_core_is_no_farther_from_the_attractor_than_the_seed(seed):
    """A seed that starts nearer the attractor than most of its neighbourhood: once the walk
    has seen the nearest, the core stays at the seed's own nearness (the REACH bound alone
    would let it fall to rank REACH), capped at the CORE nearest of the scope."""
    pull = make_walk(seed, []).pull_sims
    order = np.argsort(-pull)
    seen = order[:100].tolist()
    rank = 90  # the seed is the 91st nearest the attractor: between rank CORE and REACH
    walk = make_walk(seed, seen, seed_index=int(order[rank]))
    assert walk.pull_baseline == pytest.approx(float(pull[order[rank]]))
    assert walk.pull_floor == pytest.approx(float(pull[order[rank]]))
    assert walk.pull_floor > float(pull[order[walkmod.REACH - 1]])
    # nearer than the CORE nearest: the core is those CORE, so it always holds CORE concepts
    near = make_walk(seed, seen, seed_index=int(order[5]))
    assert near.pull_floor == pytest.approx(core_floor(pull))
    # a seed far from the attractor changes nothing
    far = make_walk(seed, seen, seed_index=int(order[-1]))
    assert far.pull_floor == pytest.approx(float(pull[order[walkmod.REACH - 1]]))


def test_late_the_strict_way_back_leads_toward_the_attractor():
    """Outside the core, the analogy/bridging/tension way back keeps only concepts nearer the
    attractor than where the walk stands; the band's plain way back keeps the nearest."""
    pull = make_walk(5, []).pull_sims
    order = np.argsort(-pull)
    here = int(order[293])
    walk = make_walk(5, [here])
    below = order[290:320]  # every one outside the core; the way back is the 8 nearest, ranks 290-297
    plain = in_field(walk, below)
    assert sorted(plain.tolist()) == sorted(order[290:298].tolist())
    strict = in_field(walk, below, strict=True)
    assert sorted(strict.tolist()) == sorted(order[290:293].tolist())  # only those nearer than here
    far = order[350:360]  # all farther than here: strict leaves none, plain the nearest of them
    assert len(in_field(walk, far, strict=True)) == 0
    assert len(in_field(walk, far)) == 8


def test_the_attractor_weighs_nothing_at_first_and_everything_at_the_end():
    """Its weight rises steadily from nothing (OPEN_WEIGHT at RAMP_UNTIL of the wander)
    and is whole once the field is the core."""
    walk = make_walk(5, [])
    weights = []
    for step in range(100):
        walk.session.step_count = step
        weights.append(walk.focus)
    assert weights[0] < 0.1 * walkmod.OPEN_WEIGHT
    assert all(a <= b for a, b in zip(weights, weights[1:]))
    half = int(walkmod.RAMP_UNTIL * 100) - 1  # progress counts the step under way
    assert weights[half] == pytest.approx(walkmod.OPEN_WEIGHT)
    assert weights[int(walkmod.OPEN_UNTIL * 100) - 1] < 1.0
    assert weights[-1] == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_from_the_last_third_the_field_rises_to_the_seeds_own_nearness(seed):
    """Open until LATE_FROM of the wander, the field's floor then rises to the seed's own
    nearness to the attractor by OPEN_UNTIL (the last third goes no farther from it than the
    walk began), then to the core; it never falls back on the way."""
    pull = make_walk(seed, []).pull_sims
    order = np.argsort(-pull)
    seed_at = int(order[90])  # a seed nearer the attractor than most of the scope
    walk = make_walk(seed, [], seed_index=seed_at)
    floors = []
    for step in range(100):
        walk.session.step_count = step
        floors.append(walk.pull_floor)
    open_floor = float(pull.min())
    last_open = int(np.ceil(walkmod.LATE_FROM * 100)) - 2  # progress counts the step under way
    assert floors[last_open] == pytest.approx(open_floor)
    assert open_floor < floors[last_open + 2] < float(pull[seed_at])
    assert floors[int(walkmod.OPEN_UNTIL * 100) - 1] == pytest.approx(float(pull[seed_at]))
    assert all(a <= b + 1e-9 for a, b in zip(floors, floors[1:]))
    assert floors[-1] == pytest.approx(core_floor(pull))
    # a seed far from the attractor: the field stays as wide as its scope until it narrows
    far = make_walk(seed, [], seed_index=int(order[-1]))
    far.session.step_count = int(walkmod.OPEN_UNTIL * 100) - 1
    assert far.pull_floor == pytest.approx(open_floor)


def test_the_way_back_is_counted_from_where_the_walk_stands_only_in_its_last_third():
    """Before LATE_FROM the seed's level alone scales a step's gain on the attractor; from
    then on, the current locus's own nearness to it (scoring.interestingness's `here`)."""
    walk = make_walk(6, [17])
    walk.session.step_count = 10
    assert walk.pull_here is None
    walk.session.step_count = int(walkmod.LATE_FROM * 100) + 1
    assert walk.pull_here == pytest.approx(float(walk.pull_sims[17]))


def test_a_longer_wander_has_a_larger_core():
    """CORE concepts up to CORE_STEPS steps, as many more as the wander is longer (up to
    MAX_CORE): the last stretch of a long wander does not bunch onto the CORE nearest."""
    assert walkmod.core_size(40) == walkmod.core_size(walkmod.CORE_STEPS) == walkmod.CORE
    assert walkmod.core_size(300) == 3 * walkmod.CORE
    assert walkmod.core_size(200) == 2 * walkmod.CORE
    assert walkmod.core_size(10_000) == walkmod.MAX_CORE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_300_step_wanders_core_holds_its_size_in_concepts_not_yet_visited(seed):
    """A seed far from the attractor (one near it keeps the core at its own nearness, capped
    at the CORE nearest, whatever the wander's length)."""
    pull = make_walk(seed, []).pull_sims
    order = np.argsort(-pull)
    far = int(order[-1])
    size = walkmod.core_size(300)
    long = make_walk(seed, [], steps=300, seed_index=far)
    assert long.pull_floor == pytest.approx(float(pull[order[size - 1]]))
    assert long.pull_floor < make_walk(seed, [], seed_index=far).pull_floor  # wider than a 100-step wander's
    # seen the 20 nearest: the core moves on, within twice its size nearest the attractor
    seen = make_walk(seed, order[:20].tolist(), steps=300, seed_index=far)
    assert seen.pull_floor == pytest.approx(float(pull[order[size + 19]]))
    assert len(set(np.flatnonzero(pull >= seen.pull_floor).tolist()) - set(order[:20].tolist())) == size
    assert long.pull_floor_reach == pytest.approx(float(pull[order[2 * size - 1]]))
    # a seed among the CORE nearest: the core is no larger than those CORE
    near = make_walk(seed, [], steps=300, seed_index=int(order[5]))
    assert near.pull_floor == pytest.approx(core_floor(pull))


def test_the_core_follows_a_change_of_the_wanders_length():
    walk = make_walk(2, [], seed_index=int(np.argmin(make_walk(2, []).pull_sims)))
    short = walk.pull_floor
    walk.session = dataclasses.replace(walk.session, max_steps=300, step_count=299)
    assert walk.core == walkmod.core_size(300)
    assert walk.pull_floor < short
