"""The corpus's vectors, kept once per machine (WANDER_VECTOR_CACHE, the user cache folder
by default) and shared by every database, for when the vectors shipped with Wander do not
fit (another embedder, texts changed, a model that disagrees: kb.corpus_embedding): a new
WANDER_HOME, the test template and the browser tests' server then read them in a second
instead of embedding 14,000 concepts again (about a minute of CPU on two cores). Keyed by
the embedded texts' fingerprint and the embedder's name. Two processes that need them at once do not both embed: the second waits on a file
lock, then reads what the first wrote. A missing, stale or unreadable file only means
embedding again."""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from filelock import FileLock

log = logging.getLogger(__name__)


def _path(folder: Path, key: str) -> Path:
    return folder / f"corpus-{hashlib.sha1(key.encode()).hexdigest()[:16]}.npy"


def _read(path: Path, rows: int) -> np.ndarray | None:
    if not path.is_file():
        return None
    try:
        vectors = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        log.info("corpus vectors in %s unusable (%s): embedding again", path, exc)
        return None
    if vectors.ndim != 2 or vectors.shape[0] != rows or vectors.dtype != np.float32 or not np.isfinite(vectors).all():
        log.info("corpus vectors in %s do not fit (%s %s): embedding again", path, vectors.shape, vectors.dtype)
        return None
    return vectors


def _write(path: Path, vectors: np.ndarray) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npy.tmp")
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, vectors)
        os.replace(tmp, path)  # atomic: a reader sees the whole file or none
    except OSError as exc:
        log.info("corpus vectors not kept in %s: %s", path.parent, exc)


def corpus_vectors(folder: Path | None, key: str, rows: int, embed: Callable[[], np.ndarray]) -> np.ndarray:
    """The vectors of KEY's ROWS texts: read from FOLDER when an earlier process kept them,
    else EMBED()ed and kept there. FOLDER None: embedded every time."""
    if folder is None:
        return embed()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(folder / "corpus.lock"))
        lock.acquire()
    except OSError as exc:  # a read-only or missing cache folder: work without it, and say so
        log.warning("WANDER_VECTOR_CACHE: %s is unusable (%s); embedding without the cache", folder, exc)
        return embed()
    try:
        path = _path(folder, key)
        vectors = _read(path, rows)
        if vectors is None:
            vectors = np.ascontiguousarray(embed(), dtype=np.float32)
            _write(path, vectors)
        return vectors
    finally:
        lock.release()
