"""The real engine over the shipped corpus with the offline dweller, against the in-memory
Store: what the quality and property tests walk with."""

from wander.bus.inprocess import InProcessBus
from wander.engine.clock import ManualClock
from wander.engine.inmemory_store import InMemoryStore
from wander.engine.service import WanderEngine
from wander.llm.offline import OfflineDweller


def offline_engine(knowledge, embedder, project_id: str = "p") -> tuple[WanderEngine, InMemoryStore, ManualClock]:
    store, clock = InMemoryStore(), ManualClock()
    engine = WanderEngine(
        store=store,
        knowledge=knowledge,
        embedder=embedder,
        dweller=OfflineDweller(knowledge),
        bus=InProcessBus(),
        clock=clock,
        project_id=project_id,
    )
    return engine, store, clock
