"""What a command opens when it needs the database, or the memory folder, alone (no model,
no knowledge index, no engine): the read side, the action service, the archivist, an
export's import, the Wheeler memory. Each is built from the settings as open_app builds it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.bus.inprocess import InProcessBus
from wander.adapters.ca.wheeler_memory import WheelerMemory, parse_capacity
from wander.adapters.ca.xp import get_xp
from wander.adapters.postgres.archive_repository import ArchiveRepository
from wander.adapters.postgres.repository import PostgresStore
from wander.bootstrap.action_factory import ActionServices
from wander.bootstrap.archivist import open_archivist
from wander.bootstrap.settings import Settings, load_settings
from wander.bootstrap.wiring import open_database
from wander.core.action.service import ActionService
from wander.core.archive.service import Archivist
from wander.core.engine.queries import Queries


@asynccontextmanager
async def _database(settings: Settings | None) -> AsyncIterator[tuple[Settings, AsyncEngine]]:
    """(the settings, the database engine), disposed of on the way out."""
    settings = settings or load_settings()
    db = await open_database(settings)
    try:
        yield settings, db
    finally:
        await db.dispose()


@asynccontextmanager
async def open_queries(settings: Settings | None = None) -> AsyncIterator[Queries]:
    """The read side over the store alone."""
    async with _database(settings) as (_, db):
        yield Queries(PostgresStore(db))


@asynccontextmanager
async def open_actions(settings: Settings | None = None) -> AsyncIterator[ActionService]:
    """The action service over the database alone."""
    async with _database(settings) as (s, db):
        yield ActionServices.from_settings(s, db, PostgresStore(db), InProcessBus()).fresh()


@asynccontextmanager
async def open_archive(settings: Settings | None = None) -> AsyncIterator[Archivist]:
    """The archivist over the database alone, listening to nothing (archive, export)."""
    async with _database(settings) as (s, db):
        yield open_archivist(db, InProcessBus(), s)


async def import_export(doc: dict[str, Any], settings: Settings | None = None) -> str:
    """An export read back into the database with the same ids (all or nothing): its wander's id."""
    async with _database(settings) as (_, db):
        return await ArchiveRepository(db).load(doc)


def wheeler_memory(settings: Settings | None = None) -> WheelerMemory:
    """The Wheeler memory in the memory folder, with the settings' capacity and CA backend:
    MemoryInputError names a bad capacity, CABackendError a backend this machine lacks."""
    settings = settings or load_settings()
    capacity = parse_capacity(settings.ca.memory_capacity)
    return WheelerMemory(settings.memory_dir, capacity=capacity, xp=get_xp(settings.ca.backend))
