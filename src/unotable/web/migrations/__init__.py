"""Alembic migrations of the web server's database (run on start by ``Store.migrate``)."""
