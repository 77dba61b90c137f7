"""Alembic's environment: migrations run on the connection :meth:`Store.migrate` hands over."""

from __future__ import annotations

from alembic import context

from unotable.web.schema import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
