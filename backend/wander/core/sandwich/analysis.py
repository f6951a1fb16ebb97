"""The evaluation metrics of 004 (8.1) from the corpus's raw figures, with their targets; and
the reflective mode's routing of a question to the analysis queries of 004 (5.3, 7.2)."""

from __future__ import annotations

import re
from typing import Any

from wander.core.domain.sandwich import TAXONOMY
from wander.core.domain.sandwich_views import MetricInputs

TARGETS = {  # 8.1: metric -> (comparison, target)
    "sandwich_rate": (">", 0.30),
    "mean_validity": (">", 0.75),
    "ingredient_diversity": (">", 0.5),
    "structural_coverage": (">", 0.70),
    "cross_domain_rate": (">", 0.10),
    "novelty_stability": (">=", 0.8),
}


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if not b else round(float(a or 0) / float(b), 4)


def novelty_stability(series: list[float]) -> float | None:
    """Mean novelty of the later half over that of the earlier half (1 = no decay)."""
    if len(series) < 4:
        return None
    half = len(series) // 2
    early, late = sum(series[:half]) / half, sum(series[half:]) / (len(series) - half)
    return round(late / early, 4) if early > 0 else None


def metrics(inputs: MetricInputs) -> dict[str, Any]:
    values = {
        "sandwich_rate": _ratio(inputs.made, inputs.attempts),
        "mean_validity": None if inputs.mean_validity is None else round(float(inputs.mean_validity), 4),
        "ingredient_diversity": _ratio(inputs.unique_ingredients, inputs.sandwiches),
        "structural_coverage": round(int(inputs.types_used) / len(TAXONOMY), 4),
        "cross_domain_rate": _ratio(inputs.cross_domain, inputs.sandwiches),
        "novelty_stability": novelty_stability(inputs.novelty_series),
    }
    out = {}
    for name, value in values.items():
        op, target = TARGETS[name]
        met = None if value is None else (value > target if op == ">" else value >= target)
        out[name] = {"value": value, "target": f"{op} {target}", "met": met}
    counts = {
        k: int(getattr(inputs, k))
        for k in ("attempts", "made", "sandwiches", "unique_ingredients", "types_used", "cross_domain")
    }
    return {"metrics": out, "counts": counts}


UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
BREAD_RE = re.compile(
    r"\b(?:using|uses?|with)\s+(?:the\s+|a\s+)?bread(?: concept)?\s+['\"“]?([^'\"”?]+?)['\"”]?\s*\??$", re.IGNORECASE
)

# 7.2's research queries (wander.adapters.postgres.sandwich_corpus_queries.RESEARCH) and the taxonomy,
# before the general routes: each needs every word of one of its groups.
RESEARCH_ROUTES = (
    ((("predict",),), "validity_prediction"),
    ((("distance",), ("far apart",)), "bread_distance"),
    ((("underrepresented",), ("rare",), ("least",), ("missing",)), "underrepresented_types"),
    ((("filling", "only"), ("filling", "specific")), "filling_specificity"),
    ((("source", "domain"), ("domain", "validity")), "validity_by_source_domain"),
    ((("type", "domain"), ("structure", "domain")), "types_across_domains"),
    ((("bread", "cross-domain"), ("bread", "cross domain")), "cross_domain_breads"),
    ((("taxonomy",), ("parent",), ("canonical",)), "structural_types"),
)

QUESTION_ROUTES = (  # (keywords, analysis query)
    (("type", "structure", "structural", "taxonomy", "kind"), "type_distribution"),
    (("cross-domain", "cross domain", "domains"), "cross_domain_breads"),
    (("ingredient", "bread", "filling", "reused", "common"), "ingredient_frequency"),
    (("validity", "quality", "over time", "trend", "novel"), "validity_over_time"),
    (("forag", "efficien", "success", "session", "run"), "foraging_efficiency"),
    (("metric", "evaluat", "target", "how well", "how good"), "metrics"),
)


def route_with_args(question: str) -> tuple[str, dict[str, str]]:
    """(query, its arguments): a sandwich's id in the question asks for its relations
    ('related', with relation_type 'similar' when the question says similar); "using the
    bread X" for the sandwiches using that bread concept ('by_bread'); else route()."""
    q = question.lower()
    found = UUID_RE.search(question)
    if found:
        args = {"sandwich_id": found.group(0)}
        for kind in ("similar", "same_bread", "same_filling", "inverse", "generalization", "domain_transfer"):
            if kind in q or kind.replace("_", " ") in q:
                args["relation_type"] = kind
                break
        return "related", args
    bread = BREAD_RE.search(question.strip())
    if bread:
        return "by_bread", {"concept": bread.group(1).strip()}
    return route(question), {}


def route(question: str) -> str:
    """The analysis query a question asks for; 'similar' (vector search) when none fits."""
    q = question.lower()
    for groups, name in RESEARCH_ROUTES:
        if any(all(w in q for w in group) for group in groups):
            return name
    for words, query in QUESTION_ROUTES:
        if any(w in q for w in words):
            return query
    return "similar"
