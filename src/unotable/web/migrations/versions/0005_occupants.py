"""Who sat in each seat from when (issue 34): seats with a history.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``occupants`` (a room stored before has none: each seat's occupant is then the one
    sitting there now, as before)."""
    op.create_table(
        "occupants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_code", sa.String(12), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(80), nullable=True),
    )
    op.create_index("ix_occupants_room_code", "occupants", ["room_code"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_occupants_room_code", table_name="occupants")
    op.drop_table("occupants")
