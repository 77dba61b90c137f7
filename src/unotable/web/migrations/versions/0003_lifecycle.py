"""Room lifecycle and quotas (issue 23): when a room was last active, and which address made a
room or took a seat (a hash of it).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``rooms.active_at`` (rooms stored before count as active when they were made),
    ``rooms.creator`` and ``seats.address`` (NULL for rooms and seats stored before)."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
    op.execute("UPDATE rooms SET active_at = created_at")
    op.create_index("ix_rooms_active_at", "rooms", ["active_at"])
    op.create_index("ix_rooms_creator", "rooms", ["creator"])
    op.create_index("ix_seats_address", "seats", ["address"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_seats_address", table_name="seats")
    op.drop_index("ix_rooms_creator", table_name="rooms")
    op.drop_index("ix_rooms_active_at", table_name="rooms")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("address")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("creator")
        batch.drop_column("active_at")
