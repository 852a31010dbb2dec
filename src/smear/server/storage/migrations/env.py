"""Alembic's environment for the game server's database: always run from
:func:`smear.server.storage.migrate.upgrade`, which hands over an open connection (no ``alembic.ini``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from smear.server.storage.schema import Base

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run the migrations with `smear db upgrade`, which opens the database itself")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite changes a table by copying it: Alembic's batch mode does that where it must.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
