"""The evaluation metrics of 004 (8.1) from the corpus's raw figures, with their targets; and
the reflective mode's routing of a question to the analysis queries of 004 (5.3, 7.2)."""

from __future__ import annotations

from typing import Any

from wander.domain.sandwich import TAXONOMY
from wander.domain.sandwich_views import MetricInputs

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


QUESTION_ROUTES = (  # (keywords, analysis query)
    (("type", "structure", "structural", "taxonomy", "kind"), "type_distribution"),
    (("cross-domain", "cross domain", "domains"), "cross_domain_breads"),
    (("ingredient", "bread", "filling", "reused", "common"), "ingredient_frequency"),
    (("validity", "quality", "over time", "trend", "novel"), "validity_over_time"),
    (("forag", "efficien", "success", "session", "run"), "foraging_efficiency"),
    (("metric", "evaluat", "target", "how well", "how good"), "metrics"),
)


def route(question: str) -> str:
    """The analysis query a question asks for; 'similar' (vector search) when none fits."""
    q = question.lower()
    for words, query in QUESTION_ROUTES:
        if any(w in q for w in words):
            return query
    return "similar"
