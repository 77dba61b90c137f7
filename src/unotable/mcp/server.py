"""The MCP server of ``uno mcp``: :class:`~unotable.mcp.table.Table`'s game as four tools over
stdio, with the official ``mcp`` SDK (the ``[mcp]`` extra).

- ``new_game(edition, players, bots, house_rules, seed, target)``: a new game, you against bots;
- ``observe()``: your seat's view, your legal actions and the events since the last call;
- ``act(action)``: one of your legal actions in the notation (an illegal one is a tool error
  and changes nothing); the bots then play to your next decision;
- ``rules()``: the rules in force, in words, and every card code of the deck.

Answers are compact JSON (one line, each fact once: see :meth:`Table.observe`), sent as the
tool's text and as its structured content. An argument a tool does not have is refused with a
tool error naming the tool's arguments, never ignored.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.types import CallToolResult, TextContent
from pydantic import model_validator

from unotable.i18n import _
from unotable.mcp import words
from unotable.mcp.table import Table, TableError

INSTRUCTIONS = (
    "Play UNO against the project's bots. Call new_game, then observe to see your hand, the top "
    "card and your legal actions, and act with one of those actions, until game_over. "
    "rules() explains the rules in force and the notation."
)


def answer(data: dict[str, Any]) -> CallToolResult:
    """A tool's answer: ``data`` as one line of JSON (the text a model reads) and as structured
    content."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def strict(model: type[ArgModelBase], tool: str) -> type[ArgModelBase]:
    """``model`` (a tool's arguments) refusing any argument the tool does not have, with a
    message naming the tool's arguments (the SDK would drop it silently)."""
    known = list(model.model_fields)

    def only_known(cls: type[ArgModelBase], data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(k for k in data if k not in known)
            if unknown:
                names = ", ".join(unknown)
                if known:
                    message = _(words.UNKNOWN_ARGUMENTS).format(
                        tool=tool, unknown=names, known=", ".join(known)
                    )
                else:
                    message = _(words.NO_ARGUMENTS).format(tool=tool, unknown=names)
                raise ValueError(message)
        return data

    # named for the tool: the SDK's error reads "1 validation error for new_game arguments"
    validator = model_validator(mode="before")(classmethod(only_known))  # type: ignore[arg-type]
    strict_model: type[ArgModelBase] = type(f"{tool} arguments", (model,), {"only_known": validator})
    return strict_model


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
        target: int | None = None,
    ) -> CallToolResult:
        """Start a new game: you are player 0, bots play the others.

        edition: classic, harry-potter, cars2 or modern. players: 2 to 10, you included. bots: one bot
        for every other player (greedy, random, search, learned; options as in
        'search:budget=100'), or one per other player separated by commas. house_rules: RULES
        section 11's house rules, e.g. 'party' or 'stacking,jump_in' (empty: none). seed: your
        choice of deal, to replay a game (empty: a secret one). target: the score that ends the
        game (empty: 500). Answers your first view.
        """
        try:
            game["table"] = Table(edition, players, bots, house_rules, seed, target)
        except TableError as exc:
            raise ToolError(str(exc)) from None
        return answer(game["table"].observe())

    @server.tool()
    def observe() -> CallToolResult:
        """Your view: your hand, the top card and colour, every seat's card count, whose turn it
        is, your legal actions in the notation, the events since your last call (in words);
        hand_over, game_over and the results when they happen; the seats' names and the scores
        when they changed since your last call."""
        return answer(table().observe())

    @server.tool()
    def act(action: str) -> CallToolResult:
        """Take one of your legal actions, written as observe lists it ('play R5', 'play W G',
        'draw', 'pass', 'uno', 'catch 1', 'challenge', 'accept'; 'next' once a hand is over).
        The bots then play until you have a decision to make; answers your view then. An action
        you may not take now is an error and changes nothing."""
        t = table()
        try:
            t.act(action)
        except TableError as exc:
            raise ToolError(str(exc)) from None
        return answer(t.observe())

    @server.tool()
    def rules() -> str:
        """The rules of the game in force, in words, how to write actions, and every card code
        of the deck with its name."""
        return table().rules_in_words()

    for tool in server._tool_manager.list_tools():
        meta = tool.fn_metadata
        meta.arg_model = strict(meta.arg_model, tool.name)
    return server


def main() -> int:
    """``uno mcp``: serve over stdio until the client closes it."""
    build_server().run("stdio")
    return 0
