"""Ready-made wanders. meta-wander is the first use case of 001: which business domains
would be valuable for an autonomous economic agent to operate in?"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    name: str
    seed_concept: str
    other_seeds: tuple[str, ...]  # planted as further SEED loci the walk can reach
    attractor: str
    max_steps: int
    question: str


PRESETS = {
    "meta-wander": Preset(
        name="meta-wander",
        seed_concept="information asymmetry",
        other_seeds=(
            "financial services",
            "intelligence tooling",
            "Veria capabilities",
            "CommandCenter infrastructure",
        ),
        attractor="Economic opportunity in financial intelligence with tractable solutions given our existing assets",
        max_steps=300,
        question="What business domains would be valuable for an autonomous economic agent to operate in?",
    ),
}
