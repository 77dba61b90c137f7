"""The RLCard bridge (unotable.interop.rlcard): RLCard's own agents play and train on it, its
observation is RLCard's encoding, the rlcard preset offers what RLCard's game offers, and a
seat's observation hides the other hands."""

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


np = pytest.importorskip("numpy")
rlcard = _need("rlcard")
torch = _need("torch")

from rlcard import models  # noqa: E402
from rlcard.agents import DQNAgent, NFSPAgent, RandomAgent  # noqa: E402
from rlcard.games.uno.utils import ACTION_LIST, encode_hand, encode_target  # noqa: E402
from rlcard.utils import reorganize  # noqa: E402

from unotable.errors import ConfigError  # noqa: E402
from unotable.interop import rlcard as bridge  # noqa: E402


def _random_states(env: Any, hands: int, seed: int) -> list[dict[str, Any]]:
    """The states met by random play over ``hands`` hands."""
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        state, _player = env.reset()
        while not env.is_over():
            out.append(state)
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
    return out


def test_make_by_id_and_rlcards_shapes() -> None:
    env = rlcard.make("unotable-uno", config={"seed": 0})
    assert isinstance(env, bridge.UnoEnv)
    assert env.num_players == 2 and env.num_actions == 61
    assert env.state_shape == [[4, 4, 15], [4, 4, 15]]
    state, player = env.reset()
    assert state["obs"].shape == (4, 4, 15) and player == env.get_player_id()
    assert all(0 <= a < 61 for a in state["legal_actions"])
    assert state["raw_legal_actions"] == [ACTION_LIST[a] for a in state["legal_actions"]]


def test_observation_is_rlcards_own_encoding() -> None:
    """Our ``obs`` equals RLCard's encode_hand/encode_target applied to our raw state."""
    env = rlcard.make("unotable-uno", config={"seed": 1})
    for state in _random_states(env, 5, 1):
        expected = np.zeros((4, 4, 15), dtype=int)
        encode_hand(expected[:3], state["raw_obs"]["hand"])
        encode_target(expected[3], state["raw_obs"]["target"])
        assert np.array_equal(state["obs"], expected)


def test_rlcard_preset_offers_what_rlcards_game_offers() -> None:
    """As RLCard's round does: draw only when no card plays, a Wild Draw Four only when no
    other card plays, every offered card matches the target's colour or trait (or is wild)."""
    env = rlcard.make("unotable-uno", config={"seed": 2})
    seen_draw = seen_wd4 = 0
    for state in _random_states(env, 30, 2):
        legal = state["raw_legal_actions"]
        raw = state["raw_obs"]
        color, trait = raw["target"].split("-")
        if "draw" in legal:
            seen_draw += 1
            assert legal == ["draw"]
        if any(a.endswith("wild_draw_4") for a in legal):
            seen_wd4 += 1
            assert all(a.endswith("wild_draw_4") for a in legal)
        for a in legal:
            if a == "draw" or "wild" in a:
                continue
            c, t = a.split("-")
            assert c == color or (t == trait and "wild" not in trait), (a, raw["target"])
    assert seen_draw and seen_wd4


def test_a_drawn_card_is_played_as_rlcards_game_plays_it() -> None:
    """After ``draw``, as RLCard's round does: a wild card drawn is played (some colour), a card
    of the colour in force is played, any other is kept; the player never decides."""
    env = rlcard.make("unotable-uno", config={"seed": 9})
    rng = random.Random(9)
    seen = {"played": 0, "kept": 0}
    for _ in range(40):
        state, player = env.reset()
        while not env.is_over():
            legal = state["raw_legal_actions"]
            if legal != ["draw"]:
                state, player = env.step(rng.choice(list(state["legal_actions"])))
                continue
            raw = state["raw_obs"]
            color = raw["target"].split("-")[0]
            hand_before = len(raw["hand"])
            discard_before = len(env.game.table.state.discard)
            state, next_player = env.step(60)
            mine = env.get_state(player)["raw_obs"]
            if len(env.game.table.state.discard) > discard_before:  # the drawn card was played
                top = env.game.played[-1]
                assert "wild" in top or top.split("-")[0] == color, (top, color)
                assert len(mine["hand"]) == hand_before
                seen["played"] += 1
            elif not env.is_over() and len(mine["hand"]) == hand_before + 1:  # kept
                drawn = mine["hand"][-1]
                assert "wild" not in drawn and drawn.split("-")[0] != color, (drawn, color)
                assert next_player != player
                seen["kept"] += 1
            player = next_player
    assert seen["played"] and seen["kept"]


def test_rule_agent_plays_it_and_payoffs_are_zero_sum() -> None:
    """RLCard's uno-rule-v1 (as rlcard.models loads it) against RLCard's random agent."""
    env = rlcard.make("unotable-uno", config={"seed": 3})
    rule = models.load("uno-rule-v1").agents[0]
    env.set_agents([rule, RandomAgent(num_actions=env.num_actions)])
    results = []
    for _ in range(40):
        _trajectories, payoffs = env.run(is_training=False)
        results.append(tuple(payoffs))
    assert set(results) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert (1.0, -1.0) in results and (-1.0, 1.0) in results


def test_dqn_and_nfsp_train_on_it_unchanged() -> None:
    """RLCard's DQN (200 training steps, tiny network, CPU) and NFSP run as RLCard's
    examples run them."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny network: threads only add overhead on shared cores
    try:
        _train_dqn_and_nfsp()
    finally:
        torch.set_num_threads(threads)


def _train_dqn_and_nfsp() -> None:
    env = rlcard.make("unotable-uno", config={"seed": 4})
    dqn = DQNAgent(
        num_actions=env.num_actions,
        state_shape=env.state_shape[0],
        mlp_layers=[32],
        replay_memory_init_size=64,
        batch_size=16,
        train_every=1,
        update_target_estimator_every=50,
        device="cpu",
    )
    nfsp = NFSPAgent(
        num_actions=env.num_actions,
        state_shape=env.state_shape[1],
        hidden_layers_sizes=[32],
        q_mlp_layers=[32],
        q_replay_memory_init_size=64,
        q_batch_size=16,
        min_buffer_size_to_learn=64,
        batch_size=16,
        device="cpu",
    )
    env.set_agents([dqn, nfsp])
    while dqn.train_t < 200:
        nfsp.sample_episode_policy()
        trajectories, payoffs = env.run(is_training=True)
        trajectories = reorganize(trajectories, payoffs)
        for ts in trajectories[0]:
            dqn.feed(ts)
        for ts in trajectories[1]:
            nfsp.feed(ts)
    assert dqn.train_t >= 200
    state, _player = env.reset()
    action, info = dqn.eval_step(state)
    assert action in state["legal_actions"] and np.all(np.isfinite(list(info["values"].values())))


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    env = rlcard.make("unotable-uno", config={"seed": 5, "allow_step_back": True})
    state, player = env.reset()
    illegal = next(a for a in range(61) if a not in state["legal_actions"])
    with pytest.raises(ValueError):
        env.step(illegal)
    with pytest.raises(ValueError):
        env.step(61)
    assert env.get_player_id() == player
    assert np.array_equal(env.get_state(player)["obs"], state["obs"])
    env.step(next(iter(state["legal_actions"])))
    assert env.step_back() is not False
    assert np.array_equal(env.get_state(player)["obs"], state["obs"])


def test_an_opponents_hidden_card_does_not_change_the_observation() -> None:
    env = rlcard.make("unotable-uno", config={"seed": 6})
    checked = 0
    for _ in range(20):
        _state, player = env.reset()
        st = env.game.table.state
        other = 1 - player
        i = next((i for i, c in enumerate(st.draw) if c != st.hands[other][0]), None)
        if i is None:
            continue
        before = env.get_state(player)
        theirs = env.get_state(other)
        st.hands[other][0], st.draw[i] = st.draw[i], st.hands[other][0]
        after = env.get_state(player)
        assert np.array_equal(before["obs"], after["obs"])
        assert before["raw_obs"] == after["raw_obs"]
        assert not np.array_equal(theirs["obs"], env.get_state(other)["obs"])
        checked += 1
    assert checked >= 10


def test_presets_and_bad_config() -> None:
    assert bridge.preset_rules("rlcard").no_bluffing and bridge.preset_rules("rlcard").uno_call == "silent"
    assert bridge.preset_rules("official") == bridge.preset_rules("official", 2)
    assert not bridge.preset_rules("official").no_bluffing
    with pytest.raises(ConfigError):
        bridge.UnoEnv({"preset": "house"})
    with pytest.raises(ConfigError):
        bridge.UnoEnv({"max_actions": 0})


def test_the_same_seed_deals_the_same_hands() -> None:
    a = rlcard.make("unotable-uno", config={"seed": 7})
    b = rlcard.make("unotable-uno", config={"seed": 7})
    for _ in range(3):
        (sa, pa), (sb, pb) = a.reset(), b.reset()
        assert pa == pb and sa["raw_obs"] == sb["raw_obs"]
    assert rlcard.make("unotable-uno", config={"seed": 8}).reset()[0]["raw_obs"] != sa["raw_obs"]
