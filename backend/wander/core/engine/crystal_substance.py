"""What the accepted crystals are about, for the gate's novelty (004): a sandwich's substance
is the mean of its breads' and its filling's unit vectors, rebuilt from its bread loci and
its filling's label."""

from __future__ import annotations

import numpy as np

from wander.core.domain import sandwich
from wander.core.domain.models import Crystal, Locus
from wander.core.engine.ports import LocusStore
from wander.core.engine.sandwich_choice import rows, substance
from wander.core.engine.walk import Walk


class Substances:
    """The accepted crystals' substances, each rebuilt once (per crystal id)."""

    def __init__(self, store: LocusStore):
        self.store = store
        self._cache: dict[str, np.ndarray | None] = {}

    async def novelty(
        self,
        walk: Walk,
        b1: Locus,
        f_i: int,
        b2: Locus,
        insight: np.ndarray,
        accepted: list[Crystal],
    ) -> float:
        """1 minus the similarity to the nearest accepted crystal, in substance. The insights'
        own text shares its phrasing from crystal to crystal, which hides what they are about;
        the three concepts do not. A crystal whose substance cannot be rebuilt (a bread locus
        gone, a filling outside the corpus) is compared by its insight's text."""
        kb = walk.knowledge
        mine = substance(b1.embedding, kb.vector(f_i), b2.embedding)
        by_substance: list[np.ndarray] = []
        by_text: list[np.ndarray] = []
        for c in accepted:
            v = await self.of_crystal(walk, c)
            if v is not None:
                by_substance.append(v)
            else:
                by_text.append(c.embedding)
        return min(
            sandwich.novelty(mine, rows(by_substance, len(mine))),
            sandwich.novelty(insight, rows(by_text, len(mine))),
        )

    async def of_crystal(self, walk: Walk, c: Crystal) -> np.ndarray | None:
        """A crystal's substance, from its bread loci (the walk's, or the store's for another
        wander's) and its filling's label; None where it cannot be rebuilt."""
        if c.id in self._cache:
            return self._cache[c.id]
        kb = walk.knowledge
        f = kb.find_label(str(c.validity.get("filling") or ""))
        breads = []
        for locus_id in (c.bread_a_locus_id, c.bread_b_locus_id):
            lo = walk.by_id.get(locus_id or "") if c.session_id == walk.session.id else None
            if lo is None and c.session_id is not None and locus_id is not None:
                lo = await self.store.locus(c.session_id, locus_id)
            breads.append(lo)
        v = None
        if f is not None and breads[0] is not None and breads[1] is not None:
            v = substance(breads[0].embedding, kb.vector(f), breads[1].embedding)
        self._cache[c.id] = v
        return v
