"""What an operator watches: ``/metrics`` in Prometheus' text format, ``/healthz`` and ``/readyz``.

:class:`Metrics` holds one registry per app (so tests and several apps in one process do not
share counters), made with the ``prometheus-client`` library:

- ``unotable_rooms_live``: rooms held in memory; ``unotable_rooms_playing``: those whose game
  runs (not waiting for seats, not finished);
- ``unotable_connections``: HTTP requests in flight and WebSockets open now;
  ``unotable_connections_refused_total`` by reason (the limits of :mod:`~unotable.web.guard`);
- ``unotable_actions_total`` and ``unotable_action_seconds``: actions applied, and the time
  from a client's message to its update queued to every connection (checked, committed,
  applied, fanned out);
- ``unotable_database_seconds``: the time of each database transaction;
- ``unotable_http_requests_total`` by method and status;
- ``unotable_bot_decisions``, ``unotable_bot_cpu_seconds``, ``unotable_bot_deferred``,
  ``unotable_bot_waiting``: the bots' workers (:mod:`~unotable.web.thinker`);
  ``unotable_rooms_refused_full`` (``--max-rooms``) and ``unotable_replay_steps_kept``;
- ``unotable_connections_waiting``, ``_entering``, ``_window``, ``_waited``,
  ``_refused_waiting``: new connections let in at the loop's pace (:mod:`~unotable.web.pacing`).

It imports ``prometheus_client`` (the web extra) and nothing of the rooms: the app gives it
callables to read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE: Final = CONTENT_TYPE_LATEST
LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a person notices 100 ms; the buckets are finer below it."""


class Metrics:
    """The server's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.rooms_live = Gauge("unotable_rooms_live", "Rooms held in memory.", registry=r)
        self.rooms_playing = Gauge("unotable_rooms_playing", "Rooms whose game is being played.", registry=r)
        self.rooms_paused = Gauge(
            "unotable_rooms_paused", "Rooms in memory nobody is connected to (nothing moves).", registry=r
        )
        self.connections = Gauge(
            "unotable_connections", "HTTP requests in flight and WebSockets open.", registry=r
        )
        self.refused = Counter(
            "unotable_connections_refused",
            "Connections refused by the server's limits, by reason.",
            ["reason"],
            registry=r,
        )
        self.actions = Counter("unotable_actions", "Actions applied to games.", registry=r)
        self.action_seconds = Histogram(
            "unotable_action_seconds",
            "From a client's action message to its update queued to every connection.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.database_seconds = Histogram(
            "unotable_database_seconds",
            "Time of one database transaction.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.http_requests = Counter(
            "unotable_http_requests",
            "HTTP requests answered, by method and status.",
            ["method", "status"],
            registry=r,
        )

    def watch(
        self,
        *,
        rooms_live: Callable[[], float],
        rooms_playing: Callable[[], float],
        rooms_paused: Callable[[], float] | None = None,
    ) -> None:
        """Read these gauges from the server's own state at each scrape."""
        self.rooms_live.set_function(rooms_live)
        self.rooms_playing.set_function(rooms_playing)
        if rooms_paused is not None:
            self.rooms_paused.set_function(rooms_paused)

    def watch_cluster(
        self,
        *,
        rooms_owned: Callable[[], float],
        relayed_sockets: Callable[[], float],
        relayed_requests: Callable[[], float],
        takeovers: Callable[[], float],
        lost: Callable[[], float],
        live_nodes: Callable[[], float] = lambda: 1.0,
    ) -> None:
        """A node of several (docs/web.md, "Several nodes"): its figures, read at each scrape."""
        self._read_at_scrape(
            "unotable_cluster_",
            ("rooms_owned", "Rooms whose lease this node holds.", rooms_owned),
            ("relayed_sockets", "WebSockets this node relays to rooms' owners.", relayed_sockets),
            ("relayed_requests", "HTTP requests relayed to rooms' owners since the start.", relayed_requests),
            ("takeovers", "Rooms taken from a node whose lease had expired, since the start.", takeovers),
            ("rooms_lost", "Rooms this node lost to another node, since the start.", lost),
            ("live_nodes", "The service's nodes up at the last renewal (they share the rates).", live_nodes),
        )

    def watch_tenants(
        self,
        *,
        bot_decisions: Callable[[], float],
        bot_cpu_seconds: Callable[[], float],
        bot_deferred: Callable[[], float],
        bot_waiting: Callable[[], float],
        rooms_refused_full: Callable[[], float],
        replay_steps: Callable[[], float],
    ) -> None:
        """What keeps one tenant from slowing another (docs/web.md, issue 31), read at each scrape."""
        self._read_at_scrape(
            "unotable_",
            (
                "bot_decisions",
                "Decisions of bots that think long made in the workers, since the start.",
                bot_decisions,
            ),
            (
                "bot_cpu_seconds",
                "CPU seconds the bots' workers spent deciding, since the start.",
                bot_cpu_seconds,
            ),
            (
                "bot_deferred",
                "Bots' decisions put off by their room's CPU budget, since the start.",
                bot_deferred,
            ),
            ("bot_waiting", "Bots' decisions waiting for a worker now.", bot_waiting),
            (
                "rooms_refused_full",
                "Rooms refused because the node held --max-rooms, since the start.",
                rooms_refused_full,
            ),
            ("replay_steps_kept", "Steps of finished games' replays kept in memory.", replay_steps),
        )

    def watch_pacing(
        self,
        *,
        waiting: Callable[[], float],
        entering: Callable[[], float],
        window: Callable[[], float],
        waited: Callable[[], float],
        refused: Callable[[], float],
    ) -> None:
        """New connections let in at the loop's pace (web/pacing.py), read at each scrape."""
        self._read_at_scrape(
            "unotable_connections_",
            ("waiting", "New connections waiting their turn to be read now.", waiting),
            ("entering", "Connections being let in now (not yet answered or welcomed).", entering),
            ("window", "Connections the server lets in at once now (it adapts to the loop).", window),
            ("waited", "Connections that waited their turn, since the start.", waited),
            ("refused_waiting", "Connections closed because too many waited, since the start.", refused),
        )

    def _read_at_scrape(self, prefix: str, *gauges: tuple[str, str, Callable[[], float]]) -> None:
        """Gauges ``prefix + name`` (with their help text) read from ``read`` at each scrape."""
        for name, doc, read in gauges:
            Gauge(prefix + name, doc, registry=self.registry).set_function(read)

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


__all__ = ["CONTENT_TYPE", "LATENCY_BUCKETS", "Metrics"]
