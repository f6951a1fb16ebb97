"""Candidate scores, the composite rank of 000 and softmax selection. Pure NumPy."""

from __future__ import annotations

import numpy as np

from wander.core.domain.geometry import band_centrality

WEIGHTS = {"interestingness": 0.3, "novelty": 0.3, "bridge_potential": 0.2, "uncertainty": 0.2}

# Domains whose concepts a person can act on directly; used for actionability.
CONCRETE_DOMAINS = frozenset(
    {"artifact", "act", "possession", "communication", "group", "process", "event", "food", "substance"}
)


def composite(interestingness, novelty, bridge_potential, uncertainty):
    """0.3 interestingness + 0.3 novelty + 0.2 bridge potential + 0.2 uncertainty (000)."""
    return (
        WEIGHTS["interestingness"] * np.asarray(interestingness)
        + WEIGHTS["novelty"] * np.asarray(novelty)
        + WEIGHTS["bridge_potential"] * np.asarray(bridge_potential)
        + WEIGHTS["uncertainty"] * np.asarray(uncertainty)
    )


def interestingness(distance, pull, crosses_domain, baseline=None, focus=1.0, here=None):
    """How interesting a step is: mid-band distance, pull towards the attractor, and
    leaving the current domain. `pull` is cosine similarity to the attractor (or seed).

    With a `baseline` (the seed's own similarity to the attractor) the pull counts against
    it: a concept 0.1 farther from the attractor than the seed scores 0, as near as the seed
    0.29, 0.25 nearer 1; gaining on the seed is what counts, whatever the pair's level.
    `focus` (0 to 1, with a baseline) is the share of its full weight the attractor has at
    this point of the wander (engine.walk.Walk.focus): nothing at the start, a vague sense of
    what is sought while the walk explores, what it homes in on late; what the attractor does
    not weigh goes to the band and to crossing domains.

    `here` (with a baseline) is the current locus's own similarity to the attractor. A walk
    that has drifted farther from the attractor than the seed is keeps a way back: the scale
    then starts 0.1 below where it is, not 0.1 below the seed, so a step that gains on it
    counts. Scaled from the seed alone, a seed that starts near the attractor (origami ->
    protein folding, 0.25) saw every candidate of a drifted walk at 0: the attractor weighed
    half its weight and told the steps nothing, and the walk's last third ended farther from
    it than the seed."""
    if baseline is None:
        pull01 = np.clip((np.asarray(pull) + 0.1) / 0.7, 0.0, 1.0)
        weights = (0.4, 0.4, 0.2)
    else:
        if here is None or here >= baseline:
            pull01 = np.clip((np.asarray(pull) - baseline + 0.1) / 0.35, 0.0, 1.0)
        else:
            pull01 = np.clip((np.asarray(pull) - here + 0.1) / (baseline - here + 0.35), 0.0, 1.0)
        w_pull = 0.6 * float(np.clip(focus, 0.0, 1.0))
        weights = (0.25 + (0.6 - w_pull) * 0.625, w_pull, 0.15 + (0.6 - w_pull) * 0.375)
    return np.clip(
        weights[0] * band_centrality(distance)
        + weights[1] * pull01
        + weights[2] * np.asarray(crosses_domain, dtype=float),
        0.0,
        1.0,
    )


# Share of novelty that is the distance from the walk as a whole (the rest: from its nearest
# locus). All of it in the walk: over the shipped corpus, nearness added nothing the band does
# not give already (new loci within 0.8 cosine of an earlier one: 22 of 1,657 with a 0.3
# share, 25 of 1,541 without) and it cost the walk its spread (bench_quality: divergence up
# 0.5-1 point on 11 of 12 pairs without it, pull as strong). A locus gone back to is scored
# the same way: a penalty for going back cost the pull where the way back is the way to the
# attractor (photosynthesis -> energy storage: below the seed's on all three random seeds).
NOVELTY_SPREAD = 1.0
# A candidate's mean similarity to the loci (what the walk's spread loses by visiting it):
# SPREAD_NEW and less scores 1, SPREAD_FAR and more 0. The candidates of a step sit in about
# 0.10-0.30 (the loci share a common component). Scaled over 0.1-0.4, the chosen step's sat
# at the median of its candidates' (0.19 of 0.12-0.27 over a rainforest -> banking
# regulation wander): novelty hardly weighed against crossing domains, and the walk spread
# less than a band-random one (divergence below its mean in 17 of 84 wanders at 100 steps).
# Scaled over 0.12-0.32, with the attractor's weight ramped in (engine.walk.OPEN_WEIGHT):
# below it in 2 of 25 wanders against 4 (mean margin +2.1 points against +1.4), and in 0 of
# 14 over seven pairs nothing was tuned on against 3; the attractor pull about as strong.
SPREAD_NEW, SPREAD_FAR = 0.12, 0.32


def novelty(max_sim_to_seen, mean_sim_to_seen=None):
    """1 minus the highest similarity to anything the wander has already seen; with
    `mean_sim_to_seen` (the mean similarity to the loci), blended with 1 minus that: a
    concept unlike the walk as a whole, not only unlike its nearest locus, keeps the walk
    spread (DAT-style divergence) instead of circling one region."""
    near = np.clip(1.0 - np.asarray(max_sim_to_seen), 0.0, 1.0)
    if mean_sim_to_seen is None:
        return near
    spread = np.clip((SPREAD_FAR - np.asarray(mean_sim_to_seen)) / (SPREAD_FAR - SPREAD_NEW), 0.0, 1.0)
    return (1.0 - NOVELTY_SPREAD) * near + NOVELTY_SPREAD * spread


def bridge_potential(new_domain_share, n_domains):
    """Share of the candidate's domains the current locus lacks, plus how many it spans."""
    return np.clip(0.7 * np.asarray(new_domain_share) + 0.3 * np.clip((np.asarray(n_domains) - 1) / 2, 0, 1), 0.0, 1.0)


def uncertainty(visit_count, drift_from_seed):
    """What the wander does not yet know: unvisited places far from the seed."""
    return np.clip(0.6 / (1.0 + np.asarray(visit_count)) + 0.4 * np.asarray(drift_from_seed), 0.0, 1.0)


def softmax_probabilities(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Softmax over standardised scores at the given temperature.

    Composite scores sit in a narrow range (a spread of ~0.2), so a plain softmax at
    T=0.7 would be almost uniform; standardising first makes the temperature mean the
    same thing for every step: T -> 0 is greedy, T = 1 weighs one standard deviation as e.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if len(scores) == 1:
        return np.ones(1)
    spread = scores.std()
    z = (scores - scores.mean()) / spread if spread > 1e-12 else np.zeros_like(scores)
    logits = z / max(temperature, 1e-6)
    logits -= logits.max()
    p = np.exp(logits)
    return p / p.sum()


def softmax_select(scores: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """Index of the chosen candidate, drawn from the seeded generator."""
    if len(scores) == 0:
        raise ValueError("softmax_select needs at least one candidate")
    p = softmax_probabilities(scores, temperature)
    return int(rng.choice(len(p), p=p))


def step_rng(random_seed: int, step_number: int) -> np.random.Generator:
    """One generator per (wander seed, step): a resumed wander draws exactly what an
    uninterrupted one would have drawn at that step."""
    return np.random.default_rng([int(random_seed) & 0xFFFFFFFF, int(step_number)])


def actionability(domains: list[str], attractor_pull: float) -> float:
    concrete = any(d in CONCRETE_DOMAINS for d in domains)
    return float(np.clip(0.5 * concrete + 0.5 * np.clip((attractor_pull + 0.1) / 0.7, 0, 1), 0, 1))
