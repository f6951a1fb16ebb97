"""The Store port on Postgres, assembled from one repository per aggregate:
sessions, steps (walk and commit), loci, findings (resonances and crystals), the event
log (outbox write side) and the read models. The knowledge base is kb_repository.py.

The mapper names re-exported below keep older imports working (compatibility only; new
code imports them from wander.adapters.postgres.mappers)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import EventLogRepository
from wander.adapters.postgres.findings_repository import FindingsRepository
from wander.adapters.postgres.intervention_repository import InterventionWrites
from wander.adapters.postgres.loci_repository import LociRepository
from wander.adapters.postgres.mappers import (  # noqa: F401  (compatibility re-exports)
    crystal_from_row,
    fence_from_json,
    fence_to_json,
    locus_from_row,
    parse_uuid,
    resonance_from_row,
    session_from_row,
    warm_from_row,
)
from wander.adapters.postgres.read_models import ReadModels
from wander.adapters.postgres.sessions_repository import SessionsRepository
from wander.adapters.postgres.steps_repository import StepsRepository


class PostgresStore(
    SessionsRepository,
    StepsRepository,
    LociRepository,
    FindingsRepository,
    EventLogRepository,
    ReadModels,
    InterventionWrites,
):
    def __init__(self, engine: AsyncEngine):
        self.engine = engine
