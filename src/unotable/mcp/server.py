"""The MCP server of ``uno mcp``: :class:`~unotable.mcp.table.Table`'s game as four tools over
stdio, with the official ``mcp`` SDK (the ``[mcp]`` extra).

- ``new_game(edition, players, bots, house_rules, seed, target)``: a new game, you against bots;
- ``observe()``: your seat's view, your legal actions and the events since the last call;
- ``act(action)``: one of your legal actions in the notation (an illegal one is a tool error
  and changes nothing); the bots then play to your next decision;
- ``rules()``: the rules in force, in words, and every card code of the deck;
- ``join_room(room, name, player, server)``: a seat at a real ``uno serve`` room instead (its
  code or invite link; :mod:`~unotable.mcp.remote`), played through the server with ``observe``
  and ``act`` (which then wait up to ``wait`` seconds for the seat's next decision), until
  ``leave_room()``.

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

from unotable.errors import ConfigError
from unotable.i18n import _
from unotable.mcp import words
from unotable.mcp.remote import MAX_WAIT, WAIT, RoomError, RoomSeat
from unotable.mcp.table import Table, TableError

INSTRUCTIONS = (
    "Play UNO against the project's bots. Call new_game, then observe to see your hand, the top "
    "card and your legal actions, and act with one of those actions, until game_over. "
    "rules() explains the rules in force and the notation. To sit at a real table of friends "
    "(a uno serve room), call join_room with its code or invite link instead, then observe and act "
    "the same way; leave_room when done."
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
    sitting: dict[str, RoomSeat] = {}

    def table() -> Table:
        t = game.get("table")
        if t is None:
            raise ToolError(_(words.NO_GAME))
        return t

    async def leave() -> dict[str, object] | None:
        seat = sitting.pop("seat", None)
        return None if seat is None else await seat.leave()

    def seconds(wait: float | None) -> float:
        if wait is None:
            return WAIT
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= MAX_WAIT:
            raise ToolError(_(words.BAD_WAIT).format(most=int(MAX_WAIT), wait=wait))
        return float(wait)

    @server.tool()
    async def new_game(
        edition: str = "classic",
        players: int = 2,
        bots: str = "greedy",
        house_rules: str = "",
        seed: int | None = None,
        target: int | None = None,
    ) -> CallToolResult:
        """Start a new game: you are player 0, bots play the others (you leave the room you
        were at, if any).

        edition: classic, harry-potter, cars2, modern, all-wild or no-mercy. players: 2 to 10, you
        included. bots: one bot for every other player (greedy, random, search, learned; options as in
        'search:budget=100'), or one per other player separated by commas. house_rules: RULES
        section 11's house rules, e.g. 'party' or 'stacking,jump_in' (empty: none). seed: your
        choice of deal, to replay a game (empty: a secret one). target: the score that ends the
        game (empty: 500). Answers your first view.
        """
        try:
            fresh = Table(edition, players, bots, house_rules, seed, target)
        except TableError as exc:
            raise ToolError(str(exc)) from None
        await leave()
        game["table"] = fresh
        return answer(fresh.observe())

    @server.tool()
    async def join_room(
        room: str, name: str = "AI", player: int | None = None, server: str | None = None
    ) -> CallToolResult:
        """Take a seat at a real table: a room of a uno serve (friends, bots) instead of a game
        of your own; observe and act then play there, through the server.

        room: the room's code (e.g. 'K7M2QX9A') or its invite link
        ('http://192.168.1.20:8000/r/K7M2QX9A'; a seat's own rejoin link takes that seat back).
        name: the name the others see. player: a seat by number (empty: the first free one).
        server: the server's address for a bare code (empty: http://127.0.0.1:8000). Answers
        your first view (or the room's status while it waits for players).
        """
        try:
            seat = await RoomSeat.join(room, name, player, server)
        except (RoomError, ConfigError) as exc:
            raise ToolError(str(exc)) from None
        await leave()
        game.pop("table", None)
        sitting["seat"] = seat
        return answer(await seat.observe(0))

    @server.tool()
    async def leave_room() -> CallToolResult:
        """Leave the room you joined: the connection closes and the room's away bot plays your
        seat after its grace, as for a person who left. Answers the seat's rejoin link, to take
        the seat back later (from a browser too)."""
        left = await leave()
        if left is None:
            raise ToolError(_(words.NO_ROOM))
        return answer(left)

    @server.tool()
    async def observe(wait: float | None = None) -> CallToolResult:
        """Your view: your hand, the top card and colour, every seat's card count, whose turn it
        is, your legal actions in the notation, the events since your last call (in words);
        hand_over, game_over and the results when they happen; the seats' names and the scores
        when they changed since your last call. At a room (join_room), waits first until you
        have a decision to make, for at most wait seconds (0 to 120, empty: 30)."""
        seat = sitting.get("seat")
        if seat is not None:
            try:
                return answer(await seat.observe(seconds(wait)))
            except RoomError as exc:
                raise ToolError(str(exc)) from None
        seconds(wait)
        return answer(table().observe())

    @server.tool()
    async def act(action: str, wait: float | None = None) -> CallToolResult:
        """Take one of your legal actions, written as observe lists it ('play R5', 'play W G',
        'draw', 'pass', 'uno', 'catch 1', 'challenge', 'accept'; 'next' once a hand is over;
        at a room, 'rematch' once the game is over). The bots then play until you have a
        decision to make (at a room: the server answers, then as observe with wait); answers
        your view then. An action you may not take now is an error and changes nothing."""
        seat = sitting.get("seat")
        if seat is not None:
            try:
                return answer(await seat.act(action, seconds(wait)))
            except RoomError as exc:
                raise ToolError(str(exc)) from None
        seconds(wait)
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
        seat = sitting.get("seat")
        if seat is not None:
            try:
                return seat.rules_in_words()
            except RoomError as exc:
                raise ToolError(str(exc)) from None
        return table().rules_in_words()

    for tool in server._tool_manager.list_tools():
        meta = tool.fn_metadata
        meta.arg_model = strict(meta.arg_model, tool.name)
    return server


def main() -> int:
    """``uno mcp``: serve over stdio until the client closes it."""
    build_server().run("stdio")
    return 0
