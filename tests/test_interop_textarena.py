"""The TextArena bridge (unotable.interop.textarena): whole games through TextArena's make,
wrappers and loop, invalid replies refused as TextArena refuses them, hidden information."""

from __future__ import annotations

import importlib
import os
import random
from typing import Any

import pytest


def _need(name: str) -> Any:
    """The interop extra's module ``name``: skipped without it, except where
    ``UNOTABLE_REQUIRE_INTEROP`` is set (CI sets it; ``make test`` installs the extra)."""
    if os.environ.get("UNOTABLE_REQUIRE_INTEROP"):
        return importlib.import_module(name)
    return pytest.importorskip(name)


ta = _need("textarena")

from unotable.i18n import use_language  # noqa: E402
from unotable.interop import textarena as bridge  # noqa: E402


class Scripted(ta.Agent):  # type: ignore[name-defined,misc]
    """A TextArena agent that answers from the observation text: a random offered action."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: str) -> str:
        legal = observation.rsplit("legal: ", 1)[1].splitlines()[0].split(", ")
        return f"Thinking... I choose [{self.rng.choice(legal)}]."


def _play(env: Any, players: int, seed: int, board: bool = False) -> tuple[dict[int, float], int]:
    env.reset(num_players=players, seed=seed)
    agents = [Scripted(seed * 10 + p) for p in range(players)]
    done, steps = False, 0
    while not done:
        player, observation = env.get_observation()
        if board:
            observation = env.get_board_str()
        done, _info = env.step(agents[player](observation))
        steps += 1
    rewards, _game_info = env.close()
    return rewards, steps


@pytest.mark.parametrize(("env_id", "players"), [("UNO-v0", 2), ("UNO-v0-train", 3), ("UNO-v0-raw", 4)])
def test_whole_games_through_textarenas_make_and_loop(env_id: str, players: int) -> None:
    env = ta.make(env_id, max_actions=400)
    for seed in range(2):
        rewards, steps = _play(env, players, seed, board=env_id.endswith("raw"))
        assert steps > 0
        assert set(rewards) == set(range(players))
        assert sorted(rewards.values()) in ([-1] * (players - 1) + [1], [0] * players)


def test_house_rules_and_editions_load() -> None:
    env = ta.make("UNO-v0-raw", edition="harry-potter", house="stacking=same,jump_in", max_actions=300)
    rewards, _steps = _play(env, 3, 5, board=True)
    assert len(rewards) == 3


def test_an_invalid_reply_is_refused_then_loses() -> None:
    env = ta.make("UNO-v0")
    env.reset(num_players=2, seed=7)
    player, _observation = env.get_observation()
    board = env.get_board_str()
    done, _info = env.step("[fly to the moon]")
    assert not done
    again, observation = env.get_observation()
    assert again == player and env.get_board_str() == board
    assert "invalid move" in observation and "[draw]" in observation
    done, _info = env.step("no brackets at all")
    assert done
    rewards, game_info = env.close()
    assert rewards[player] == -1 and rewards[1 - player] == 1
    assert game_info[player]["invalid_move"]


def test_at_three_players_the_offender_loses_and_the_others_draw() -> None:
    env = ta.make("UNO-v0-raw", error_allowance=0)
    env.reset(num_players=3, seed=9)
    player, _observation = env.get_observation()
    done, _info = env.step("pass the salt")
    assert done
    rewards, _game_info = env.close()
    assert rewards == {s: (-1 if s == player else 0) for s in range(3)}


def test_a_reply_is_read_case_and_spacing_aside() -> None:
    env = ta.make("UNO-v0-raw")
    env.reset(num_players=2, seed=8)
    table = env.table
    legal = [table.actions_table.texts[a] for a in table.legal()]
    choice = legal[0]
    assert env._parse(f"ok [  {choice.upper()} ]") == table.legal()[0]
    assert env._parse("[nothing] then [" + choice + "]") == table.legal()[0]
    assert env._parse("") is None


def test_an_opponents_hidden_card_does_not_change_what_a_player_reads() -> None:
    env = ta.make("UNO-v0-raw")
    checked = 0
    for seed in range(15):
        env.reset(num_players=2, seed=seed)
        table = env.table
        me = table.actor
        other = 1 - me
        st = table.state
        i = next((i for i, c in enumerate(st.draw) if c != st.hands[other][0]), None)
        if i is None:
            continue
        mine, theirs = env._board(me), env._board(other)
        st.hands[other][0], st.draw[i] = st.draw[i], st.hands[other][0]
        assert env._board(me) == mine
        assert env._board(other) != theirs
        checked += 1
    assert checked >= 10


def test_messages_never_name_another_players_drawn_cards() -> None:
    """Every message a player received about another's draw says how many, never which."""
    env = ta.make("UNO-v0-raw", max_actions=200)
    env.reset(num_players=2, seed=11)
    seen: dict[int, list[str]] = {0: [], 1: []}
    agents = [Scripted(1), Scripted(2)]
    done = False
    while not done:
        player, observation = env.get_observation()
        seen[player].extend(m for _f, m, _t in observation)
        done, _info = env.step(agents[player](env.get_board_str()))
    for player, messages in seen.items():
        other = f"Player {1 - player} drew "
        for m in messages:
            if m.startswith(other) and "for the deal" not in m:
                assert " card" in m.split("(")[0], m


def test_bad_options_are_refused() -> None:
    with pytest.raises(Exception, match="edition"):
        bridge.UnoEnv(edition="nope")
    with pytest.raises(Exception, match="max_actions"):
        bridge.UnoEnv(max_actions=0)


def test_the_prompt_speaks_the_language_in_force() -> None:
    with use_language("fr"):
        env = ta.make("UNO-v0-raw")
        env.reset(num_players=2, seed=0)
        _player, observation = env.get_observation()
    assert observation[0][1].startswith("Tu es Player ")
    assert any("[play W G uno]" in m for _f, m, _t in observation)
