"""Wheeler memory (seed 002): chunked attractor storage with Pearson recall.

Layout under ``root``::

    chunks/<name>/index.json      entries (text, state, hits, last access, row, ...)
    chunks/<name>/attractors.f32  raw float32 rows, one 64x64 attractor per entry
    chunks/<name>/bricks/<id>.npz the full evolution of each memory
    rotation_stats.json           per-angle attempts and successes

Store routes a text to a chunk by keyword hits (a tie or no hit: ``general``), evolves its
seed with rotation retry and saves the attractor and the brick. Every text is stored with
its outcome, CONVERGED or not (its final frame is still its fingerprint).

Recall routes the query too: up to three chunks by keyword hits, then ``general``, then
every other chunk on disk, so that all stored attractors are searched. All of them are
stacked, standardized once (cached until the next write) and correlated with the query's
standardized attractor in one matrix-vector product: Pearson r for every memory at once.
Ranking is by r + temperature_boost * temperature; the memories returned get a hit and a
fresh last access. Reconstruction blends 0.7 stored + 0.3 query attractor and re-evolves.

When the memory is full (``capacity`` entries), the coldest 10% are evicted before a store.
The clock is injectable (``clock`` returns an aware datetime).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .bricks import Brick
from .chunk_routing import CHUNK_KEYWORDS, CHUNKS, GENERAL, select_chunk, select_recall_chunks
from .kernel import Evolution, evolve_batch
from .memory_files import MemoryChunk, MemoryEntry, RecallHit
from .rotation import STATS_FILE, RotationStats, evolve_with_rotation
from .seed import FRAME_SHAPE, N_CELLS, embedding_frame, hash_frame, text_key
from .temperature import TIERS, parse_time, tier, utcnow
from .xp import backend_name, get_xp

DEFAULT_CAPACITY = 1000
EVICT_FRACTION = 0.10
RECONSTRUCT_ALPHA = 0.3

_CHUNK_NAME = re.compile(r"^[a-z0-9_]{1,64}$")


class MemoryInputError(ValueError):
    """Bad input to the memory (the message names the field and the reason)."""


def parse_capacity(raw: str) -> int:
    """The capacity WANDER_MEMORY_CAPACITY's text gives (DEFAULT_CAPACITY when empty)."""
    if not raw.strip():
        return DEFAULT_CAPACITY
    try:
        value = int(raw)
    except ValueError:
        raise MemoryInputError(f"WANDER_MEMORY_CAPACITY: not an integer: {raw!r}") from None
    if value < 1:
        raise MemoryInputError(f"WANDER_MEMORY_CAPACITY: must be at least 1, got {value}")
    return value


# --------------------------------------------------------------------------------------


def _standardize(a: np.ndarray) -> np.ndarray:
    """Rows to zero mean and unit (population) standard deviation, float64; constant
    rows become zeros (correlation 0 with anything)."""
    a = np.asarray(a, dtype=np.float64)
    a = a - a.mean(axis=-1, keepdims=True)
    sd = np.sqrt((a * a).mean(axis=-1, keepdims=True))
    return np.divide(a, sd, out=np.zeros_like(a), where=sd > 0)


def pearson_many(stored: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``stored`` (M, N) with ``query`` (N,), in one product."""
    z = _standardize(stored.reshape(stored.shape[0], -1))
    q = _standardize(query.reshape(1, -1))[0]
    return z @ q / q.size


class WheelerMemory:
    """Associative memory of texts as CA attractors (see the module docstring)."""

    def __init__(
        self,
        root: str | Path,
        capacity: int = DEFAULT_CAPACITY,
        *,
        clock: Callable[[], datetime] = utcnow,
        xp: ModuleType | None = None,
        keep_bricks: bool = True,
    ):
        if int(capacity) != capacity or capacity < 1:
            raise MemoryInputError(f"capacity: must be a positive integer, got {capacity!r}")
        self.root = Path(root)
        self.capacity = int(capacity)
        self.clock = clock
        self.xp = xp
        self.keep_bricks = keep_bricks
        self.rotation_stats = RotationStats(self.root / STATS_FILE)
        self._chunks: dict[str, MemoryChunk] | None = None
        self._matrix: tuple[np.ndarray, list[MemoryEntry]] | None = None

    # ---- chunks --------------------------------------------------------------------
    @property
    def chunk_root(self) -> Path:
        return self.root / "chunks"

    def _all_chunks(self) -> dict[str, MemoryChunk]:
        if self._chunks is None:
            self._chunks = {}
            if self.chunk_root.is_dir():
                for d in sorted(self.chunk_root.iterdir()):
                    if d.is_dir() and _CHUNK_NAME.match(d.name):
                        self._chunks[d.name] = MemoryChunk(d)
        return self._chunks

    def _chunk(self, name: str) -> MemoryChunk:
        chunks = self._all_chunks()
        if name not in chunks:
            chunks[name] = MemoryChunk(self.chunk_root / name)
        return chunks[name]

    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo else parse_time(now)

    # ---- reading -------------------------------------------------------------------
    def entries(self) -> list[MemoryEntry]:
        return [e for c in self._all_chunks().values() for e in c.entries]

    def __len__(self) -> int:
        return sum(len(c.entries) for c in self._all_chunks().values())

    def get(self, memory_id: str) -> MemoryEntry | None:
        for c in self._all_chunks().values():
            for e in c.entries:
                if e.id == memory_id:
                    return e
        return None

    def brick(self, memory_id: str) -> Brick:
        e = self.get(memory_id)
        if e is None:
            raise KeyError(f"id: no memory {memory_id!r}")
        return Brick.load(self._chunk(e.chunk).brick_dir / f"{e.id}.npz")

    def attractor(self, memory_id: str) -> np.ndarray:
        e = self.get(memory_id)
        if e is None:
            raise KeyError(f"id: no memory {memory_id!r}")
        return self._chunk(e.chunk).rows()[e.row].reshape(FRAME_SHAPE).copy()

    def temperatures(self, now: datetime | None = None) -> list[tuple[MemoryEntry, float, str]]:
        """Every memory with its temperature and tier at ``now`` (default: the clock)."""
        now = now or self._now()
        out = []
        for e in self.entries():
            t = e.temperature(now)
            out.append((e, t, tier(t)))
        return out

    def info(self) -> dict[str, Any]:
        now = self._now()
        chunks: dict[str, dict[str, int]] = {}
        tiers = {t: 0 for t in TIERS}
        for e, _, tr in self.temperatures(now):
            c = chunks.setdefault(e.chunk, {"count": 0, **{t: 0 for t in TIERS}})
            c["count"] += 1
            c[tr] += 1
            tiers[tr] += 1
        xp = self.xp or get_xp()
        return {
            "root": str(self.root),
            "backend": backend_name(xp),
            "count": len(self),
            "capacity": self.capacity,
            "chunks": chunks,
            "tiers": tiers,
            "rotation": self.rotation_stats.as_dict(),
        }

    # ---- encoding ------------------------------------------------------------------
    @staticmethod
    def _check_text(text: Any, field_name: str) -> str:
        if not isinstance(text, str) or not text.strip():
            raise MemoryInputError(f"{field_name}: must be a non-empty string")
        return text

    def _seed(self, text: str, embedding: Any | None) -> tuple[np.ndarray, str]:
        if embedding is not None:
            return embedding_frame(embedding), "embedding"
        return hash_frame(text), "sha256"

    @staticmethod
    def memory_id(text: str, encoding: str = "sha256") -> str:
        return text_key(text) if encoding == "sha256" else "e" + text_key(text)[:15]

    # ---- writing -------------------------------------------------------------------
    def store(self, text: str, *, chunk: str | None = None, embedding: Any | None = None) -> str:
        """Store ``text`` (evolve, save attractor and brick); its id. Idempotent per text."""
        return self.store_entry(text, chunk=chunk, embedding=embedding).id

    def store_entry(self, text: str, *, chunk: str | None = None, embedding: Any | None = None) -> MemoryEntry:
        text = self._check_text(text, "text")
        if chunk is not None and not _CHUNK_NAME.match(chunk):
            raise MemoryInputError(f"chunk: must match [a-z0-9_]{{1,64}}, got {chunk!r}")
        seed, encoding = self._seed(text, embedding)
        mid = self.memory_id(text, encoding)
        existing = self.get(mid)
        if existing is not None:
            return existing
        res = evolve_with_rotation(seed, stats=self.rotation_stats, keep_history=self.keep_bricks, xp=self.xp)[0]
        if len(self) >= self.capacity:
            self.evict_coldest()
        now = self._now().isoformat()
        entry = MemoryEntry(
            id=mid,
            text=text,
            chunk=chunk or select_chunk(text),
            state=res.state,
            ticks=res.ticks,
            angle=res.angle,
            attempts=res.attempts,
            encoding=encoding,
            outcome=res.outcome,
            created=now,
            last_access=now,
        )
        c = self._chunk(entry.chunk)
        if self.keep_bricks:
            meta = {
                "id": mid,
                "text": text,
                "rotation_used": res.angle,
                "attempts": res.attempts,
                "rotation_outcome": res.outcome,
                "encoding": encoding,
            }
            Brick.from_evolution(res.evolution, meta).save(c.brick_dir / f"{mid}.npz")
        c.append(entry, res.attractor.reshape(-1))
        self._matrix = None
        return entry

    def forget(self, ids: Iterable[str]) -> list[str]:
        """Remove memories by id; the ids removed."""
        wanted = set(ids)
        gone: list[str] = []
        for c in self._all_chunks().values():
            gone += c.remove(wanted)
        if gone:
            self._matrix = None
        return gone

    def evict_coldest(self, fraction: float = EVICT_FRACTION) -> list[str]:
        """Evict the coldest ``fraction`` of the capacity (at least one memory)."""
        n = max(1, math.ceil(self.capacity * fraction))
        now = self._now()
        ranked = sorted(
            self.entries(),
            key=lambda e: (e.temperature(now), parse_time(e.last_access), parse_time(e.created), e.id),
        )
        return self.forget(e.id for e in ranked[:n])

    # ---- recall --------------------------------------------------------------------
    def _stacked(self) -> tuple[np.ndarray, list[MemoryEntry]]:
        """Standardized attractors of every memory (M, N) float64 and their entries."""
        if self._matrix is None:
            chunks = self._all_chunks()
            order = select_recall_chunks("", chunks)  # general first, then by name
            mats, entries = [], []
            for name in order:
                c = chunks.get(name)
                if c is not None and c.entries:
                    mats.append(c.attractors())
                    entries += c.entries
            z = _standardize(np.concatenate(mats)) if mats else np.zeros((0, N_CELLS))
            self._matrix = (z, entries)
        return self._matrix

    def query_attractor(self, query: str, *, embedding: Any | None = None) -> np.ndarray:
        seed, _ = self._seed(query, embedding)
        return evolve_with_rotation(seed, xp=self.xp)[0].attractor

    def recall(
        self,
        query: str,
        top_k: int = 5,
        temperature_boost: float = 0.0,
        *,
        embedding: Any | None = None,
        reconstruct: bool = False,
        bump: bool = True,
    ) -> list[RecallHit]:
        """The ``top_k`` memories most correlated with ``query`` (see module docstring)."""
        query = self._check_text(query, "query")
        if isinstance(top_k, bool) or int(top_k) != top_k or top_k < 1:
            raise MemoryInputError(f"top_k: must be a positive integer, got {top_k!r}")
        if not math.isfinite(temperature_boost):
            raise MemoryInputError(f"temperature_boost: must be finite, got {temperature_boost!r}")
        z, entries = self._stacked()
        if not entries:
            return []
        q_att = self.query_attractor(query, embedding=embedding)
        q = _standardize(q_att.reshape(1, -1))[0]
        corr = z @ q / q.size
        now = self._now()
        temps = np.array([e.temperature(now) for e in entries])
        score = corr + temperature_boost * temps
        order = sorted(range(len(entries)), key=lambda i: (-score[i], entries[i].id))[: int(top_k)]
        picked = [entries[i] for i in order]
        if bump:
            stamp = now.isoformat()
            touched = set()
            for e in picked:
                e.hits += 1
                e.last_access = stamp
                touched.add(e.chunk)
            for name in touched:
                self._chunk(name).save_index()
        recon: list[Evolution | None] = [None] * len(picked)
        if reconstruct and picked:
            blends = np.stack([self._blend(self._chunk(e.chunk).rows()[e.row], q_att) for e in picked])
            recon = list(evolve_batch(blends, xp=self.xp or get_xp()))
        hits = []
        for i, e, r in zip(order, picked, recon):
            t = e.temperature(now)
            hits.append(
                RecallHit(
                    id=e.id,
                    text=e.text,
                    chunk=e.chunk,
                    correlation=float(corr[i]),
                    score=float(score[i]),
                    temperature=t,
                    tier=tier(t),
                    hits=e.hits,
                    state=e.state,
                    reconstruction=r,
                )
            )
        return hits

    @staticmethod
    def _blend(stored: np.ndarray, query_attractor: np.ndarray, alpha: float = RECONSTRUCT_ALPHA) -> np.ndarray:
        s = np.asarray(stored, dtype=np.float32).reshape(FRAME_SHAPE)
        q = np.asarray(query_attractor, dtype=np.float32).reshape(FRAME_SHAPE)
        return (np.float32(1 - alpha) * s + np.float32(alpha) * q).astype(np.float32)

    def reconstruct(
        self, memory_id: str, query: str, *, alpha: float = RECONSTRUCT_ALPHA, embedding: Any | None = None
    ) -> Evolution:
        """Re-evolve (1 - alpha) * stored + alpha * query attractor (seed 002's Darman)."""
        if not 0.0 <= alpha <= 1.0:
            raise MemoryInputError(f"alpha: must be in [0, 1], got {alpha!r}")
        query = self._check_text(query, "query")
        q_att = self.query_attractor(query, embedding=embedding)
        blend = self._blend(self.attractor(memory_id), q_att, alpha)
        return evolve_batch(blend, xp=self.xp or get_xp())[0]


__all__ = [
    "CHUNKS",
    "CHUNK_KEYWORDS",
    "DEFAULT_CAPACITY",
    "GENERAL",
    "MemoryEntry",
    "MemoryInputError",
    "RecallHit",
    "WheelerMemory",
    "parse_capacity",
    "pearson_many",
    "select_chunk",
    "select_recall_chunks",
]
