"""The vector env on the native core (issue 15) against the Python backend, its specification.

Native tables follow Python Drivers from the same seeds, action for action: the observation, the
mask, the agent, the rewards and the end flags are compared after every step, and the whole
hand (hidden parts included) and the turn every few steps; the random window order and the deal
seeds come from the same Mersenne Twister stream, so ``window_order="random"`` is compared as it
is. The observation is checked to come from the acting seat's view alone. Without the compiled
core (not built, or ``UNOTABLE_PURE=1``) only the fallback tests run.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from array import array
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from unotable import Rules, find_edition, view  # noqa: E402
from unotable.determinize import determinize  # noqa: E402
from unotable.env import VectorEnv, action_table  # noqa: E402
from unotable.env.batch import Batch  # noqa: E402
from unotable.env.driver import DECLINE, Driver  # noqa: E402
from unotable.env.encoding import layout_for, write_mask  # noqa: E402
from unotable.env.vector import PythonBackend  # noqa: E402
from unotable.errors import ConfigError  # noqa: E402
from unotable.native import COMPILED  # noqa: E402
from unotable.native import core as native  # noqa: E402
from unotable.rules import BlankEffect  # noqa: E402

needs_core = pytest.mark.skipif(not COMPILED, reason="the native core is not loaded")

FIELDS = ("observation", "action_mask", "agent", "rewards", "terminated", "truncated")


def configurations() -> Iterator[tuple[Rules, dict[str, Any]]]:
    """The three editions at 2-10 players, the options of the env turned in rotation over them,
    and the book's options and modes (hand episodes)."""
    k = 0
    for edition in ("classic", "harry-potter", "cars2"):
        for players in range(2, 11):
            options = {
                "reward": ("win", "points")[k % 2],
                "window_order": ("random", "play", "random")[k % 3],
                "max_actions": (None, None, 60, None, 25)[k % 5],
            }
            if k % 4 == 1:  # the hand cap (issue 33), else its default
                options["max_hand_actions"] = (40, None)[k % 8 // 4]
            k += 1
            yield Rules(edition=find_edition(edition), players=players), options
    yield Rules(players=3, must_play_drawn=True), {"reward": "points"}
    yield Rules(edition=find_edition("harry-potter"), players=2, must_play_drawn=True), {}
    yield Rules(players=4, scoring="lowest", target=60), {"reward": "points"}
    yield Rules(players=5, mode="challenge", target=40), {}
    yield Rules(players=4, mode="partners", target=50), {"reward": "points", "window_order": "play"}
    yield Rules(players=6, mode="teams", target=50), {}
    yield Rules(players=4, mode="rotating-partners"), {"reward": "points"}
    yield Rules(players=4, mode="two-tables"), {"window_order": "play", "max_actions": 90}
    yield (
        Rules(players=3, blanks=((0, 7), (1, BlankEffect(draw=2, skip=True)), (2, BlankEffect(wild=True)))),
        {"reward": "points"},
    )
    yield Rules(players=2, blanks=((3, BlankEffect(reverse=True, draw=1)), (1, 61))), {}
    yield (
        Rules(edition=find_edition("harry-potter"), players=4, birthdays=("07-30", None, "08-01", "01-01")),
        {"window_order": "play"},
    )
    # whole games: hands dealt as match.Game deals them, the scores carried and observed
    yield Rules(players=3, target=80), {"episode": "game"}
    yield Rules(edition=find_edition("cars2"), players=5, target=100), {"episode": "game", "max_actions": 400}
    yield Rules(players=4, mode="partners", target=60), {"episode": "game", "reward": "points"}
    yield Rules(players=6, mode="teams", target=100), {"episode": "game", "window_order": "play"}
    yield Rules(players=4, scoring="lowest", target=50), {"episode": "game"}
    yield (
        Rules(edition=find_edition("harry-potter"), players=2, target=100),
        {"episode": "game", "reward": "points"},
    )


def _plays(rules: Rules) -> Any:
    """Per env id: 4 for a play, 1 for the rest (the picks favour plays: hands end sooner)."""
    texts = action_table(rules).texts
    return np.array([4.0 if t.startswith("play") else 1.0 for t in texts])


def follow(
    rules: Rules, options: dict[str, Any], seed: int, tables: int, steps: int, state_every: int = 20
) -> dict[str, int]:
    """Step a Python and a native vector env side by side with the same actions; assert after
    every step that they wrote the same arrays, and every ``state_every`` steps that each table's
    hand (hidden parts included) and turn are the Driver's. Counts of what was met."""
    py = VectorEnv(tables, rules, backend="python", **options)
    nat = VectorEnv(tables, rules, backend="native", **options)
    assert isinstance(py.backend, PythonBackend) and nat.backend.name == "native"
    a, b = py.reset(seed), nat.reset(seed)
    weight = _plays(rules)
    window = layout_for(rules).by_name["window_turn"].start
    rng = np.random.default_rng(seed)
    seen = {"steps": 0, "terminated": 0, "truncated": 0, "windows": 0}
    for k in range(steps + 1):
        for f in FIELDS:
            x, y = getattr(a, f), getattr(b, f)
            if not np.array_equal(x, y):
                i = int(np.argwhere(x != y)[0][0])
                pytest.fail(f"{rules} {options}: {f} of table {i} differs after {k} steps")
        ended = a.ended
        assert np.array_equal(ended, b.ended)
        if ended.any() and not np.array_equal(a.final_observation[ended], b.final_observation[ended]):
            pytest.fail(f"{rules} {options}: a final observation differs after {k} steps")
        if k % state_every == 0 or k == steps:
            for i, d in enumerate(py.backend.drivers):
                assert native.to_state(nat.backend.state(i), rules) == d.state, f"table {i}, {k} steps"  # type: ignore[attr-defined]
                assert nat.backend.turn(i) == (d.actor, d.window, d.actions)  # type: ignore[attr-defined]
        seen["terminated"] += int(a.terminated.sum())
        seen["truncated"] += int(a.truncated.sum())
        seen["windows"] += int(a.observation[:, window].sum())
        if k == steps:
            break
        acts = (rng.random(a.action_mask.shape) * a.action_mask * weight).argmax(1)
        a, b = py.step(acts), nat.step(acts)
        seen["steps"] += tables
    return seen


@needs_core
def test_native_tables_follow_python_drivers() -> None:
    """The CI sample: 44 configurations, about 70,000 table steps."""
    total = {"steps": 0, "terminated": 0, "truncated": 0, "windows": 0}
    for j, (rules, options) in enumerate(configurations()):
        seen = follow(rules, options, seed=100 + j, tables=6, steps=260)
        for key, value in seen.items():
            total[key] += value
    assert total["steps"] > 60_000
    assert total["terminated"] > 50 and total["truncated"] > 20 and total["windows"] > 500


def bot_configurations() -> Iterator[tuple[Rules, dict[str, Any]]]:
    """Tables where the learner plays against the bots the C core plays (greedy, random)."""
    yield Rules(players=2), {"opponents": "greedy"}
    yield Rules(players=2), {"opponents": "random", "player": 1, "reward": "points"}
    yield (
        Rules(edition=find_edition("harry-potter"), players=3),
        {"opponents": "greedy", "window_order": "play"},
    )
    yield Rules(edition=find_edition("cars2"), players=4), {"opponents": ["random", "greedy", "random"]}
    yield Rules(players=4, mode="partners"), {"opponents": "greedy", "player": 2, "max_actions": 40}
    yield Rules(players=5), {"opponents": [None, "greedy", "random", "greedy", "greedy"]}
    yield Rules(players=3, must_play_drawn=True), {"opponents": "greedy", "reward": "points"}
    yield Rules(players=6, mode="teams", target=80), {"opponents": "greedy", "episode": "game", "player": 3}
    yield Rules(players=3, target=60), {"opponents": "random", "episode": "game", "max_actions": 300}
    yield Rules(players=2), {"opponents": "random", "max_hand_actions": 30}
    yield Rules(players=4, target=60), {"opponents": "greedy", "episode": "game", "max_hand_actions": 25}


@needs_core
def test_native_bots_follow_python_bots() -> None:
    """Against bots, the C tables play greedy and random as the Python bots do: every array, the
    final observations, each hand and turn equal (the learner's actions random)."""
    total = {"steps": 0, "terminated": 0, "truncated": 0, "windows": 0}
    for j, (rules, options) in enumerate(bot_configurations()):
        seen = follow(rules, options, seed=300 + j, tables=6, steps=300)
        for key, value in seen.items():
            total[key] += value
    assert total["terminated"] > 50 and total["truncated"] > 10 and total["windows"] > 10


@needs_core
def test_native_tables_truncate_long_hands_as_python_drivers_do() -> None:
    """The hand cap (issue 33) on both backends: a hand that reaches ``max_hand_actions`` ends the
    episode truncated at the same step, in hand and game episodes, in self-play and against bots
    (a game's count starts again at each hand)."""
    cases: list[tuple[Rules, dict[str, Any]]] = [
        (Rules(players=2), {"max_hand_actions": 30}),
        (Rules(players=4), {"max_hand_actions": 45, "window_order": "play"}),
        (Rules(players=3, target=80), {"episode": "game", "max_hand_actions": 35}),
        (Rules(players=2), {"opponents": "random", "max_hand_actions": 20}),
        (Rules(players=4, target=60), {"opponents": "greedy", "episode": "game", "max_hand_actions": 25}),
    ]
    truncated = 0
    for j, (rules, options) in enumerate(cases):
        seen = follow(rules, options, seed=500 + j, tables=6, steps=200)
        assert seen["truncated"] > 0, (rules, options)
        truncated += seen["truncated"]
    assert truncated > 50


@needs_core
@pytest.mark.slow
def test_native_tables_follow_python_drivers_long() -> None:
    """About 2,000,000 table steps (figures in docs/env.md)."""
    total = {"steps": 0, "terminated": 0, "truncated": 0, "windows": 0}
    rounds = 0
    while total["steps"] < 2_000_000:
        for j, (rules, options) in enumerate([*configurations(), *bot_configurations()]):
            seen = follow(rules, options, seed=10_000 * rounds + j, tables=16, steps=1500, state_every=100)
            for key, value in seen.items():
                total[key] += value
        rounds += 1
    print(f"native env differential: {total}")
    assert total["terminated"] > 1000 and total["truncated"] > 100


@needs_core
@pytest.mark.parametrize("players", [2, 4, 7])
def test_random_window_order_is_the_drivers_own_race(players: int) -> None:
    """With ``window_order="random"`` the seats are asked in the order the Driver's generator
    shuffles them: the sequence of agents of window turns is the same, and differs from "play"."""
    rules = Rules(players=players)
    agents: dict[str, list[int]] = {}
    for order in ("random", "play"):
        py = VectorEnv(4, rules, backend="python", window_order=order)
        nat = VectorEnv(4, rules, backend="native", window_order=order)
        a, b = py.reset(3), nat.reset(3)
        rng = np.random.default_rng(3)
        window = layout_for(rules).by_name["window_turn"].start
        weight = _plays(rules)
        seq: list[int] = []
        for _ in range(1500):
            assert np.array_equal(a.agent, b.agent)
            seq += [int(x) for x in a.agent[a.observation[:, window] == 1]]
            acts = (rng.random(a.action_mask.shape) * a.action_mask * weight).argmax(1)
            a, b = py.step(acts), nat.step(acts)
        agents[order] = seq
    assert len(agents["random"]) > 50
    assert agents["random"][:50] != agents["play"][:50]


@needs_core
def test_the_observation_is_the_acting_seats_view_alone() -> None:
    """Positions redealt where the acting seat cannot see (other hands, the draw pile) give the
    native table the same observation and mask; and they are the Python encoding of its view."""
    rules = Rules(edition=find_edition("harry-potter"), players=4)
    nat = VectorEnv(2, rules, backend="native", window_order="play")
    nat.reset(0)
    backend: Any = nat.backend
    lay, table = layout_for(rules), action_table(rules)
    rng = random.Random(3)
    differed = known = 0
    for seed in range(6):
        d = Driver(rules, window_order="play")
        d.reset(seed)
        while not d.done:
            st = d.state
            backend.load(0, native.from_state(st))
            obs = np.zeros((2, lay.size), np.float32)
            mask = np.zeros((2, table.size), np.int8)
            agent = backend.observe(0, obs[0], mask[0])
            v = view(st, agent)
            window = backend.turn(0)[1]
            expected = np.zeros(lay.size, np.float32)
            lay.encode(v, window, expected)
            expected_mask = np.zeros(table.size, np.int8)
            write_mask(v, window, table, expected_mask)
            assert np.array_equal(obs[0], expected) and np.array_equal(mask[0], expected_mask)
            other = determinize(v, rng)
            backend.load(1, native.from_state(other))
            assert backend.observe(1, obs[1], mask[1]) == agent
            assert np.array_equal(obs[0], obs[1]) and np.array_equal(mask[0], mask[1])
            differed += any(other.hands[s] != st.hands[s] for s in range(4) if s != agent)
            known += bool(v.known)
            offered = d.offered()
            if d.window and rng.random() < 0.5:
                d.act(DECLINE)
            else:
                d.act(rng.choice(offered))
    assert differed > 100 and known > 0


@needs_core
def test_native_is_taken_by_auto_and_refuses_what_it_cannot_play() -> None:
    assert VectorEnv(3, players=4).backend.name == "native"
    assert VectorEnv(3, players=4, backend="native").backend.name == "native"
    assert VectorEnv(3, players=4, episode="game", mode="partners").backend.name == "native"
    for kwargs, why in (
        ({"lenient_plays": True}, "lenient_plays"),
        ({"stacking": "same"}, "stacking"),
        ({"jump_in": True}, "jump_in"),
        ({"episode": "game", "mode": "challenge"}, "game episodes of the modes"),
        ({"episode": "game", "mode": "two-tables", "players": 4}, "game episodes of the modes"),
    ):
        options: dict[str, Any] = {"players": 3, **kwargs}
        assert VectorEnv(2, **options).backend.name == "python"
        with pytest.raises(ConfigError, match=why):
            VectorEnv(2, backend="native", **options)
    with pytest.raises(ConfigError, match="reward"):
        VectorEnv(2, players=3, backend="native", reward="money")


@needs_core
def test_the_cores_layout_offsets_are_the_segments() -> None:
    """envloop.h takes the size and one offset per segment of ``SEGMENTS`` (``L_COUNT`` of them)."""
    from unotable.env.native import SEGMENTS  # noqa: PLC0415
    from unotable.native import core_module  # noqa: PLC0415

    assert core_module is not None
    assert core_module.CONSTANTS["L_COUNT"] == 1 + len(SEGMENTS)


@needs_core
def test_auto_falls_back_to_python_for_an_option_the_core_does_not_know() -> None:
    """Fail closed (issue 22 item 5): a new option of ``Rules`` (here a made-up house rule) is
    refused by the native backend unless at its official value, so ``auto`` runs Python."""
    fake = dataclasses.make_dataclass(
        "RulesWithBonus", [("bonus_draw", bool, False)], bases=(Rules,), frozen=True
    )
    assert VectorEnv(2, rules=fake(players=3)).backend.name == "native"
    assert VectorEnv(2, rules=fake(players=3, bonus_draw=True)).backend.name == "python"
    with pytest.raises(ConfigError, match="bonus_draw"):
        VectorEnv(2, rules=fake(players=3, bonus_draw=True), backend="native")


@needs_core
def test_native_backend_refuses_bad_input_and_changes_nothing() -> None:
    v = VectorEnv(3, players=2, backend="native")
    backend: Any = v.backend
    with pytest.raises(ValueError, match="reset"):
        backend.step(np.zeros(3, np.int64), v.batch)
    b = v.reset(1)
    before = {f: getattr(b, f).copy() for f in FIELDS}
    acts = b.action_mask.argmax(1)
    acts[2] = int(np.flatnonzero(b.action_mask[2] == 0)[0])
    with pytest.raises(ValueError, match="table 2"):
        backend.step(acts, b)  # past VectorEnv's own check: the C code checks too
    with pytest.raises(ValueError, match="table 0"):
        backend.step(np.full(3, 10_000, np.int64), b)
    with pytest.raises(ValueError, match="one action per table"):
        backend.step(np.zeros(2, np.int64), b)
    bad = Batch(
        observation=np.zeros((3, v.layout.size), np.float64),
        action_mask=b.action_mask,
        agent=b.agent,
        rewards=b.rewards,
        terminated=b.terminated,
        truncated=b.truncated,
        final_observation=b.final_observation,
    )
    with pytest.raises(ValueError, match="observation must be"):
        backend.step(b.action_mask.argmax(1), bad)
    with pytest.raises(ValueError, match="one seed per table"):
        backend.reset([1, 2], b)
    words = array("I", [w for seed in (1, 2, 3) for w in random.Random(seed).getstate()[1]])
    words[625 + 624] = 0xFFFFFFFF  # table 1's generator position: no place in its 624 words
    with pytest.raises(ValueError, match="table 1's generator position is out of range"):
        backend._core.reset(words.tobytes(), *backend._arrays(b), b"")
    for f in FIELDS:
        assert np.array_equal(getattr(b, f), before[f])
    v.step(b.action_mask.argmax(1))  # still steps


def test_without_the_core_native_is_refused_and_auto_is_python() -> None:
    code = (
        "from unotable.env import VectorEnv\n"
        "from unotable.errors import ConfigError\n"
        "print(VectorEnv(2, players=2).backend.name)\n"
        "try:\n"
        "    VectorEnv(2, players=2, backend='native')\n"
        "except ConfigError as exc:\n"
        "    print('refused:', exc)\n"
    )
    env = {**os.environ, "UNOTABLE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines[0] == "python"
    assert lines[1].startswith("refused:") and "not loaded" in lines[1]


def aec_trace(backend: str, seed: int, steps: int, **kwargs: Any) -> tuple[list[Any], int]:
    """Random play through the PettingZoo env: after every step, what ``last()`` gives, every
    agent's observation, the rewards and the infos; and the episodes played out."""
    from unotable.env import raw_env  # noqa: PLC0415

    e = raw_env(backend=backend, **kwargs)
    assert e.backend == backend
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    episodes = 0
    for _ in range(steps):
        agent = e.agent_selection
        obs, reward, term, trunc, info = e.last()
        seen = [e.observe(a)["observation"].tobytes() for a in e.possible_agents]
        rewards = (sorted(e.rewards.items()), sorted(e._cumulative_rewards.items()))
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
        trace.append((dict(info), rewards, seen))
        if term or trunc:
            e.step(None)
            if not e.agents:
                episodes += 1
                e.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
    return trace, episodes


@needs_core
@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 4, "window_order": "play", "reward": "points"},
        {"players": 3, "edition": "harry-potter", "max_hand_actions": 50},
        {"players": 3, "episode": "game", "target": 100, "max_hand_actions": 300},
        {"players": 4, "mode": "partners", "episode": "game", "target": 60, "reward": "points"},
        {"players": 2, "max_actions": 30},
    ],
)
def test_the_pettingzoo_env_on_the_native_core_plays_the_python_one(kwargs: dict[str, Any]) -> None:
    """The AEC env on a C table (issue 33: its speed) gives what it gives on the Python engine,
    step for step: the agent, every agent's observation, the mask, rewards, flags and infos."""
    py, py_episodes = aec_trace("python", 5, 1500, **kwargs)
    nat, nat_episodes = aec_trace("native", 5, 1500, **kwargs)
    assert py_episodes == nat_episodes
    for k, (x, y) in enumerate(zip(py, nat, strict=True)):
        assert x == y, f"{kwargs}: step {k // 2} differs"


@needs_core
def test_the_native_pettingzoo_env_passes_pettingzoos_tests_and_refuses_bad_actions() -> None:
    from pettingzoo.test import api_test, seed_test  # noqa: PLC0415

    from unotable.env import env, raw_env  # noqa: PLC0415

    e = raw_env(players=3, backend="native")
    api_test(env(players=3, backend="native"), num_cycles=300)
    seed_test(lambda: env(players=2, backend="native"), num_cycles=100)
    e.reset(seed=3)
    before = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    for bad in (illegal, -1, e.table.size, None, True, 2.5):
        with pytest.raises(ValueError):
            e.step(bad)  # type: ignore[arg-type]
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    with pytest.raises(ConfigError, match="native"):
        raw_env(players=4, mode="two-tables", episode="game", backend="native")
    assert raw_env(players=4, mode="two-tables", episode="game").backend == "python"
