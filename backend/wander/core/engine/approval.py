"""Scope layer 4 (001), human approval, made required for a wander: with the session's
require_crystal_approval on, no crystal stands on the sandwich gate's word alone. One the
gate accepted is held for a person's verdict as a marginal one is (verdict "review", the
gate's own verdict kept as gate_verdict): it forms (wander.crystal.formed, shown on the map
awaiting review) but is not validated (no wander.crystal.validated) until a person accepts
it. What the gate rejected stays rejected, and a marginal one is held already."""

from __future__ import annotations

from shared_schemas.events import Subject
from wander.core.domain.models import Crystal, EventDraft, Session

HELD_NOTE = (
    "held for a person's verdict: this wander requires approval of every crystal (the gate accepted it, V >= 0.7)"
)


def hold_for_approval(
    session: Session, crystal: Crystal | None, events: list[EventDraft], verdict: str
) -> tuple[list[EventDraft], str]:
    """The crystal's events and verdict once the wander's approval rule is applied (the
    crystal is changed in place when it is held)."""
    if crystal is None or verdict != "accepted" or not session.require_crystal_approval:
        return events, verdict
    crystal.validity = {**crystal.validity, "verdict": "review", "gate_verdict": "accepted"}
    crystal.validation_notes = HELD_NOTE
    held = []
    for e in events:
        if e.subject == Subject.CRYSTAL_VALIDATED:
            continue
        if e.subject == Subject.CRYSTAL_FORMED:
            e = EventDraft(e.subject, {**e.payload, "crystal": {**e.payload["crystal"], "verdict": "review"}})
        held.append(e)
    return held, "review"
