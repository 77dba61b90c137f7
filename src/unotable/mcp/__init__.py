"""``uno mcp``: an MCP server (Model Context Protocol) so that an AI assistant can play UNO.

- :mod:`~unotable.mcp.table`: one game against the project's bots, seen from the player's seat
  (``new_game``, ``observe``, ``act``, ``rules``), with no MCP in it;
- :mod:`~unotable.mcp.server`: those four and ``join_room``/``leave_room`` as MCP tools over
  stdio (the official ``mcp`` SDK, the ``[mcp]`` extra), and ``main`` for ``uno mcp``;
- :mod:`~unotable.mcp.remote`: a seat at a real ``uno serve`` room (``join_room``), played
  through the server's HTTP API and WebSocket as a browser plays it;
- :mod:`~unotable.mcp.words`: the sentences the server writes.

What this package may import: the rules core's public API (``rules``, ``match``, ``views``,
``notation``, ``narrate``, ``cards``, ``events``, ``errors``, ``ruletext``: the rules in
words), the bots (``bots``: ``bots.spec`` to read a bot spec, ``bots.table`` to seed and run
them as ``uno play`` does), in ``server`` alone the ``mcp`` SDK, and in ``remote`` alone the
``websockets`` client (the ``[web]`` extra; the server's protocol, never its code). Nothing of
the terminal, the web package, the env or the native core. Everything a tool answers comes from the player's
view and the events as the player's seat sees them (``Event.for_seat``): never another hand, the
draw pile's order or a seed the player did not give.
"""

from __future__ import annotations

from unotable.errors import ConfigError


def run() -> int:
    """``uno mcp``: serve over stdio (the SDK loaded only now).

    :raises ConfigError: without the ``[mcp]`` extra.
    """
    try:
        from unotable.mcp.server import main  # noqa: PLC0415 - the optional SDK, on demand
    except ImportError as exc:
        raise ConfigError(f"uno mcp needs the [mcp] extra: pip install 'unotable[mcp]' ({exc})") from None
    return main()


__all__ = ["run"]
