"""Alembic environment: uses the connection handed over by wander.adapters.postgres.migrate."""

from alembic import context
from sqlmodel import SQLModel

import wander.adapters.postgres.tables  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `wander db upgrade` (wander.adapters.postgres.migrate)")
context.configure(connection=connection, target_metadata=SQLModel.metadata, compare_type=True)
with context.begin_transaction():
    context.run_migrations()
