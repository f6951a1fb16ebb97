"""Quality benchmark: are offline wanders worth reading? (issue 12)

Runs the real engine (all four adjacency strategies, the offline dweller and ruminator, the
resonance and crystallizer code) over the shipped corpus against an in-memory Store, for
several seed/attractor pairs from varied fields x random seeds, and compares the walks with
a greedy nearest-neighbour walk and a uniform random walk in the 0.3-0.7 band over the same
corpus. Prints `name: value unit` lines, then one line per target saying whether it holds
for every pair and random seed.

Like with like: the walks' loci carry corpus embeddings ("label: gloss"), while the seed a
person types is a short text, and a short text scores higher against a short attractor than
any corpus concept does. So wherever a figure needs the seed (its cosine to the attractor,
which attractor pull subtracts, and the first point of the path whose divergence is
measured) it takes the seed's corpus anchor: the corpus concept the seed resolves to (its
label), or else the corpus concept nearest the seed's embedding. The same anchor serves the
engine and both baselines.

Issue 30 adds the walk's own figures, for every wander: late pull (the labels of the loci of
the last third, embedded as a person reads them, against the attractor's text, minus the
seed text's own similarity to the attractor text; also over the second half), whether a
locus sits in both the seed's and the attractor's neighbourhoods (a bridge), whether the
walk collapsed onto the attractor (few distinct loci late), the share of chosen steps of
each strategy and why, and pun hops (steps to another sense of the same word). Sixteen
more pairs (NEW_PAIRS, which no test uses) join the twelve of issue 12, and the targets
are printed per set, so the old pairs' figures can be compared with earlier runs.

    python bench/bench_quality.py            # 28 pairs x 3 random seeds x 300 steps
    python bench/bench_quality.py --steps 100    # the same targets for short wanders
    python bench/bench_quality.py --quick    # 4 pairs x 1 random seed x 120 steps
    python bench/bench_quality.py --set new --pairs 4 --steps 100   # a small sweep
    python bench/bench_quality.py --shared   # every wander in one project that holds the earlier ones
    python bench/bench_quality.py --first-seed 4   # held out: random seeds 4-6
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_cache import load_index
from quality_baselines import WalkStats, pair_baselines
from quality_report import print_figures, print_targets, print_wander, write_records
from quality_walk import engine_walk

from wander.bootstrap.wiring import offline_engine
from wander.core.domain.themes import degenerate_labels

PAIRS = [  # (seed, attractor): varied fields
    ("coral reef", "urban planning"),
    ("jazz improvisation", "software architecture"),
    ("volcano", "economic forecasting"),
    ("information asymmetry", "economic opportunity in financial intelligence"),
    ("beekeeping", "democratic governance"),
    ("photosynthesis", "energy storage"),
    ("chess", "medical diagnosis"),
    ("grief", "architecture"),
    ("sourdough bread", "microbiology"),
    ("glacier", "human memory"),
    ("origami", "protein folding"),
    ("lighthouse", "education"),
]
# Issue 30: pairs of varied fields that no test uses (the walk was tuned on none of them).
NEW_PAIRS = [
    ("knitting", "climate policy"),
    ("tide pools", "how software tests should work"),
    ("bicycle repair", "public health"),
    ("opera", "supply chain logistics"),
    ("ant colony", "city traffic"),
    ("wine tasting", "statistics"),
    ("mountain climbing", "risk management"),
    ("perfume", "memory and emotion"),
    ("carpentry", "poetry"),
    ("rainforest", "banking regulation"),
    ("surgery", "team sports"),
    ("clock making", "biology of sleep"),
    ("desert nomads", "internet privacy"),
    ("pottery", "mathematics education"),
    ("immune system", "national defense"),
    ("fermentation", "language learning"),
]


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="4 pairs x 1 random seed x 120 steps")
    ap.add_argument("--pairs", type=int, default=None)
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("--first-seed", type=int, default=1, help="random seeds first-seed.. (held-out checks: 4)")
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--set", choices=("all", "old", "new"), default="all", help="issue 12's pairs, issue 30's, or both")
    ap.add_argument(
        "--shared", action="store_true", help="every wander in one project that holds the earlier ones (as a person's)"
    )
    ap.add_argument("--only", default="", help="comma-separated seeds: only their pairs (a quick A/B on a few)")
    ap.add_argument(
        "--json", default="", help="write one record per wander here (its figures and its pair's baselines)"
    )
    return ap.parse_args()


async def run_wanders(a, full, pairs, n_seeds: int, steps: int, kb, embedder, degenerate):
    """Each pair's baselines, then its wanders (one per random seed), each reported as it
    ends; the wanders, the baselines by kind and each pair's mean band-random divergence."""
    rng = np.random.default_rng(7)
    runs: list[WalkStats] = []
    base: dict[str, list[WalkStats]] = {"greedy": [], "band": [], "band_seed": [], "band_unscoped": []}
    band_mean: dict[str, float] = {}  # per pair: the mean divergence of BAND_WALKS band-random walks
    shared = offline_engine(kb, embedder, project_id="bench") if a.shared else None
    drawn = 0  # pairs of `full` whose baselines are drawn
    for seed, attractor in pairs:
        # --only: the baselines of the pairs it skips are drawn all the same (one generator
        # serves every pair in turn), so each pair's are those a full run gives it
        while full[drawn] != (seed, attractor):
            pair_baselines(kb, embedder, *full[drawn], steps, rng)
            drawn += 1
        drawn += 1
        rows_of, band_mean[seed], excluded, anchor_v = pair_baselines(kb, embedder, seed, attractor, steps, rng)
        for kind, rows in base.items():
            rows.append(rows_of[kind])
        for rs in range(a.first_seed, a.first_seed + n_seeds):
            w = await engine_walk(kb, embedder, degenerate, seed, attractor, rs, steps, excluded, anchor_v, shared)
            runs.append(w)
            print_wander(w, base["band"][-1], band_mean[seed], a.verbose)
    return runs, base, band_mean


async def main() -> None:
    a = parse_args()
    full = {"old": PAIRS, "new": NEW_PAIRS, "all": PAIRS + NEW_PAIRS}[a.set]
    chosen_pairs = full
    if a.only:
        wanted = {x.strip() for x in a.only.split(",")}
        chosen_pairs = [p for p in chosen_pairs if p[0] in wanted]
    n_pairs, n_seeds, steps = (4, 1, 120) if a.quick else (len(chosen_pairs), 3, 300)
    n_pairs, n_seeds, steps = a.pairs or n_pairs, a.seeds or n_seeds, a.steps or steps
    pairs = chosen_pairs[:n_pairs]
    from wander.adapters.embed.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    kb = load_index(embedder)
    degenerate = degenerate_labels(kb.concept(i).path for i in range(len(kb)))
    t0 = time.perf_counter()
    runs, base, band_mean = await run_wanders(a, full, pairs, n_seeds, steps, kb, embedder, degenerate)
    print(f"bench_wall_time: {time.perf_counter() - t0:.0f} s")
    old_seeds = {seed for seed, _ in PAIRS}
    if a.json:
        write_records(a.json, runs, pairs, base["band"], band_mean, old_seeds)
    print(
        f"wanders: {len(runs)} ({n_pairs} pairs ({a.set}) x {n_seeds} random seeds {a.first_seed}-{a.first_seed + n_seeds - 1} x {steps} steps"
        f"{', one shared project' if a.shared else ''})"
    )
    print_figures(runs, base, degenerate)
    print_targets(runs, base, pairs, band_mean, steps, old_seeds)


if __name__ == "__main__":
    asyncio.run(main())
