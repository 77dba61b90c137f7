"""``uno mcp``'s seat at a real table: ``python -m unotable mcp`` driven by the MCP SDK's own
client over stdio joins a room of an in-process ``uno serve`` (a loopback port) by its invite
link, plays a whole hand against the room's bot through the server, and leaves; the answers hold
nothing of the bot's hand; the server's refusals come back as tool errors with their codes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client

from test_mcp import run, text_of
from unotable.mcp.remote import RoomError, parse_room
from unotable.web.client import http_json

from .conftest import LiveServer


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def card_lists(x: Any) -> list[list[str]]:
    """Every list in ``x``, the answer's own hand and the cards shown to it left out."""
    if isinstance(x, dict):
        return [y for k, v in x.items() if k not in ("hand", "known_cards") for y in card_lists(v)]
    if isinstance(x, list):
        return [x, *(y for v in x for y in card_lists(v))]
    return []


def test_an_ai_plays_a_whole_hand_at_a_real_room(live: LiveServer) -> None:
    code = live.room(
        {"edition": "classic", "players": 2, "seats": ["human", "greedy"], "target": 1, "bot_delay": 0}
    )
    invite = f"{live.http}/r/{code}"
    answers: list[dict[str, Any]] = []

    async def session(client: Client) -> None:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {"join_room", "leave_room", "observe", "act", "rules"} <= tools
        answer = await call(client, "join_room", room=invite, name="Claude")
        answers.append(answer)
        assert answer["you"] == {"player": 0, "seat": 0, "room": code}
        assert answer["seats"][0] == "Claude (you)" and answer["seats"][1].startswith("greedy")
        assert "token" not in str(answer) and "rejoin" not in str(answer)
        refused = await client.call_tool("act", {"action": "play Q9"})
        # checked here, never sent; the seat's turn may have come since the join's answer (the
        # bot moved meanwhile), so either refusal is the tool's own
        said = ("not one of your actions", "You have no action now")
        assert refused.is_error and any(s in text_of(refused) for s in said), text_of(refused)
        assert "refused it" not in text_of(refused)
        rules = text_of(await client.call_tool("rules", {}))
        assert "RULES: UNO (classic), 2 players" in rules and "W+4 = " in rules
        moves = refused_late = 0
        while not answer.get("game_over"):
            assert moves < 500
            legal = answer["legal_actions"]
            if not legal:  # the bot's turn still: wait for ours
                answer = await call(client, "observe", wait=10)
                answers.append(answer)
                continue
            plays = sorted((a for a in legal if a.startswith("play")), key=lambda a: not a.endswith(" uno"))
            result = await client.call_tool("act", {"action": (plays or legal)[0], "wait": 10})
            if result.is_error:
                # an out-of-turn action (a late UNO, a catch) the bot's next move closed first:
                # the server refused it and nothing changed (or the tool did, when the bot's move
                # reached it before the call: then it has no action for the seat at all)
                late = ("refused it (illegal)", "not one of your actions", "You have no action now")
                assert any(s in text_of(result) for s in late) and not answer["your_turn"], text_of(result)
                refused_late += 1
                answer = await call(client, "observe", wait=10)
            else:
                assert isinstance(result.structured_content, dict)
                answer = result.structured_content
                # the answer is the state after the action: its events tell of it
                assert any(e.startswith("Claude (you) ") for e in answer["events"]), answer
                moves += 1
            answers.append(answer)
        assert moves > 0 and answer["legal_actions"] == ["rematch"]
        assert answer["hand_over"] and answer["hand_result"].endswith("points).")
        # one hand, or more if a hand was won with 0 points (the loser left only zeros)
        assert answer["scores"]["hands_played"] >= 1 and answer["game_result"].startswith("The game is over")
        assert any(" drew " in e or " played " in e for a in answers for e in a["events"])
        left = await call(client, "leave_room")
        assert left["left"] == code and left["rejoin_link"].startswith(f"{live.http}/r/{code}?rejoin=")
        gone = await client.call_tool("observe", {})
        assert gone.is_error and "new_game" in text_of(gone)

    run(session)
    # Every hand of the bot during the game (the replay, face up now that it is over): none of
    # them (of more than one card) is anywhere in what the AI was told.
    bot_hands: set[tuple[str, ...]] = set()
    ai_hands: set[tuple[str, ...]] = set()
    start: int | None = 0
    while start is not None:
        page = http_json(live.http, "GET", f"/api/rooms/{code}/games/0?from={start}&count=200")
        for step in page["steps"]:
            hands = dict(zip(step["seating"], step["hands"], strict=True))  # by player
            bot_hands.add(tuple(sorted(hands[1])))
            ai_hands.add(tuple(sorted(hands[0])))
        start = page["next"]
    assert len(bot_hands) > 3
    for answer in answers:
        assert tuple(sorted(answer.get("hand", []))) in ai_hands or "hand" not in answer
        for cards in card_lists(answer):
            if len(cards) > 1 and all(isinstance(c, str) for c in cards):
                assert tuple(sorted(cards)) not in bot_hands, (cards, answer)
    # the bot's cards never appear as more than the AI could know: not in any answer's lists
    told = Counter(c for a in answers for lst in card_lists(a) for c in lst if isinstance(c, str))
    assert told  # the answers were read


def test_the_servers_refusals_are_tool_errors(live: LiveServer) -> None:
    full = live.room({"edition": "classic", "players": 2, "seats": ["human", "greedy"]})
    live.join(full, "Ana")

    async def session(client: Client) -> None:
        for arguments, said in (
            ({"room": full, "server": live.http}, "room_full"),
            ({"room": "NOSUCHRM", "server": live.http}, "no_room"),
            ({"room": f"{live.http}/r/{full}?rejoin=wrong"}, "bad_rejoin"),
            ({"room": "../etc", "server": live.http}, "is not a room"),
            ({"room": full, "server": "ftp://x"}, "is not a server"),
        ):
            result = await client.call_tool("join_room", arguments)
            assert result.is_error and said in text_of(result), (arguments, text_of(result))
        result = await client.call_tool("leave_room", {})
        assert result.is_error and "join_room" in text_of(result)
        result = await client.call_tool("join_room", {"room": full, "colour": "red"})
        assert result.is_error and "colour" in text_of(result)

    run(session)


def test_room_codes_and_links() -> None:
    assert parse_room("k7m2qx9a") == ("http://127.0.0.1:8000", "K7M2QX9A", None)
    assert parse_room("K7M2QX9A", "http://10.0.0.2:8080/") == ("http://10.0.0.2:8080", "K7M2QX9A", None)
    assert parse_room(" https://uno.example.org/r/K7M2QX9A?rejoin=s3cret ") == (
        "https://uno.example.org",
        "K7M2QX9A",
        "s3cret",
    )
    for bad in ("", "K7 M2", "http://host/x/K7M2QX9A", "file:///r/K7M2QX9A", "http://host/r/K7/x"):
        with pytest.raises(RoomError):
            parse_room(bad)
