"""The in-memory picture of one wander between steps, rebuilt from the store on resume."""

from __future__ import annotations

from collections import deque

import numpy as np

from wander.domain.models import Locus, Session
from wander.engine.ports import Knowledge, WalkState

RECENT_THEMES = 20


class Walk:
    def __init__(self, state: WalkState, knowledge: Knowledge):
        self.session: Session = state.session
        self.knowledge = knowledge
        self.loci: list[Locus] = []
        self.by_id: dict[str, Locus] = {}
        self.by_kb_key: dict[str, Locus] = {}
        self._matrix = np.zeros((0, knowledge.dim), dtype=np.float32)
        for locus in state.loci:
            self.add_locus(locus)
        self.recent_themes: deque[str] = deque(state.recent_themes[-RECENT_THEMES:], maxlen=RECENT_THEMES)
        s = self.session
        # Per-session arrays over the whole knowledge base, computed once.
        self.seed_sims = knowledge.similarities(s.seed_embedding)
        pull = s.attractor_embedding if s.attractor_embedding is not None else s.seed_embedding
        self.pull_sims = knowledge.similarities(pull)
        self.pull_vector = np.asarray(pull, dtype=np.float32)
        self.scope_mask = knowledge.domain_mask(s.allowed_domains, s.forbidden_domains) & (
            1.0 - self.seed_sims <= s.max_drift_distance
        )

    def add_locus(self, locus: Locus) -> None:
        if locus.id in self.by_id:
            return
        self.loci.append(locus)
        self.by_id[locus.id] = locus
        if locus.kb_key:
            self.by_kb_key[locus.kb_key] = locus
        self._matrix = np.vstack([self._matrix, np.asarray(locus.embedding, dtype=np.float32)[None, :]])

    @property
    def loci_matrix(self) -> np.ndarray:
        return self._matrix

    @property
    def current(self) -> Locus:
        if self.session.current_locus_id is None:
            raise RuntimeError("wander has no current locus")
        return self.by_id[self.session.current_locus_id]

    def visited_kb_indices(self) -> list[int]:
        out = []
        for key in self.by_kb_key:
            i = self.knowledge.index_of(key)
            if i is not None:
                out.append(i)
        return out
