"""The composition root: open_app builds, once, from the settings (each adapter given its
typed section) the services every face shares, and yields them as Services: the database,
store, knowledge index, embedder, dweller, bus (NATS with scale.py), crystal memory, sandwich
corpus, the engine, the archivist and the action service (archivist.py, action_factory.py);
llm_factory.py builds the models from the models section. The commands that need the database
(or the memory folder) alone open what they use with standalone.py; worker.py runs a worker
over open_app. settings/ is the one reader of the environment."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.bus.nats import NatsRunQueue, NatsSettings
from wander.adapters.ca import xp
from wander.adapters.ca.adapter import WheelerSignals
from wander.adapters.ca.crystal_memory import CrystalMemory
from wander.adapters.ca.wheeler_memory import parse_capacity
from wander.adapters.kb import corpus, importer, reach_cache
from wander.adapters.kb.corpus_embedding import corpus_matrix
from wander.adapters.kb.index import KnowledgeIndex
from wander.adapters.kb.shipped_vectors import VECTORS_FILE
from wander.adapters.llm.offline import OfflineDweller
from wander.adapters.memory.inmemory_store import InMemoryStore
from wander.adapters.postgres import migrate
from wander.adapters.postgres.columns import use_vector_dim
from wander.adapters.postgres.database import database_url, make_engine, wait_ready
from wander.adapters.postgres.kb_repository import KbRepository, KbRow
from wander.adapters.postgres.repository import PostgresStore
from wander.adapters.postgres.sandwich_repository import SandwichRepository
from wander.adapters.postgres.tables import DEFAULT_PROJECT_ID
from wander.bootstrap.action_factory import ActionServices
from wander.bootstrap.archivist import open_archivist
from wander.bootstrap.foraging import attach_crystal_sandwiches
from wander.bootstrap.knowledge import knowledge_index
from wander.bootstrap.llm_factory import build_dweller, build_embedder, check_dweller, model_helpers
from wander.bootstrap.scale import Scale, nats_settings, open_scale
from wander.bootstrap.settings import ModelsSettings, Settings, load_section, load_settings
from wander.bootstrap.warmup import phase
from wander.core.archive.service import Archivist
from wander.core.domain.errors import InvalidInput
from wander.core.engine.clock import ManualClock, SystemClock
from wander.core.engine.ports import (
    Clock,
    ConceptProposer,
    Dweller,
    Embedder,
    EventBus,
    KnowledgeConcept,
    RuminationModel,
    Store,
)
from wander.core.engine.queries import Queries
from wander.core.engine.queue_runner import QueueRunner
from wander.core.engine.runner import Runner
from wander.core.engine.service import WanderEngine

log = logging.getLogger(__name__)
CORPUS_SOURCE = "wordnet"


class Progress(Protocol):
    def start(self, description: str, total: int) -> None: ...

    def advance(self, n: int) -> None: ...

    def stop(self) -> None: ...


class NoProgress:
    def start(self, description: str, total: int) -> None: ...

    def advance(self, n: int) -> None: ...

    def stop(self) -> None: ...


async def open_database(settings: Settings) -> AsyncEngine:
    """Connect (starting the embedded Postgres if no URL is set) and migrate to head, with
    vector columns of WANDER_EMBED_DIM."""
    use_vector_dim(settings.embed_dim)
    engine = make_engine(database_url(settings.database_url, settings.pg_dir))
    await wait_ready(engine)
    await migrate.upgrade(engine)
    return engine


def _embed_rows(embedder: Embedder, texts: list[str], progress: Progress, what: str) -> Any:
    progress.start(what, len(texts))
    try:
        embed = embedder.embed
        try:
            return embed(texts, progress=progress.advance)  # type: ignore[call-arg]
        except TypeError:  # an embedder without progress reporting
            out = embed(texts)
            progress.advance(len(texts))
            return out
    finally:
        progress.stop()


async def ensure_corpus(
    kb: KbRepository, embedder: Embedder, progress: Progress, vector_cache: Path | None = None
) -> bool:
    """Load the shipped concept corpus once per database, with its shipped vectors (checked
    against the model on a sample; kb.corpus_embedding); True if it was loaded now.
    VECTOR_CACHE: the machine's folder of corpus vectors (kb.vector_cache), used only when
    the shipped vectors do not fit, so at most the first database on a machine embeds."""
    # the shipped vectors too: a database loaded before they changed keeps vectors a fresh
    # one does not have, and the same seed then walks another path at a near tie
    fingerprint = f"{corpus.corpus_fingerprint()}:{corpus.corpus_fingerprint(VECTORS_FILE)[:16]}:{embedder.name}"
    if await kb.source_fingerprint(CORPUS_SOURCE) == fingerprint:
        return False
    concepts = corpus.load_corpus()
    rows = [
        KbRow(
            c.key,
            c.label,
            c.embed_text,
            c.gloss,
            tuple(c.domains),
            tuple(c.broader),
            tuple(c.path),
            tuple(c.opposites),
            CORPUS_SOURCE,
        )
        for c in concepts
    ]
    texts = [r.text for r in rows]

    def embed_many(some: list[str]) -> Any:
        return _embed_rows(embedder, some, progress, "Embedding the concept corpus")

    with phase(f"loading the concept corpus ({len(texts)} concepts) into the database, once"):
        vectors = corpus_matrix(texts, embedder.name, embedder.embed, vector_cache, embed_many=embed_many)
        await kb.replace_source(CORPUS_SOURCE, fingerprint, embedder.name, rows, vectors)
    return True


async def import_notes(kb: KbRepository, embedder: Embedder, path: Path, progress: Progress) -> int:
    """Add (or refresh) a folder or file of notes as one knowledge source."""
    chunks = importer.read_notes(path)
    source = f"import:{path.expanduser().resolve()}"
    rows = [KbRow(c.key, c.label, c.text, c.text[:300], c.domains, (), (), (), source) for c in chunks]
    vectors = _embed_rows(embedder, [r.text for r in rows], progress, f"Embedding {len(rows)} note chunks")
    await kb.replace_source(source, importer.fingerprint(chunks), embedder.name, rows, vectors)
    return len(rows)


async def load_knowledge(kb: KbRepository, cache_dir: Path | None = None) -> KnowledgeIndex:
    """The knowledge index over every concept, with the derived tables an earlier process kept
    in CACHE_DIR for the same content, or those shipped with the corpus (kb.reach_cache)."""
    rows, matrix = await kb.load_all()
    concepts = [
        KnowledgeConcept(r.key, r.label, r.gloss, r.domains, r.path, r.opposites, r.source, r.broader) for r in rows
    ]
    return knowledge_index(concepts, matrix, cache_dir)  # exact or approximate by size (bootstrap/knowledge.py)


def default_embedder(settings: Settings | None = None) -> Embedder:
    """The embedder WANDER_EMBEDDER names (minilm | ollama), checked against the vector
    columns' size (WANDER_EMBED_DIM)."""
    settings = settings or load_settings()
    embedder = build_embedder(models=settings.models, dim=settings.embed_dim)
    if embedder.dim != settings.embed_dim:
        raise InvalidInput(
            "WANDER_EMBED_DIM",
            f"is {settings.embed_dim} but the {settings.models.embedder} embedder makes {embedder.dim}-d vectors",
        )
    return embedder


def offline_engine(
    knowledge: KnowledgeIndex, embedder: Embedder, project_id: str = "p"
) -> tuple[WanderEngine, InMemoryStore, ManualClock]:
    """The real engine with the offline dweller over the in-memory store and a manual clock:
    what the quality benchmark and the quality and property tests walk with."""
    xp.use_backend(load_section("ca").backend)  # WANDER_CA_BACKEND, as open_app does
    store, clock = InMemoryStore(), ManualClock()
    engine = WanderEngine(
        store=store,  # type: ignore[arg-type]  # has what a walk uses of Store, not the interventions
        knowledge=knowledge,
        embedder=embedder,
        dweller=OfflineDweller(knowledge),
        bus=InProcessBus(),
        clock=clock,
        project_id=project_id,
    )
    return engine, store, clock


@dataclass
class Services:
    """What open_app builds once from the settings and hands to a face: the adapters (database,
    store, knowledge, embedder, bus, crystal memory, sandwich corpus), the engine over them,
    the archivist (listening once a face attaches it) and the action service."""

    settings: Settings
    db: AsyncEngine
    store: PostgresStore
    kb: KbRepository
    knowledge: KnowledgeIndex
    embedder: Embedder
    engine: WanderEngine
    bus: EventBus  # InProcessBus, or NatsBus when WANDER_NATS_URL is set (wander.bootstrap.scale)
    crystal_memory: CrystalMemory  # crystals in the Wheeler memory
    sandwiches: SandwichRepository  # the SANDWICH corpus
    archivist: Archivist  # archives and plots; a server attaches it to the bus
    actions: ActionServices  # the economic action layer (its service rebuilt when assets.toml changes)
    run_queue: NatsRunQueue | None = None  # the JetStream run queue with NATS; None: runs stay in-process
    scale: Scale | None = None  # NATS: its client, the outbox relay, the bus and the run queue

    @property
    def queries(self) -> Queries:
        """What the faces read and the settings they change (engine.queries)."""
        return Queries(self.store, self.embedder, self.knowledge, self.engine.project_id)


def make_runner(app: Services) -> Runner | QueueRunner:
    """In-process runs (embedded default), or run requests on the queue for workers."""
    if app.run_queue is None:
        return Runner(app.engine)
    return QueueRunner(app.engine, app.run_queue)


def _dwelling(
    dweller: Dweller | str | None, offline: Dweller, embedder: Embedder, models: ModelsSettings
) -> tuple[Dweller, ConceptProposer | None, RuminationModel | None]:
    """(the dweller, the model proposer, the model ruminator): the offline dweller alone
    when none is given; a dweller's name (llm_factory.DWELLERS) builds it from the models
    section, with its helpers."""
    if dweller is None:
        return offline, None, None
    if not isinstance(dweller, str):
        return dweller, None, None
    name = check_dweller(dweller, models)
    if name == "offline":
        return offline, None, None
    proposer, ruminator = model_helpers(name, models)
    return build_dweller(name, offline=offline, models=models, embedder=embedder), proposer, ruminator


@asynccontextmanager
async def open_app(
    settings: Settings | None = None,
    *,
    progress: Progress | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    knowledge: KnowledgeIndex | None = None,
    nats: NatsSettings | None = None,
    role: str = "app",
    dweller: Dweller | str | None = None,
    wrap_store: Callable[[PostgresStore], Store] | None = None,
) -> AsyncIterator[Services]:
    """Everything a face needs, ready to wander; closed on exit. `nats` (NatsSettings)
    overrides WANDER_NATS_URL; with either, events go over NATS and runs to workers.
    `dweller`: a Dweller, or a dweller's name (offline, ollama, anthropic, auto: built from
    the settings' models section, e.g. settings.models.dweller); the offline dweller when None."""
    settings = settings or load_settings()
    xp.use_backend(settings.ca.backend)  # the CA kernel's array module, for every CA call of this process
    with phase("opening the database (the embedded Postgres: created on a first start)"):
        db = await open_database(settings)
    scale = None
    archivist: Archivist | None = None
    loaded_here = False
    try:
        kb = KbRepository(db)
        embedder = embedder or default_embedder(settings)
        await ensure_corpus(kb, embedder, progress or NoProgress(), settings.vector_cache_dir)
        loaded_here = knowledge is None
        if knowledge is None:
            with phase("loading the knowledge index"):
                knowledge = await load_knowledge(kb, settings.cache_dir)
        store = PostgresStore(db)
        nats = nats or nats_settings(settings.nats)
        if nats is not None:
            scale = await open_scale(db, nats, role=role)
        bus = scale.bus if scale is not None else InProcessBus()
        chosen, proposer, ruminator = _dwelling(dweller, OfflineDweller(knowledge), embedder, settings.models)
        engine = WanderEngine(
            # wrap_store: what the engine writes through (a worker's lease-fenced store, wander.bootstrap.worker)
            store=wrap_store(store) if wrap_store else store,
            knowledge=knowledge,
            embedder=embedder,
            dweller=chosen,
            bus=bus,
            clock=clock or SystemClock(),
            project_id=str(DEFAULT_PROJECT_ID),
            ca=WheelerSignals(),
            proposer=proposer,
            ruminator=ruminator,
        )
        crystal_memory = CrystalMemory.open(settings.memory_dir, embedder, parse_capacity(settings.ca.memory_capacity))
        crystal_memory.attach(bus)  # every crystal is stored in the Wheeler memory as it forms
        sandwiches = SandwichRepository(db)
        attach_crystal_sandwiches(bus, sandwiches, embedder)  # ... and as a sandwich of the corpus
        archivist = open_archivist(db, bus, settings, embedder=embedder)
        yield Services(
            settings,
            db,
            store,
            kb,
            knowledge,
            embedder,
            engine,
            bus,
            crystal_memory,
            sandwiches,
            archivist,
            ActionServices.from_settings(settings, db, store, bus),
            run_queue=scale.queue if scale is not None else None,
            scale=scale,
        )
    finally:
        if archivist is not None:
            await archivist.close()
        if loaded_here and knowledge is not None:
            reach_cache.keep(knowledge, settings.cache_dir)  # for the next start, if this one computed them
        if scale is not None:
            await scale.close()
        await db.dispose()
