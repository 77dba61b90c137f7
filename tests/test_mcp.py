"""``uno mcp``: the MCP server, driven by the official SDK's own client over stdio (a subprocess
running ``python -m unotable mcp``): a whole hand against bots, an illegal action refused with
nothing changed, and answers made of the player's view only."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

from unotable.mcp.table import YOU, Table, TableError


def run(session: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "unotable", "mcp"])
        async with Client(params) as client:
            await session(client)

    asyncio.run(main())


def text_of(result: Any) -> str:
    """The text of a tool's answer."""
    text = getattr(result.content[0], "text", None)
    assert isinstance(text, str)
    return text


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content if result.structured_content is not None else text_of(result)


def assert_view_only(answer: dict[str, Any], twin: Table) -> None:
    """Nothing in the answer that the player's seat may not see."""
    seat = answer["you"]["seat"]
    assert answer["hand"] == answer["view"]["hand"]
    assert "hands" not in answer["view"] and "draw_pile" not in answer["view"]
    for e in answer["events"]:
        ev = e["event"]
        if ev["kind"] == "draw" and ev.get("seat") != seat:
            assert "cards" not in ev, ev  # another seat's drawn cards stay hidden
    # the same game in this process: the server's answer is the twin's, built from the view
    assert answer == twin.observe()
    st = twin.game.state
    lists = [sorted(x) for x in _lists(answer) if x and all(isinstance(c, str) for c in x)]
    for s in range(st.n):  # no other seat's hand as a list anywhere in the answer
        if s != seat and len(st.hands[s]) > 1:
            codes = sorted(twin.game.view(twin.game.player_at(s)).to_dict()["hand"])
            known = sorted(answer["view"]["known"].get(str(s), []))  # shown to this seat (a challenge)
            assert codes not in lists or codes in (sorted(answer["hand"]), known)


def _lists(x: Any) -> list[list[Any]]:
    """Every list in ``x``."""
    if isinstance(x, dict):
        return [y for v in x.values() for y in _lists(v)]
    if isinstance(x, list):
        return [x, *(y for v in x for y in _lists(v))]
    return []


def test_a_whole_hand_against_bots_over_stdio() -> None:
    async def session(client: Client) -> None:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == {"new_game", "observe", "act", "rules"}
        answer = await call(client, "new_game", edition="classic", players=3, bots="greedy,random", seed=12)
        twin = Table("classic", 3, "greedy,random", "", 12)
        assert answer["seed"] == 12 and answer["players"][1]["name"].startswith("greedy")
        assert_view_only(answer, twin)
        moves = 0
        while not answer["hand_over"]:
            assert answer["your_turn"] or answer["legal_actions"] == []
            action = answer["legal_actions"][0]
            answer = await call(client, "act", action=action)
            twin.act(action)
            assert_view_only(answer, twin)
            moves += 1
        assert moves > 0 and answer["legal_actions"] == ["next"]
        assert answer["hand_result"]["in_words"].endswith("points).")
        assert answer["scores"]["hands_played"] == 1
        assert any("went out" in e["text"] or "played" in e["text"] for e in answer["events"]) or moves
        answer = await call(client, "act", action="next")  # the next hand is dealt
        twin.act("next")
        assert not answer["hand_over"] and answer["scores"]["hands_played"] == 1
        assert_view_only(answer, twin)
        rules = await client.call_tool("rules", {})
        text = text_of(rules)
        assert "RULES: UNO (classic), 3 players" in text and "'play R5'" in text

    run(session)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    async def session(client: Client) -> None:
        refused = await client.call_tool("observe", {})
        assert refused.is_error and "new_game" in str(text_of(refused))
        await call(client, "new_game", players=2, seed=4)
        before = await call(client, "observe")  # the events are read: the next view has none
        assert before["events"] == [] and before["your_turn"]
        for bad in ("play Q9", "challenge", "catch 1", "next", ""):
            result = await client.call_tool("act", {"action": bad})
            assert result.is_error and "not one of your actions" in text_of(result)
        assert await call(client, "observe") == before
        bad_game = await client.call_tool("new_game", {"players": 11})
        assert bad_game.is_error and "players" in text_of(bad_game)
        assert await call(client, "observe") == before  # the game goes on
        fresh = await call(client, "new_game", players=2)
        assert "seed" not in fresh  # a secret seed is never shown

    run(session)


def test_table_refuses_bad_games_and_plays_whole_games() -> None:
    with pytest.raises(TableError, match="one bot for every other player"):
        Table(players=4, bots="greedy,random")
    with pytest.raises(TableError, match="unknown bot"):
        Table(bots="nobody")
    with pytest.raises(TableError):
        Table(house_rules="nonsense")
    t = Table("harry-potter", 4, "greedy", "party", seed=3)
    assert t.rules.stacking and t.observe()["you"] == {"player": YOU, "seat": t.game.seat_of(YOU)}
    casual, exact = Table(players=2, seed=4), Table(players=2, seed=4)
    first = exact.legal()[0]
    exact.act(first)
    casual.act("  " + first.upper().replace(" ", "   ") + " ")  # spaces and case are the player's
    assert casual.observe() == exact.observe()
    for _ in range(5000):
        if t.game.finished:
            break
        t.act(t.legal()[-1])  # draws, passes, declines: a long game
    assert t.game.finished
    over = t.observe()
    assert over["game_over"] and over["legal_actions"] == [] and over["game_result"]["winners"]
    with pytest.raises(TableError, match="game is over"):
        t.act("draw")


def test_uno_mcp_without_the_extra_says_so() -> None:
    code = "import sys; sys.modules['mcp'] = None\nfrom unotable.cli import main\nsys.exit(main(['mcp']))"
    cmd = [sys.executable, "-c", code]
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "uno mcp needs the [mcp] extra" in out.stderr
