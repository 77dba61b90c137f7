"""The PettingZoo env: PettingZoo's own API and seed tests, Gymnasium's check_env, the action
table, observations from views only, window turns, rewards and the vectorized form."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from unotable import Rules, find_edition, view  # noqa: E402
from unotable.determinize import determinize  # noqa: E402
from unotable.env import (  # noqa: E402
    SingleAgentEnv,
    VectorEnv,
    action_table,
    action_to_text,
    env,
    raw_env,
    text_to_action,
)
from unotable.env import native as env_native  # noqa: E402
from unotable.env.actions import IS_WINDOW  # noqa: E402
from unotable.env.doc import action_rows, layout_rows  # noqa: E402
from unotable.env.driver import DECLINE, Driver  # noqa: E402
from unotable.env.encoding import layout_for  # noqa: E402
from unotable.env.vector import PythonBackend  # noqa: E402
from unotable.errors import ConfigError, NotationError  # noqa: E402
from unotable.native import COMPILED  # noqa: E402
from unotable.notation import ACTION_CARD, ACTION_TEXT  # noqa: E402
from unotable.rules import EDITIONS, HOUSE_PRESETS, BlankEffect, parse_house  # noqa: E402

EDITION_NAMES = tuple(EDITIONS)
SIZES = (2, 4, 10)


def quiet(fn: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns that a dict observation is not a Box
        fn(*args, **kwargs)


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_pettingzoo_api_and_seed(edition: str, players: int) -> None:
    quiet(api_test, env(edition=edition, players=players), num_cycles=300)
    quiet(seed_test, lambda: env(edition=edition, players=players), num_cycles=300)


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_gymnasium_check_env(edition: str, players: int) -> None:
    check_env(SingleAgentEnv(edition=edition, players=players), skip_render_check=True)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"obs_type": "dict", "players": 3},
        {"episode": "game", "players": 3, "target": 60},
        {"episode": "game", "players": 4, "mode": "partners", "target": 60},
        {"episode": "game", "players": 4, "mode": "two-tables"},
        {"episode": "game", "players": 4, "mode": "challenge", "target": 60},
        {"episode": "game", "players": 4, "mode": "elimination"},
        {"players": 3, "multi_play": "number", "jump_in": True},
        {"reward": "points", "players": 4, "scoring": "lowest"},
        {"window_order": "play", "players": 4, "lenient_plays": True},
        {"players": 2, "must_play_drawn": True, "edition": "harry-potter"},
        {"players": 4, "blanks": ((0, BlankEffect(draw=2, skip=True)), (1, BlankEffect(wild=True)), (2, 7))},
        {"players": 4, "mode": "teams"},
        {"players": 4, **HOUSE_PRESETS["party"]},
        {"players": 3, "episode": "game", "target": 60, **HOUSE_PRESETS["popular"]},
    ],
)
def test_api_for_options_modes_and_games(kwargs: dict[str, Any]) -> None:
    quiet(api_test, env(**kwargs), num_cycles=300)


def test_action_table_round_trips_and_helpers() -> None:
    for edition in EDITION_NAMES:
        for n in SIZES:
            rules = Rules(edition=find_edition(edition), players=n)
            table = action_table(rules)
            for i in range(table.size):
                assert table.from_text(table.to_text(i)) == i
    assert action_to_text(text_to_action("play W+4 G uno")) == "play W+4 G uno"
    assert text_to_action("decline") == action_table(Rules()).decline
    with pytest.raises(NotationError):
        text_to_action("play HOWLER 1")  # no Howler in the classic deck
    with pytest.raises(NotationError):
        text_to_action("catch 5")  # a table of 4
    with pytest.raises(ValueError, match="no env action"):
        action_to_text(10_000)
    hp = Rules(edition=find_edition("harry-potter"), players=3)
    assert text_to_action("play HOWLER 2", hp) >= 0
    assert "invisibility R" in action_table(hp).texts


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(edition=find_edition("harry-potter"), players=5, lenient_plays=True),
        Rules(edition=find_edition("cars2"), players=3, must_play_drawn=True),
        Rules(players=4, blanks=((0, BlankEffect(wild=True, draw=1)), (3, BlankEffect(reverse=True)))),
    ],
)
def test_every_offered_action_has_an_id_and_masks_match(rules: Rules) -> None:
    """Random play: the mask marks exactly the actions the driver offers, all in the table."""
    e = raw_env(rules, backend="python")
    assert e.driver is not None
    rng = random.Random(5)
    windows = 0
    for seed in range(3):
        e.reset(seed=seed)
        while e.agents and not any(e.terminations.values()) and not any(e.truncations.values()):
            agent = e.agent_selection
            mask = e.observe(agent)["action_mask"]
            offered = e.driver.offered()
            expected = {e.table.env_id[a] for a in offered}
            assert -1 not in expected
            if e.driver.window:
                windows += 1
                expected.add(e.table.decline)
                assert all(IS_WINDOW[a] for a in offered)
            else:
                assert not any(IS_WINDOW[a] for a in offered)
            assert set(np.flatnonzero(mask)) == expected
            others = [a for a in e.agents if a != agent]
            assert all(not e.observe(a)["action_mask"].any() for a in others)
            e.step(int(rng.choice(sorted(expected))))
    assert windows > 0


def test_observation_is_the_view_alone() -> None:
    """Two states with the same view of a seat (hidden cards redealt) give it one observation."""
    rules = Rules(edition=find_edition("harry-potter"), players=4)
    d = Driver(rules)
    d.reset(11)
    lay = layout_for(rules)
    rng = random.Random(3)
    for _ in range(60):
        st = d.state
        for seat in range(4):
            v = view(st, seat)
            other = determinize(v, rng)
            a = np.zeros(lay.size, np.float32)
            b = np.zeros(lay.size, np.float32)
            lay.encode(v, False, a)
            lay.encode(view(other, seat), False, b)
            assert np.array_equal(a, b)
        offered = d.offered()
        d.act(offered[0] if offered else DECLINE)
        if d.done:
            break


def test_layout_segments_hold_what_the_view_says() -> None:
    e = raw_env(players=3, obs_type="dict", backend="python")
    assert e.driver is not None
    e.reset(seed=4)
    agent = e.agent_selection
    obs = e.observe(agent)["observation"]
    v = e.driver.view_of(e.possible_agents.index(agent))
    assert v is not None
    assert obs["hand"].sum() == len(v.hand)
    assert obs["top"].argmax() == v.top
    assert obs["discard"].sum() == len(v.discard)
    assert list(obs["hand_sizes"]) == [v.hand_sizes[(v.seat + k) % 3] for k in range(3)]
    assert obs["known"].shape == (2, 65)
    flat = raw_env(players=3)
    flat.reset(seed=4)
    vec = flat.observe(agent)["observation"]
    lay = layout_for(flat.rules)
    assert np.array_equal(np.concatenate([obs[s.name].ravel() for s in lay.segments]), vec)


def test_window_turns_offer_catch_and_decline_then_the_phase_turn() -> None:
    """Play on until someone plays the next-to-last card without UNO: the others may catch."""
    rules = Rules(players=3)
    for seed in range(40):
        d = Driver(rules, window_order="play")
        d.reset(seed)
        rng = random.Random(seed)
        while not d.done:
            offered = d.offered()
            plain = [a for a in offered if not ACTION_TEXT[a].endswith("uno") and ACTION_TEXT[a] != "draw"]
            if d.window:
                assert all(IS_WINDOW[a] for a in offered)
                catches = [a for a in offered if ACTION_TEXT[a].startswith("catch")]
                if catches:
                    exposed = int(ACTION_TEXT[catches[0]].split()[1])
                    assert d.state.exposed >> exposed & 1
                    d.act(DECLINE)
                    return
                d.act(DECLINE)
            else:
                d.act(rng.choice(plain or offered))
    pytest.fail("no catch was ever offered")


def test_house_rules_jump_ins_are_window_turns_and_the_stack_is_observed() -> None:
    """With RULES §11's jump_in, a seat holding the twin of the top card gets a window turn whose
    mask offers the jump-in plays and decline; with stacking, the stack total is observed."""
    rules = Rules(players=4, **parse_house("party"))
    e = raw_env(rules, window_order="play", backend="python")
    assert e.driver is not None
    lay = layout_for(rules)
    stack = lay.by_name["pending_draw"].start
    rng = random.Random(8)
    jumps = stacks = 0
    for seed in range(6):
        e.reset(seed=seed)
        while e.agents and not any(e.terminations.values()) and not any(e.truncations.values()):
            agent = e.agent_selection
            obs = e.observe(agent)
            mask = obs["action_mask"]
            d = e.driver
            assert d is not None
            seat = d.seat_of(d.actor)
            v = d.view_of(d.actor)
            assert v is not None
            assert obs["observation"][stack] == v.pending_draw
            stacks += v.pending_draw > 4
            offered = d.offered()
            assert set(np.flatnonzero(mask)) == {e.table.env_id[a] for a in offered} | (
                {e.table.decline} if d.window else set()
            )
            jump_ins = [a for a in offered if ACTION_TEXT[a].startswith("play")]
            if d.window and seat != d.state.current and jump_ins:
                top = d.state.discard[-1]
                assert {ACTION_CARD[a] for a in jump_ins} == {top}  # only the twin of the top card
                jumps += 1
                e.step(e.table.env_id[rng.choice(jump_ins)])
                continue
            e.step(int(rng.choice(np.flatnonzero(mask))))
    assert jumps > 0
    assert stacks > 0
    assert "pending_draw" not in layout_for(Rules(players=4)).by_name  # no stacking, no segment


def test_rewards_win_and_points() -> None:
    for reward in ("win", "points"):
        e = raw_env(players=4, reward=reward)
        e.reset(seed=2)
        rng = random.Random(0)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        while not all(e.terminations.values()):
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(rng.choice(list(np.flatnonzero(mask)))))
            for a, r in e.rewards.items():
                totals[a] += r
        values = sorted(totals.values())
        if reward == "win":
            assert values == [-1.0, -1.0, -1.0, 1.0]
        else:
            assert sum(values) == pytest.approx(0.0) and values[-1] > 0


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    e = raw_env(players=2)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.observe(agent)["observation"].copy()
    with pytest.raises(ValueError, match="not an action"):
        e.step(bad)
    with pytest.raises(ValueError, match="no env action"):
        e.step(9999)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before)
    wrapped = env(players=2)
    wrapped.reset(seed=1)
    first = wrapped.agent_selection
    wrapped.step(bad)
    assert wrapped.rewards[first] == -1 and all(wrapped.terminations.values())
    with pytest.raises(ConfigError):
        raw_env(players=4, episode="set")
    with pytest.raises(ConfigError):
        raw_env(players=11)
    with pytest.raises(ConfigError):
        raw_env(colour="red")


def test_single_agent_env_plays_against_bots() -> None:
    e = SingleAgentEnv(players=4, player=2, opponents=["random", "greedy", "greedy:forget_uno=0.5"])
    obs, _ = e.reset(seed=3)
    rng = np.random.default_rng(0)
    done, total, steps = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, trunc, _ = e.step(int(rng.choice(legal)))
        total += r
        steps += 1
        done = term or trunc
    assert total in (-1.0, 1.0) and steps > 0
    obs, _ = e.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, _, info = e.step(bad)
    assert term and r == -1.0 and info["illegal_action"]
    with pytest.raises(ConfigError):
        SingleAgentEnv(players=3, opponents=["greedy"])
    with pytest.raises(ConfigError):
        SingleAgentEnv(players=3, opponents="nobody")


def _run_vector(seed: int) -> list[Any]:
    v = VectorEnv(6, players=4, edition="harry-potter")
    b = v.reset(seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(400):
        acts = (rng.random(b.action_mask.shape) * b.action_mask).argmax(1)
        b = v.step(acts)
        seen.append((b.observation.copy(), b.rewards.copy(), b.terminated.copy(), b.agent.copy()))
    return seen


def test_vector_env_is_reproducible_and_resets_itself() -> None:
    a = _run_vector(7)
    b = _run_vector(7)
    for x, y in zip(a, b, strict=True):
        for p, q in zip(x, y, strict=True):
            assert np.array_equal(p, q)
    ended = sum(int(t.sum()) for _, _, t, _ in a)
    assert ended > 0
    for _, rewards, term, _ in a:
        for i in np.flatnonzero(term):
            assert sorted(rewards[i]) == [-1.0, -1.0, -1.0, 1.0]
        assert not rewards[~term].any()


def test_vector_env_refuses_illegal_actions() -> None:
    v = VectorEnv(3, players=2)
    with pytest.raises(ValueError, match="reset"):
        v.step([0, 0, 0])
    b = v.reset(1)
    bad = int(np.flatnonzero(b.action_mask[1] == 0)[0])
    good = b.action_mask.argmax(1)
    acts = good.copy()
    acts[1] = bad
    before = b.observation.copy()
    with pytest.raises(ValueError, match="table 1"):
        v.step(acts)
    assert np.array_equal(b.observation, before)
    with pytest.raises(ValueError, match="one action per table"):
        v.step([0])
    if COMPILED:  # the native backend (tests/test_env_native.py follows it against this one)
        assert VectorEnv(2, players=2, backend="native").backend.name == "native"
    else:
        with pytest.raises(ConfigError, match="not loaded"):
            VectorEnv(2, players=2, backend="native")
    with pytest.raises(ConfigError, match="lenient_plays" if COMPILED else "not loaded"):
        VectorEnv(2, players=2, backend="native", lenient_plays=True)
    with pytest.raises(ConfigError):
        VectorEnv(0, players=2)


def test_docs_env_md_tables_match_the_code() -> None:
    """The generated tables of docs/env.md are those the code makes now."""
    text = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    blocks = dict(re.findall(r"<!-- generated: (.+?) -->\n(.*?)\n<!-- end -->", text, re.S))
    assert blocks["actions classic 4"] == action_rows(Rules())
    assert blocks["actions harry-potter 3"] == action_rows(Rules(edition=find_edition("hp"), players=3))
    assert blocks["layout classic 4"] == layout_rows(Rules())


def test_a_game_episode_pays_each_hand_and_ends_with_the_game() -> None:
    d = Driver(Rules(players=3, target=80), episode="game")
    d.reset(9)
    rng = random.Random(9)
    paid = 0
    while not d.done:
        offered = d.offered()
        plays = [a for a in offered if ACTION_TEXT[a].startswith("play")]
        rewards = d.act(rng.choice(plays or offered) if not d.window else DECLINE)
        if any(rewards):
            paid += 1
            assert sorted(rewards) == [-1.0, -1.0, 1.0]
    game = d.game
    assert game is not None and game.finished and paid == d.hands == len(game.results) >= 1


def test_max_actions_truncates() -> None:
    e = raw_env(players=2, max_actions=5)
    e.reset(seed=1)
    steps = 0
    while not any(e.truncations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps == 5 and not any(e.terminations.values())


def test_a_native_backend_plugs_in_through_unotable_env_native(monkeypatch: pytest.MonkeyPatch) -> None:
    """``backend="auto"`` and ``"native"`` take ``unotable.env.native.env_backend`` when it makes one."""
    made: list[int] = []

    class Fake(PythonBackend):
        name = "fake-native"

    def env_backend(rules: Rules, num_envs: int, **options: Any) -> Fake:
        made.append(num_envs)
        return Fake(rules, num_envs, **options)

    monkeypatch.setattr(env_native, "env_backend", env_backend)
    for backend in ("auto", "native"):
        v = VectorEnv(4, players=3, backend=backend)
        assert v.backend.name == "fake-native"
        b = v.reset(0)
        b = v.step(b.action_mask.argmax(1))
        assert b.observation.shape == (4, v.layout.size)
    assert made == [4, 4]
    assert VectorEnv(2, players=3, backend="python").backend.name == "python"


def test_the_modern_deck_grows_only_its_own_observation() -> None:
    """docs/env.md: the first three editions keep their 65 card types (526 values at 4 players);
    the modern deck's card-sized segments have 67."""
    for name in ("classic", "harry-potter", "cars2"):
        assert layout_for(Rules(edition=find_edition(name), players=4)).size == 526
    modern = layout_for(Rules(edition=find_edition("modern"), players=4))
    assert modern.size == 526 + 7 * 2 and modern.by_name["hand"].shape == (67,)


def test_all_wild_grows_its_observation_to_its_own_cards() -> None:
    """docs/env.md: UNO All Wild's card-sized segments have 75 values (its cards are 67-74);
    the modern deck keeps its 67, the first three editions their 65."""
    all_wild = layout_for(Rules(edition=find_edition("all-wild"), players=4))
    assert all_wild.size == 526 + 7 * 10 and all_wild.by_name["hand"].shape == (75,)
    assert layout_for(Rules(edition=find_edition("modern"), players=4)).size == 540


def test_no_mercy_grows_its_observation_to_its_own_cards() -> None:
    """docs/env.md: No Mercy's card-sized segments have 91 values (its cards are 75-90); All
    Wild keeps its 75; its stacking adds ``pending_draw``; its table of actions holds its plays,
    no ``pass`` (NM-1: a drawn card that plays is played) and a 7 naming each other seat."""
    rules = Rules(edition=find_edition("no-mercy"), players=4)
    layout = layout_for(rules)
    assert layout.size == 526 + 7 * 26 + 1 and layout.by_name["hand"].shape == (91,)  # + pending_draw
    assert layout.by_name["pending_draw"].shape == (1,)  # the box stacks (NM-2)
    assert layout_for(Rules(edition=find_edition("all-wild"), players=4)).size == 596
    texts = set(action_table(rules).texts)
    assert {
        "play RSE",
        "play BDA uno",
        "play G+4",
        "play WR+4 R",
        "play W+10 Y",
        "play WCR",
        "play R7 3",
    } <= texts
    assert "pass" not in texts and "play W G" not in texts and "play R7 4" not in texts
