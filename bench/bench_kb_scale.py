"""Knowledge-base scale benchmark: a wander step's whole candidate generation and selection,
and the whole take_step with the offline dweller (`whole_*`), over 14k, 100k and 1M
concepts, side by side. Prints `name: value unit` lines only.

The 14k corpus is the shipped one (its concepts and MiniLM vectors); 100k and 1M are
synthetic: the shipped concepts, then variants of them (kb/variants.py: each a copy of a
shipped concept, its vector the parent's plus Gaussian noise, cosine ~0.8-0.95 to it,
re-normalised). Each size's vectors (kb/scaled_vectors.py: int8 rows, coarse cells, usearch
graph, neighbour table) are built once and kept under the temp folder (wander-kb-scale);
later runs load them (at 1M on two loaded cores: ~10 minutes for the rows, cells and graph,
~17 more for the neighbour table: a batch of a million graph searches). Every size is loaded and measured in a fresh process, so its RSS is
its own.

A step is the engine's own stages 1-4 (selection.choose: the four strategies, the scope,
the ranking and the softmax draw) over the ApproximateIndex, then the arrival's walk
bookkeeping (the chosen concept becomes the current locus); 3 wanders of --steps/3 steps
each, from random concepts toward random attractors, so the attractor's field narrows in
their last fifth as a real wander's does. The dwelling, resonance and crystallization that
follow in take_step are the same at any size and not measured here. At 14k the shipped
path (KnowledgeIndex: whole rows, exact) is measured too (`exact_14k`). `load` is the index
made ready for a first step: the rows, cells, graph and neighbour table read, the concepts'
table made, the domain reach and the corpus's opposites read. `exact_scan` is one whole
pass over the rows (what the exact index makes several times a step), for comparison.
Recall: the ANN's 10 nearest against exact. Each time is given as wall time and as the
step's own CPU time (thread time): on a machine shared with other work (load_average, the
one-minute load at the end of the size's run) the wall time measures the queue for a core
as much as the step.

`whole_*` is the whole take_step through the engine with the offline dweller: see
kb_scale_whole.py.

Run: nice -n 10 .venv/bin/python bench/bench_kb_scale.py [--steps 300] [--whole-steps 60] [--sizes 14000,100000,1000000]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kb_scale_whole import rss_mb, whole_steps  # noqa: E402

from wander.adapters.kb import corpus  # noqa: E402
from wander.adapters.kb.approximate_index import ApproximateIndex  # noqa: E402
from wander.adapters.kb.concept_table import ListConcepts  # noqa: E402
from wander.adapters.kb.index import KnowledgeIndex  # noqa: E402
from wander.adapters.kb.scaled_vectors import ScaledVectors  # noqa: E402
from wander.adapters.kb.variants import VariantConcepts  # noqa: E402
from wander.core.domain.models import Locus, Session, SourceType  # noqa: E402
from wander.core.engine.adjacency.common import REACH  # noqa: E402
from wander.core.engine.model_spend import Spend  # noqa: E402
from wander.core.engine.ports import KnowledgeConcept, WalkState  # noqa: E402
from wander.core.engine.selection import choose  # noqa: E402
from wander.core.engine.walk import Walk  # noqa: E402

ROOT = Path(tempfile.gettempdir()) / "wander-kb-scale"
VERSION = 3  # of the synthetic corpora and the index layout: bump to rebuild
SIZES = (14_000, 100_000, 1_000_000)
NEIGHBOURS = 10


def name(n: int) -> str:
    return "14k" if n == 14_000 else f"{n // 1000}k" if n < 1_000_000 else f"{n // 1_000_000}m"


def base_vectors() -> np.ndarray:
    """The shipped corpus's vectors (bench/corpus_cache.py), kept here once."""
    path = ROOT / "base.npy"
    if not path.is_file():
        sys.path.insert(0, str(Path(__file__).parent))
        from corpus_cache import load_index

        kb = load_index()
        ROOT.mkdir(parents=True, exist_ok=True)
        np.save(path, kb.vectors(np.arange(len(kb))).astype(np.float32))
    return np.load(path)


def synthetic(base: np.ndarray, n: int, seed: int = 0, vectors: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """N unit vectors: the base's own first, then each a base vector (its parent) plus
    noise; and each variant's parent (only the parents when not VECTORS)."""
    rng = np.random.default_rng(seed)
    out = np.empty((max(n, len(base)) if vectors else 0, base.shape[1]), dtype=np.float32)
    out[: len(base)] = base[: len(out)]
    all_parents = []
    for s in range(len(base), n, 100_000):
        m = min(100_000, n - s)
        parents = rng.integers(0, len(base), m)
        scale = rng.uniform(0.35, 0.75, size=(m, 1)).astype(np.float32) / np.sqrt(base.shape[1])
        noise = rng.standard_normal((m, base.shape[1]), dtype=np.float32)
        all_parents.append(parents)
        if vectors:
            block = base[parents] + noise * scale
            out[s : s + m] = block / np.linalg.norm(block, axis=1, keepdims=True)
    parents = np.concatenate(all_parents).astype(np.int32) if all_parents else np.zeros(0, dtype=np.int32)
    return out[:n], parents


def folder_for(n: int) -> Path:
    key = hashlib.sha1(f"{VERSION}:{n}".encode()).hexdigest()[:10]
    return ROOT / f"{name(n)}-{key}"


def build(n: int) -> None:
    folder = folder_for(n)
    if (folder / "bench.json").is_file():
        if not (folder / "parents.npy").is_file():  # built before the variants' parents were kept
            np.save(folder / "parents.npy", synthetic(base_vectors(), n, vectors=False)[1])
        if not (folder / "neighbours.npy").is_file():  # ... or the neighbour table: made and kept once
            t = time.perf_counter()
            ScaledVectors.load(folder)
            meta = json.loads((folder / "bench.json").read_text())
            meta["neighbours_s"] = time.perf_counter() - t
            (folder / "bench.json").write_text(json.dumps(meta))
        return
    base = base_vectors()
    t = time.perf_counter()
    matrix, parents = synthetic(base, n)
    sv = ScaledVectors.build(matrix, threads=2)
    seconds = time.perf_counter() - t
    t = time.perf_counter()
    sv.neighbours_of(slice(0, 1))  # the neighbour table, made with the rest
    table_s = time.perf_counter() - t
    sv.save(folder)
    np.save(folder / "parents.npy", parents)
    (folder / "bench.json").write_text(json.dumps({"build_s": seconds, "rows": n, "neighbours_s": table_s}))


def base_concepts() -> list[KnowledgeConcept]:
    """The shipped corpus's concepts, in the order of its vectors (bench/corpus_cache.py)."""
    return [
        KnowledgeConcept(
            c.key, c.label, c.gloss, tuple(c.domains), tuple(c.path), tuple(c.opposites), "wordnet", tuple(c.broader)
        )
        for c in corpus.load_corpus()
    ]


def open_index(n: int) -> ApproximateIndex:
    """The size's index, ready for a first step (what `load` times)."""
    folder = folder_for(n)
    sv = ScaledVectors.load(folder)
    base = ListConcepts(base_concepts())
    parents = np.load(folder / "parents.npy")
    table = VariantConcepts(base, parents) if len(parents) else base
    kb = ApproximateIndex(table, scaled=sv)
    kb.domain_reach(REACH)
    kb.opposite_pairs()
    kb.relations(0)  # WordNet's relations file, read on first use
    return kb


def new_walk(kb, rng: np.random.Generator, number: int, steps: int) -> Walk:
    """A wander from a random concept toward another, as the engine would hold it."""
    seed_i, attr_i = (int(i) for i in rng.integers(len(kb), size=2))
    seed = kb.concept(seed_i)
    session = Session(
        id=f"s{number}",
        project_id="p",
        name="bench",
        seed_concept=seed.label,
        seed_embedding=kb.vector(seed_i),
        attractor=kb.concept(attr_i).label,
        attractor_embedding=kb.vector(attr_i),
        max_steps=steps,
        random_seed=number,
        current_locus_id=f"s{number}-0",
        human_checkpoint_frequency=0,
    )
    locus = Locus(
        id=f"s{number}-0",
        session_id=session.id,
        concept=seed.label,
        embedding=kb.vector(seed_i),
        source_type=SourceType.SEED,
        domains=list(seed.domains),
        kb_key=seed.key,
    )
    return Walk(WalkState(session=session, loci=[locus], recent_themes=[]), kb)


async def walk_steps(kb, steps: int, seed: int = 1) -> tuple[list[float], list[float], dict[str, int]]:
    """Wall and CPU ms of each step of 3 wanders, and how often each strategy was chosen."""
    rng = np.random.default_rng(seed)
    times, cpu, chosen = [], [], {}
    ctx = types.SimpleNamespace(proposer=None, embedder=None)  # no model: what choose reads of a context
    for number in range(3):
        walk = new_walk(kb, rng, number, steps // 3)
        for step in range(steps // 3):
            t, c = time.perf_counter(), time.thread_time()
            pick = (await choose(walk, ctx, step + 1, Spend())).chosen  # type: ignore[arg-type]
            here = walk.current
            locus = walk.by_id.get(pick.locus_id or "") or Locus(
                id=f"s{number}-{step + 1}",
                session_id=walk.session.id,
                concept=pick.concept,
                embedding=np.asarray(pick.embedding, dtype=np.float32),
                source_type=SourceType.ADJACENT,
                domains=list(pick.domains),
                kb_key=pick.kb_key,
            )
            walk.add_locus(locus)
            walk.relations.append((here, locus))
            walk.session = dataclasses.replace(walk.session, current_locus_id=locus.id, step_count=step + 1)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.thread_time() - c) * 1000)
            chosen[pick.strategy] = chosen.get(pick.strategy, 0) + 1
    return times, cpu, chosen


def measure(n: int, steps: int, whole: int, seed: int = 1) -> dict[str, float]:
    t = time.perf_counter()
    kb = open_index(n)
    load_s = time.perf_counter() - t
    times, cpu, chosen = asyncio.run(walk_steps(kb, steps, seed))
    rss_after_walk = rss_mb()
    meta = json.loads((folder_for(n) / "bench.json").read_text())
    sv = kb.scaled
    rng = np.random.default_rng(seed)
    # for comparison: a whole pass over the rows, and the ANN's recall
    exact_ms, exact_cpu, recall = [], [], []
    for q in rng.integers(0, len(sv), 20 if len(sv) <= 100_000 else 8):
        v = sv.rows(np.array([q]))[0]
        t, c = time.perf_counter(), time.thread_time()
        sims = sv.similarities(v)
        exact_ms.append(time.perf_counter() - t)
        exact_cpu.append(time.thread_time() - c)
        truth = set(np.argpartition(-sims, NEIGHBOURS)[:NEIGHBOURS].tolist())
        recall.append(len(truth & {i for i, _ in sv.nearest(v, NEIGHBOURS)}) / NEIGHBOURS)
    ms, cpu_ms = np.array(times), np.array(cpu)
    total = max(1, sum(chosen.values()))
    out = {
        "step_p50": float(np.percentile(ms, 50)),
        "step_p95": float(np.percentile(ms, 95)),
        "step_cpu_p50": float(np.percentile(cpu_ms, 50)),
        "step_cpu_p95": float(np.percentile(cpu_ms, 95)),
        "steps": float(len(ms)),
        "memory": rss_after_walk,
        "peak_memory": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load": load_s,
        "build": meta["build_s"],
        "neighbour_table": meta.get("neighbours_s", 0.0),  # beside the build's rows, cells and graph
        "exact_scan": float(np.median(exact_ms) * 1000),
        "exact_scan_cpu": float(np.median(exact_cpu) * 1000),
        "load_average": os.getloadavg()[0],
        "nn_recall_at_10": float(np.mean(recall)),
        "cells": float(len(sv.cells.centroids)),
    }
    out |= {f"share_{k}": chosen.get(k, 0) / total for k in STRATEGIES}
    if whole:
        out |= whole_steps(kb, whole)
        out["peak_memory"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def measure_exact(steps: int, whole: int, seed: int = 1) -> dict[str, float]:
    """The shipped path at 14k: KnowledgeIndex over the float32 rows, every row exact."""
    t = time.perf_counter()
    concepts = base_concepts()
    kb = KnowledgeIndex(concepts, base_vectors())
    kb.prepare_domain_reach()
    load_s = time.perf_counter() - t
    times, cpu, chosen = asyncio.run(walk_steps(kb, steps, seed))
    total = max(1, sum(chosen.values()))
    memory = rss_mb()
    extra = whole_steps(kb, whole) if whole else {}
    return (
        extra
        | {
            "step_p50": float(np.percentile(times, 50)),
            "step_p95": float(np.percentile(times, 95)),
            "step_cpu_p50": float(np.percentile(cpu, 50)),
            "step_cpu_p95": float(np.percentile(cpu, 95)),
            "steps": float(len(times)),
            "memory": memory,
            "peak_memory": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "load": load_s,
            "load_average": os.getloadavg()[0],
        }
        | {f"share_{k}": chosen.get(k, 0) / total for k in STRATEGIES}
    )


STRATEGIES = ("distance_band", "bridging", "analogy", "tension")
UNITS = {
    "step_p50": "ms",
    "step_p95": "ms",
    "step_cpu_p50": "ms",
    "step_cpu_p95": "ms",
    "steps": "",
    "memory": "MB",
    "peak_memory": "MB",
    "load": "s",
    "build": "s",
    "neighbour_table": "s",
    "exact_scan": "ms",
    "exact_scan_cpu": "ms",
    "load_average": "",
    "nn_recall_at_10": "",
    "cells": "",
    **{f"share_{k}": "" for k in STRATEGIES},
    "whole_step_p50": "ms",
    "whole_step_p95": "ms",
    "whole_step_max": "ms",
    "whole_step_cpu_p50": "ms",
    "whole_step_cpu_p95": "ms",
    "whole_steps": "",
    "whole_crystals": "",
    "whole_create": "s",
    "whole_create_next": "s",
    "whole_memory": "MB",
    "whole_load_average": "",
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--whole-steps", type=int, default=60, help="steps of each whole-step wander (0: none)")
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    ap.add_argument("--build", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--exact", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.build:
        build(a.build)
        return
    if a.measure:
        print(json.dumps(measure(a.measure, a.steps, a.whole_steps)))
        return
    if a.exact:
        print(json.dumps(measure_exact(a.steps, a.whole_steps)))
        return
    sizes = [int(s) for s in a.sizes.split(",")]
    results = {}
    for n in sizes:
        # each in its own process: a build's peak and one size's RSS do not count for another
        subprocess.run([sys.executable, __file__, "--build", str(n)], check=True)
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--measure",
                str(n),
                "--steps",
                str(a.steps),
                "--whole-steps",
                str(a.whole_steps),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        results[n] = json.loads(out.stdout.strip().splitlines()[-1])
    if 14_000 in sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--exact", "--steps", str(a.steps), "--whole-steps", str(a.whole_steps)],
            check=True,
            capture_output=True,
            text=True,
        )
        results[0] = json.loads(out.stdout.strip().splitlines()[-1])
    for metric, unit in UNITS.items():
        for n in [*sizes, 0] if 0 in results else sizes:
            if metric not in results[n]:
                continue
            value = results[n][metric]
            shown = (
                f"{value:.0f}"
                if unit in ("MB", "") and value >= 10
                else f"{value:.3g}"
                if unit == ""
                else f"{value:.1f}"
            )
            print(f"kb_scale_{metric}_{name(n) if n else 'exact_14k'}: {shown} {unit}".rstrip())


if __name__ == "__main__":
    main()
