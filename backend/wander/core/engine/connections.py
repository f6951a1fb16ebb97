"""A locus's connections (000 `wander_loci`), learned as the walk goes: which loci it
bridges to across domains and which it contradicts, beside the adjacencies it was reached by.

- bridges_to `{locus_id, concept, bridge_type, strength}`: the step that reached the locus,
  when the bridging strategy put it forward or the two loci share no domain (strength: the
  step's bridge potential; the dweller's bridge facet, when it has one, says what crosses);
  and earlier loci off the path that share no domain with it yet stand within BRIDGE_NEAR
  of it (cosine distance), the nearest MAX_FAR_BRIDGES of them (strength: their cosine).
- contradicts `{locus_id, concept, tension_description}`: the step that reached the locus,
  when the tension strategy put it forward (described by the dweller's tension facet, else
  the strategy's reason); and earlier loci that are its opposites in the corpus.

Each list holds one entry per other locus (the latest learned), at most MAX_LINKS."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wander.core.domain.models import Candidate, Locus, Residue
from wander.core.engine.walk import Walk

BRIDGE_NEAR = 0.45  # an off-path locus of other domains this near (cosine distance) is bridged to
MAX_FAR_BRIDGES = 2  # off-path bridges learned a step
MAX_LINKS = 24  # entries a list keeps (the latest)


@dataclass
class Learned:
    """What one step taught of the reached locus's connections (the new entries alone)."""

    bridges: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)


def _crosses(a: Locus, b: Locus | Candidate) -> bool:
    return bool(a.domains) and bool(b.domains) and not set(a.domains) & set(b.domains)


def _path_bridge(current: Locus, target: Locus, chosen: Candidate, residue: Residue) -> dict[str, Any] | None:
    if chosen.strategy == "bridging":
        kind = "seed-attractor span" if chosen.reason.startswith("between ") else "bridge concept"
    elif _crosses(current, target):
        kind = "domain crossing"
    else:
        return None
    link: dict[str, Any] = {
        "locus_id": current.id,
        "concept": current.concept,
        "bridge_type": kind,
        "strength": round(float(chosen.scores.bridge_potential if chosen.scores else 0.0), 4),
        "domains": [", ".join(current.domains), ", ".join(target.domains)],
    }
    if residue.bridge and not residue.failed:
        link["via"] = residue.bridge
    return link


def _far_bridges(walk: Walk, current: Locus, target: Locus) -> list[dict[str, Any]]:
    if not target.domains or not walk.loci:
        return []
    sims = walk.loci_matrix @ np.asarray(target.embedding, dtype=np.float32)
    out: list[dict[str, Any]] = []
    for i in np.argsort(-sims, kind="stable"):
        if 1.0 - float(sims[i]) > BRIDGE_NEAR or len(out) == MAX_FAR_BRIDGES:
            break
        other = walk.loci[int(i)]
        if other.id in (current.id, target.id) or not _crosses(other, target):
            continue
        out.append(
            {
                "locus_id": other.id,
                "concept": other.concept,
                "bridge_type": "near across domains",
                "strength": round(float(sims[i]), 4),
                "domains": [", ".join(other.domains), ", ".join(target.domains)],
            }
        )
    return out


def _opposites(walk: Walk, target: Locus) -> list[dict[str, Any]]:
    kb = walk.knowledge
    own = kb.index_of(target.kb_key) if target.kb_key else None
    if own is None:
        return []
    out = []
    for j in kb.opposites(own):
        other = walk.by_kb_key.get(kb.concept(j).key)
        if other is not None and other.id != target.id:
            out.append(
                {
                    "locus_id": other.id,
                    "concept": other.concept,
                    "tension_description": f"'{target.concept}' and '{other.concept}' are opposites in the corpus",
                }
            )
    return out


def _merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = {n["locus_id"] for n in new}
    return [*(o for o in old if o.get("locus_id") not in ids), *new][-MAX_LINKS:]


def both_ways(locus: Locus, others: list[Locus]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The locus's bridges and contradictions, its own then those other loci learned toward it
    (a bridge or a contradiction holds both ways): each entry names the other locus."""
    bridges, contradictions = list(locus.bridges_to), list(locus.contradicts)
    have_b = {b.get("locus_id") for b in bridges}
    have_c = {c.get("locus_id") for c in contradictions}
    for o in others:
        if o.id == locus.id:
            continue
        for b in o.bridges_to:
            if b.get("locus_id") == locus.id and o.id not in have_b:
                have_b.add(o.id)
                bridges.append(
                    {**b, "locus_id": o.id, "concept": o.concept, "domains": list(b.get("domains", []))[::-1]}
                )
        for c in o.contradicts:
            if c.get("locus_id") == locus.id and o.id not in have_c:
                have_c.add(o.id)
                contradictions.append({**c, "locus_id": o.id, "concept": o.concept})
    return bridges, contradictions


def learn(walk: Walk, current: Locus, target: Locus, chosen: Candidate, residue: Residue) -> Learned:
    """Add what this step teaches to target.bridges_to and target.contradicts (target is the
    step's own copy of the reached locus) and return the new entries."""
    learned = Learned()
    path = _path_bridge(current, target, chosen, residue)
    if path is not None:
        learned.bridges.append(path)
    learned.bridges += _far_bridges(walk, current, target)
    if chosen.strategy == "tension":
        said = residue.tension if residue.tension and not residue.failed else chosen.reason
        learned.contradictions.append({"locus_id": current.id, "concept": current.concept, "tension_description": said})
    taken = {c["locus_id"] for c in learned.contradictions}
    learned.contradictions += [o for o in _opposites(walk, target) if o["locus_id"] not in taken]
    target.bridges_to = _merge(target.bridges_to, learned.bridges)
    target.contradicts = _merge(target.contradicts, learned.contradictions)
    return learned
