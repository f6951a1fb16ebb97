"""A large knowledge base's vectors: the rows (int8 codes above a size), the coarse cells the
distance band is sampled from (kb/cells.py) and the ANN graph nearest neighbours come
from (kb/ann.py), kept together on disk and grown together when concepts are added.

At a million concepts of 384 dimensions the rows take 388 MB as int8 codes with a scale
per row (1.5 GB as float32; a cosine from the codes is within 0.002 of the exact one, and
widening int8 is four times faster than float16 here), the float16 graph 814 MB, the
cells 15 MB; a band draw reads at most cells.BUDGET rows, a nearest-neighbour query the
graph's few dozen hits and two cells.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wander.adapters.kb.ann import AnnIndex
from wander.adapters.kb.cells import BUDGET, BandDraw, Cells

FORMAT = 1  # of the folder's layout
CHUNK = 65_536  # rows per product in a whole scan
# Cells whose members join the graph's hits as nearest-neighbour candidates. Over the 1M
# bench corpus (each shipped concept and ~70 noisy copies of it: tight clusters of near
# ties) the graph alone (degree 8) found 5-7 of the 10 nearest, with the two nearest cells
# (~2,000 members, 1.5 ms of CPU) all 10 (12 queries).
PROBE = 2
# Nearest neighbours kept per row (kb.approximate_index: a concept's domain reach), found by
# the graph at a narrower search than a query's (a table of a million rows is a batch of a
# million searches: minutes, once, kept beside the rows).
NEIGHBOURS = 16
TABLE_EXPANSION = 64
TABLE_CHUNK = 4096


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and the step of each row: row ~= codes * step."""
    vectors = np.asarray(vectors, dtype=np.float32)
    step = np.maximum(np.abs(vectors).max(axis=1), 1e-12) / 127.0 if len(vectors) else np.zeros(0)
    return np.round(vectors / step[:, None]).astype(np.int8), step.astype(np.float32)


class ScaledVectors:
    def __init__(
        self,
        matrix: np.ndarray,
        cells: Cells,
        ann: AnnIndex,
        step: np.ndarray | None = None,
        neighbours: tuple[np.ndarray, np.ndarray] | None = None,
    ):
        """MATRIX: float32 unit rows, or int8 codes with STEP (one per row); NEIGHBOURS: the
        neighbour table (neighbour_table), computed when first read if not given."""
        if not (len(matrix) == len(cells) == len(ann)):
            raise ValueError(f"rows {len(matrix)}, cells {len(cells)} and ANN {len(ann)} differ in number")
        if (matrix.dtype == np.int8) != (step is not None):
            raise ValueError("int8 rows need their steps, float rows none")
        self.matrix = matrix
        self.step = step
        self.cells = cells
        self.ann = ann
        self.dim = int(matrix.shape[1])
        self.neighbours = neighbours

    @classmethod
    def build(cls, matrix: np.ndarray, quantized: bool = True, seed: int = 0, threads: int = 0) -> ScaledVectors:
        """Cells and ANN graph over unit rows MATRIX, kept as int8 codes when QUANTIZED."""
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        cells = Cells.build(matrix, seed=seed)
        ann = AnnIndex(int(matrix.shape[1]), threads=threads)
        for s in range(0, len(matrix), CHUNK):
            ann.add(s, matrix[s : s + CHUNK])
        if not quantized:
            return cls(matrix, cells, ann)
        codes, step = quantize(matrix)
        return cls(codes, cells, ann, step)

    def neighbours_of(self, rows: slice) -> tuple[np.ndarray, np.ndarray]:
        """The neighbour table's rows ROWS (keys, similarities), the table made on first use."""
        if self.neighbours is None:
            self.neighbours = self.neighbour_table()
        keys, sims = self.neighbours
        return np.asarray(keys[rows]), np.asarray(sims[rows])

    def __len__(self) -> int:
        return len(self.matrix)

    def rows(self, idx: np.ndarray) -> np.ndarray:
        idx = np.asarray(idx, dtype=np.int64)
        if self.step is None:
            return self.matrix[idx]
        return self.matrix[idx].astype(np.float32) * self.step[idx, None]

    def dots(self, idx: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Rows IDX's similarities to V (int8 codes widened, scaled after the product)."""
        idx = np.asarray(idx, dtype=np.int64)
        if self.step is None:
            return self.matrix[idx] @ v
        return (self.matrix[idx].astype(np.float32) @ v) * self.step[idx]

    def similarities(self, v: np.ndarray) -> np.ndarray:
        """Cosine of unit-normalised V to every row: a whole pass (what the band draw and
        the ANN avoid), in chunks so int8 rows are widened a block at a time."""
        v = np.asarray(v, dtype=np.float32)
        if self.step is None:
            return self.matrix @ v
        out = np.empty(len(self.matrix), dtype=np.float32)
        for s in range(0, len(self.matrix), CHUNK):
            out[s : s + CHUNK] = (self.matrix[s : s + CHUNK].astype(np.float32) @ v) * self.step[s : s + CHUNK]
        return out

    def nearest(self, v: np.ndarray, k: int, exclude: Sequence[int] = ()) -> list[tuple[int, float]]:
        """The graph's hits and the members of the PROBE cells nearest V, re-scored exactly."""
        return self.ann.search(v, k, self.dots, exclude, self.cells.nearest_members(v, PROBE))

    def sample_band(
        self, v: np.ndarray, low: float, high: float, k: int, seed: Sequence[int], budget: int = BUDGET
    ) -> BandDraw:
        """Up to K concepts at cosine distance LOW-HIGH from V, the same for the same SEED."""
        return self.cells.sample_band(self.dots, v, low, high, k, np.random.default_rng(list(seed)), budget)

    def neighbour_table(self, rows: np.ndarray | None = None, threads: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """For ROWS (every row when None): the NEIGHBOURS nearest other rows by the graph,
        and their exact similarities (float16), best first."""
        idx = np.arange(len(self), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        keys = np.zeros((len(idx), NEIGHBOURS), dtype=np.int32)
        sims = np.zeros((len(idx), NEIGHBOURS), dtype=np.float16)
        wide = self.ann.expansion
        self.ann.expansion = TABLE_EXPANSION
        try:
            for s in range(0, len(idx), TABLE_CHUNK):
                part = idx[s : s + TABLE_CHUNK]
                q = self.rows(part)
                found = self.ann.batch(q, NEIGHBOURS + 1, threads)
                found[found == part[:, None]] = -1  # a row is not its own neighbour
                found = np.where(found < 0, part[:, None], found)  # unfilled and self: scored as -1 below
                dots = np.einsum("ijk,ik->ij", self.rows(found.ravel()).reshape(*found.shape, self.dim), q)
                dots[found == part[:, None]] = -1.0
                order = np.argsort(-dots, axis=1, kind="stable")[:, :NEIGHBOURS]
                keys[s : s + len(part)] = np.take_along_axis(found, order, axis=1)
                sims[s : s + len(part)] = np.take_along_axis(dots, order, axis=1)
        finally:
            self.ann.expansion = wide
        return keys, sims

    def add(self, vectors: np.ndarray) -> range:
        """Append unit VECTORS (foraged or imported concepts): new rows, cells and graph keys."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ValueError(f"vectors of shape {vectors.shape}, expected (n, {self.dim})")
        start = len(self.matrix)
        if self.step is None:
            self.matrix = np.concatenate([self.matrix, vectors])
        else:
            codes, step = quantize(vectors)
            self.matrix = np.concatenate([self.matrix, codes])
            self.step = np.concatenate([self.step, step])
        self.cells.add(vectors)
        self.ann.add(start, vectors)
        if self.neighbours is not None:  # the new rows' own (the older rows' stay as they were)
            keys, sims = self.neighbour_table(np.arange(start, len(self.matrix)))
            self.neighbours = (np.concatenate([self.neighbours[0], keys]), np.concatenate([self.neighbours[1], sims]))
        return range(start, len(self.matrix))

    # ---- on disk -------------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.save(folder / "rows.npy", self.matrix)
        if self.step is not None:
            np.save(folder / "steps.npy", self.step)
        self._save_cells(folder)
        self.save_neighbours(folder)
        self.ann.save(folder / "graph.usearch")
        (folder / "meta.json").write_text(json.dumps({"format": FORMAT, "rows": len(self), "dim": self.dim}))

    def save_neighbours(self, folder: Path) -> None:
        """Keep the neighbour table beside the rows (made now if it was not yet)."""
        keys, sims = self.neighbours_of(slice(None))
        np.save(folder / "neighbours.npy", keys)
        np.save(folder / "neighbour_sims.npy", sims)

    def _save_cells(self, folder: Path) -> None:
        np.savez(
            folder / "cells.npz",
            centroids=self.cells.centroids,
            assignment=self.cells.assignment,
            member_sims=self.cells.member_sims,
            sums=self.cells.sums,
            spread=np.float64(self.cells.spread),
        )

    @classmethod
    def load(cls, folder: Path) -> ScaledVectors:
        meta = json.loads((folder / "meta.json").read_text())
        if meta.get("format") != FORMAT:
            raise ValueError(f"{folder}: format {meta.get('format')}, expected {FORMAT}")
        matrix = np.load(folder / "rows.npy", allow_pickle=False)
        steps = folder / "steps.npy"
        step = np.load(steps, allow_pickle=False) if steps.is_file() else None
        with np.load(folder / "cells.npz", allow_pickle=False) as z:
            parts = {name: z[name] for name in z.files}
        if "sums" in parts:
            cells = Cells(parts["centroids"], parts["assignment"], parts["member_sims"], parts["sums"], parts["spread"])
        else:  # kept before the cells held their sums: computed once from the rows, and kept
            cells = Cells.from_rows(
                parts["centroids"], parts["assignment"], parts["member_sims"], _reader(matrix, step)
            )
        table = None
        if (folder / "neighbours.npy").is_file() and (folder / "neighbour_sims.npy").is_file():
            # mapped, not read: a step reads a few hundred of its rows
            table = (
                np.load(folder / "neighbours.npy", mmap_mode="r"),
                np.load(folder / "neighbour_sims.npy", mmap_mode="r"),
            )
        scaled = cls(matrix, cells, AnnIndex.load(folder / "graph.usearch", int(meta["dim"])), step, table)
        if "sums" not in parts:
            scaled._save_cells(folder)
        if table is None:  # kept before the table was: made once, and kept
            scaled.save_neighbours(folder)
        return scaled


def _reader(matrix: np.ndarray, step: np.ndarray | None):
    def rows(idx: np.ndarray) -> np.ndarray:
        if step is None:
            return np.asarray(matrix[idx], dtype=np.float32)
        return matrix[idx].astype(np.float32) * step[idx, None]

    return rows
