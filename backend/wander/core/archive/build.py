"""A wander's stored rows -> its archive artefacts. Pure: no I/O, same rows, same bytes.

`rows` is what ArchiveRepository.dump returns: {"project": {...}, "session": {...},
"loci": [...], "traces": [...], "residues": [...], "resonances": [...], "crystals": [...],
"warm_memory": [...], "compost": [...], "events": [...], "projection": [...]}."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from wander.core.archive.markdown import render_markdown
from wander.core.archive.plot import render_png
from wander.core.domain.models import SessionStatus

FORMAT = "wander-archive"
VERSION = 1
PROJECTION_SUBJECT = "wander.projection.updated"
# The statuses an archive can have: a wander that no longer moves.
ARCHIVED_STATUSES = (SessionStatus.COMPLETED, SessionStatus.ABANDONED, SessionStatus.PAUSED)


@dataclass
class Artefacts:
    fingerprint: str
    status: str
    step_count: int
    loci_count: int
    crystal_count: int
    markdown: str
    png: bytes
    embedding: np.ndarray
    fit_id: str | None


def fingerprint(rows: dict[str, Any]) -> str:
    """What the wander itself holds: everything but its projection (a view of it, refitted
    at will) and the projection's events; so an unchanged wander archives once."""
    session = {k: v for k, v in rows["session"].items() if k != "event_seq"}
    core = {k: v for k, v in rows.items() if k not in ("projection", "events", "session", "project")}
    events = [(e["seq"], e["subject"]) for e in rows.get("events", []) if e["subject"] != PROJECTION_SUBJECT]
    blob = json.dumps({"v": VERSION, "session": session, "core": core, "events": events}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def document(rows: dict[str, Any], final: bool) -> dict[str, Any]:
    """The full JSON export (what `wander import` reads back)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "final": final,
        "fingerprint": fingerprint(rows),
        **compact_vectors(rows),
    }


def compact_vectors(x: Any) -> Any:
    """The rows with every vector (a list of 16 floats or more: embeddings, stored as
    float32) written to 9 significant digits: all a float32 holds, so the vectors read
    back bit for bit, in about half the characters of a double's 17."""
    if isinstance(x, dict):
        return {k: compact_vectors(v) for k, v in x.items()}
    if isinstance(x, list):
        if len(x) >= 16 and all(type(e) is float for e in x):
            return [float(f"{e:.9g}") for e in x]
        return [compact_vectors(e) for e in x]
    return x


def session_embedding(rows: dict[str, Any]) -> np.ndarray:
    """What the wander was about: the mean direction of its visited loci and its crystals
    (crystals count twice), unit length."""
    vecs = [np.asarray(lo["embedding"], dtype=np.float32) for lo in rows["loci"] if lo.get("visit_count", 0) > 0]
    vecs += [np.asarray(c["embedding"], dtype=np.float32) for c in rows["crystals"] for _ in range(2)]
    if not vecs:
        vecs = [np.asarray(lo["embedding"], dtype=np.float32) for lo in rows["loci"]]
    m = np.mean([v / (np.linalg.norm(v) or 1.0) for v in vecs], axis=0)
    return (m / (np.linalg.norm(m) or 1.0)).astype(np.float32)


def build(rows: dict[str, Any], points: dict[str, list[float]], fit_id: str | None) -> Artefacts:
    """`points`: 2-D position per locus id (the stored projection, new loci transformed)."""
    session = rows["session"]
    return Artefacts(
        fingerprint=fingerprint(rows),
        status=session["status"],
        step_count=int(session["step_count"]),
        loci_count=len(rows["loci"]),
        crystal_count=len(rows["crystals"]),
        markdown=render_markdown(rows),
        png=render_png(rows, points),
        embedding=session_embedding(rows),
        fit_id=fit_id,
    )
