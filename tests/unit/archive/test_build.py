"""The archive is a pure function of the stored rows: fingerprint, Markdown, PNG, embedding."""

from __future__ import annotations

import io
import json

import numpy as np
from PIL import Image

from wander.core.archive.build import PROJECTION_SUBJECT, build, document, fingerprint, session_embedding


def _vec(seed: int) -> list[float]:
    v = np.random.default_rng(seed).normal(size=8)
    return [float(x) for x in v / np.linalg.norm(v)]


def rows() -> dict:
    sid = "s1"
    return {
        "project": {"id": "p", "name": "default"},
        "session": _session(sid),
        **_walk(sid),
        **_findings(),
        "warm_memory": [],
        "compost": [],
        "events": [{"seq": i, "subject": "wander.step.completed", "payload": {}} for i in range(1, 21)],
        "projection": [],
    }


def _session(sid: str) -> dict:
    return {
        "id": sid,
        "name": "asymmetry walk",
        "seed_concept": "information asymmetry",
        "attractor": "opportunity",
        "status": "completed",
        "stopped_reason": None,
        "step_count": 5,
        "max_steps": 5,
        "temperature": 0.7,
        "random_seed": 1,
        "event_seq": 20,
    }


def _walk(sid: str) -> dict:
    """Six loci, the five steps between them and their residues."""
    concepts = ["information asymmetry", "trust", "market", "signal", "lemon", "insurance"]
    loci = [
        {
            "id": f"L{i}",
            "session_id": sid,
            "concept": c,
            "embedding": _vec(i),
            "domains": [["economics", "cognition"][i % 2]],
            "visit_count": 1,
            "source_type": "SEED" if i == 0 else "ADJACENT",
        }
        for i, c in enumerate(concepts)
    ]
    traces = [
        {"id": f"T{i}", "session_id": sid, "step_number": i, "from_locus_id": f"L{i - 1}", "to_locus_id": f"L{i}"}
        for i in range(1, 6)
    ]
    residues = [
        {
            "id": f"R{i}",
            "session_id": sid,
            "trace_id": f"T{i}",
            "to_locus_id": f"L{i}",
            "connection": f"both concern {concepts[i]}",
            "tension": "t",
            "bridge": "b",
            "surprise": "s",
            "possibility": "p",
            "themes": ["trust"],
            "interestingness": i / 10,
        }
        for i in range(1, 6)
    ]
    return {"loci": loci, "traces": traces, "residues": residues}


def _findings() -> dict:
    """A confirmed resonance and an accepted crystal."""
    return {
        "resonances": [
            {
                "id": "RS1",
                "themes": ["trust", "signal"],
                "status": "confirmed",
                "occurrences": 4,
                "strength": 3.2,
                "supporting_residue_ids": ["R2", "R3"],
            }
        ],
        "crystals": [
            {
                "id": "C1",
                "insight": "signals bridge the gap",
                "embedding": _vec(99),
                "confidence": 0.8,
                "actionability": 0.5,
                "domains": ["economics"],
                "structural_type": "bridge",
                "bread_a_locus_id": "L1",
                "bread_b_locus_id": "L4",
                "validity": {"V": 0.74, "verdict": "accepted", "filling": "screening"},
            }
        ],
    }


POINTS = {f"L{i}": [np.cos(i) * 0.9, np.sin(i) * 0.9] for i in range(6)}


def test_fingerprint_ignores_the_projection_but_not_the_walk():
    r = rows()
    fp = fingerprint(r)
    r2 = rows()
    r2["projection"] = [{"fit_id": "umap-x", "points": POINTS}]
    r2["events"].append({"seq": 21, "subject": PROJECTION_SUBJECT, "payload": {}})
    r2["session"]["event_seq"] = 21
    assert fingerprint(r2) == fp
    r3 = rows()
    r3["session"]["step_count"] = 6
    assert fingerprint(r3) != fp
    r4 = rows()
    r4["residues"][0]["connection"] = "changed"
    assert fingerprint(r4) != fp


def test_build_is_deterministic_and_renders_every_artefact():
    a, b = build(rows(), POINTS, "pca-1"), build(rows(), POINTS, "pca-1")
    assert a.png == b.png and a.markdown == b.markdown and a.fingerprint == b.fingerprint
    assert (a.step_count, a.loci_count, a.crystal_count, a.fit_id) == (5, 6, 1, "pca-1")
    img = Image.open(io.BytesIO(a.png))
    assert img.format == "PNG" and img.size == (1024, 1024)  # 000: the archive image for review and vision models
    assert len(img.convert("RGB").getcolors(maxcolors=1 << 20)) > 5  # something was drawn
    md = a.markdown
    assert md.startswith("# asymmetry walk")
    assert "information asymmetry -> trust -> market -> signal -> lemon -> insurance" in md
    assert "### Step 5: lemon -> insurance (interestingness 0.50)" in md  # the best residue comes first
    assert md.index("Step 5:") < md.index("Step 4:")
    assert "trust, signal (occurrences 4, strength 3.20)" in md
    assert "- bread: trust" in md and "- filling: screening: signals bridge the gap" in md and "- bread: lemon" in md


def test_session_embedding_is_a_unit_vector_near_what_the_wander_visited():
    r = rows()
    e = session_embedding(r)
    assert abs(np.linalg.norm(e) - 1) < 1e-5
    visited = np.asarray([lo["embedding"] for lo in r["loci"]])
    assert float(np.mean(visited @ e)) > float(np.mean(np.asarray([_vec(500 + i) for i in range(6)]) @ e))


def test_document_carries_format_and_final_flag():
    doc = document(rows(), final=True)
    assert doc["format"] == "wander-archive" and doc["version"] == 1 and doc["final"] is True
    assert doc["session"]["id"] == "s1" and len(doc["traces"]) == 5


def test_the_json_export_writes_vectors_to_float32_precision_losslessly():
    r = rows()
    v = np.random.default_rng(3).standard_normal(384).astype(np.float32)
    r["loci"][0]["embedding"] = [float(x) for x in v]  # as stored: float32, read back as doubles
    doc = document(r, final=True)
    exported = doc["loci"][0]["embedding"]
    assert np.array_equal(np.asarray(exported, dtype=np.float32), v)  # bit for bit
    assert len(json.dumps(exported)) < 0.7 * len(json.dumps(r["loci"][0]["embedding"]))
    assert doc["fingerprint"] == fingerprint(r) and doc["loci"][0]["concept"] == r["loci"][0]["concept"]
