"""The env as researchers use it (issue 26): every reset gives the learner a turn, PettingZoo's
render test and ``max_cycles``, the Gymnasium ids, VectorEnv against bots with its final
observations, and ``evaluate``."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

import unotable

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test  # noqa: E402

from unotable.env import SingleAgentEnv, env, raw_env  # noqa: E402
from unotable.errors import ConfigError  # noqa: E402

REDEAL_AT = 4130
"""Found by searching: after ``reset(seed=0)``, the 4,130th unseeded reset of a two-player
SingleAgentEnv against greedy deals a hand the bot finishes before the learner's first turn
(the hand issue 26 reported; no seeded reset from 0 to 19,999 does)."""


def test_every_reset_gives_the_learner_a_turn() -> None:
    s = SingleAgentEnv(players=2, opponents="greedy")
    s.reset(seed=0)
    redeals = []
    for i in range(1, REDEAL_AT + 1):
        obs, info = s.reset()
        assert obs["action_mask"].any(), f"reset {i}: no action for the learner"
        assert s.driver.actor == s.player and not s.driver.done
        if info["redeals"]:
            redeals.append(i)
            kept = obs["observation"].copy()
    assert redeals == [REDEAL_AT]
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    s.step(legal)  # the step that used to raise
    # the same seed, the same redealt hand
    s2 = SingleAgentEnv(players=2, opponents="greedy")
    s2.reset(seed=0)
    for _ in range(REDEAL_AT):
        obs2, info2 = s2.reset()
    assert info2["redeals"] == 1 and np.array_equal(obs2["observation"], kept)


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("edition", ["classic", "harry-potter"])
def test_pettingzoo_render_test(edition: str, capsys: pytest.CaptureFixture[str]) -> None:
    quiet(render_test, lambda render_mode=None: env(edition=edition, players=3, render_mode=render_mode))
    e = raw_env(players=2, render_mode="human", backend="python")
    assert e.driver is not None
    e.reset(seed=1)
    capsys.readouterr()
    assert e.render() is None
    printed = capsys.readouterr().out
    assert printed.startswith(f"seat {e.driver.seat_of(e.driver.actor)} ")
    a = raw_env(players=2, render_mode="ansi")  # the native backend when built: the same text
    a.reset(seed=1)
    assert a.render() == printed.rstrip("\n")


def test_max_cycles_truncates() -> None:
    e = raw_env(players=3, max_cycles=2)
    assert e.max_actions == 6
    e.reset(seed=5)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6
    quiet(api_test, env(players=4, max_cycles=3), num_cycles=50)
    with pytest.raises(ConfigError, match="not both"):
        raw_env(max_actions=5, max_cycles=2)
    with pytest.raises(ConfigError, match="max_cycles"):
        raw_env(max_cycles=0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 2, "obs_type": "box"},
        {"edition": "harry-potter", "players": 3, "opponents": "random", "obs_type": "dict"},
        {"players": 4, "opponents": ["greedy", "random", "greedy:forget_uno=0.5"], "render_mode": "ansi"},
        {"edition": "cars2", "players": 2, "must_play_drawn": True, "obs_type": "box"},
    ],
)
def test_gymnasium_make_and_check_env(kwargs: dict[str, Any]) -> None:
    import gymnasium  # noqa: PLC0415
    from gymnasium.utils.env_checker import check_env  # noqa: PLC0415

    import unotable.env  # noqa: PLC0415

    assert unotable.env.GYM_ID == "unotable/UNO-v0"
    e = gymnasium.make("unotable/UNO-v0", **kwargs)
    assert isinstance(e.unwrapped, SingleAgentEnv)
    quiet(check_env, e.unwrapped, skip_render_check=True)
    quiet(check_env, e)  # through gymnasium's own wrappers too (it warns that they wrap)


def test_box_observation_is_the_flat_vector_with_the_mask_in_info() -> None:
    import gymnasium  # noqa: PLC0415

    box = SingleAgentEnv(players=3, obs_type="box")
    flat = SingleAgentEnv(players=3)
    assert isinstance(box.observation_space, gymnasium.spaces.Box)
    assert box.observation_space == flat.observation_space["observation"]  # type: ignore[index]
    o1, i1 = box.reset(seed=9)
    o2, _ = flat.reset(seed=9)
    assert isinstance(o1, np.ndarray) and np.array_equal(o1, o2["observation"])
    assert np.array_equal(i1["action_mask"], o2["action_mask"])
    a = int(np.flatnonzero(i1["action_mask"])[0])
    o1, _, _, _, i1 = box.step(a)
    o2, _, _, _, _ = flat.step(a)
    assert np.array_equal(o1, o2["observation"]) and np.array_equal(box.action_masks(), i1["action_mask"])
    with pytest.raises(ConfigError, match="obs_type"):
        SingleAgentEnv(obs_type="pixels")


def test_mlp_policy_takes_the_box_observation() -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    model = sb3.MaskablePPO("MlpPolicy", SingleAgentEnv(players=2, obs_type="box"), n_steps=64, batch_size=32)
    model.learn(128)
    obs, info = SingleAgentEnv(players=2, obs_type="box").reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)] == 1


def test_vector_env_against_bots() -> None:
    from unotable.env import VectorEnv  # noqa: PLC0415
    from unotable.env.encoding import layout_for  # noqa: PLC0415
    from unotable.env.vector import PythonBackend  # noqa: PLC0415

    v = VectorEnv(4, players=3, opponents=["greedy", "search:budget=8"], player=1)
    assert isinstance(v.backend, PythonBackend)  # search is played in Python
    assert v.seats == ("greedy", None, "search:budget=8") and v.player == 1
    b = v.reset(5)
    rng = np.random.default_rng(5)
    window = layout_for(v.rules).by_name["window_turn"].start
    ended = 0
    for _ in range(120):
        assert (b.agent == 1).all() and b.action_mask.any(1).all()
        b = v.step((rng.random(b.action_mask.shape) * b.action_mask).argmax(1))
        info = b.info()
        assert np.array_equal(info["_final_observation"], b.terminated | b.truncated)
        for i in np.flatnonzero(b.terminated):
            ended += 1
            assert b.rewards[i, 1] in (-1.0, 1.0)  # the learner won or lost the hand
            final = info["final_observation"][i]
            assert final[window] == 0 and not np.array_equal(final, b.observation[i])
            assert info["final_info"][i] == {"terminated": True, "truncated": False}
        assert all(info["final_info"][i] is None for i in np.flatnonzero(~info["_final_info"]))
    assert ended > 0
    with pytest.raises(ConfigError, match="one opponent per other player"):
        VectorEnv(2, players=3, opponents=["greedy"])
    with pytest.raises(ConfigError, match="unknown bot"):
        VectorEnv(2, players=2, opponents="nobody")
    with pytest.raises(ConfigError, match="player"):
        VectorEnv(2, players=2, opponents="greedy", player=2)
    with pytest.raises(ConfigError, match="give opponents too"):
        VectorEnv(2, players=2, player=1)
    # The native backend names the bots it plays (without the core, it says the core is missing).
    reason = "bots random, greedy" if unotable.COMPILED else "native core is not loaded"
    with pytest.raises(ConfigError, match=reason):
        VectorEnv(2, players=2, opponents="search", backend="native")


@pytest.mark.parametrize("backend", ["python", "native"])
def test_vector_env_against_bots_deals_again_and_is_reproducible(backend: str) -> None:
    """Every table's turn is the learner's, over many deals, and a seed gives the same run."""
    from unotable.env import VectorEnv  # noqa: PLC0415
    from unotable.native import COMPILED  # noqa: PLC0415

    if backend == "native" and not COMPILED:
        pytest.skip("the native core is not loaded")
    runs = []
    for _ in range(2):
        v = VectorEnv(32, players=2, opponents="greedy", backend=backend, max_actions=3)
        b = v.reset(11)
        rng = np.random.default_rng(11)
        seen = []
        for _ in range(150):  # about 3,000 deals (truncated after 3 actions)
            assert b.action_mask.any(1).all() and (b.agent == 0).all()
            b = v.step((rng.random(b.action_mask.shape) * b.action_mask).argmax(1))
            seen.append(b.observation.copy())
        runs.append(seen)
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))


def test_wilson_interval() -> None:
    from unotable.env.evaluation import wilson  # noqa: PLC0415

    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_evaluate_a_batch_policy_and_a_bot_over_paired_deals() -> None:
    from unotable.env import Evaluation, evaluate  # noqa: PLC0415

    def first_legal(obs: Any, mask: Any) -> Any:
        return mask.argmax(1)

    a = evaluate(first_legal, "random", hands=101, players=2, seed=3)
    assert isinstance(a, Evaluation) and a.hands == 102  # 51 deals, each from both seats
    assert a == evaluate(first_legal, "random", hands=101, players=2, seed=3)  # the same deals
    assert 0 <= a.low <= a.rate <= a.high <= 1 and f"over {a.hands:,} hands" in str(a)
    strong = evaluate("greedy", "random", hands=200, players=2, seed=1)
    assert strong.low > 0.8  # greedy far above random heads-up
    weak = evaluate("random", ["greedy", "greedy"], hands=99, players=3, edition="harry-potter")
    assert weak.hands == 99 and weak.high < 0.3
    with pytest.raises(ConfigError, match="hands"):
        evaluate(first_legal, hands=0)
    with pytest.raises(ConfigError, match="one opponent per other player"):
        evaluate(first_legal, ["greedy"], players=3)
    with pytest.raises(ConfigError, match="policy"):
        evaluate(42)


def test_maskable_ppo_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib")
    import importlib.util  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    path = Path(__file__).resolve().parent.parent / "examples" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("unotable_maskable_ppo_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--steps", "600", "--hands", "40"]) == 0
    out = capsys.readouterr().out
    assert "trained 600 steps" in out and re.search(r"against greedy, 2 players: \d+\.\d% \[", out)
