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


def interestingness(distance, pull, crosses_domain, baseline=None, focus=1.0):
    """How interesting a step is: mid-band distance, pull towards the attractor, and
    leaving the current domain. `pull` is cosine similarity to the attractor (or seed).

    With a `baseline` (the seed's own similarity to the attractor) the pull counts against
    it: a concept 0.1 farther from the attractor than the seed scores 0, as near as the seed
    0.29, 0.25 nearer 1; gaining on the seed is what counts, whatever the pair's level.
    `focus` (0 to 1, with a baseline) is how much the attractor weighs at this point of the
    wander: a vague sense of what is sought early on (a third of its full weight; the rest
    goes to the band and to crossing domains), what the walk homes in on late."""
    if baseline is None:
        pull01 = np.clip((np.asarray(pull) + 0.1) / 0.7, 0.0, 1.0)
        weights = (0.4, 0.4, 0.2)
    else:
        pull01 = np.clip((np.asarray(pull) - baseline + 0.1) / 0.35, 0.0, 1.0)
        w_pull = 0.6 * (1.0 + 2.0 * float(np.clip(focus, 0.0, 1.0))) / 3.0
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


def novelty(max_sim_to_seen, mean_sim_to_seen=None):
    """1 minus the highest similarity to anything the wander has already seen; with
    `mean_sim_to_seen` (the mean similarity to the loci), blended with 1 minus that: a
    concept unlike the walk as a whole, not only unlike its nearest locus, keeps the walk
    spread (DAT-style divergence) instead of circling one region."""
    near = np.clip(1.0 - np.asarray(max_sim_to_seen), 0.0, 1.0)
    if mean_sim_to_seen is None:
        return near
    # mean similarities to a walk sit in about 0.05-0.45 (the loci have a common component):
    # 0.1 and less scores 1, 0.4 and more 0
    spread = np.clip((0.4 - np.asarray(mean_sim_to_seen)) / 0.3, 0.0, 1.0)
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
