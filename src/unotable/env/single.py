"""A Gymnasium environment where one player learns and the others are the project's bots.

The learner's observation and action mask are those of the AEC env (:mod:`unotable.env.aec`);
between its turns the other players are played by bots of :func:`unotable.bots.make_bot`,
each from its own view (``act`` for a phase turn, ``react`` for an out-of-turn moment, where
``None`` declines). Once the episode is over (terminated or truncated) the mask offers ``decline``
alone: Gymnasium's vector envs in their ``NEXT_STEP`` autoreset mode ask for an action on that
last observation and ignore it, and a masked policy needs a legal one. Imports gymnasium and
numpy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from unotable.bots.base import Bot
from unotable.bots.spec import BotSpec
from unotable.env.actions import action_table
from unotable.env.aec import OBS_TYPES, observation_space
from unotable.env.driver import DECLINE, HAND_ACTION_CAP, Driver, make_rules
from unotable.env.encoding import layout_for, write_mask
from unotable.errors import ConfigError
from unotable.rules import Rules
from unotable.views import View

MAX_REDEALS = 1000
"""Deals in a row that the bots may end before the learner's first turn (then reset() raises)."""


class SingleAgentEnv(gymnasium.Env[Any, np.int64]):
    """One learning player against bots.

    :param rules: the rules (else built from ``edition``, ``players`` and other options).
    :param player: the learner's player number.
    :param opponents: a bot name (for every other player) or one name or :class:`Bot` per
        other player, in player order; names take ``name:key=value`` options as
        ``uno simulate --bots`` does.
    :param illegal_reward: an action the mask forbids ends the episode with this reward
        (``info["illegal_action"]`` is set); nothing is applied.
    :param obs_type: ``"flat"`` or ``"dict"`` (a dict with ``observation`` and ``action_mask``,
        as :class:`~unotable.env.aec.raw_env`), or ``"box"``: the observation is the flat vector
        alone (one ``Box``, which Stable-Baselines3's ``MlpPolicy`` takes as it is); the mask is
        then in ``info["action_mask"]`` and ``action_masks()``.
    :param episode, reward, window_order, max_actions, max_hand_actions: as
        :class:`~unotable.env.aec.raw_env`.
    :param render_mode: ``"ansi"`` (``render()`` returns the learner's view as text),
        ``"human"`` (it prints it, and every step does), ``"rgb_array"`` (a picture of the view:
        the card to match and the learner's hand as coloured cards, what Stable-Baselines3's
        ``make_vec_env`` asks for by default and video recorders take), or None.
    :raises ConfigError: for a bad parameter.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        player: int = 0,
        opponents: str | Sequence[str | Bot] = "greedy",
        episode: str = "hand",
        reward: str = "win",
        obs_type: str = "flat",
        window_order: str = "random",
        max_actions: int | None = None,
        max_hand_actions: int | None = HAND_ACTION_CAP,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = make_rules(rules, **options)
        if obs_type not in (*OBS_TYPES, "box"):
            raise ConfigError(f"obs_type must be one of {', '.join(OBS_TYPES)}, box, not {obs_type!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be ansi, human, rgb_array or None, not {render_mode!r}")
        self.driver = Driver(
            self.rules,
            episode=episode,
            reward=reward,
            window_order=window_order,
            max_actions=max_actions,
            max_hand_actions=max_hand_actions,
        )
        players = self.driver.players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            raise ConfigError(f"player must be from 0 to {players - 1}, not {player!r}")
        self.player = player
        others = players - 1
        specs: list[str | Bot] = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise ConfigError(f"give one opponent per other player ({others}), not {len(specs)}")
        self._specs = specs
        self.bots: list[Bot | None] = []
        self._make_bots(0)
        self.obs_type = obs_type
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.table = action_table(self.rules)
        self.layout = layout_for(self.rules)
        space = observation_space(self.layout, self.table, "flat" if obs_type == "box" else obs_type)
        self.observation_space: gymnasium.spaces.Space[Any] = (
            space["observation"] if obs_type == "box" else space
        )
        self.action_space = gymnasium.spaces.Discrete(self.table.size)
        self._mask = np.zeros(self.table.size, np.int8)

    def _make_bots(self, seed: int) -> None:
        bots: list[Bot | None] = []
        it = iter(self._specs)
        for p in range(self.driver.players):
            if p == self.player:
                bots.append(None)
                continue
            spec = next(it)
            if isinstance(spec, str):
                bots.append(BotSpec.parse(spec).make(seed * 1000 + p))
            else:
                bots.append(spec)
        self.bots = bots

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new episode and play the bots up to the learner's first turn.

        If the bots end the episode before the learner has a turn (about one two-player hand in
        4,000: the learner's opponents go out first), it is dealt again from the same generator,
        so a seed still gives the same episode; ``info["redeals"]`` counts those deals.
        """
        super().reset(seed=seed)
        d = self.driver
        if seed is not None:
            self._make_bots(seed)
            d.reset(seed)
        else:
            d.reset(random.Random(int(self.np_random.integers(2**62))).getrandbits(62))
        reward = self._play_bots()
        redeals = 0
        while d.done:  # the learner never got to act: deal again (the generator goes on)
            redeals += 1
            if redeals > MAX_REDEALS:
                raise RuntimeError(
                    f"the bots ended {MAX_REDEALS} episodes in a row before the learner's turn"
                )
            d.reset()
            reward = self._play_bots()
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, {"reward_before_first_turn": reward, "redeals": redeals, **self._info()}

    def step(self, action: np.int64 | int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner takes env action ``action``; the bots play until its next turn."""
        d = self.driver
        if d.done:
            raise ValueError("the episode is over: reset() first")
        a = int(action)
        if not 0 <= a < self.table.size or not self._mask[a]:
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True, **self._info()}
        aid = DECLINE if a == self.table.decline else self.table.ids[a]
        reward = d.act(aid)[self.player]
        if not d.done:
            reward += self._play_bots()
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, reward, d.done and not d.truncated, d.truncated, self._info()

    def _play_bots(self) -> float:
        d = self.driver
        total = 0.0
        while not d.done and d.actor != self.player:
            bot = self.bots[d.actor]
            assert bot is not None
            v = d.view_of(d.actor)
            assert v is not None
            if d.window:
                choice = bot.react(v)
                aid = DECLINE if choice is None else choice
            else:
                aid = bot.act(v)
            total += d.act(aid)[self.player]
        return total

    def _obs(self) -> Any:
        d = self.driver
        flat = np.zeros(self.layout.size, np.float32)
        self._mask[:] = 0
        v = d.view_of(self.player)
        if v is not None:
            mine = d.actor == self.player
            self.layout.encode(v, mine and d.window, flat)
            if mine:
                write_mask(v, d.window, self.table, self._mask)
        if d.done:
            # the episode is over: the step a vector env's autoreset takes next ignores its action,
            # but a masked policy must still be able to pick one (an all-zero mask breaks it)
            self._mask[self.table.decline] = 1
        if self.obs_type == "box":
            return flat
        obs: Any = flat if self.obs_type == "flat" else self.layout.split(flat)
        return {"observation": obs, "action_mask": self._mask.copy()}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"window_turn": self.driver.window, "hands": self.driver.hands}
        if self.obs_type == "box":
            info["action_mask"] = self._mask.copy()
        return info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The learner's action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask.copy()

    def render(self) -> Any:
        """The learner's view as text (returned in ``"ansi"`` mode, printed in ``"human"``), or
        as a picture (``"rgb_array"``: a ``(60, 360, 3)`` ``uint8`` array)."""
        v = self.driver.view_of(self.player)
        if self.render_mode == "rgb_array":
            return picture(v)
        if v is None or self.render_mode is None:
            return None
        d = v.to_dict()
        text = f"top {d['discard'][-1]} colour {d['color']} hand {' '.join(d['hand'])} legal {d['legal']}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


CARD_RGB = {"R": (214, 40, 40), "Y": (240, 196, 32), "G": (40, 150, 70), "B": (36, 90, 200)}
"""Colours of the cards in :func:`picture` (a wild card, or no colour yet, is near black)."""
WILD_RGB = (40, 40, 40)


def picture(v: View | None) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """A ``(60, 360, 3)`` picture of a view: on the left the card to match, in the colour in
    force; then the hand, one narrow card a colour (16 shown, then a grey bar for the rest)."""
    img = np.full((60, 360, 3), 235, np.uint8)
    if v is None:
        return img
    d = v.to_dict()
    img[4:56, 4:44] = CARD_RGB.get(d["color"] or "", WILD_RGB)
    top = d["discard"][-1] if d["discard"] else ""
    img[14:46, 12:36] = CARD_RGB.get(top[:1], WILD_RGB)  # the card itself inside the colour
    for k, code in enumerate(d["hand"][:16]):
        x = 56 + 18 * k
        img[10:50, x : x + 14] = CARD_RGB.get(code[:1], WILD_RGB)
    if len(d["hand"]) > 16:
        img[26:34, 56 + 18 * 16 : 356] = 150
    return img
