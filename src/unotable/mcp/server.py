"""The MCP server of ``uno mcp``: :class:`~unotable.mcp.table.Table`'s game as four tools over
stdio, with the official ``mcp`` SDK (the ``[mcp]`` extra).

- ``new_game(edition, players, bots, house_rules, seed)``: a new game, you against bots;
- ``observe()``: your seat's view, your legal actions and the events since the last call;
- ``act(action)``: one of your legal actions in the notation (an illegal one is a tool error
  and changes nothing); the bots then play to your next decision;
- ``rules()``: the rules in force, in words.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from unotable.i18n import _
from unotable.mcp import words
from unotable.mcp.table import Table, TableError

INSTRUCTIONS = (
    "Play UNO against the project's bots. Call new_game, then observe to see your hand, the top "
    "card and your legal actions, and act with one of those actions, until game_over. "
    "rules() explains the rules in force and the notation."
)


def build_server() -> MCPServer:
    """The server with its tools, holding one game at a time."""
    # refused actions are part of play: log warnings and errors only (on stderr)
    server = MCPServer("unotable", instructions=INSTRUCTIONS, log_level="WARNING")
    game: dict[str, Table] = {}

    def table() -> Table:
        t = game.get("table")
        if t is None:
            raise ToolError(_(words.NO_GAME))
        return t

    @server.tool()
    def new_game(
        edition: str = "classic",
        players: int = 2,
        bots: str = "greedy",
        house_rules: str = "",
        seed: int | None = None,
    ) -> dict[str, Any]:
        """Start a new game: you are player 0, bots play the others.

        edition: classic, harry-potter or cars2. players: 2 to 10, you included. bots: one bot
        for every other player (greedy, random, search, learned; options as in
        'search:budget=100'), or one per other player separated by commas. house_rules: RULES
        section 11's house rules, e.g. 'party' or 'stacking,jump_in' (empty: none). seed: your
        choice of deal, to replay a game (empty: a secret one). Answers your first view.
        """
        try:
            game["table"] = Table(edition, players, bots, house_rules, seed)
        except TableError as exc:
            raise ToolError(str(exc)) from None
        return game["table"].observe()

    @server.tool()
    def observe() -> dict[str, Any]:
        """Your view: your hand, the top card and colour, every player's card count, whose turn
        it is, your legal actions in the notation, the events since your last call (as data and
        in words), the hand_over and game_over flags and the scores."""
        return table().observe()

    @server.tool()
    def act(action: str) -> dict[str, Any]:
        """Take one of your legal actions, written as observe lists it ('play R5', 'play W G',
        'draw', 'pass', 'uno', 'catch 1', 'challenge', 'accept'; 'next' once a hand is over).
        The bots then play until you have a decision to make; answers your view then. An action
        you may not take now is an error and changes nothing."""
        t = table()
        try:
            t.act(action)
        except TableError as exc:
            raise ToolError(str(exc)) from None
        return t.observe()

    @server.tool()
    def rules() -> str:
        """The rules of the game in force, in words, and how to write actions."""
        return table().rules_in_words()

    return server


def main() -> int:
    """``uno mcp``: serve over stdio until the client closes it."""
    build_server().run("stdio")
    return 0
