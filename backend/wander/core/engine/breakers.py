"""Circuit breakers (001 layer 5) and human checkpoints, checked after every step.

Each returns (reason, detail). A tripped breaker pauses the wander (a person can raise the
budget, inject a concept or widen the scope and resume); running out of steps completes it."""

from __future__ import annotations

from wander.core.domain.models import Locus, Session
from wander.core.engine.scope import drift

LOOP_WINDOW = 12
LOOP_DISTINCT = 3


def budget_exhausted(s: Session) -> tuple[str, str] | None:
    if s.cloud_budget_cents > 0 and s.cloud_spent_cents >= s.cloud_budget_cents:
        return "budget_exhausted", f"cloud budget spent: {s.cloud_spent_cents} of {s.cloud_budget_cents} cents"
    return None


def loop_detected(recent_targets: list[str], concepts: dict[str, str]) -> tuple[str, str] | None:
    """The last LOOP_WINDOW steps went round a small set of loci."""
    window = recent_targets[-LOOP_WINDOW:]
    if len(window) == LOOP_WINDOW and len(set(window)) <= LOOP_DISTINCT:
        names = sorted({concepts.get(i, i) for i in window})
        return "loop_detected", f"the last {LOOP_WINDOW} steps visited only {', '.join(names)}"
    return None


def drift_exceeded(s: Session, current: Locus) -> tuple[str, str] | None:
    """The current locus is farther than max_drift_distance from the seed (and from the
    attractor, when there is one: engine/scope.py)."""
    d = drift(current.embedding, s)
    if d > s.max_drift_distance:
        where = "the seed and the attractor" if s.attractor_embedding is not None else "the seed"
        return "drift_exceeded", f"'{current.concept}' is {d:.2f} from {where} (max {s.max_drift_distance})"
    return None


def checkpoint_due(s: Session, step_number: int) -> tuple[str, str] | None:
    f = s.human_checkpoint_frequency
    if f > 0 and step_number % f == 0 and step_number < s.max_steps:
        return "checkpoint", f"human checkpoint after {step_number} steps: review and resume"
    return None
