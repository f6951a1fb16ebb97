"""The in-memory picture of one wander between steps, rebuilt from the store on resume."""

from __future__ import annotations

from collections import deque

import numpy as np

from wander.core.domain.models import CompostItem, HotItem, Locus, Resonance, Session, WarmMemory
from wander.core.engine import fence as fences
from wander.core.engine.adjacency.senses import senses_of
from wander.core.engine.ports import BandSampler, Knowledge, WalkState
from wander.core.engine.resonance_rows import ResonanceRows
from wander.core.engine.scope import drift_sims
from wander.core.engine.walk_rows import (
    IndexSet,
    LazyRow,
    OpenMask,
    ScopeMask,
    SpanRow,
    nearest_in_scope,
    uniform_sample,
)

RECENT_THEMES = 20
# The attractor's field over a wander's course (001: the attractor is a vague sense of what
# is sought): open while the walk explores, it narrows from OPEN_UNTIL of the wander's steps
# to its core (the CORE concepts in scope nearest the attractor that the walk has not
# visited yet, within the REACH nearest) by CORE_FROM, and the walk ends near what it was
# looking for: never farther from it than the seed's anchor, where the CORE nearest allow.
# From 0.75 the loci of the last quarter bunched near the attractor and cost the walk its
# spread (divergence below a band-random walk's in 16 of 48 wanders at 100 steps); from 0.85
# the walk kept 1-2 points more of it, but at 100 steps its second half no longer gained on
# the attractor as a band-random walk does (38 of 44 wanders against 60 of 62): 0.8 between.
OPEN_UNTIL, CORE_FROM = 0.8, 0.87
# From LATE_FROM of the wander (its last third) until the field narrows, the field's floor
# rises from the whole scope to the seed's own nearness to the attractor (Walk.pull_floor_seed):
# the walk's last third goes no farther from the attractor than where it began, while the
# field stays wide where the seed starts far from it. Open until OPEN_UNTIL, a walk whose seed
# starts near the attractor (origami -> protein folding, photosynthesis -> energy storage)
# spent the first half of its last third far from it (rugby, piano music, table game) and
# ended that third farther from the attractor than the seed on every random seed. From
# LATE_FROM on, too, a step's gain on the attractor is counted from where the walk stands
# when it has drifted farther from it than the seed (Walk.pull_here): counted from the
# seed's level alone, every candidate of such a walk scored 0 on the attractor's part.
LATE_FROM = 2.0 / 3.0
# How much the attractor weighs in a candidate's interest (Walk.focus): nothing at the
# start, rising steadily (OPEN_WEIGHT of its full weight at RAMP_UNTIL of the wander), all
# of it once the field is its core. A pull felt from the first step drew the first half of
# a wander toward the attractor as much as the second (surgery -> team sports: cosine 0.30
# to it over the open field, a band-random walk's 0.26), and a walk bunched along the
# attractor spreads less. Held at OPEN_WEIGHT from RAMP_UNTIL, the second half of a
# 100-step wander gained less on the attractor (mean pull 0.196 over 25 wanders of the
# quality bench, 0.210 rising on; divergence as high).
OPEN_WEIGHT, RAMP_UNTIL = 1.0 / 3.0, 0.5
CORE = 64
REACH = 2 * CORE  # the attractor's neighbourhood, within which the core moves on as the walk sees it
# The core holds CORE concepts for a wander of CORE_STEPS steps or fewer, and as many more as
# the wander is longer (up to MAX_CORE): the last 13% of a wander's steps walk there, and a
# fixed core of 64 had a 300-step wander's last 39 steps visit most of it, bunched (its loci
# at mean cosine distance 0.64 from one another, a band-random walk's 0.80), so the walk
# spread less than a band-random walk in 6 of 68 wanders of 300 steps. Scaled, a 300-step
# wander sees about the share of its core a 100-step one does. MAX_CORE: the reach (twice
# the core) stays well within the attractor's nearest that a large knowledge base reads
# (walk_rows.NEAR), some of which are out of scope.
CORE_STEPS, MAX_CORE = 100, 3 * CORE


def core_size(max_steps: int) -> int:
    """How many concepts the attractor's core holds in a wander of MAX_STEPS steps."""
    return min(MAX_CORE, max(CORE, round(CORE * max_steps / CORE_STEPS)))


def _kth_highest(values: np.ndarray, k: int) -> float:
    """The k-th highest of ``values`` (the lowest when there are fewer than k); -1 when empty."""
    if len(values) == 0:
        return -1.0
    i = max(0, len(values) - k)
    return float(np.partition(values, i)[i])


def _percentile_ranks(values: np.ndarray) -> np.ndarray:
    """Each value's share of the values below it (0 for the lowest, near 1 for the highest)."""
    ranks = np.empty(len(values), dtype=np.float32)
    ranks[np.argsort(values, kind="stable")] = np.arange(len(values), dtype=np.float32) / max(1, len(values))
    return ranks


class Walk:
    def __init__(self, state: WalkState, knowledge: Knowledge):
        self.knowledge = knowledge
        self.loci: list[Locus] = []
        self.by_id: dict[str, Locus] = {}
        self.by_kb_key: dict[str, Locus] = {}
        self.concepts_seen: set[str] = set()
        # loci embeddings in a buffer that doubles when full (a vstack per locus is O(N^2))
        self._buffer = np.zeros((64, knowledge.dim), dtype=np.float32)
        self._sum = np.zeros(knowledge.dim, dtype=np.float64)  # of the loci's unit embeddings
        # A knowledge base that draws its band is too large for rows per wander: its
        # per-concept values are read by index (walk_rows.py), for the concepts asked about.
        self.scaled = isinstance(knowledge, BandSampler)
        self._visited_mask: np.ndarray = (
            IndexSet(len(knowledge)) if self.scaled else np.zeros(len(knowledge), dtype=bool)  # type: ignore[assignment]
        )
        self._n_visited = 0
        for locus in state.loci:
            self.add_locus(locus)
        self.recent_themes: deque[str] = deque(state.recent_themes[-RECENT_THEMES:], maxlen=RECENT_THEMES)
        self.relations: list[tuple[Locus, Locus]] = [
            (self.by_id[a], self.by_id[b]) for a, b in state.relations if a in self.by_id and b in self.by_id
        ]
        self.hot: list[HotItem] = list(state.hot)
        self.compost: list[CompostItem] = list(state.compost)
        self.resonances: list[Resonance] = list(state.resonances)
        self.resonance_rows = ResonanceRows(knowledge)  # arrays over `resonances` (engine/resonance.py)
        self.warm: list[WarmMemory] = list(state.warm)
        self.last_crystallize_step = state.last_crystal_step
        self.session = state.session  # the setter computes the per-session arrays

    @property
    def session(self) -> Session:
        return self._session

    @session.setter
    def session(self, s: Session) -> None:
        old = getattr(self, "_session", None)
        self._session = s
        if old is not None and _same_scope(old, s):
            return
        kb = self.knowledge
        self.core = core_size(s.max_steps)
        if self.scaled:
            self._scaled_session(s)
            return
        # Per-session arrays over the whole knowledge base, recomputed only when scope changes.
        self.seed_sims = kb.similarities(s.seed_embedding)
        pull = s.attractor_embedding if s.attractor_embedding is not None else s.seed_embedding
        self.pull_sims = kb.similarities(pull)
        self.pull_vector = np.asarray(pull, dtype=np.float32)
        near = drift_sims(self.seed_sims, self.pull_sims if s.attractor_embedding is not None else None)
        mask = kb.domain_mask(s.allowed_domains, s.forbidden_domains) & (1.0 - near <= s.max_drift_distance)
        if s.fence:
            all_idx = np.flatnonzero(mask)
            mask[all_idx] = fences.inside_mask(s.fence, kb.vectors(all_idx))
        self.scope_mask = mask
        self._open: tuple[tuple[str | None, int], np.ndarray] | None = None  # open_mask's cache
        # Per corpus concept, how near it is to both the seed and the attractor: the lower of
        # its two percentile ranks (0.95: among the 5% nearest the seed and the 5% nearest
        # the attractor). A bridge between the two neighbourhoods ranks high on both.
        self.span: np.ndarray | None = None
        if s.attractor_embedding is not None and len(self.seed_sims):
            self.span = np.minimum(_percentile_ranks(self.seed_sims), _percentile_ranks(self.pull_sims))
        # The seed's own similarity to the attractor: what a step toward it must beat. Taken
        # from the seed's corpus anchor (the concept it resolves to, or the nearest), since
        # the loci it is compared with are corpus concepts too: a short typed seed scores
        # higher against a short attractor than any concept's "label: gloss" does.
        self.pull_baseline: float | None = None
        self.pull_floor_open = self.pull_floor_reach = self.pull_floor_seed = -1.0
        self._core_floor: tuple[int, float] | None = None  # (visited count, floor) cache
        if s.attractor_embedding is not None:
            k = kb.find_label(s.seed_concept)
            if k is None:
                k = int(np.argmax(self.seed_sims))
            self.pull_baseline = float(self.pull_sims[k])
            in_scope = self.pull_sims[mask]
            if len(in_scope):
                self.pull_floor_open = float(in_scope.min())
                self.pull_floor_reach = max(self.pull_floor_open, _kth_highest(in_scope, 2 * self.core))
                # a seed that starts nearer the attractor than most of its neighbourhood
                # (photosynthesis -> energy storage) ends no farther from it than it began
                self.pull_floor_seed = min(self.pull_baseline, _kth_highest(in_scope, CORE))

    def _scaled_session(self, s: Session) -> None:
        """The per-session values of a large knowledge base, read by index (walk_rows.py):
        the floors of the attractor's field from its NEAR nearest in scope, the open floor
        and the span's percentile ranks from a uniform sample of the concepts."""
        kb = self.knowledge
        seed = LazyRow(kb, s.seed_embedding)
        pull_v = s.attractor_embedding if s.attractor_embedding is not None else s.seed_embedding
        pull = LazyRow(kb, pull_v)
        self.pull_vector = np.asarray(pull_v, dtype=np.float32)
        scope = ScopeMask(
            kb,
            kb.domain_mask(s.allowed_domains, s.forbidden_domains),
            seed,
            pull if s.attractor_embedding is not None else None,
            s.max_drift_distance,
            s.fence,
        )
        # the rows' types are the exact walk's; a large knowledge base's answer by index alone
        self.seed_sims, self.pull_sims, self.scope_mask = seed, pull, scope  # type: ignore[assignment]
        self._open = None
        sample = uniform_sample(len(kb))
        self.span = None
        if s.attractor_embedding is not None and len(kb):
            self.span = SpanRow(seed, pull, sample)  # type: ignore[assignment]
        self.pull_baseline = None
        self.pull_floor_open = self.pull_floor_reach = self.pull_floor_seed = -1.0
        self._core_floor = None
        self._near_pull = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))
        if s.attractor_embedding is not None and len(kb):
            k = kb.find_label(s.seed_concept)
            if k is None:
                k = kb.nearest(s.seed_embedding, 1)[0][0]
            self.pull_baseline = float(pull[k])
            self._near_pull = nearest_in_scope(kb, pull_v, scope)
            in_sample = pull[sample][scope[sample]]
            near = self._near_pull[1]
            if len(in_sample) or len(near):
                self.pull_floor_open = float(np.concatenate([in_sample, near]).min())
                self.pull_floor_reach = max(self.pull_floor_open, _kth_highest(near, 2 * self.core))
                self.pull_floor_seed = min(self.pull_baseline, _kth_highest(near, CORE))

    @property
    def pull_here(self) -> float | None:
        """From the wander's last third on (late_focus above 0), the current locus's
        similarity to the attractor: where a step's gain on the attractor is counted from
        when the walk has drifted farther from it than the seed (scoring.interestingness).
        None before, without an attractor or a locus: while the walk explores, the seed's
        level alone sets the scale, as it always did."""
        if self.pull_baseline is None or self._session.current_locus_id is None or self.late_focus == 0.0:
            return None
        return float(np.asarray(self.current.embedding, dtype=np.float32) @ self.pull_vector)

    @property
    def progress(self) -> float:
        """Share of the wander's steps taken once the step under way is in (0 to 1)."""
        s = self._session
        return min(1.0, (s.step_count + 1) / max(1, s.max_steps))

    @property
    def field_focus(self) -> float:
        """How far the attractor's field has narrowed: 0 while the walk explores (until
        OPEN_UNTIL of its steps), rising to 1 (the core) at CORE_FROM."""
        return min(1.0, max(0.0, (self.progress - OPEN_UNTIL) / (CORE_FROM - OPEN_UNTIL)))

    @property
    def late_focus(self) -> float:
        """How far the field's floor has risen toward the seed's own nearness to the
        attractor: 0 until LATE_FROM of the wander's steps, 1 at OPEN_UNTIL."""
        return min(1.0, max(0.0, (self.progress - LATE_FROM) / (OPEN_UNTIL - LATE_FROM)))

    @property
    def focus(self) -> float:
        """How much the attractor weighs now, a share of its full weight: rising from 0
        (OPEN_WEIGHT at RAMP_UNTIL of the wander), then to 1 as the field narrows."""
        ramp = min(1.0, OPEN_WEIGHT * self.progress / RAMP_UNTIL)
        return ramp + (1.0 - ramp) * self.field_focus

    @property
    def pull_floor_core(self) -> float:
        """The attractor similarity of the core_size-th nearest in-scope concept not yet
        visited (of the nearest in scope, once fewer are left), within twice as many nearest
        in scope (REACH in a wander of CORE_STEPS):
        the core is what is left to see near the attractor, so a walk that has seen part
        of it (a small scope) is not forced back over its own steps while new concepts
        wait nearby, and it stays in the attractor's neighbourhood all the same, and no
        farther from the attractor than the seed's anchor (Walk.pull_floor_seed)."""
        if self._core_floor is None or self._core_floor[0] != self._n_visited:
            if self.scaled:  # the attractor's nearest in scope
                idx, near = self._near_pull
                open_ = near[~self._visited_mask[idx]]
                sims = open_ if len(open_) >= self.core else near
            else:
                open_ = self.pull_sims[self.scope_mask & ~self._visited_mask]
                sims = open_ if len(open_) >= self.core else self.pull_sims[self.scope_mask]
            floor = max(_kth_highest(sims, self.core), self.pull_floor_reach, self.pull_floor_seed)
            self._core_floor = (self._n_visited, floor)
        return self._core_floor[1]

    @property
    def pull_floor(self) -> float | None:
        """How near the attractor a candidate must be at this point of the wander (None
        without an attractor): anything in scope early on, then rising to the core."""
        if self.pull_baseline is None:
            return None
        seed_level = max(self.pull_floor_open, self.pull_floor_seed)
        if self.field_focus == 0.0:
            late = self.late_focus
            return (
                self.pull_floor_open
                if late == 0.0
                else self.pull_floor_open + late * (seed_level - self.pull_floor_open)
            )
        return seed_level + self.field_focus * (self.pull_floor_core - seed_level)

    @property
    def puns_here(self) -> np.ndarray:
        """Corpus concepts a step from the current locus would reach only through a shared
        word (adjacency/senses.py): puns, not adjacencies."""
        current = self.current
        k = self.knowledge.index_of(current.kb_key) if current.kb_key else None
        return senses_of(self.knowledge).puns(k, current.concept)

    def pun_mask(self, idx: np.ndarray) -> np.ndarray:
        """Per concept of IDX: would a step from the current locus reach it only through a
        shared word? (puns_here, asked of each one over a large knowledge base)"""
        idx = np.asarray(idx, dtype=np.int64)
        if not self.scaled:
            return np.isin(idx, self.puns_here)
        current = self.current
        k = self.knowledge.index_of(current.kb_key) if current.kb_key else None
        senses = senses_of(self.knowledge)
        return np.array([senses.is_pun(k, int(j), current.concept) for j in idx.tolist()], dtype=bool)

    @property
    def open_mask(self) -> np.ndarray:
        """Per corpus concept: may a strategy propose it now? In scope, not yet a locus, and
        no pun on the current locus. Computed once a step (read-only)."""
        key = (self._session.current_locus_id, self._n_visited)
        if self._open is None or self._open[0] != key:
            if self.scaled:
                lazy = OpenMask(self.scope_mask, self._visited_mask, self.pun_mask)  # type: ignore[arg-type]
                self._open = (key, lazy)  # type: ignore[assignment]
                return lazy  # type: ignore[return-value]
            mask = self.scope_mask & ~self._visited_mask
            mask[self.puns_here] = False
            mask.flags.writeable = False
            self._open = (key, mask)
        return self._open[1]

    @property
    def fence(self):
        return self._session.fence

    def add_locus(self, locus: Locus) -> None:
        if locus.id in self.by_id:
            return
        self.loci.append(locus)
        self.by_id[locus.id] = locus
        self.concepts_seen.add(locus.concept)
        if locus.kb_key:
            i = self.knowledge.index_of(locus.kb_key)
            if i is not None and not self._visited_mask[i]:
                self._visited_mask[i] = True
                self._n_visited += 1
            self.by_kb_key[locus.kb_key] = locus
        n = len(self.loci)
        if n > len(self._buffer):
            grown = np.zeros((2 * len(self._buffer), self._buffer.shape[1]), dtype=np.float32)
            grown[: n - 1] = self._buffer[: n - 1]
            self._buffer = grown
        self._buffer[n - 1] = np.asarray(locus.embedding, dtype=np.float32)
        v = self._buffer[n - 1].astype(np.float64)
        norm = float(np.sqrt(v @ v))
        if norm > 0:
            self._sum += v / norm

    @property
    def loci_mean(self) -> np.ndarray:
        """The mean of the loci's unit embeddings: a candidate's similarity to it is its mean
        similarity to the loci, what the walk's spread (divergence) loses by visiting it."""
        return (self._sum / max(1, len(self.loci))).astype(np.float32)

    @property
    def loci_matrix(self) -> np.ndarray:
        """One row per locus, in the order of `loci` (a read-only view)."""
        view = self._buffer[: len(self.loci)]
        view.flags.writeable = False
        return view

    @property
    def current(self) -> Locus:
        if self.session.current_locus_id is None:
            raise RuntimeError("wander has no current locus")
        return self.by_id[self.session.current_locus_id]

    @property
    def visited_mask(self) -> np.ndarray:
        """Per corpus concept: is it already a locus of this walk? (read-only)"""
        return self._visited_mask


def _same_scope(a: Session, b: Session) -> bool:
    return (
        a.allowed_domains == b.allowed_domains
        and a.forbidden_domains == b.forbidden_domains
        and a.max_drift_distance == b.max_drift_distance
        and len(a.fence) == len(b.fence)
        and all(x.concept == y.concept and x.action == y.action for x, y in zip(a.fence, b.fence))
        and a.max_steps == b.max_steps  # the core's size (core_size)
        and a.seed_concept == b.seed_concept
        and a.attractor == b.attractor
    )
