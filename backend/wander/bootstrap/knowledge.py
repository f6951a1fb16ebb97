"""The knowledge index a process walks, chosen by the knowledge base's size: the exact
in-memory index (whole rows, kb/index.py) below SCALE_FROM concepts, the approximate one
(int8 rows, coarse cells, ANN graph: kb/approximate_index.py) from there. The approximate
index's vectors take minutes to build at a million concepts, so they are kept in the cache
folder; concepts added after those they were built over (imported notes, foraged pages: new
rows come after the old ones) join them in place (ScaledVectors.add, as ApproximateIndex.grown
does in a live process) instead of a rebuild."""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wander.adapters.kb import reach_cache
from wander.adapters.kb.approximate_index import ApproximateIndex
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.scaled_vectors import ScaledVectors, quantize
from wander.adapters.postgres.kb_repository import KbRow
from wander.core.engine.ports import KnowledgeConcept
from wander.core.sandwich.model import Content, content_hash

log = logging.getLogger(__name__)
SCALE_FROM = 200_000  # concepts from which a step no longer scores whole rows
FOLDER = "scaled-kb"
CHECKED = 64  # rows whose int8 codes are compared with the cached ones (same vectors?)
FORAGED = "forage:"  # the key and source prefix of a foraged page's concept


def knowledge_index(
    concepts: Sequence[KnowledgeConcept],
    matrix: np.ndarray,
    cache_dir: Path | None = None,
    scale_from: int = SCALE_FROM,
) -> KnowledgeIndex:
    """The index over CONCEPTS (their unit vectors MATRIX), exact or approximate by size."""
    if len(concepts) < scale_from:
        index = KnowledgeIndex(concepts, matrix)
        reach_cache.restore(index, cache_dir)  # or the shipped corpus's, when that is the content
        return index
    folder = (cache_dir or Path(tempfile.gettempdir()) / "wander-cache") / FOLDER
    return ApproximateIndex(concepts, scaled=scaled_vectors(concepts, matrix, folder))


def _digest(keys: Sequence[str]) -> str:
    return hashlib.sha1("\n".join(keys).encode()).hexdigest()


def scaled_vectors(concepts: Sequence[KnowledgeConcept], matrix: np.ndarray, folder: Path) -> ScaledVectors:
    """The scaled vectors kept in FOLDER when they were built over the first of these concepts
    (the same keys, the same vectors), grown by the rest; else built anew and kept."""
    keys = [c.key for c in concepts]
    meta_path = folder / "concepts.json"
    try:
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    except (OSError, ValueError):
        meta = {}
    rows = int(meta.get("rows", -1))
    if 0 < rows <= len(keys) and meta.get("keys") == _digest(keys[:rows]):
        try:
            scaled = ScaledVectors.load(folder)
        except (OSError, ValueError) as exc:
            log.warning("the kept knowledge vectors in %s are unreadable (%s): building them again", folder, exc)
        else:
            if len(scaled) == rows and _same_vectors(scaled, matrix[:rows]):
                if rows < len(keys):
                    scaled.add(matrix[rows:])
                    _keep(scaled, folder, keys)
                return scaled
    scaled = ScaledVectors.build(matrix)
    _keep(scaled, folder, keys)
    return scaled


def _same_vectors(scaled: ScaledVectors, matrix: np.ndarray) -> bool:
    sample = np.unique(np.linspace(0, len(matrix) - 1, num=min(CHECKED, len(matrix))).astype(np.int64))
    codes, _ = quantize(matrix[sample])
    return bool(scaled.step is not None and np.array_equal(codes, scaled.matrix[sample]))


def _keep(scaled: ScaledVectors, folder: Path, keys: Sequence[str]) -> None:
    (folder / "concepts.json").unlink(missing_ok=True)  # a half-written folder is never taken for whole
    scaled.save(folder)
    (folder / "concepts.json").write_text(json.dumps({"rows": len(keys), "keys": _digest(keys)}))


def grown(index: KnowledgeIndex, concepts: Sequence[KnowledgeConcept], vectors: np.ndarray) -> KnowledgeIndex:
    """The index with CONCEPTS added (imported notes, foraged pages) for the wanders created
    from now on: an approximate index grows in place; the exact one is made again."""
    if isinstance(index, ApproximateIndex):
        return index.grown(concepts, vectors)
    everything = [index.concept(i) for i in range(len(index))] + list(concepts)
    return KnowledgeIndex(everything, np.concatenate([index.vectors(np.arange(len(index))), vectors]))


def foraged_concept(content: Content) -> tuple[KnowledgeConcept, KbRow]:
    """The concept a foraged page (a file, a URL, an online source's article) becomes: its
    title, the start of its text as its gloss, its domain; one source per page."""
    key = FORAGED + content_hash(content.text)[:24]
    label = " ".join(content.title.split())[:120] or content.ref[:120]
    gloss = " ".join(content.text.split())[:300]
    domains = (content.domain,) if content.domain else ()
    source = FORAGED + content.ref
    row = KbRow(key, label, content.text[:4000], gloss, domains, (), (), (), source)
    return KnowledgeConcept(key, label, gloss, domains, source=source), row


async def learn_foraged(app: Any, content: Content, vector: np.ndarray) -> None:
    """Add a foraged page to the knowledge base (APP's kb repository: the next load has it)
    and, when the live index is approximate, to the index new wanders walk now (grown in
    place; the exact index is made again at the next start, its domain reach with it)."""
    concept, row = foraged_concept(content)
    v = np.asarray(vector, dtype=np.float32).reshape(1, -1)
    await app.kb.replace_source(row.source, content_hash(content.text), app.embedder.name, [row], v)
    index = app.engine.knowledge
    if isinstance(index, ApproximateIndex) and len(index.scaled) == len(index) and index.index_of(concept.key) is None:
        bigger = grown(index, [concept], v)
        app.engine.knowledge = bigger
        app.knowledge = bigger
