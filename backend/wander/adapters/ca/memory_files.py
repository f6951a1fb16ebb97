"""The Wheeler memory's records and one chunk's folder on disk: its index (JSON), its
attractor rows (raw float32) and its bricks, each file replaced atomically."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from .kernel import Evolution
from .rotation import outcome_of
from .seed import N_CELLS
from .temperature import parse_time, temperature

ATTRACTORS_FILE = "attractors.f32"
INDEX_FILE = "index.json"
ROW_BYTES = N_CELLS * 4


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


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + "-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class MemoryChunk:
    """One chunk's folder: index, attractor rows, bricks."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.name = folder.name
        self.entries: list[MemoryEntry] = []
        self._rows: np.ndarray | None = None  # (n_rows_on_disk, N_CELLS)
        if (folder / INDEX_FILE).exists():
            data = json.loads((folder / INDEX_FILE).read_text(encoding="utf-8"))
            self.entries = [MemoryEntry(**e) for e in data.get("entries", [])]

    @property
    def brick_dir(self) -> Path:
        return self.folder / "bricks"

    def rows(self) -> np.ndarray:
        if self._rows is None:
            path = self.folder / ATTRACTORS_FILE
            raw = np.fromfile(path, dtype=np.float32) if path.exists() else np.zeros(0, np.float32)
            n = raw.size // N_CELLS
            self._rows = raw[: n * N_CELLS].reshape(n, N_CELLS)
        return self._rows

    def attractors(self) -> np.ndarray:
        """(len(entries), N_CELLS) in entry order."""
        rows = self.rows()
        idx = np.array([e.row for e in self.entries], dtype=np.int64)
        if idx.size and idx.max() >= rows.shape[0]:
            raise RuntimeError(f"memory chunk {self.name}: index points past {ATTRACTORS_FILE}")
        return rows[idx] if idx.size else np.zeros((0, N_CELLS), np.float32)

    def save_index(self) -> None:
        payload = {"version": 1, "chunk": self.name, "entries": [asdict(e) for e in self.entries]}
        atomic_write(self.folder / INDEX_FILE, json.dumps(payload, ensure_ascii=False).encode("utf-8"))

    def append(self, entry: MemoryEntry, attractor: np.ndarray) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / ATTRACTORS_FILE
        size = path.stat().st_size if path.exists() else 0
        entry.row = size // ROW_BYTES
        with open(path, "ab") as f:
            if size % ROW_BYTES:  # a torn write: pad to a row boundary
                f.write(b"\0" * (ROW_BYTES - size % ROW_BYTES))
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
        atomic_write(self.folder / ATTRACTORS_FILE, np.ascontiguousarray(kept_rows).tobytes())
        self.entries = keep
        self._rows = None
        self.save_index()
        for e in gone:
            (self.brick_dir / f"{e.id}.npz").unlink(missing_ok=True)
        return [e.id for e in gone]
