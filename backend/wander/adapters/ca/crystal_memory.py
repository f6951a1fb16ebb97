"""Crystals in the Wheeler CA memory (002): every crystal is stored there when it forms (a bus
subscriber on wander.crystal.formed), and recall warms what it returns (a hit raises the
memory's temperature), so the memory that the Open WebUI pipeline, `wander memory recall`
and POST /api/v1/wander/recall read is the wanders' own.

Crystals are stored in embedding mode (the MiniLM vector through the fixed projection to a
64x64 seed frame) in the chunk "crystals", so recall by meaning works; the query is encoded
the same way. Composition-level glue (like wiring.py): it joins the CA memory and the
embedder, which as adapters do not import each other."""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from shared_schemas.events import Subject
from wander.adapters.ca.kernel import evolve_batch
from wander.adapters.ca.wheeler_memory import (
    MemoryInputError,
    WheelerMemory,
    pearson_many,
)
from wander.adapters.ca.xp import get_xp
from wander.core.domain.errors import InvalidInput
from wander.core.domain.models import Event
from wander.core.engine.ports import Embedder

log = logging.getLogger(__name__)
CRYSTAL_FORMED = str(Subject.CRYSTAL_FORMED)
CHUNK = "crystals"
HEADER = "[Wander Memory - Crystals and Episodic Context]"
FOOTER = "Use this context to inform your response. Cold memories are uncertain."


@dataclass(frozen=True)
class Recalled:
    id: str
    text: str
    chunk: str
    similarity: float  # Pearson r of the (reconstructed, when alpha > 0) attractor with the query's
    temperature: float  # after this recall's hit
    tier: str
    hits: int


class CrystalMemory:
    def __init__(self, memory: WheelerMemory, embedder: Embedder):
        self.memory = memory
        self.embedder = embedder
        self._lock = threading.Lock()  # WheelerMemory is one process's files, not thread-safe

    @classmethod
    def open(cls, memory_dir, embedder: Embedder, capacity: int) -> CrystalMemory:
        """Over the Wheeler memory in `memory_dir`, holding `capacity` memories (WANDER_MEMORY_CAPACITY)."""
        return cls(WheelerMemory(memory_dir, capacity=capacity), embedder)

    def attach(self, bus: Any) -> None:
        """Subscribe to every session's events (the in-process bus; NATS buses that offer the
        same subscribe(handler) work alike)."""
        subscribe = getattr(bus, "subscribe", None)
        if subscribe is None:
            log.warning("this event bus has no subscribe(); crystals are not stored in the Wheeler memory")
            return
        subscribe(self.on_event)

    async def on_event(self, event: Event) -> None:
        if event.subject != CRYSTAL_FORMED:
            return
        insight = (event.payload.get("crystal") or {}).get("insight")
        if insight:
            await asyncio.to_thread(self.remember, insight)

    def remember(self, text: str) -> str:
        vector = self.embedder.embed([text])[0]
        with self._lock:
            return self.memory.store_entry(text, chunk=CHUNK, embedding=vector).id

    def brick(self, memory_id: str) -> Any:
        """The memory's brick (wander.adapters.ca.bricks.Brick); KeyError naming the id when none."""
        with self._lock:
            return self.memory.brick(memory_id)

    def recall(self, query: str, top_k: int = 5, alpha: float = 0.3, min_similarity: float = 0.1) -> list[Recalled]:
        """The top_k memories by Pearson r; with alpha > 0 each is reconstructed (blend
        (1 - alpha) stored + alpha query, re-evolved) and scored against the query, which
        biases recall toward the present context (002's Darman reconstruction). Those below
        min_similarity are dropped. The memories returned get a hit (warmer)."""
        if not query or not query.strip():
            raise InvalidInput("query", "must not be empty")
        if isinstance(top_k, bool) or not 1 <= top_k <= 50:
            raise InvalidInput("top_k", f"must be between 1 and 50 (got {top_k})")
        if not 0.0 <= alpha <= 1.0:
            raise InvalidInput("alpha", f"must be between 0 and 1 (got {alpha})")
        if not -1.0 <= min_similarity <= 1.0:
            raise InvalidInput("min_similarity", f"must be between -1 and 1 (got {min_similarity})")
        vector = self.embedder.embed([query])[0]
        with self._lock:
            try:
                hits = self.memory.recall(query, top_k=top_k, embedding=vector, bump=True)
            except MemoryInputError as exc:
                field, _, reason = str(exc).partition(": ")
                raise InvalidInput(field, reason) from None
            if alpha > 0 and hits:
                q = np.asarray(self.memory.query_attractor(query, embedding=vector), dtype=np.float32)
                blends = np.stack(
                    [(1 - alpha) * self.memory.attractor(h.id).reshape(q.shape) + alpha * q for h in hits]
                ).astype(np.float32)
                recon = evolve_batch(blends, xp=self.memory.xp or get_xp())  # one batch for all hits
                sims = [float(x) for x in pearson_many(np.stack([np.asarray(r.attractor) for r in recon]), q)]
            else:
                sims = [h.correlation for h in hits]
        out = [
            Recalled(h.id, h.text, h.chunk, round(s, 4), round(h.temperature, 4), h.tier, h.hits)
            for h, s in zip(hits, sims)
        ]
        return [r for r in out if r.similarity >= min_similarity]


def context_block(hits: list[Recalled], max_chars: int = 2000) -> str:
    """002's formatted block: one line per memory, tier and temperature, similarity; lines
    that would pass max_chars are left out (a soft cap: the header and footer stay)."""
    if not hits:
        return ""
    lines: list[str] = []
    used = len(HEADER) + len(FOOTER) + 2
    for h in hits:
        text = h.text.replace("\n", " ").replace('"', "'")
        line = f'[{h.tier.upper()} {h.temperature:.2f}] "{text}" (sim={h.similarity:.2f})'
        if used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    if not lines:
        return ""
    return "\n".join([HEADER, *lines, FOOTER])
