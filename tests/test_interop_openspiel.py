"""The OpenSpiel bridge (unotable.interop.openspiel): OpenSpiel's own random-simulation checks,
a Game Arena-style loop over strings, and hidden information."""

from __future__ import annotations

import importlib
import os
import pickle
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
pyspiel = _need("pyspiel")
_need("unotable.interop.openspiel")  # registers python_unotable

from unotable.errors import ConfigError  # noqa: E402
from unotable.interop.table import Table  # noqa: E402
from unotable.interop.text import event_text  # noqa: E402


@pytest.mark.parametrize(
    "name",
    [
        "python_unotable",
        "python_unotable(players=3,edition=harry-potter,house=party,max_actions=400)",
        "python_unotable(players=4,house=popular,max_actions=400)",
        "python_unotable(players=2,edition=cars2,max_actions=400)",
    ],
)
def test_random_sim_test_passes(name: str) -> None:
    """OpenSpiel's own checks (legal actions, chance outcomes, clones, observations,
    serialization) over random play of each configuration."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_returns_are_zero_sum_at_every_table_size() -> None:
    """-1 to each player who did not go out, players - 1 to the winner (Liar's Poker's rule)."""
    for players in (2, 3, 5):
        game = pyspiel.load_game(f"python_unotable(players={players},max_actions=3000)")
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.utility_sum() == 0.0 and game.max_utility() == players - 1
        rng = random.Random(players)
        for _ in range(3):
            state = _deal(game, rng)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            returns = state.returns()
            assert sum(returns) == 0.0
            assert sorted(returns) in ([-1.0] * (players - 1) + [players - 1.0], [0.0] * players)


def test_parameters_make_the_rules() -> None:
    game = pyspiel.load_game("python_unotable(players=3,edition=hp,house=stacking:same+jump_in)")
    assert game.num_players() == 3
    assert game.rules.edition.name == "harry-potter"
    assert game.rules.stacking == "same"
    assert game.rules.jump_in
    assert (
        pyspiel.load_game(
            "python_unotable", {"players": 3, "edition": "hp", "house": "stacking=same,jump_in"}
        ).rules
        == game.rules
    )
    assert game.num_distinct_actions() == Table(game.rules).actions_table.size
    assert game.get_type().short_name == "python_unotable"
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize(
    "bad", ["python_unotable(players=11)", "python_unotable(edition=nope)", "python_unotable(max_actions=0)"]
)
def test_bad_parameters_are_refused(bad: str) -> None:
    with pytest.raises(ConfigError):
        pyspiel.load_game(bad)


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("python_unotable(colour=1)")


def _deal(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(rng.choice(outcomes))
    return state


def test_game_arena_style_loop_over_strings() -> None:
    """What an LLM harness does: load by name, read the string observation, pick a legal
    action by its string, apply it; a whole two-player hand to its end."""
    game = pyspiel.load_game("python_unotable")
    rng = random.Random(3)
    state = _deal(game, rng)
    turns = 0
    while not state.is_terminal():
        player = state.current_player()
        obs = state.observation_string(player)
        strings = [state.action_to_string(player, a) for a in state.legal_actions()]
        assert obs.endswith("legal: " + ", ".join(strings))
        choice = rng.choice(strings)
        state.apply_action(state.string_to_action(choice))
        turns += 1
    assert turns > 0
    returns = state.returns()
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiels_rl_environment_and_bots_run_it() -> None:
    """OpenSpiel's rl_environment (what its DQN, NFSP, PPO train on) and its C++ bot evaluator."""
    rl_environment = _need("open_spiel.python.rl_environment")
    random_agent = _need("open_spiel.python.algorithms.random_agent")
    env = rl_environment.Environment("python_unotable", max_actions=300)
    num_actions = env.action_spec()["num_actions"]
    assert env.observation_spec()["info_state"] == (370,) and num_actions == 132
    agents = [random_agent.RandomAgent(player_id=p, num_actions=num_actions) for p in range(2)]
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        output = agents[player].step(time_step)
        assert output.action in legal
        time_step = env.step([output.action])
    assert sorted(time_step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    game = pyspiel.load_game("python_unotable")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(2)]
    assert sorted(pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)) in ([-1.0, 1.0], [0.0, 0.0])


def _decision_state(game: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = _deal(game, rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_an_opponents_hidden_card_does_not_change_the_observation() -> None:
    """Seat 0's observation (string and tensor) is the same whatever card seat 1 holds, while
    seat 1's own observation changes."""
    game = pyspiel.load_game("python_unotable(players=2)")
    checked = 0
    for seed in range(20):
        state = _decision_state(game, seed, seed * 3)
        if state.is_terminal():
            continue
        other = state.clone()
        st = other.hand.table.state
        i = next((i for i, c in enumerate(st.draw) if c != st.hands[1][0]), None)
        if i is None:
            continue
        st.hands[1][0], st.draw[i] = st.draw[i], st.hands[1][0]
        assert state.observation_string(0) == other.observation_string(0)
        assert np.array_equal(state.observation_tensor(0), other.observation_tensor(0))
        assert state.observation_string(1) != other.observation_string(1)
        checked += 1
    assert checked >= 10


def test_resampling_keeps_what_the_seat_sees_and_ismcts_runs() -> None:
    """resample_from_infostate deals the hidden cards again (from the seat's view alone): the
    seat's observation is the same, the other hand changes; OpenSpiel's ISMCTS plays with it."""
    ismcts = _need("open_spiel.python.algorithms.ismcts")
    mcts = _need("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game("python_unotable(max_actions=60)")
    state = _decision_state(game, 4, 6)
    assert not state.is_terminal()
    me = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(me, sampler) for _ in range(5)]
    for other in samples:
        assert other.observation_string(me) == state.observation_string(me)
        assert other.legal_actions() == state.legal_actions()
    theirs = {tuple(sorted(o.hand.table.state.hands[1 - me])) for o in samples}
    assert len(theirs) > 1
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(1),
        use_observation_string=True,
    )
    assert bot.step(state) in state.legal_actions()


def test_information_state_shows_only_the_seats_own_cards() -> None:
    """The information state string has seat 0's dealt cards and no card of seat 1's deal."""
    game = pyspiel.load_game("python_unotable")
    state = _decision_state(game, 5, 30)
    t = state.hand.table
    deal = [e for e in t.events if e.kind == "draw" and e.reason == "deal"]
    assert len(deal) == 2 and all(e.visible_to == {e.seat} for e in deal)
    text = state.information_state_string(0)
    for e in deal:
        shown = event_text(e, 0)
        assert shown in text
        assert ('"cards"' in shown) == (e.seat == 0)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_a_state_pickles_and_serializes_to_the_same_hand() -> None:
    """As OpenSpiel's Python games do: a state rebuilt from its history (pickle, or
    serialize_game_and_state) is the same hand, observations and information states equal."""
    game = pyspiel.load_game("python_unotable(players=3)")
    state = _decision_state(game, 2, 40)
    copies = [
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ]
    for other in copies:
        assert other.history() == state.history()
        for p in range(3):
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_string(p) == state.information_state_string(p)
