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

import json
import math
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .bricks import Brick
from .kernel import Evolution, evolve_batch
from .rotation import STATS_FILE, RotationStats, evolve_with_rotation, outcome_of
from .seed import FRAME_SHAPE, N_CELLS, embedding_frame, hash_frame, text_key
from .temperature import TIERS, parse_time, temperature, tier, utcnow
from .xp import backend_name, get_xp

DEFAULT_CAPACITY = 1000
EVICT_FRACTION = 0.10
RECONSTRUCT_ALPHA = 0.3
GENERAL = "general"
MAX_RECALL_CHUNKS = 3

# Keyword routing: a chunk's score is the number of its keywords found in the text.
CHUNK_KEYWORDS: dict[str, tuple[str, ...]] = {
    "code": (
        "python",
        "rust",
        "javascript",
        "typescript",
        "java",
        "golang",
        "bug",
        "debug",
        "compile",
        "compiler",
        "git",
        "docker",
        "sql",
        "function",
        "api",
        "exception",
        "stack trace",
        "refactor",
        "unit test",
        "segfault",
        "library",
        "code",
        "script",
    ),
    "hardware": (
        "printer",
        "3d print",
        "solder",
        "gpio",
        "pcb",
        "arduino",
        "raspberry pi",
        "filament",
        "firmware",
        "voltage",
        "circuit",
        "sensor",
        "motor",
        "nozzle",
        "multimeter",
        "bambu",
        "resistor",
        "battery",
    ),
    "daily_tasks": (
        "grocery",
        "groceries",
        "dentist",
        "doctor",
        "schedule",
        "meeting",
        "errand",
        "laundry",
        "workout",
        "appointment",
        "chores",
        "dinner",
        "bills",
        "calendar",
        "todo",
        "shopping",
        "reminder",
    ),
    "science": (
        "physics",
        "equation",
        "quantum",
        "genome",
        "calculus",
        "theorem",
        "molecule",
        "chemistry",
        "biology",
        "entropy",
        "experiment",
        "hypothesis",
        "particle",
        "protein",
        "relativity",
        "neuron",
        "enzyme",
    ),
    "meta": (
        "wheeler",
        "attractor",
        "brick",
        "cellular automata",
        "cellular automaton",
        "rotation",
        "chunk",
        "memory system",
        "oscillation",
        "convergence",
    ),
}
CHUNKS = (*CHUNK_KEYWORDS, GENERAL)

_WORD = re.compile(r"[a-z0-9]+")
_CHUNK_NAME = re.compile(r"^[a-z0-9_]{1,64}$")
_ATTRACTORS = "attractors.f32"
_INDEX = "index.json"
_ROW_BYTES = N_CELLS * 4


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
# Routing


def _keyword_scores(text: str) -> dict[str, int]:
    words = _WORD.findall(text.lower())
    joined = " " + " ".join(words) + " "
    tokens = set(words)
    scores = {}
    for name, kws in CHUNK_KEYWORDS.items():
        n = 0
        for kw in kws:
            if " " in kw:
                n += joined.count(" " + kw + " ")
            elif kw in tokens:
                n += 1
        scores[name] = n
    return scores


def select_chunk(text: str) -> str:
    """The chunk a text is stored in: most keyword hits; a tie or no hit -> general."""
    scores = _keyword_scores(text)
    best = max(scores.values(), default=0)
    if best == 0:
        return GENERAL
    winners = [c for c, s in scores.items() if s == best]
    return winners[0] if len(winners) == 1 else GENERAL


def select_recall_chunks(query: str, on_disk: Iterable[str] = ()) -> list[str]:
    """Chunks to search for a query: up to 3 by keyword hits, general, then the rest."""
    scores = _keyword_scores(query)
    ranked = sorted((c for c, s in scores.items() if s > 0), key=lambda c: (-scores[c], c))
    chosen = ranked[:MAX_RECALL_CHUNKS] + [GENERAL]
    for c in sorted(on_disk):
        if c not in chosen:
            chosen.append(c)
    return chosen


# --------------------------------------------------------------------------------------
# Records


@dataclass
class MemoryEntry:
    id: str
    text: str
    chunk: str
    state: str
    ticks: int
    angle: int
    attempts: int
    encoding: str  # sha256 | embedding
    created: str  # ISO 8601, UTC
    last_access: str
    hits: int = 0
    row: int = 0
    outcome: str = ""  # the rotation retry's: CONVERGED | FAILED_ALL_ROTATIONS

    def __post_init__(self) -> None:
        if not self.outcome:  # an index written before the outcome was kept
            self.outcome = outcome_of(self.state)

    def temperature(self, now: datetime) -> float:
        return temperature(self.hits, parse_time(self.last_access), now)


@dataclass
class RecallHit:
    id: str
    text: str
    chunk: str
    correlation: float  # Pearson r of the attractors
    score: float  # correlation + temperature_boost * temperature (before this recall)
    temperature: float  # after this recall's hit
    tier: str
    hits: int
    state: str
    reconstruction: Evolution | None = field(default=None, repr=False)


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + "-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Chunk:
    """One chunk's folder: index, attractor rows, bricks."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.name = folder.name
        self.entries: list[MemoryEntry] = []
        self._rows: np.ndarray | None = None  # (n_rows_on_disk, N_CELLS)
        if (folder / _INDEX).exists():
            data = json.loads((folder / _INDEX).read_text(encoding="utf-8"))
            self.entries = [MemoryEntry(**e) for e in data.get("entries", [])]

    @property
    def brick_dir(self) -> Path:
        return self.folder / "bricks"

    def rows(self) -> np.ndarray:
        if self._rows is None:
            path = self.folder / _ATTRACTORS
            raw = np.fromfile(path, dtype=np.float32) if path.exists() else np.zeros(0, np.float32)
            n = raw.size // N_CELLS
            self._rows = raw[: n * N_CELLS].reshape(n, N_CELLS)
        return self._rows

    def attractors(self) -> np.ndarray:
        """(len(entries), N_CELLS) in entry order."""
        rows = self.rows()
        idx = np.array([e.row for e in self.entries], dtype=np.int64)
        if idx.size and idx.max() >= rows.shape[0]:
            raise RuntimeError(f"memory chunk {self.name}: index points past {_ATTRACTORS}")
        return rows[idx] if idx.size else np.zeros((0, N_CELLS), np.float32)

    def save_index(self) -> None:
        payload = {"version": 1, "chunk": self.name, "entries": [asdict(e) for e in self.entries]}
        _atomic_write(self.folder / _INDEX, json.dumps(payload, ensure_ascii=False).encode("utf-8"))

    def append(self, entry: MemoryEntry, attractor: np.ndarray) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / _ATTRACTORS
        size = path.stat().st_size if path.exists() else 0
        entry.row = size // _ROW_BYTES
        with open(path, "ab") as f:
            if size % _ROW_BYTES:  # a torn write: pad to a row boundary
                f.write(b"\0" * (_ROW_BYTES - size % _ROW_BYTES))
                entry.row += 1
            f.write(np.ascontiguousarray(attractor, dtype=np.float32).tobytes())
        self._rows = None
        self.entries.append(entry)
        self.save_index()

    def remove(self, ids: set[str]) -> list[str]:
        gone = [e for e in self.entries if e.id in ids]
        if not gone:
            return []
        keep = [e for e in self.entries if e.id not in ids]
        kept_rows = self.attractors()[[i for i, e in enumerate(self.entries) if e.id not in ids]]
        for i, e in enumerate(keep):
            e.row = i
        _atomic_write(self.folder / _ATTRACTORS, np.ascontiguousarray(kept_rows).tobytes())
        self.entries = keep
        self._rows = None
        self.save_index()
        for e in gone:
            (self.brick_dir / f"{e.id}.npz").unlink(missing_ok=True)
        return [e.id for e in gone]


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
        self._chunks: dict[str, _Chunk] | None = None
        self._matrix: tuple[np.ndarray, list[MemoryEntry]] | None = None

    # ---- chunks --------------------------------------------------------------------
    @property
    def chunk_root(self) -> Path:
        return self.root / "chunks"

    def _all_chunks(self) -> dict[str, _Chunk]:
        if self._chunks is None:
            self._chunks = {}
            if self.chunk_root.is_dir():
                for d in sorted(self.chunk_root.iterdir()):
                    if d.is_dir() and _CHUNK_NAME.match(d.name):
                        self._chunks[d.name] = _Chunk(d)
        return self._chunks

    def _chunk(self, name: str) -> _Chunk:
        chunks = self._all_chunks()
        if name not in chunks:
            chunks[name] = _Chunk(self.chunk_root / name)
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
