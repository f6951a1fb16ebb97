"""A step's commit statements, built once: SQLAlchemy then reuses their compiled form instead
of building and hashing new ones every step (about 0.1 ms each), and every round trip to
Postgres saved is about half a millisecond of the step.

COMMIT_STEP is the step's core in one statement: it advances the session row (if the wander
is still active at the step it was), claims and writes the step's events, and writes the
trace, its residue and (COMMIT_STEP_WITH_LOCUS) the new locus it reached. Parameters:
sid, expected, v_<session column>, d_<usage column>, events_params, t_<trace column>,
r_<residue column>, l_<locus column>."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import CTE, Table, bindparam, func, insert, select, update

from wander.adapters.postgres.event_log import with_events
from wander.adapters.postgres.table_aliases import RS, L, R, S, T
from wander.core.domain.models import SessionStatus

# What a step advances of the session: settings changed meanwhile (name, ...) stay as they are.
PROGRESS_COLUMNS = ("step_count", "current_locus_id", "last_step_at", "status", "stopped_reason", "completed_at")
USAGE_COLUMNS = ("local_calls", "cloud_calls", "cloud_spent_cents")  # added to
TRACE_COLUMNS = (
    *("id", "session_id", "step_number", "from_locus_id", "to_locus_id"),
    *("adjacencies_considered", "selection_scores", "selection_reason"),
    *("model_used", "tokens_used", "cost_cents", "worker_id", "created_at"),
)
RESIDUE_COLUMNS = (
    *("id", "session_id", "trace_id", "from_locus_id", "to_locus_id"),
    *("connection", "tension", "bridge", "surprise", "possibility"),
    *("themes", "themes_embedding", "interestingness", "actionability", "model_used", "details", "created_at"),
)
LOCUS_COLUMNS = (  # mappers.locus_values
    *("id", "session_id", "concept", "embedding", "source_type", "domains", "abstraction_level"),
    *("novelty_score", "interestingness", "actionability", "uncertainty", "visit_count", "kb_key"),
    *("first_encountered", "last_visited", "adjacent_to", "bridges_to", "contradicts"),
)

# No row: the wander was paused or stopped meanwhile, or this step is taken already. Its
# events are stamped as the commit writes them, not when the step began: about when the
# map could know.
_ADVANCE_SESSION = (
    update(S)
    .where(
        S.c.id == bindparam("sid"),
        S.c.status == SessionStatus.ACTIVE.value,
        S.c.step_count == bindparam("expected"),
    )
    .values(
        {S.c[k]: bindparam(f"v_{k}") for k in PROGRESS_COLUMNS}
        | {S.c[k]: S.c[k] + bindparam(f"d_{k}") for k in USAGE_COLUMNS}
        | {S.c.event_seq: S.c.event_seq + bindparam("n")}
    )
    .returning(S.c.id, S.c.event_seq, func.clock_timestamp().label("ts"))
)


def _row_of(table: Table, prefix: str, columns: tuple[str, ...]) -> Callable[[CTE], CTE]:
    """One row of TABLE from parameters <prefix><column>, written only if the session advanced."""

    def write(advanced: CTE) -> CTE:
        values = select(*(bindparam(f"{prefix}{k}", type_=table.c[k].type) for k in columns)).select_from(advanced)
        return insert(table).from_select(list(columns), values).cte(f"step_{table.name}")

    return write


_CORE = (_row_of(T, "t_", TRACE_COLUMNS), _row_of(R, "r_", RESIDUE_COLUMNS))
COMMIT_STEP = with_events(_ADVANCE_SESSION, also=_CORE)
COMMIT_STEP_WITH_LOCUS = with_events(_ADVANCE_SESSION, also=(*_CORE, _row_of(L, "l_", LOCUS_COLUMNS)))

INSERT_LOCI = insert(L)
# Columns set by an UPDATE are the parameters named after them; the WHERE's are b_<name>.
UPDATE_LOCUS = update(L).where(L.c.id == bindparam("b_id"))
INSERT_RESONANCE = insert(RS)
UPDATE_RESONANCE = update(RS).where(RS.c.id == bindparam("b_id"))
# Only over the resonance as the step read it (see steps_repository._commit_memory).
UPDATE_RESONANCE_AS_READ = UPDATE_RESONANCE.where(
    RS.c.occurrences == bindparam("b_occurrences"),
    RS.c.status == bindparam("b_status"),
    RS.c.last_reinforced_at == bindparam("b_reinforced"),
)
UPDATE_RESONANCE_NEVER_REINFORCED = UPDATE_RESONANCE.where(
    RS.c.occurrences == bindparam("b_occurrences"),
    RS.c.status == bindparam("b_status"),
    RS.c.last_reinforced_at.is_(None),
)
