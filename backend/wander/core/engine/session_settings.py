"""The settings a person may change on a wander (PATCH of a session): which ones, their
checks, and when (the constraints only while no run is going on; a completed wander only
extended, by raising max_steps in the same request). Faces call this; the status change
that may come with it is the engine's set_status."""

from __future__ import annotations

from typing import Any

from wander.core.domain.errors import Conflict, InvalidInput
from wander.core.domain.models import Session, SessionStatus
from wander.core.domain.validation import check_domains, clean_text
from wander.core.engine.queries import Queries

# Only while no run is going on: the run reads them.
CONSTRAINTS = frozenset(
    {
        "allowed_domains",
        "forbidden_domains",
        "max_steps",
        "temperature",
        "max_drift_distance",
        "human_checkpoint_frequency",
    }
)
# Taken as they are when given (their ranges are checked by the wire model, SessionPatch).
PLAIN = ("temperature", "cloud_budget_cents", "max_drift_distance", "human_checkpoint_frequency")


# Why a completed wander may be made active again (with max_steps raised past its steps).
EXTENDABLE = ("max_steps", "stopped by request")


async def update_settings(queries: Queries, session_id: str, changes: dict[str, Any], running: bool) -> Session:
    """Check and write `changes` (name, domains, max_steps, temperature, budget, drift,
    checkpoint frequency; `status` is only checked here). Returns the session as it was
    before, so the caller can tell whether the status changes. Nothing is written when a
    check fails."""
    session = await queries.session(session_id)
    values: dict[str, Any] = {}
    if "name" in changes:
        values["name"] = clean_text("name", changes["name"])
    constraint_keys = CONSTRAINTS & set(changes)
    if constraint_keys and running:
        raise Conflict(f"session {session_id} is running; pause it before changing {sorted(constraint_keys)}")
    known = queries.knowledge.domains() if queries.knowledge is not None else set()
    for key in ("allowed_domains", "forbidden_domains"):
        if changes.get(key) is not None:
            values[key] = check_domains(key, changes[key], known)
    if changes.get("max_steps") is not None:
        if changes["max_steps"] < session.step_count:
            raise InvalidInput("max_steps", f"must be at least the steps already taken ({session.step_count})")
        values["max_steps"] = changes["max_steps"]
    for key in PLAIN:
        if changes.get(key) is not None:
            values[key] = changes[key]
    if changes.get("status") == SessionStatus.ACTIVE and session.status == SessionStatus.COMPLETED:
        # a wander that took all its steps, or one a person stopped, walks on
        extendable = session.stopped_reason in EXTENDABLE and values.get("max_steps", 0) > session.step_count
        if not extendable:  # checked before anything is written
            raise Conflict(
                f"session {session_id} is completed ({session.stopped_reason}); only a wander that "
                "reached max_steps or was stopped can be extended, by raising max_steps with the same request"
            )
    await queries.store.update_session(session_id, **values)
    return session
