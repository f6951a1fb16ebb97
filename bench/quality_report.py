"""The quality bench's report: per wander, the figures over every wander, the targets held,
and the JSON records. Used by bench_quality.py."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import numpy as np
from quality_baselines import WalkStats
from quality_walk import STRATEGIES

from wander.core.engine.step import CRYSTALLIZE_EVERY

PARTS = ("bread_compat", "containment", "non_triviality", "novelty")


def stats3(xs: list[float]) -> str:
    if not xs:
        return "- / - / -"
    return f"{min(xs):.3f} / {statistics.median(xs):.3f} / {max(xs):.3f}"


def write_records(
    path: str, runs: list[WalkStats], pairs, bands: list[WalkStats], band_mean: dict[str, float], old_seeds: set[str]
) -> None:
    """One JSON record per wander, with its pair's band-random figures: for an A/B per wander."""
    band = {seed: b for (seed, _), b in zip(pairs, bands)}
    rows = []
    for r in runs:
        seed = r.label.split(" -> ")[0]
        rows.append(
            {
                "label": r.label,
                "old": seed in old_seeds,
                "divergence": round(r.divergence, 2),
                "band_mean": round(band_mean[seed], 2),
                "pull": round(r.pull, 4),
                "band_pull": round(band[seed].pull, 4),
                "late_pull": round(r.late_pull, 4),
                "half_pull": round(r.half_pull, 4),
                "verdicts": [c["verdict"] for c in r.judged],
                "V": [round(c["V"], 3) for c in r.judged],
                "reworked": sum("reworked_from" in c for c in r.crystals),
                "strategies": {k: round(v, 3) for k, v in r.strategies.items()},
                "whys": {k: round(v, 3) for k, v in r.whys.items()},
                "band_share": r.band_share,
                "confirmed": r.confirmed,
                "template_share": r.template_share,
                "clause_share": r.clause_share,
            }
        )
    Path(path).write_text(json.dumps(rows, indent=1))


def print_wander(w: WalkStats, b: WalkStats, band_mean: float, verbose: bool) -> None:
    """A wander's `#` lines, against its pair's band-random walk `b`."""
    nc = len(w.crystals)
    acc = sum(c["verdict"] == "accepted" for c in w.crystals)
    redo = sum("reworked_from" in c for c in w.crystals)
    print(
        f"# {w.label}: div {w.divergence:.1f} (band {b.divergence:.1f}, mean {band_mean:.1f}), in-band {w.band_share:.2f}, "
        f"pull {w.pull:+.3f} (band {b.pull:+.3f}), basin {w.basin:.2f} {w.basin_domain}, "
        f"confirmed {w.confirmed}, crystals {nc} ({acc} accepted, {redo} reworked), "
        f"judged {len(w.judged)} ({sum(c['verdict'] == 'accepted' for c in w.judged)} accepted), degenerate {w.degenerate}, "
        f"repeated {w.repeated_sentences}",
        flush=True,
    )
    shares = " ".join(f"{k[:4]} {v:.2f}" for k, v in w.strategies.items())
    print(
        f"#   late pull {w.late_pull:+.3f} (half {w.half_pull:+.3f}), bridge '{w.bridge or '-'}', "
        f"late distinct {w.late_distinct:.2f}, {shares}, puns {w.pun_hops}, first lenses {w.first_lenses}",
        flush=True,
    )
    if verbose:
        for c in w.crystals:
            print(
                f"#   V={c['V']:.2f} {c['verdict']} {c.get('trigger')} {[round(c[p], 2) for p in PARTS]} "
                f"{c['hard_failures']}: {c['insight']}"
            )


def print_figures(runs: list[WalkStats], base: dict[str, list[WalkStats]], degenerate: frozenset[str]) -> None:
    """The figures over every wander: the walks against the baselines, the crystals, the steps."""
    print("seed_term: the seed's corpus anchor (the concept it resolves to, else the nearest), for all walks")
    for kind, rows in [
        ("engine", runs),
        ("greedy", base["greedy"]),
        ("band_random", base["band"]),
        ("band_random_seed_scope", base["band_seed"]),
        ("band_random_unscoped", base["band_unscoped"]),
    ]:
        print(f"divergence_{kind}_min_median_max: {stats3([r.divergence for r in rows])} x100 cosine distance")
        print(f"band_share_{kind}_min_median_max: {stats3([r.band_share for r in rows])} share")
        print(f"attractor_pull_{kind}_min_median_max: {stats3([r.pull for r in rows])} cosine")
        print(f"basin_share_{kind}_min_median_max: {stats3([r.basin for r in rows])} share")
    print_crystal_figures(runs, degenerate)
    print_step_figures(runs)


def print_crystal_figures(runs: list[WalkStats], degenerate: frozenset[str]) -> None:
    conf = [r.confirmed for r in runs]
    print(f"confirmed_resonances_min_median: {min(conf)} / {statistics.median(conf)} per wander")
    ncr = [len(r.crystals) for r in runs]
    print(f"crystals_min_median_max: {min(ncr)} / {statistics.median(ncr)} / {max(ncr)} per wander")
    allc = [c for r in runs for c in r.crystals]
    triggers = Counter(c.get("trigger") for c in allc)
    print(f"crystal_triggers: {dict(triggers)} crystals")
    # the share of the sandwiches the gate judged (a reworked crystal's rejected first try and
    # the others it tasted beside each crystal among them)
    shares = [sum(c["verdict"] == "accepted" for c in r.judged) / len(r.judged) for r in runs if r.judged]
    judged = [c for r in runs for c in r.judged]
    print(f"judged_min_median_max: {stats3([len(r.judged) for r in runs])} sandwiches per wander")
    print(f"accepted_share_all: {sum(c['verdict'] == 'accepted' for c in judged) / max(1, len(judged)):.3f} share")
    print(f"crystals_reworked: {sum('reworked_from' in c for c in allc)} of {len(allc)} crystals")
    print(f"accepted_share_per_wander_min_median_max: {stats3(shares)} share")
    # which way the wanders outside 30-80% miss: a gate too lenient, or one too strict
    print(
        f"accepted_share_below_0_3_above_0_8: {sum(x < 0.3 for x in shares)} / {sum(x > 0.8 for x in shares)} wanders"
    )
    print(f"V_min_median_max: {stats3([c['V'] for c in allc])} V")
    for p in PARTS:
        xs = [c[p] for c in allc]
        print(f"V_{p}_min_median_max: {stats3(xs)} (sd {np.std(xs) if xs else 0:.3f})")
    print(
        f"degenerate_themes: {sum(r.degenerate for r in runs)} themes (labels that are ancestors of > 5% "
        f"of the corpus: {len(degenerate)})"
    )
    print(f"repeated_crystal_sentences: {sum(r.repeated_sentences for r in runs)} sentences")
    print(f"residue_facets_with_decimals: {sum(r.facet_numbers for r in runs)} facets (outside quoted corpus glosses)")
    print(f"residue_facets_quoting_decimals: {sum(r.quoted_numbers for r in runs)} facets (a quoted gloss's figure)")


def print_step_figures(runs: list[WalkStats]) -> None:
    ms = [t for r in runs for t in r.step_ms]
    print(f"step_overhead_p50_inmemory: {statistics.median(ms):.1f} ms")
    print(f"step_overhead_p95_inmemory: {np.percentile(ms, 95):.1f} ms")
    print(f"late_pull_min_median_max: {stats3([r.late_pull for r in runs])} cosine (last third, labels)")
    print(f"half_pull_min_median_max: {stats3([r.half_pull for r in runs])} cosine (second half, labels)")
    print(f"late_distinct_min_median_max: {stats3([r.late_distinct for r in runs])} share")
    for k in STRATEGIES:
        print(f"strategy_share_{k}_min_median_max: {stats3([r.strategies.get(k, 0.0) for r in runs])} share")
    whys = sorted({w for r in runs for w in r.whys})
    print("why_shares_mean: " + ", ".join(f"{w} {np.mean([r.whys.get(w, 0.0) for r in runs]):.2f}" for w in whys))
    print(f"pun_hops: {sum(r.pun_hops for r in runs)} of {sum(r.steps for r in runs)} steps")
    print(f"tension_from_corpus_min_median_max: {stats3([r.tension_corpus for r in runs])} share of tension steps")
    print(f"first_lenses_min_median_max: {stats3([float(r.first_lenses) for r in runs])} per wander")
    print(f"trivial_rejections: {sum(r.trivial_rejections for r in runs)} crystals")
    measured = [r.template_share for r in runs if r.template_share is not None]
    print(f"template_share_min_median_max: {stats3(measured) if measured else 'not measured'} share")
    shares = [r.clause_share for r in runs if r.clause_share is not None]
    if shares:
        print(f"facet_clause_share_max_min_median_max: {stats3(shares)} share (the most said clause of a facet kind)")
    rows = [r.openings_in_a_row for r in runs if r.openings_in_a_row is not None]
    if rows:
        print(
            f"facet_openings_alike_in_ten_max: {max(rows)} of 10 (per wander: min {min(rows)}, median {np.median(rows):g})"
        )
        rows = [r.insight_openings_in_a_row for r in runs if r.insight_openings_in_a_row is not None]
        print(f"insight_openings_alike_in_ten_max: {max(rows)} of 10 (one wander's insights in order)")


def print_targets(
    runs: list[WalkStats],
    base: dict[str, list[WalkStats]],
    pairs,
    band_mean: dict[str, float],
    steps: int,
    old_seeds: set[str],
) -> None:
    """Targets, for every pair and random seed (issue 12, point 2; issue 30, point 8)."""
    bands = {seed: base["band"][i] for i, (seed, _) in enumerate(pairs)}
    unscoped = {seed: base["band_unscoped"][i] for i, (seed, _) in enumerate(pairs)}
    seed_scoped = {seed: base["band_seed"][i] for i, (seed, _) in enumerate(pairs)}
    scale = steps / 300

    def pair_of(r: WalkStats) -> str:
        return r.label.split(" -> ")[0]

    def held(name: str, test, kind: str = "target") -> None:
        ok = [bool(test(r)) for r in runs]
        line = f"{kind}_{name}: {sum(ok)}/{len(ok)} wanders"
        for set_name, inside in (("old", True), ("new", False)):
            sub = [o for o, r in zip(ok, runs) if (pair_of(r) in old_seeds) == inside]
            if sub and len(sub) < len(ok):
                line += f" ({set_name} {sum(sub)}/{len(sub)})"
        print(line)

    held("confirmed_ge_3", lambda r: r.confirmed >= 3 * scale)
    # at most one crystal in each stretch of CRYSTALLIZE_EVERY steps: 12 in 300, 4 in 100
    most = -(-steps // CRYSTALLIZE_EVERY)
    held("crystals_2_to_12", lambda r: 2 * scale <= len(r.crystals) <= most)
    held(
        "accepted_share_30_80",
        lambda r: bool(r.judged) and 0.3 <= sum(c["verdict"] == "accepted" for c in r.judged) / len(r.judged) <= 0.8,
    )
    held("degenerate_0", lambda r: r.degenerate == 0)
    held("pull_gt_0_and_band", lambda r: r.pull > 0 and r.pull > bands[pair_of(r)].pull)
    held("basin_le_0_5", lambda r: r.basin <= 0.5)
    held("divergence_ge_band_mean", lambda r: r.divergence >= band_mean[pair_of(r)])
    held("divergence_ge_band", lambda r: r.divergence >= bands[pair_of(r)].divergence, "reference")
    # For reference, not targets: a band-random walk free of the wander's drift scope roams
    # the whole corpus, so it out-diverges any walk that stays within reach of its seed.
    held("divergence_ge_band_unscoped", lambda r: r.divergence >= unscoped[pair_of(r)].divergence, "reference")
    held("pull_gt_band_unscoped", lambda r: r.pull > unscoped[pair_of(r)].pull, "reference")
    # issue 12's baseline walked the scope from the seed alone, as the engine did then
    held("divergence_ge_band_seed_scope", lambda r: r.divergence >= seed_scoped[pair_of(r)].divergence, "reference")
    held("band_share_ge_0_9", lambda r: r.band_share >= 0.9)
    held("no_repeated_sentence", lambda r: r.repeated_sentences == 0)
    # issue 30: the attractor felt and seen, every strategy at work, senses kept apart
    held("late_pull_gt_0", lambda r: r.late_pull > 0)
    held("bridge_found", lambda r: bool(r.bridge))
    held("no_collapse_late_distinct_ge_0_6", lambda r: r.late_distinct >= 0.6)
    held("strategies_each_ge_0_1", lambda r: min(r.strategies.get(k, 0.0) for k in STRATEGIES) >= 0.1)
    held("strategies_none_gt_0_6", lambda r: max(r.strategies.get(k, 0.0) for k in STRATEGIES) <= 0.6)
    held("pun_hops_le_2pct", lambda r: r.pun_hops <= 0.02 * max(1, r.steps))
    if any(r.template_share is not None for r in runs):
        held("template_share_le_0_25", lambda r: r.template_share is not None and r.template_share <= 0.25)
    if any(r.openings_in_a_row is not None for r in runs):  # a person reading ten in a row hears no refrain
        held(
            "openings_alike_le_3_in_10",
            lambda r: (r.openings_in_a_row or 0) <= 3 and (r.insight_openings_in_a_row or 0) <= 3,
        )
    if any(r.clause_share is not None for r in runs):  # ... nor one clause after every opening
        held("clause_share_le_1_3", lambda r: (r.clause_share or 0.0) <= 1 / 3)
    held("first_lenses_ge_3_of_10_crystals", lambda r: len(r.crystals) < 10 or r.first_lenses >= 3, "reference")
    allc = [c for r in runs for c in r.crystals]
    parts_spread = all(np.std([c[p] for c in allc]) > 0.01 for p in PARTS) if allc else False
    print(f"target_V_parts_spread: {parts_spread}")
