"""Hosts, listed rooms, avatars and rejoin keys (issue 21).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rooms.host``, ``rooms.listed``, ``seats.color``, ``seats.rejoin_hash`` and
    ``seats.code_hash`` (rooms stored before have no host until someone takes a seat, and are
    not listed)."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("color", sa.String(7), nullable=True))
        batch.add_column(sa.Column("rejoin_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("code_hash", sa.String(64), nullable=True))
    op.create_index("ix_rooms_listed", "rooms", ["listed"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_rooms_listed", table_name="rooms")
    with op.batch_alter_table("seats") as batch:
        for column in ("code_hash", "rejoin_hash", "color"):
            batch.drop_column(column)
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("listed")
        batch.drop_column("host")
