"""Coarse cells over a knowledge base's unit vectors, and the distance band sampled from them.

The step's distance band (cosine distance 0.3-0.7 from the current locus) holds a tenth of
the corpus or more; at a million concepts scoring every one per step costs a whole pass over
the vectors (1.5 GB). Spherical k-means splits the vectors into about sqrt(N) cells. For a
query, each cell's centroid similarity and angular radius bound its members' similarities
(the triangle inequality on the sphere), so a cell that cannot hold a band member is never
read. The cells that can are read in a seeded random order weighted by their size and their
estimated share of band members, until a fixed budget of members has been read; the band
members among them are exact (their similarities are computed), and a seeded uniform draw
among those is the sample. No nearest-neighbour library answers "between these distances",
which is why the cells are ours; nearest neighbours come from the ANN index (kb/ann.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# (concept indices, unit vector) -> their rows' similarities to it
Dots = Callable[[np.ndarray, np.ndarray], np.ndarray]

# Members read per band query at most (4,096 rows of 384 int8: 1.5 MB), at most PER_CELL
# of them from one cell: a draw spread over many cells misses less where a cell's estimate errs.
BUDGET = 4096
PER_CELL = 256
CALIBRATION_QUERIES = 16  # query rows and members per cell sampled to fit the spread
CALIBRATION_MEMBERS = 64
TRAIN_SAMPLE = 40_000  # k-means trains on at most this many vectors
ITERATIONS = 8
CHUNK = 32_768  # rows per matrix product while assigning


def cell_count(n: int) -> int:
    """About sqrt(N) cells: a cell of ~1,000 members at a million."""
    return int(min(2048, max(8, round(np.sqrt(max(n, 1))))))


def _unit(m: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(m, axis=1, keepdims=True)
    return np.divide(m, norm, out=np.zeros_like(m), where=norm > 0)


def _assign(matrix: np.ndarray, centroids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest centroid of every row and its similarity, in chunks (matrix may be float16)."""
    cells = np.empty(len(matrix), dtype=np.int32)
    sims = np.empty(len(matrix), dtype=np.float32)
    for s in range(0, len(matrix), CHUNK):
        block = np.asarray(matrix[s : s + CHUNK], dtype=np.float32) @ centroids.T
        cells[s : s + CHUNK] = block.argmax(axis=1)
        sims[s : s + CHUNK] = block[np.arange(len(block)), cells[s : s + CHUNK]]
    return cells, sims


@dataclass
class BandDraw:
    """A band sample: concept indices, their exact cosine distances, and how much was read."""

    indices: np.ndarray
    distances: np.ndarray
    scanned: int  # members whose similarity was computed
    cells_read: int


def _cell_sums(k: int, cells: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """Add each row to its cell's sum (one weighted bincount per dimension)."""
    for j in range(rows.shape[1]):
        out[:, j] += np.bincount(cells, weights=rows[:, j], minlength=k)


class Cells:
    """Unit centroids, each row's cell, and per cell its members, angular radius and the
    sum of its members' vectors (their mean's product with a query is their mean similarity
    to it); SPREAD: the members' variance of similarity along a direction, as a share of
    their residual (1 - |mean|^2), fitted once over the corpus."""

    def __init__(
        self,
        centroids: np.ndarray,
        assignment: np.ndarray,
        member_sims: np.ndarray,
        sums: np.ndarray,
        spread: float,
    ):
        self.centroids = np.ascontiguousarray(centroids, dtype=np.float32)
        self.assignment = np.asarray(assignment, dtype=np.int32)
        self.member_sims = np.asarray(member_sims, dtype=np.float32)
        self.sums = np.ascontiguousarray(sums, dtype=np.float32)
        self.spread = float(spread)
        self._index()

    @classmethod
    def from_rows(
        cls,
        centroids: np.ndarray,
        assignment: np.ndarray,
        member_sims: np.ndarray,
        rows: Callable[[np.ndarray], np.ndarray],
    ) -> Cells:
        """Cells whose members' sums and spread are computed from ROWS (indices -> rows)."""
        k, n = len(centroids), len(assignment)
        sums = np.zeros((k, centroids.shape[1]), dtype=np.float64)
        for s in range(0, n, CHUNK):
            idx = np.arange(s, min(n, s + CHUNK))
            _cell_sums(k, np.asarray(assignment[idx]), rows(idx), sums)
        cells = cls(centroids, assignment, member_sims, sums.astype(np.float32), 1.0)
        cells.spread = cells._fit_spread(rows)
        return cells

    def _fit_spread(self, rows: Callable[[np.ndarray], np.ndarray], seed: int = 0) -> float:
        rng = np.random.default_rng(seed)
        queries = rows(np.sort(rng.choice(len(self), size=min(len(self), CALIBRATION_QUERIES), replace=False)))
        ratios = []
        for c in np.flatnonzero(self.sizes >= 8):
            members = self.cell_members(int(c))
            members = np.sort(rng.choice(members, size=min(len(members), CALIBRATION_MEMBERS), replace=False))
            var = (rows(members) @ queries.T).var(axis=0)
            residual = max(1.0 - float(self.mean_norm2[c]), 1e-4)
            ratios.extend((var / residual).tolist())
        return float(np.median(ratios)) if ratios else 1.0

    def _index(self) -> None:
        k = len(self.centroids)
        order = np.argsort(self.assignment, kind="stable").astype(np.int64)
        self.members = order
        self.offsets = np.zeros(k + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.assignment, minlength=k), out=self.offsets[1:])
        sims = np.clip(self.member_sims, -1.0, 1.0)
        # per cell: the widest angle of a member from the centroid, and its members' mean
        self.radius = np.zeros(k, dtype=np.float32)
        sizes = np.diff(self.offsets)
        full = sizes > 0
        if full.any():
            self.radius[full] = np.arccos(np.minimum.reduceat(sims[order], self.offsets[:-1][full]))
        self.sizes = sizes
        self.means = self.sums / np.maximum(sizes, 1)[:, None].astype(np.float32)
        self.mean_norm2 = np.einsum("ij,ij->i", self.means, self.means)

    def __len__(self) -> int:
        return len(self.assignment)

    @classmethod
    def build(cls, matrix: np.ndarray, n_cells: int | None = None, seed: int = 0) -> Cells:
        """Spherical k-means over MATRIX's unit rows (trained on a sample, then every row assigned)."""
        n = len(matrix)
        if n == 0:
            raise ValueError("no vectors to build cells from")
        k = min(n_cells or cell_count(n), n)
        rng = np.random.default_rng(seed)
        sample = np.sort(rng.choice(n, size=min(n, max(TRAIN_SAMPLE, 20 * k)), replace=False))
        train = np.asarray(matrix[sample], dtype=np.float32)
        centroids = train[rng.choice(len(train), size=k, replace=False)].copy()
        for _ in range(ITERATIONS):
            cells, _ = _assign(train, centroids)
            sums = np.zeros_like(centroids)
            np.add.at(sums, cells, train)
            empty = np.bincount(cells, minlength=k) == 0
            sums[empty] = train[rng.choice(len(train), size=int(empty.sum()), replace=False)]
            centroids = _unit(sums)
        assignment, sims = _assign(matrix, centroids)
        return cls.from_rows(centroids, assignment, sims, lambda idx: np.asarray(matrix[idx], dtype=np.float32))

    def add(self, vectors: np.ndarray) -> None:
        """Put new rows (appended after the existing ones) into their nearest cells; the
        centroids and the spread stay, a cell's radius widens to hold them."""
        if len(vectors) == 0:
            return
        vectors = np.asarray(vectors, dtype=np.float32)
        cells, sims = _assign(vectors, self.centroids)
        sums = self.sums.astype(np.float64)
        _cell_sums(len(self.centroids), cells, vectors, sums)
        self.sums = sums.astype(np.float32)
        self.assignment = np.concatenate([self.assignment, cells])
        self.member_sims = np.concatenate([self.member_sims, sims])
        self._index()

    def cell_members(self, cell: int) -> np.ndarray:
        return self.members[self.offsets[cell] : self.offsets[cell + 1]]

    def nearest_members(self, v: np.ndarray, cells: int) -> np.ndarray:
        """The members of the CELLS cells whose centroids are nearest V."""
        sims = self.centroids @ np.asarray(v, dtype=np.float32)
        n = min(cells, len(sims))
        near = np.argpartition(-sims, n - 1)[:n] if n < len(sims) else np.arange(len(sims))
        return np.concatenate([self.cell_members(int(c)) for c in near])

    def reachable(self, v: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
        """The cells that may hold a member at cosine distance LOW-HIGH from unit V (every
        other cell provably holds none), and each one's estimated share of band members."""
        a = np.clip(self.centroids @ v, -1.0, 1.0)
        theta = np.arccos(a)
        # members' similarity to v lies in [cos(theta + r), cos(max(theta - r, 0))]
        top = np.cos(np.maximum(theta - self.radius, 0.0))
        bottom = np.cos(np.minimum(theta + self.radius, np.pi))
        s_low, s_high = 1.0 - high, 1.0 - low
        cand = np.flatnonzero((self.sizes > 0) & (top >= s_low) & (bottom <= s_high))
        # the members' similarities as a normal: their mean's product with v, and a spread
        # from what of them their mean leaves (the fitted share of 1 - |mean|^2)
        mu = (self.means[cand] @ v).astype(np.float64)
        sigma = np.sqrt(np.maximum(1.0 - self.mean_norm2[cand], 1e-4) * self.spread)
        sigma = np.maximum(sigma, 0.01)
        # imported where first used: scipy.special costs ~0.4 s of CPU to import, and only a
        # knowledge base that draws its band from cells (not the shipped corpus) comes here
        from scipy.special import ndtr

        share = ndtr((s_high - mu) / sigma) - ndtr((s_low - mu) / sigma)
        return cand, share

    def sample_band(
        self,
        dots: Dots,
        v: np.ndarray,
        low: float,
        high: float,
        k: int,
        rng: np.random.Generator,
        budget: int = BUDGET,
    ) -> BandDraw:
        """Up to K members at cosine distance LOW-HIGH from V, drawn without replacement
        (seeded by RNG) from the reachable cells read within BUDGET members."""
        v = np.asarray(v, dtype=np.float32)
        norm = float(np.sqrt(v @ v))
        if norm == 0.0 or k <= 0:
            return BandDraw(np.zeros(0, np.int64), np.zeros(0, np.float32), 0, 0)
        v = v / norm
        cand, share = self.reachable(v, low, high)
        if len(cand) == 0:
            return BandDraw(np.zeros(0, np.int64), np.zeros(0, np.float32), 0, 0)
        weight = self.sizes[cand] * share  # the expected band members of each cell
        # a weighted order without replacement (Efraimidis-Spirakis keys)
        keys = np.log(np.maximum(rng.random(len(cand)), 1e-300)) / np.maximum(weight, 1e-12)
        order = cand[np.argsort(-keys, kind="stable")]
        # from each cell in that order, up to PER_CELL of its members drawn at random
        idx_parts, left = [], budget
        for c in order:
            members = self.cell_members(int(c))
            take = min(len(members), PER_CELL, left)
            if take < len(members):
                members = members[np.sort(rng.choice(len(members), size=take, replace=False))]
            idx_parts.append(members)
            left -= len(members)
            if left <= 0:
                break
        idx = np.concatenate(idx_parts)
        dist = 1.0 - dots(idx, v)
        keep = (dist >= low) & (dist <= high)
        idx, dist = idx[keep], dist[keep].astype(np.float32)
        if len(idx) > k:
            pick = np.sort(rng.choice(len(idx), size=k, replace=False))
            idx, dist = idx[pick], dist[pick]
        return BandDraw(idx, dist, int(sum(len(p) for p in idx_parts)), len(idx_parts))
