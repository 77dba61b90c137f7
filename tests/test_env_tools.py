"""The env as the usual tools load it (issue 33): every episode ends (the hand cap, on by
default in every env and in ``evaluate``), Gymnasium's vector envs in each autoreset mode see a
legal mask at every step, ``evaluate`` takes Stable-Baselines3's masked and unmasked models, and
short real training runs of PPO and MaskablePPO."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import unotable.env  # noqa: E402
from unotable.env import (  # noqa: E402
    HAND_ACTION_CAP,
    ConfigError,
    SingleAgentEnv,
    VectorEnv,
    action_table,
    evaluate,
    raw_env,
)
from unotable.env.driver import Driver  # noqa: E402
from unotable.native import COMPILED  # noqa: E402
from unotable.rules import Rules  # noqa: E402

CLASSIC2 = action_table(Rules(players=2))


def always_draw(mask: Any) -> Any:
    """Per row: ``draw`` if offered, else ``pass``, else ``decline``, else the first legal id
    (a policy that hoards the deck: once it is empty nobody can end the hand). Classic, 2 players."""
    t = CLASSIC2
    pref = np.where(mask != 0, 1.0 - np.arange(mask.shape[-1]) / 1e4, 0.0)
    pref[..., t.from_text("draw")] += 10 * mask[..., t.from_text("draw")]
    pref[..., t.from_text("pass")] += 5 * mask[..., t.from_text("pass")]
    pref[..., t.decline] += 8 * mask[..., t.decline]
    return pref.argmax(-1)


BACKENDS = ["python", *(["native"] if COMPILED else [])]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_hand_nobody_ends_is_truncated_at_the_default_cap(backend: str) -> None:
    """Two seats that only draw: once the pile is empty drawing passes (R-6) for ever; the AEC
    env truncates the hand at HAND_ACTION_CAP actions (terminations stay False)."""
    e = raw_env(players=2, backend=backend)
    assert e.backend == backend and e.max_hand_actions == HAND_ACTION_CAP
    e.reset(seed=1)
    steps = 0
    while not any(e.truncations.values()):
        assert not any(e.terminations.values()), "a seat that only draws won a hand"
        assert steps <= HAND_ACTION_CAP, "the hand went on past the cap"
        obs = e.observe(e.agent_selection)
        e.step(int(always_draw(obs["action_mask"])))
        steps += 1
    assert steps == HAND_ACTION_CAP
    if e.driver is not None:
        assert e.driver.hand_actions == HAND_ACTION_CAP
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e.rewards.values()) == {0.0}  # a truncated hand pays nothing
    _, _, termination, truncation, _ = e.last()
    assert truncation and not termination
    e.step(None)  # the dead steps, as PettingZoo wants them
    e.step(None)
    assert not e.agents


def test_the_cap_is_on_by_default_everywhere_configurable_and_can_be_turned_off() -> None:
    assert SingleAgentEnv(players=2).driver.max_hand_actions == HAND_ACTION_CAP
    assert evaluate.__kwdefaults__ is not None
    assert evaluate.__kwdefaults__["max_hand_actions"] == HAND_ACTION_CAP
    for backend in ("python", *(("native",) if COMPILED else ())):
        # self-play where every seat only draws: truncated at the cap, else never ends
        v = VectorEnv(3, players=2, backend=backend, max_hand_actions=40)
        b = v.reset(seed=2)
        for k in range(1, 121):
            b = v.step(always_draw(b.action_mask))
            assert not b.terminated.any()
            assert b.truncated.all() == (k % 40 == 0) and b.truncated.any() == (k % 40 == 0)
            assert b.action_mask.any(1).all()
        off = VectorEnv(1, players=2, backend=backend, max_hand_actions=None)
        b = off.reset(seed=2)
        for _ in range(HAND_ACTION_CAP + 20 if backend == "native" else 300):
            b = off.step(always_draw(b.action_mask))
            assert not b.ended.any()
    bad: Any
    for bad in (0, -5, 2.5, True, "100"):
        with pytest.raises(ConfigError, match="max_hand_actions"):
            raw_env(players=2, max_hand_actions=bad)
        with pytest.raises(ConfigError, match="max_hand_actions"):
            VectorEnv(2, players=2, max_hand_actions=bad)
        with pytest.raises(ConfigError, match="max_hand_actions"):
            evaluate("random", hands=2, max_hand_actions=bad)


def test_the_cap_counts_each_hand_of_a_game_afresh() -> None:
    """In a game episode the cap is per hand: a game longer than the cap goes on while each of
    its hands stays under it."""
    from unotable.bots import make_bot  # noqa: PLC0415
    from unotable.env.driver import DECLINE  # noqa: PLC0415

    d = Driver(Rules(players=3, target=300), episode="game", max_hand_actions=200)
    bots = [make_bot("greedy", seed=p) for p in range(3)]
    d.reset(4)
    longest = 0
    while not d.done:
        v = d.view_of(d.actor)
        assert v is not None
        if d.window:
            choice = bots[d.actor].react(v)
            d.act(DECLINE if choice is None else choice)
        else:
            d.act(bots[d.actor].act(v))
        longest = max(longest, d.hand_actions)
    assert d.hands >= 3 and d.actions > 200 and longest < 200
    assert not d.truncated


def test_single_agent_env_truncates_and_its_last_mask_is_legal() -> None:
    """The learner only draws against the random bot (which draws often too): each hand ends,
    truncated at the cap or won, and the last observation's mask offers ``decline`` alone."""
    s = SingleAgentEnv(players=2, opponents="random", obs_type="box", max_hand_actions=200)
    ends = {"terminated": 0, "truncated": 0}
    for seed in range(6):
        _, info = s.reset(seed=seed)
        for _ in range(201):
            _, reward, terminated, truncated, info = s.step(int(always_draw(info["action_mask"])))
            if terminated or truncated:
                break
        assert terminated or truncated, f"seed {seed}: no end within the cap"
        assert not (terminated and truncated)
        ends["truncated" if truncated else "terminated"] += 1
        assert list(np.flatnonzero(info["action_mask"])) == [s.table.decline]
        assert list(np.flatnonzero(s.action_masks())) == [s.table.decline]
        if truncated:
            assert reward == 0.0
        with pytest.raises(ValueError, match="over"):
            s.step(s.table.decline)
    assert ends["truncated"] > 0


def _vector_envs(kind: str, mode: Any, n: int, obs_type: str) -> Any:
    fns = [
        lambda i=i: gymnasium.make(
            unotable.env.GYM_ID, players=2, opponents="greedy", obs_type=obs_type, max_hand_actions=60
        )
        for i in range(n)
    ]
    cls = gymnasium.vector.SyncVectorEnv if kind == "sync" else gymnasium.vector.AsyncVectorEnv
    return cls(fns, autoreset_mode=mode)


@pytest.mark.parametrize(
    ("kind", "mode", "obs_type"),
    [
        ("sync", "NextStep", "box"),
        ("sync", "SameStep", "box"),
        ("sync", "Disabled", "box"),
        ("sync", "NextStep", "flat"),
        ("async", "NextStep", "box"),
        ("async", "SameStep", "flat"),
    ],
)
def test_gymnasium_vector_envs_see_a_legal_mask_at_every_step(kind: str, mode: str, obs_type: str) -> None:
    """Issue 33 saw an all-zero mask after 513 of 514 ends through SyncVectorEnv: every step of
    every autoreset mode must give each sub-env a mask with a legal action."""
    autoreset = gymnasium.vector.AutoresetMode(mode)
    n = 3
    envs = _vector_envs(kind, autoreset, n, obs_type)
    try:
        obs, info = envs.reset(seed=7)
        rng = np.random.default_rng(7)
        ends = 0
        for _ in range(250):
            mask = info["action_mask"] if obs_type == "box" else obs["action_mask"]
            assert mask.shape == (n, CLASSIC2.size)
            assert mask.any(1).all(), f"an all-zero mask in {kind} {mode} after {ends} ends"
            actions = (rng.random(mask.shape) * mask).argmax(1)
            obs, _, terminated, truncated, info = envs.step(actions)
            ended = terminated | truncated
            ends += int(ended.sum())
            if autoreset is gymnasium.vector.AutoresetMode.DISABLED and ended.any():
                # the ended sub-envs are reset by hand; the reset's info holds only their rows
                _, reset_info = envs.reset(options={"reset_mask": ended})
                assert np.array_equal(reset_info["_action_mask"], ended)
                info["action_mask"][ended] = reset_info["action_mask"][ended]
        assert ends >= 10
    finally:
        envs.close()


class FixedPredict:
    """A model whose ``predict(obs)`` (Stable-Baselines3's signature, no mask) always answers
    env action 0 (``play R0``): illegal in most turns."""

    def predict(
        self, observation: Any, state: Any = None, episode_start: Any = None, deterministic: bool = False
    ) -> tuple[Any, Any]:
        return np.zeros(len(observation), np.int64), None


class MaskedPredict:
    """A model with sb3-contrib's signature: it takes the masks and picks the last legal id."""

    def __init__(self) -> None:
        self.masks = 0

    def predict(
        self,
        observation: Any,
        state: Any = None,
        episode_start: Any = None,
        deterministic: bool = False,
        action_masks: Any = None,
    ) -> tuple[Any, Any]:
        assert action_masks is not None
        self.masks += 1
        return action_masks.shape[1] - 1 - action_masks[:, ::-1].argmax(1), None


def test_evaluate_maps_an_unmasked_models_illegal_choices_and_counts_them() -> None:
    from unotable.env.evaluation import takes_masks  # noqa: PLC0415

    assert not takes_masks(FixedPredict().predict) and takes_masks(MaskedPredict().predict)
    r = evaluate(FixedPredict(), "random", hands=40, players=2, seed=5)
    assert r.hands == 40 and 0 < r.illegal < r.decisions
    assert f"{r.illegal:,} of {r.decisions:,} choices illegal" in str(r)
    # the documented rule: an illegal choice becomes the lowest legal id, the first_legal policy
    lowest = evaluate(lambda obs, mask: mask.argmax(1), "random", hands=40, players=2, seed=5)
    assert (lowest.wins, lowest.illegal, lowest.decisions) == (r.wins, 0, r.decisions)
    m = MaskedPredict()
    masked = evaluate(m, "random", hands=20, players=2, seed=5)
    assert m.masks > 0 and masked.illegal == 0 and masked.decisions > 0


def test_evaluate_of_policies_that_stall_finishes() -> None:
    """The policies of the issue's report: one that only draws, one uniform over the mask (20
    hands made 446,000 policy calls in 60 s without finishing before the cap)."""

    def draw_policy(obs: Any, mask: Any) -> Any:
        return always_draw(mask)

    rng = np.random.default_rng(0)

    def uniform(obs: Any, mask: Any) -> Any:
        return (rng.random(mask.shape) * mask).argmax(1)

    stalled = evaluate(draw_policy, "random", hands=20, players=2, max_hand_actions=400)
    assert stalled.hands == 20 and stalled.truncated > 0 and "truncated" in str(stalled)
    assert stalled.wins + stalled.truncated <= 20
    r = evaluate(uniform, "random", hands=20, players=2, max_hand_actions=400)
    assert r.hands == 20
    bot = evaluate("random", "random", hands=20, players=2, max_hand_actions=60)
    assert bot.hands == 20 and bot.truncated > 0


def test_config_error_is_exported_and_is_what_the_envs_raise() -> None:
    from unotable import errors  # noqa: PLC0415

    assert unotable.env.ConfigError is errors.ConfigError
    assert "ConfigError" in unotable.env.__all__
    with pytest.raises(unotable.env.ConfigError):
        raw_env(obs_type="pixels")
    with pytest.raises(unotable.env.ConfigError):
        VectorEnv(2, backend="gpu")


def _quiet_learn(model: Any, steps: int) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.learn(steps)


def test_stable_baselines3_ppo_trains_and_is_evaluated_unmasked() -> None:
    """Plain PPO, the first thing people try: a few hundred steps on the CPU through
    ``gymnasium.make``, then ``evaluate`` (its ``predict`` takes no mask)."""
    sb3 = pytest.importorskip("stable_baselines3")
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    env = gymnasium.make(unotable.env.GYM_ID, players=2, opponents="greedy", obs_type="box")
    model = sb3.PPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
    _quiet_learn(model, 256)
    assert "action_masks" not in inspect.signature(model.predict).parameters
    r = evaluate(model, "greedy", hands=20, players=2, seed=1)
    assert r.hands == 20 and r.decisions > 0 and 0 <= r.illegal <= r.decisions


def test_maskable_ppo_trains_on_a_gymnasium_vector_env_and_is_evaluated_masked() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from stable_baselines3.common.env_util import make_vec_env  # noqa: PLC0415

    vec = make_vec_env(
        unotable.env.GYM_ID,
        n_envs=2,
        seed=0,
        env_kwargs={"players": 2, "obs_type": "box", "max_hand_actions": 300},
    )
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", vec, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu"
    )
    _quiet_learn(model, 256)
    assert model.num_timesteps >= 256
    r = evaluate(model, "greedy", hands=20, players=2, seed=1)
    assert r.hands == 20 and r.illegal == 0 and r.decisions > 0


def test_rgb_array_render_mode_for_make_vec_env_and_video_recorders() -> None:
    """Stable-Baselines3's ``make_vec_env`` makes every env with ``render_mode="rgb_array"``."""
    from gymnasium.utils.passive_env_checker import env_render_passive_checker  # noqa: PLC0415

    e = gymnasium.make(unotable.env.GYM_ID, players=2, obs_type="box", render_mode="rgb_array")
    e.reset(seed=0)
    frame = e.render()
    assert (
        frame.shape == (60, 360, 3)
        and frame.dtype == np.uint8
        and len(np.unique(frame.reshape(-1, 3), axis=0)) > 2
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env_render_passive_checker(e.unwrapped)
