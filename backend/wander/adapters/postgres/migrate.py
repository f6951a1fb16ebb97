"""Alembic migrations, run programmatically on an async connection (`wander db upgrade`,
and on every start of the embedded default)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    def _run(connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)

    async with engine.begin() as conn:
        # Serialise concurrent starters (API, workers, CLI) on one database.
        await conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7262001)")
        await conn.run_sync(_run)
