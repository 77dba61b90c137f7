"""Several ``uno serve`` nodes on one database (issue 24): the nodes, each room's lease (its
owner node and fencing number) and the service's secret between nodes.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``nodes``, ``room_leases`` and ``cluster`` (one row: the secret that authenticates a
    node's relayed requests to another, made here once)."""
    op.create_table(
        "nodes",
        sa.Column("name", sa.String(120), primary_key=True),
        sa.Column("url", sa.String(300), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stopping", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "room_leases",
        sa.Column("code", sa.String(12), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
        sa.Column("node", sa.String(120), nullable=False, index=True),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    cluster = op.create_table(
        "cluster",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
    )
    op.bulk_insert(cluster, [{"id": 1, "secret": secrets.token_hex(32)}])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("cluster")
    op.drop_table("room_leases")
    op.drop_table("nodes")
