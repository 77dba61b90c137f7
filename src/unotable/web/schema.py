"""The server's tables (SQLAlchemy 2 declarative models): rooms, seats, games, their action logs,
and a cluster's nodes, leases and shared secret. :mod:`~unotable.web.storage` reads and writes
them; the Alembic migrations (``web/migrations``) create them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The tables' base."""


class RoomRow(Base):
    """A room: its code (the invite), settings, and the number of its current game."""

    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    settings: Mapped[str] = mapped_column(Text)
    game_number: Mapped[int] = mapped_column(Integer, default=0)
    host: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player number of the first person who took a seat (the host), NULL before."""
    listed: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    """Whether the room is listed among the open rooms while it has free seats."""
    active_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    """When the room was last made, joined, rematched or left by its last connection (its
    actions' times count too): the lifecycle's clock (docs/web.md, "Room lifecycle")."""
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """A hash of the address that made the room (the quota of open rooms per address)."""


class SeatRow(Base):
    """A player's seat in a room: a bot, a free person's seat, or a person (name, token hash)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_code", "player"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    player: Mapped[int] = mapped_column(Integer)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    color: Mapped[str | None] = mapped_column(String(7), nullable=True)
    """The person's avatar colour, ``#rrggbb``."""
    rejoin_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the seat's rejoin link's secret (derived from its token)."""
    code_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the seat's short rejoin code (derived from its token)."""
    address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """A hash of the address that took the seat (the quota of seats per address)."""


class OccupantRow(Base):
    """Who sat in a seat from when (issue 34): a person (``name``), a bot (``bot``), or nobody
    (both NULL: a free seat), from game ``game_number``'s log length ``seq`` on, until the
    seat's next row."""

    __tablename__ = "occupants"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    player: Mapped[int] = mapped_column(Integer)
    game_number: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)


class GameRow(Base):
    """One game of a room (a rematch is the next number): rules, players, rounds and seed."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_code", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    """The seed as decimal text (128 bits do not fit a BIGINT)."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """One action of a game's log, in order: the seat of that hand's table (``"table"`` for the
    referee, NULL for a deal) and the action in the notation (or :data:`DEAL`)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str | None] = mapped_column(String(8), nullable=True)
    action: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NodeRow(Base):
    """A ``uno serve`` process of the service: its name, the address other nodes reach it at,
    and its heartbeat (issue 24)."""

    __tablename__ = "nodes"
    name: Mapped[str] = mapped_column(String(120), primary_key=True)
    url: Mapped[str] = mapped_column(String(300))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    stopping: Mapped[bool] = mapped_column(Boolean, default=False)
    """Set while the node hands its rooms over before it exits (SIGTERM)."""


class LeaseRow(Base):
    """Which node owns a room now: its name, the fencing number (one more at every change of
    owner) and when the lease ends unless renewed."""

    __tablename__ = "room_leases"
    code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True)
    node: Mapped[str] = mapped_column(String(120), index=True)
    fence: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClusterRow(Base):
    """The service's one row: the secret a node shows another when it relays a request."""

    __tablename__ = "cluster"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))


__all__ = [
    "ActionRow",
    "Base",
    "ClusterRow",
    "GameRow",
    "LeaseRow",
    "NodeRow",
    "OccupantRow",
    "RoomRow",
    "SeatRow",
]
