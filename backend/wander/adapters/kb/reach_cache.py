"""The corpus's per-domain neighbourhoods (KnowledgeIndex.domain_reach: a product of the
whole corpus with itself, seconds on a laptop) kept on disk between processes, so a CLI
command, a server or a worker does not compute them again at every start; those of the
shipped corpus ship beside it. Keyed by the corpus's content; a missing, stale or unreadable
file only means computing them again."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import numpy as np

from wander.adapters.kb.index import KnowledgeIndex

log = logging.getLogger(__name__)
VERSION = 1  # of the table's meaning: bump when KnowledgeIndex computes reach differently
# The table of the shipped corpus with its shipped vectors, written beside them by
# scripts/build_vectors.py: a new machine's first step need not compute it.
SHIPPED = Path(__file__).resolve().parent / "data"


def path_for(folder: Path, index: KnowledgeIndex) -> Path:
    return folder / f"domain-reach-v{VERSION}-{index.content_key()}.npz"


def restore(index: KnowledgeIndex, folder: Path | None) -> bool:
    """Give INDEX the neighbourhoods an earlier process kept in FOLDER for the same content,
    else the shipped ones when the content is the shipped corpus's."""
    return any(_restore(index, f) for f in (folder, SHIPPED) if f is not None)


def _restore(index: KnowledgeIndex, folder: Path) -> bool:
    path = path_for(folder, index)
    if not path.is_file():
        return False
    try:
        with np.load(path) as saved:
            index.adopt_domain_reach(saved["reach"], saved["domains"])
    except (OSError, ValueError, KeyError) as exc:
        log.info("domain reach cache %s unusable (%s): computing it again", path, exc)
        return False
    return True


def keep(index: KnowledgeIndex, folder: Path) -> None:
    """Write INDEX's neighbourhoods, if it computed them and none are kept yet."""
    table = index.domain_reach_table()
    if table is None:
        return
    path = path_for(folder, index)
    if path.is_file():
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".npz.tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, reach=table[0], domains=table[1])
        os.replace(tmp, path)  # atomic: a concurrent reader sees the whole file or none
    except OSError as exc:
        log.info("domain reach not kept in %s: %s", folder, exc)
