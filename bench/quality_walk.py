"""The quality bench's engine walk: one wander of the real engine (offline dweller, in-memory
store), stepped and measured (its figures, its crystals, its facets' text figures, issue 30's
figures). Used by bench_quality.py."""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from quality_baselines import BAND, WalkStats, divergence, walk_figures
from text_quality import most_alike_in_a_row, most_common_clause, rejected_as_trivial, template_share_by_kind

from wander.adapters.llm.offline_facets.words import DOMAIN_WORDS
from wander.bootstrap.wiring import offline_engine
from wander.core.engine.service import NewWander

STRATEGIES = ("distance_band", "bridging", "analogy", "tension")
SPAN = 0.9  # a bridge locus is among the 10% of the corpus nearest the seed text and the 10% nearest the attractor's

SENTENCE = re.compile(r"(?<=[.!?])\s+")
DECIMAL = re.compile(r"\d\.\d")


def own_decimals(kb, facet: str) -> bool:
    """A figure in the facet's own words. A corpus gloss the facet quotes for a concept it
    names ("'gallon': United States liquid unit equal to 4 quarts or 3.785 liters") is the
    corpus's definition, not a figure the dweller adds, so its numbers do not count."""
    if not DECIMAL.search(facet):
        return False
    quoted = set()
    for label in re.findall(r"'([^']+)'", facet):
        k = kb.find_label(label)
        if k is not None:
            quoted |= {w for w in kb.concept(k).gloss.split() if DECIMAL.search(w)}
    return any(DECIMAL.search(w) and w.rstrip(".,;:)") not in quoted and w not in quoted for w in facet.split())


@dataclass
class Walked:
    """What stepping a wander gathered: the path (the seed's corpus anchor first), the loci's
    primary domains, the steps in the band, each step's time, themes, facets, the steps."""

    path: list
    doms: list[int] = field(default_factory=list)
    in_band: int = 0
    times: list[float] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)
    facets: list[str] = field(default_factory=list)
    chosen: list = field(default_factory=list)


async def engine_walk(
    kb,
    embedder,
    degenerate: frozenset[str],
    seed: str,
    attractor: str,
    random_seed: int,
    steps: int,
    excluded: set[int],
    anchor_v: np.ndarray,
    shared=None,
) -> WalkStats:
    engine, store, clock = shared if shared is not None else offline_engine(kb, embedder, project_id="bench")
    session = await engine.create(
        NewWander(
            seed_concept=seed,
            attractor=attractor,
            max_steps=steps,
            random_seed=random_seed,
            human_checkpoint_frequency=0,
        )
    )
    walked = await walk_steps(kb, engine, clock, session.id, steps, anchor_v)
    return wander_stats(
        kb, embedder, degenerate, store, session, walked, (seed, attractor, random_seed), excluded, anchor_v
    )


async def walk_steps(kb, engine, clock, session_id, steps: int, anchor_v: np.ndarray) -> Walked:
    """Step the wander `steps` times (resumed where a checkpoint pauses it), 30 s apart."""
    walk = await engine.load_walk(session_id)
    w = Walked([anchor_v])
    prim = kb.primary_domain_ids()
    for _ in range(steps):
        if walk.session.status != "active":
            if walk.session.status == "completed":
                break
            await engine.set_status(session_id, "active")
            walk = await engine.load_walk(session_id)
        clock.advance(seconds=30)
        t = time.perf_counter()
        r = await engine.step(walk)
        w.times.append((time.perf_counter() - t) * 1000)
        d = float(r.chosen.distance)
        w.in_band += BAND[0] <= d <= BAND[1]
        w.chosen.append(r)
        w.path.append(np.asarray(r.to_locus.embedding, dtype=np.float32))
        k = kb.index_of(r.to_locus.kb_key) if r.to_locus.kb_key else None
        w.doms.append(
            int(prim[k]) if k is not None else kb.domain_id(r.to_locus.domains[0] if r.to_locus.domains else "")
        )
        w.themes += r.residue.themes
        w.facets += [
            r.residue.connection,
            r.residue.tension,
            r.residue.bridge,
            r.residue.surprise,
            r.residue.possibility,
        ]
    return w


def wander_stats(
    kb, embedder, degenerate, store, session, w: Walked, pair: tuple[str, str, int], excluded, anchor_v
) -> WalkStats:
    """One wander's figures from its steps and what the store holds of it."""
    seed, attractor, random_seed = pair
    m = np.stack(w.path)
    attr_v = session.attractor_embedding
    pull, basin, bd = walk_figures(kb, m, w.doms, anchor_v, attr_v, excluded)
    res = [r for r in store.resonances.values() if r.session_id == session.id]
    themes = w.themes + [t for r in res for t in r.themes]
    crystals = [
        {**c.validity, "insight": c.insight} for c in store.crystals_by_id.values() if c.session_id == session.id
    ]
    sentences = Counter(s for c in crystals for s in set(SENTENCE.split(c["insight"])) if s.strip())
    walk_fig = walk_figures30(kb, embedder, seed, attractor, w.chosen)
    own = [c for c in store.crystals_by_id.values() if c.session_id == session.id]
    first = {c.rumination[0].get("lens") for c in own if c.rumination}
    trivial = rejected_as_trivial(c.validity for c in own)
    kinds = ("connection", "tension", "bridge", "surprise", "possibility")  # facets' order above
    # domain names are masked as the corpus has them and as the facets say them ('act', 'acts')
    masked = [*kb.domains(), *DOMAIN_WORDS.values()]
    template = template_share_by_kind({k: w.facets[i::5] for i, k in enumerate(kinds)}, masked)[0]
    in_a_row = max(most_alike_in_a_row(w.facets[i::5], masked, every_sentence=True)[0] for i in range(len(kinds)))
    clause_share = max(most_common_clause(w.facets[i::5], masked)[0] for i in range(len(kinds)))
    insights = [c.insight for c in own]  # in the order the store made them
    return WalkStats(
        f"{seed} -> {attractor} #{random_seed}",
        divergence(m),
        w.in_band / max(1, len(w.times)),
        pull,
        basin,
        bd,
        confirmed=sum(r.status == "confirmed" for r in res),
        crystals=crystals,
        # every sandwich the gate judged: the crystal, its reworked first try, the others it tasted
        judged=[
            x
            for c in crystals
            for x in [*([c["reworked_from"]] if "reworked_from" in c else []), *c.get("also_weighed", []), c]
        ],
        degenerate=sum(t.lower() in degenerate for t in themes),
        repeated_sentences=sum(n - 1 for n in sentences.values() if n > 1),
        facet_numbers=sum(own_decimals(kb, f) for f in w.facets),
        quoted_numbers=sum(bool(DECIMAL.search(f)) for f in w.facets),
        step_ms=w.times,
        first_lenses=len(first),
        trivial_rejections=trivial,
        template_share=template,
        openings_in_a_row=in_a_row,
        clause_share=clause_share,
        insight_openings_in_a_row=most_alike_in_a_row(insights, masked, every_sentence=True)[0],
        **walk_fig,
    )


LABELS: dict[str, np.ndarray] = {}


def embed_labels(embedder, labels: list[str]) -> np.ndarray:
    todo = sorted({x for x in labels if x not in LABELS})
    for x, v in zip(todo, embedder.embed(todo) if todo else []):
        LABELS[x] = np.asarray(v, dtype=np.float32)
    return np.stack([LABELS[x] for x in labels]) if labels else np.zeros((0, 384), dtype=np.float32)


def walk_figures30(kb, embedder, seed: str, attractor: str, results: list) -> dict:
    """Issue 30's figures of one wander from its steps (StepResults)."""
    from wander.core.engine.adjacency.senses import senses_of

    n = len(results)
    if n == 0:
        return {}
    seed_v, attr_v = (np.asarray(v, dtype=np.float32) for v in embedder.embed([seed, attractor]))
    labels = [r.to_locus.concept for r in results]
    to_attr = embed_labels(embedder, labels) @ attr_v
    base = float(seed_v @ attr_v)
    third = max(1, n // 3)
    # a bridge: a locus among the nearest tenth of the corpus to both the seed and the attractor text
    s_seed, s_attr = kb.similarities(seed_v), kb.similarities(attr_v)
    q_seed, q_attr = float(np.quantile(s_seed, SPAN)), float(np.quantile(s_attr, SPAN))
    bridge = next(
        (
            r.to_locus.concept
            for r in results
            if float(np.asarray(r.to_locus.embedding) @ seed_v) >= q_seed
            and float(np.asarray(r.to_locus.embedding) @ attr_v) >= q_attr
        ),
        "",
    )
    senses = senses_of(kb)
    puns = 0
    for r in results:
        a, b = r.from_locus, r.to_locus
        ia = kb.index_of(a.kb_key) if a.kb_key else None
        ib = kb.index_of(b.kb_key) if b.kb_key else None
        puns += senses.is_pun(ia, ib, a.concept, b.concept)
    strategies = Counter(r.chosen.strategy for r in results)
    whys = Counter(r.chosen.why or r.chosen.strategy for r in results)
    late = [r.to_locus.id for r in results[-third:]]
    tense = [r.chosen.reason for r in results if r.chosen.strategy == "tension"]
    return {
        "tension_corpus": sum(not t.startswith("contrasting domain") for t in tense) / max(1, len(tense)),
        "late_pull": float(to_attr[-third:].mean()) - base,
        "half_pull": float(to_attr[n // 2 :].mean()) - base,
        "bridge": bridge,
        "late_distinct": len(set(late)) / len(late),
        "strategies": {k: strategies.get(k, 0) / n for k in STRATEGIES},
        "whys": {k: v / n for k, v in whys.items()},
        "pun_hops": puns,
        "steps": n,
    }
