"""Rooms, seats, games and action logs.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_code", sa.String(12), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("bot", sa.String(80), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.UniqueConstraint("room_code", "player"),
    )
    op.create_index("ix_seats_room_code", "seats", ["room_code"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_code", sa.String(12), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room_code", "number"),
    )
    op.create_index("ix_games_room_code", "games", ["room_code"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(8), nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])


def downgrade() -> None:
    """Drop them."""
    for index, table in (
        ("ix_actions_game_id", "actions"),
        ("ix_games_room_code", "games"),
        ("ix_seats_room_code", "seats"),
    ):
        op.drop_index(index, table_name=table)
    for table in ("actions", "games", "seats", "rooms"):
        op.drop_table(table)
