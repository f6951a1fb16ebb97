"""The Store port on Postgres, composed of one repository per aggregate: sessions (a
wander's life and controls), steps (walk and commit), loci, findings (resonances and
crystals), the event log (outbox read side), the read models and the interventions' writes.
Each repository is an attribute of the store, and the store's methods are theirs, so the
engine sees one Store while a reader may hold just the aggregate it needs. The knowledge
base is kb_repository.py."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.event_log import EventLogRepository
from wander.adapters.postgres.findings_repository import FindingsRepository
from wander.adapters.postgres.intervention_repository import InterventionWrites
from wander.adapters.postgres.loci_repository import LociRepository
from wander.adapters.postgres.read_models import ReadModels
from wander.adapters.postgres.sessions_repository import SessionsRepository
from wander.adapters.postgres.steps_repository import StepsRepository


class PostgresStore:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self.sessions = SessionsRepository(engine)
        self.steps = StepsRepository(engine)
        self.loci_repository = LociRepository(engine)
        self.findings = FindingsRepository(engine)
        self.event_log = EventLogRepository(engine)
        self.read_models = ReadModels(engine)
        self.interventions = InterventionWrites(engine)
        # a wander's life, its controls, and what the faces change
        self.create_session = self.sessions.create_session
        self.create_subwander = self.sessions.create_subwander
        self.get_session = self.sessions.get_session
        self.list_sessions = self.sessions.list_sessions
        self.count_sessions = self.sessions.count_sessions
        self.children = self.sessions.children
        self.start_step = self.sessions.start_step
        self.set_status = self.sessions.set_status
        self.set_controls = self.sessions.set_controls
        self.set_injection = self.sessions.set_injection
        self.set_budget = self.sessions.set_budget
        self.set_run_target = self.sessions.set_run_target
        self.interrupted_runs = self.sessions.interrupted_runs
        self.update_session = self.sessions.update_session
        self.delete_session = self.sessions.delete_session
        # a step: the walk it starts from and its commit
        self.load_walk = self.steps.load_walk
        self.commit_step = self.steps.commit_step
        self.step_numbers = self.steps.step_numbers
        # loci
        self.add_locus = self.loci_repository.add_locus
        self.plant_locus = self.loci_repository.plant_locus
        self.loci = self.loci_repository.loci
        self.locus = self.loci_repository.locus
        # resonances and crystals
        self.find_resonances = self.findings.find_resonances
        self.find_crystals = self.findings.find_crystals
        self.crystals = self.findings.crystals
        self.session_crystals = self.findings.session_crystals
        self.save_crystal = self.findings.save_crystal
        # the event log
        self.event_texts_after = self.event_log.event_texts_after
        self.events_after = self.event_log.events_after
        # the read models, the rumination's evidence among them
        self.trace = self.read_models.trace
        self.linked_to = self.read_models.linked_to
        self.locus_steps = self.read_models.locus_steps
        self.search = self.read_models.search
        self.lens_evidence = self.read_models.lens_evidence
        # writes from outside a step that carry their own events
        self.set_fence = self.interventions.set_fence
        self.record_crystal_review = self.interventions.record_crystal_review
