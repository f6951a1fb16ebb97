"""The compressed text (000: 500-2,000 tokens, for a model's context) stays within its bound
for wanders of 50 to 5,000 steps, counted with the MiniLM tokenizer that ships with Wander.
The wanders are built row by row with facets, insights and themes as long as the offline
dweller's and the crystallizer's (a real 5,000-step walk takes too long for a test; the
bench measures real ones: bench/bench_archive.py)."""

from __future__ import annotations

import random

import pytest

from wander.adapters.projection.tokens import count_tokens
from wander.core.archive.markdown import CRYSTALS_SHOWN, render_markdown

WORDS = (
    "tide pool lighthouse keeper ledger signal market lemon insurance trust harbour salt lattice "
    "estuary barnacle pricing disclosure warranty broker current erosion beacon reef heron clerk"
).split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def rows(steps: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    n_loci = max(2, int(steps * 0.8))
    loci = [
        {"id": f"L{i}", "concept": " ".join(rng.sample(WORDS, rng.choice((1, 2, 3)))), "visit_count": 1}
        for i in range(n_loci)
    ]
    traces = [
        {
            "id": f"T{i}",
            "step_number": i,
            "from_locus_id": f"L{(i - 1) % n_loci}",
            "to_locus_id": f"L{i % n_loci}",
        }
        for i in range(1, steps + 1)
    ]
    facet = lambda: (  # noqa: E731  # the offline dweller's facets run to 30-70 words with figures
        f"'{rng.choice(WORDS)}' and '{rng.choice(WORDS)}' {sentence(rng, rng.randint(25, 60))} "
        f"(cosine {rng.random():.2f}, {rng.randint(2, 9)} shared neighbours)"
    )
    residues = [
        {
            "id": f"R{i}",
            "trace_id": f"T{i}",
            "to_locus_id": f"L{i % n_loci}",
            **{f: facet() for f in ("connection", "tension", "bridge", "surprise", "possibility")},
            "themes": rng.sample(WORDS, 5),
            "interestingness": rng.random(),
        }
        for i in range(1, steps + 1)
    ]
    resonances = [
        {
            "themes": rng.sample(WORDS, 8),
            "status": "confirmed" if i % 3 == 0 else "candidate",
            "occurrences": rng.randint(1, 12),
            "strength": rng.uniform(0.3, 9),
        }
        for i in range(max(1, steps // 6))
    ]
    crystals = [
        {
            "structural_type": "bridge",
            "validity": {"V": rng.uniform(0.4, 0.9), "verdict": "accepted", "filling": rng.choice(WORDS)},
            "status": "active",
            "bread_a_locus_id": f"L{rng.randrange(n_loci)}",
            "bread_b_locus_id": f"L{rng.randrange(n_loci)}",
            "insight": sentence(rng, rng.randint(40, 90)),
            "confidence": rng.random(),
            "actionability": rng.random(),
            "domains": rng.sample(WORDS, 3),
        }
        for _ in range(steps // 30)
    ]
    session = {
        "id": "00000000-0000-0000-0000-000000000001",
        "name": "a long walk",
        "seed_concept": "tide pool",
        "attractor": "architecture that breathes",
        "status": "completed",
        "stopped_reason": "max_steps",
        "step_count": steps,
        "max_steps": steps,
        "temperature": 0.7,
        "random_seed": seed,
    }
    return {
        "session": session,
        "loci": loci,
        "traces": traces,
        "residues": residues,
        "resonances": resonances,
        "crystals": crystals,
    }


@pytest.mark.parametrize("steps", [50, 300, 1000, 5000])
def test_the_compressed_text_is_500_to_2000_tokens(steps):
    text = render_markdown(rows(steps))
    tokens = count_tokens(text)
    print(f"compressed text, {steps} steps: {tokens} tokens")
    assert 500 <= tokens <= 2000, tokens


def test_a_long_wander_names_what_it_leaves_out():
    text = render_markdown(rows(5000))
    assert f"## Crystals ({CRYSTALS_SHOWN} best of {5000 // 30})" in text
    assert "weaker ones" in text and "more) ->" in text
    assert text.count("### Step ") == 3


def test_the_tokenizer_is_minilm_wordpiece():
    # WordPiece splits an unknown word into pieces and counts no [CLS]/[SEP]
    assert count_tokens("tide pool") == 2
    assert count_tokens("zorblaxification") > 1
