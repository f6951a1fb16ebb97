"""The archivist, built from its settings section: the Postgres archive store and the
projectors named by WANDER_PROJECTION (UMAP's compiled code cached under WANDER_CACHE_DIR)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from wander.adapters.postgres.archive_repository import ArchiveRepository
from wander.adapters.projection.projection import Projectors
from wander.bootstrap.settings import Settings
from wander.core.archive.service import Archivist
from wander.core.engine.ports import Embedder, EventBus


def projectors(settings: Settings) -> Projectors:
    return Projectors(settings.archive.projection, numba_cache=settings.cache_dir / "numba")


def open_archivist(
    db: AsyncEngine, bus: EventBus, settings: Settings, *, embedder: Embedder | None = None
) -> Archivist:
    """The archivist over the database engine `db`."""
    return Archivist(
        ArchiveRepository(db),
        bus,
        projectors=projectors(settings),
        refit_every=settings.archive.refit_every,
        embedder=embedder,
    )
