"""The Alembic migrations build exactly the schema the tables declare."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import wander.adapters.postgres.tables  # noqa: F401


async def test_migrated_database_matches_the_models(app):
    def diff(conn):
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(ctx, SQLModel.metadata)

    async with app.db.connect() as conn:
        changes = await conn.run_sync(diff)
    assert changes == [], changes


async def test_upgrade_is_idempotent(app):
    from wander.adapters.postgres import migrate

    await migrate.upgrade(app.db)
    await migrate.upgrade(app.db)
