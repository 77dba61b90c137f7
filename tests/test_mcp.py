"""``uno mcp``: the MCP server, driven by the official SDK's own client over stdio (a subprocess
running ``python -m unotable mcp``): a whole hand against bots, an illegal action refused with
nothing changed, and answers made of the player's view only."""

from __future__ import annotations

import asyncio
import os
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
        # the whole environment: the SDK passes a few variables only, and without PYTHONPATH the
        # server would import the installed unotable rather than the sources under test
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "unotable", "mcp"], env=dict(os.environ)
        )
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
    seat = twin.game.seat_of(YOU)
    assert seat is not None
    assert answer["hand"] == twin.view().to_dict()["hand"]
    assert "view" not in answer and "hands" not in answer and "draw_pile" not in answer
    # the same game in this process: the server's answer is the twin's, built from the view
    assert answer == twin.observe()
    st = twin.game.state
    lists = [sorted(x) for x in _lists(answer) if x and all(isinstance(c, str) for c in x)]
    for s in range(st.n):  # no other seat's hand as a list anywhere in the answer
        if s != seat and len(st.hands[s]) > 1:
            codes = sorted(twin.game.view(twin.game.player_at(s)).to_dict()["hand"])
            known = sorted(answer.get("known_cards", {}).get(str(s), []))  # shown to this seat (a challenge)
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
        assert tools == {"new_game", "observe", "act", "rules", "join_room", "leave_room"}
        answer = await call(client, "new_game", edition="classic", players=3, bots="greedy,random", seed=12)
        twin = Table("classic", 3, "greedy,random", "", 12)
        assert answer["seed"] == 12 and answer["seats"][1].startswith("greedy")
        assert_view_only(answer, twin)
        moves = 0
        while not answer.get("hand_over"):
            assert answer["your_turn"] or answer["legal_actions"] == []
            action = answer["legal_actions"][0]
            answer = await call(client, "act", action=action)
            twin.act(action)
            assert_view_only(answer, twin)
            moves += 1
        assert moves > 0 and answer["legal_actions"] == ["next"]
        assert answer["hand_result"].endswith("points).")
        assert answer["scores"]["hands_played"] == 1  # the scores changed: they are said again
        assert any("went out" in e or "played" in e for e in answer["events"]) or moves
        answer = await call(client, "act", action="next")  # the next hand is dealt
        twin.act("next")
        assert "hand_over" not in answer and "scores" not in answer  # the scores did not change
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
    assert (
        over["game_over"]
        and over["legal_actions"] == []
        and over["game_result"].startswith("The game is over")
    )
    with pytest.raises(TableError, match="game is over"):
        t.act("draw")


def test_uno_mcp_without_the_extra_says_so() -> None:
    code = "import sys; sys.modules['mcp'] = None\nfrom unotable.cli import main\nsys.exit(main(['mcp']))"
    cmd = [sys.executable, "-c", code]
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "uno mcp needs the [mcp] extra" in out.stderr


def test_answers_are_compact_over_a_whole_game() -> None:
    """Issue 33: answers averaged 2.2-3.4 KB (the view repeated the top level); now each fact is
    said once, the names and scores only when they change, and the events since the last call
    only. A whole game to 500, the player deciding as the greedy bot would."""
    import json  # noqa: PLC0415

    from unotable.bots import make_bot  # noqa: PLC0415
    from unotable.notation import ACTION_TEXT  # noqa: PLC0415

    t = Table("classic", 3, "greedy", "", seed=8)
    me = make_bot("greedy", seed=8)
    sizes = []
    answer = t.observe()
    assert {"you", "seats", "scores"} <= set(answer)
    while not t.game.finished:
        if t.legal() == ["next"]:
            t.act("next")
        elif t.game.current_player == YOU:
            t.act(ACTION_TEXT[me.act(t.view())])
        else:
            choice = me.react(t.view())
            assert choice is not None
            t.act(ACTION_TEXT[choice])
        answer = t.observe()
        sizes.append(len(json.dumps(answer, separators=(",", ":"))))
        assert "view" not in answer and "hand_in_words" not in answer
        assert t.observe()["events"] == []  # consumed: an answer holds the events since the last one
        assert "seats" not in t.observe()  # said once
    assert answer["game_over"] and "scores" in answer
    assert len(sizes) > 20 and sum(sizes) / len(sizes) < 800 and sorted(sizes)[len(sizes) // 2] < 800


def test_target_unknown_arguments_and_every_card_code_in_the_rules() -> None:
    async def session(client: Client) -> None:
        answer = await call(client, "new_game", players=2, seed=3, target=50)
        assert answer["scores"]["target"] == 50
        for tool, arguments, named in (
            ("new_game", {"players": 2, "colour": "red"}, "colour"),
            ("act", {"action": "draw", "card": "R5"}, "card"),
            ("observe", {"verbose": True}, "verbose"),
        ):
            result = await client.call_tool(tool, arguments)
            text = text_of(result)
            assert result.is_error and f"{tool} " in text and named in text
        refused = await client.call_tool("new_game", {"players": 2, "colour": "red"})
        assert "Its arguments: edition, players, bots, house_rules, seed, target" in text_of(refused)
        assert (await call(client, "observe"))["events"] == []  # the game (target 50) goes on
        bad = await client.call_tool("new_game", {"players": 2, "target": 0})
        assert bad.is_error and "target" in text_of(bad)

    run(session)
    from unotable.cards import CARD_CODE  # noqa: PLC0415

    for edition in ("classic", "harry-potter", "cars2", "modern", "all-wild", "no-mercy", "flip"):
        t = Table(edition, 3, "greedy", "", seed=1)
        text = t.rules_in_words()
        for card in set(t.rules.deck()) | set(t.rules.edition.dark_deck()):
            assert f"{CARD_CODE[card]} = " in text, (edition, CARD_CODE[card])
    flip = Table("flip", 3, "greedy", "", seed=1).observe()  # docs/rules.md §15, FL-2
    assert flip["side"] == "light" and set(flip["others_faces_you_see"]) == {"1", "2"}
    assert all(len(faces) == flip["cards_held"][int(s)] for s, faces in flip["others_faces_you_see"].items())
    hp = Table("harry-potter", 3, "greedy", "", seed=1).rules_in_words()
    assert "HOWLER = Howler" in hp and "INVIS = Invisibility" in hp
    assert "MATER = Mater" in Table("cars2", 3, "greedy", "", seed=1).rules_in_words()
