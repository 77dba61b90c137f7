"""The native core against the Python engine, which is its specification (issue 16).

Same seeds, same deals: every seat's legal set and the whole state (hidden parts, known cards
and the generator included) are compared after every action, across editions, player counts
2-10 and options; every scenario file is played on both. Without the compiled core (not built,
or ``UNOTABLE_PURE=1``) only the fallback tests run.
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import subprocess
import sys
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from unotable import house
from unotable.cards import NUM_CARD_TYPES, POINTS
from unotable.engine import check, legal_ids, new_hand, seat_index, step
from unotable.errors import ConfigError, IllegalActionError
from unotable.native import COMPILED, core_module
from unotable.native import core as native
from unotable.notation import ACTION_KIND, ACTION_UNO, KIND_PLAY, TABLE_SEAT
from unotable.rules import BlankEffect, Rules, find_edition
from unotable.scenario import initial_state, load
from unotable.shuffle import _shuffle
from unotable.state import State

if TYPE_CHECKING:
    from unotable.native._core import State as NativeState

needs_core = pytest.mark.skipif(not COMPILED, reason="the native core is not loaded")

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.json"))
SHARED = (
    Path(os.environ.get("UNOTABLE_SHARED") or Path(__file__).resolve().parents[2] / "shared") / "scenarios"
)
"""The shared scenario files, when a ``shared`` folder stands beside the repository (or where
``UNOTABLE_SHARED`` says): see tests/test_scenarios.py."""
if SHARED.is_dir():
    SCENARIOS += sorted(SHARED.glob("*.json"))


def rules_variants() -> Iterator[Rules]:
    """Editions x players 2-10, and the book options on some of them."""
    for edition in ("classic", "harry-potter", "cars2"):
        for players in range(2, 11):
            yield Rules(edition=find_edition(edition), players=players)
    yield Rules(players=3, must_play_drawn=True)
    yield Rules(edition=find_edition("harry-potter"), players=2, must_play_drawn=True)
    yield Rules(players=4, scoring="lowest", target=60)
    yield Rules(players=5, mode="challenge", target=40)
    yield Rules(players=4, mode="partners", target=50)
    yield Rules(players=6, mode="teams", target=50)
    yield Rules(players=4, mode="rotating-partners")
    yield Rules(players=3, target=30)
    yield Rules(
        players=3,
        blanks=((0, 7), (1, BlankEffect(draw=2, skip=True)), (2, BlankEffect(wild=True, reveal=True))),
    )
    yield Rules(players=2, blanks=((3, BlankEffect(reverse=True, draw=1)), (1, 61)))
    yield Rules(
        edition=find_edition("harry-potter"),
        players=4,
        birthdays=("07-30", None, "08-01", "01-01"),
    )


def differential(rules: Rules, seed: int, max_actions: int, rng: random.Random) -> int:
    """Play one hand on both engines from ``seed``, by random actions of every seat (out of turn
    too, the referee's penalties now and then, UNO sometimes forgotten); compare after each one.
    The number of actions played."""
    dealer = None if seed % 3 == 0 else seed % rules.players
    py, _ = new_hand(rules, seed, dealer=dealer)
    nat = native.new_hand(rules, seed, dealer=dealer)
    return compare_play(py, nat, max_actions, rng)


def compare_play(py: State, nat: NativeState, max_actions: int, rng: random.Random) -> int:
    """Random actions on both from twin states; assert they stay twins. Actions played."""
    rules = py.rules
    n = rules.players
    seats = [*range(n), TABLE_SEAT]
    for count in range(max_actions):
        assert native.to_state(nat, rules) == py, f"states differ after {count} actions"
        legal = {}
        for s in seats:
            mine = sorted(legal_ids(py, s))
            assert sorted(nat.legal_ids(s)) == mine, f"seat {s} after {count} actions"
            legal[s] = mine
        if py.current < 0:
            return count
        r = rng.random()
        if r < 0.01:
            seat = TABLE_SEAT
        elif r < 0.12:
            seat = rng.choice([s for s in range(n) if legal[s]])
        else:
            seat = py.current
        options = legal[seat]
        aid = rng.choice(options)
        if ACTION_KIND[aid] == KIND_PLAY and not ACTION_UNO[aid] and rng.random() < 0.7:
            # mostly call UNO when the spelling exists
            twins = [a for a in options if ACTION_UNO[a] and ACTION_KIND[a] == KIND_PLAY]
            aid = rng.choice(twins) if twins else aid
        step(py, seat, aid)
        nat.step(seat, aid)
    assert native.to_state(nat, rules) == py
    return max_actions


def test_compiled_flag_says_whether_the_extension_is_there_and_loaded() -> None:
    """``unotable.COMPILED`` is True exactly when the built extension is found and loads (in a
    process where ``UNOTABLE_PURE`` does not turn it off)."""
    code = (
        "import importlib.util, unotable, unotable.native as m; "
        "print(unotable.COMPILED, importlib.util.find_spec('unotable.native._core') is not None, "
        "m.core_module is not None)"
    )
    env = {k: v for k, v in os.environ.items() if k != "UNOTABLE_PURE"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    compiled, present, loaded = out.stdout.split()
    assert compiled == present == loaded


def test_pure_env_forces_python() -> None:
    code = "import unotable, unotable.native as m; print(unotable.COMPILED, m.core_module is None)"
    env = {**os.environ, "UNOTABLE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_unsupported_rules_are_refused_with_a_reason() -> None:
    lenient = Rules(lenient_plays=True)
    reason = native.unsupported(lenient)
    assert reason is not None
    if COMPILED:
        assert "lenient_plays" in reason
        assert native.unsupported(Rules()) is None
    with pytest.raises(native.NativeUnsupportedError):
        native.new_hand(lenient, 1)
    assert issubclass(native.NativeUnsupportedError, ConfigError)


def test_the_later_editions_are_refused_by_the_allow_list() -> None:
    """docs/rules.md §12, M-8: the native core plays the first three editions only."""
    for later in ("modern", "all-wild", "no-mercy", "flip"):  # AW-11, NM-12, UNO Flip too
        rules = Rules(edition=find_edition(later), players=3)
        reason = native.unsupported(rules)
        assert reason is not None
        if COMPILED:
            assert f"edition {later}" in reason
        with pytest.raises(native.NativeUnsupportedError):
            native.new_hand(rules, 1)
        with pytest.raises(native.NativeUnsupportedError):
            native.from_state(new_hand(rules, 1)[0])
    if COMPILED:
        for name in native.NATIVE_EDITIONS:
            assert native.unsupported(Rules(edition=find_edition(name))) is None


def test_drew_facing_is_renumbered_for_the_core() -> None:
    """The core numbers a facing over its 65 card types; the engine over every card type."""
    for color in range(-1, 4):
        for top in (0, 64):
            f = (color + 1) * NUM_CARD_TYPES + top
            assert native.to_native_facing(f) == (color + 1) * native.NT + top
            assert native.from_native_facing(native.to_native_facing(f)) == f
    assert native.to_native_facing(-1) == native.from_native_facing(-1) == -1


@needs_core
@pytest.mark.parametrize("length", [1, 2, 7, 21, 22, 60, 108, 112])
def test_the_shuffle_is_the_engines(length: int) -> None:
    assert core_module is not None
    for rng_state in (1, 12345, 2**64 - 1, 0x9E3779B97F4A7C15):
        st = new_hand(Rules(), 0)[0]
        st.rng = rng_state
        cards = [(i * 7) % 65 for i in range(length)]
        mine = list(cards)
        _shuffle(st, mine)
        shuffled, after = core_module.shuffle(rng_state, bytes(cards))
        assert list(shuffled) == mine
        assert after == st.rng


@needs_core
def test_deals_are_the_engines() -> None:
    for rules in rules_variants():
        for seed in (0, 1, 7, -3, 2**70 + 5):
            for dealer in (None, 0, rules.players - 1):
                py = new_hand(rules, seed, dealer=dealer)[0]
                assert native.to_state(native.new_hand(rules, seed, dealer=dealer), rules) == py


@needs_core
def test_differential_sample() -> None:
    """The CI sample: some 30,000 actions over every variant."""
    rng = random.Random(16)
    total = 0
    for i, rules in enumerate(rules_variants()):
        for seed in range(4):
            total += differential(rules, 1000 * i + seed, 400, rng)
    assert total > 20_000


@needs_core
@pytest.mark.slow
def test_differential_million() -> None:
    """At least 1,000,000 actions compared (figures in docs/performance.md)."""
    rng = random.Random(1616)
    total = 0
    variants = list(rules_variants())
    seed = 0
    while total < 1_000_000:
        rules = variants[seed % len(variants)]
        total += differential(rules, seed, 3000, rng)
        seed += 1
    print(f"differential: {total} actions over {seed} hands")


@needs_core
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_on_both(path: Path) -> None:
    """Each scenario's actions on the Python engine and on its native twin: the same refusals,
    the same legal sets and states after each action."""
    sc = load(path)
    try:
        py = initial_state(sc)
    except ConfigError:
        pytest.skip("the position does not load (the scenario tests that)")
    if native.unsupported(sc.rules) is not None:
        with pytest.raises(native.NativeUnsupportedError):
            native.from_state(py)
        return
    nat = native.from_state(py)
    assert native.to_state(nat, sc.rules) == py
    n = sc.rules.players
    for seat, action in sc.actions:
        for s in [*range(n), TABLE_SEAT]:
            assert sorted(nat.legal_ids(s)) == sorted(legal_ids(py, s))
        try:
            aid = check(py, seat, action)
        except IllegalActionError:
            try:
                s = seat_index(py, seat)
            except Exception:
                return
            with pytest.raises(ValueError):
                nat.step(s, ACTION_ID_OF(action))
            assert native.to_state(nat, sc.rules) == py  # a refusal changes nothing
            return
        s = seat_index(py, seat)
        step(py, s, aid)
        nat.step(s, aid)
        assert native.to_state(nat, sc.rules) == py


def ACTION_ID_OF(action: str) -> int:  # noqa: N802 - reads as a table lookup
    """The id of a notation string, or an id no table has (a refused spelling)."""
    from unotable.notation import ACTION_ID  # noqa: PLC0415

    return ACTION_ID.get(action, 10_000) if isinstance(action, str) else 10_000


@needs_core
def test_from_state_round_trips_midhand_positions() -> None:
    rng = random.Random(5)
    for rules in list(rules_variants())[::3]:
        py = new_hand(rules, 11)[0]
        for _ in range(rng.randrange(5, 60)):
            if py.current < 0:
                break
            aid = rng.choice(legal_ids(py, py.current))
            step(py, py.current, aid)
        nat = native.from_state(py)
        assert native.to_state(nat, rules) == py
        compare_play(py, nat, 100, rng)


@needs_core
def test_native_step_refuses_and_changes_nothing() -> None:
    rules = Rules(players=3)
    nat = native.new_hand(rules, 3)
    before = native.to_state(nat, rules)
    other = (nat.current + 1) % 3
    with pytest.raises(ValueError, match="not legal"):
        nat.step(other, legal_ids(before, before.current)[0])
    with pytest.raises(ValueError, match="no seat"):
        nat.step(7, 0)
    with pytest.raises(ValueError, match="no seat"):
        nat.legal_ids(-5)
    assert native.to_state(nat, rules) == before


# --------------------------------------------------------------------------------------------
# The batched loop, and `uno simulate` on it.


def _picker(pick_seed: int, seed: int) -> Iterator[int]:
    """The policies' stream of the batched loop (SplitMix64, upper 32 bits)."""
    from unotable.state import seed_to_rng  # noqa: PLC0415

    state = seed_to_rng(pick_seed ^ seed_to_rng(seed & native.MASK64))
    mask = native.MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        yield (z ^ (z >> 31)) >> 32


@needs_core
@pytest.mark.parametrize("policy", ["random", "plays-first"])
def test_batched_random_policies_replay_on_the_python_engine(policy: str) -> None:
    """Each hand of the batched loop, replayed here with the same picks over the native legal
    order, on the Python engine: the same actions are legal and the hand ends the same way."""
    from unotable.notation import ACTION_ID, ACTION_KIND, Kind  # noqa: PLC0415

    declined = {int(Kind.UNO), int(Kind.CATCH), int(Kind.WRONG), int(Kind.PENALIZE)}
    for rules in [Rules(players=2), Rules(edition=find_edition("harry-potter"), players=3), Rules(players=6)]:
        seeds = list(range(40, 55))
        result = native.play_hands(rules, seeds, [policy], pick_seed=9, dealer="seed")
        for h, seed in enumerate(seeds):
            nat = native.new_hand(rules, seed, dealer=seed % rules.players)
            py = new_hand(rules, seed, dealer=seed % rules.players)[0]
            words = _picker(9, seed)
            actions = 0
            while py.current >= 0:
                seat = py.current
                ids = nat.legal_ids(seat)
                assert sorted(ids) == sorted(legal_ids(py, seat))
                if py.exposed or len(py.hands[seat]) == 2:
                    uno = any(ACTION_UNO[a] for a in ids)
                    ids = [
                        a
                        for a in ids
                        if ACTION_KIND[a] not in declined
                        and not (
                            uno
                            and ACTION_KIND[a] in (KIND_PLAY, int(Kind.INVISIBILITY))
                            and not ACTION_UNO[a]
                        )
                    ]
                lo = int(ids[0] == ACTION_ID["draw"])  # draw comes first, pass last
                hi = len(ids) - int(ids[-1] == ACTION_ID["pass"])
                if policy == "plays-first" and len(ids) > 1 and hi > lo:
                    aid = ids[lo + (next(words) * (hi - lo) >> 32)]  # uniform over the plays
                else:
                    aid = ids[next(words) * len(ids) >> 32]
                step(py, seat, aid)
                nat.step(seat, aid)
                actions += 1
            assert (py.winner, actions, py.hand_points) == (
                result.winners[h],
                result.actions[h],
                result.hand_points[h],
            )
            assert result.per_seat("points", h) == [sum(POINTS[t] for t in hand) for hand in py.hands]


@needs_core
def test_batched_loop_built_with_and_without_popcnt_plays_the_same_hands() -> None:
    """play_hands' loop is compiled twice (P-231): the one taken on this processor and the
    portable one give the same results, for every edition, policy and both deals."""
    assert core_module is not None
    for edition, players in [("classic", 4), ("harry-potter", 3), ("cars-2", 6), ("classic", 10)]:
        rules = Rules(edition=find_edition(edition), players=players)
        table = native.native_tables(rules)
        seeds = array("Q", range(200, 260)).tobytes()
        for policies in (b"\x00", b"\x01", bytes(s % 3 for s in range(players))):
            codes = policies * players if len(policies) == 1 else policies
            for fast in (False, True):
                args = (table, seeds, -2, b"", b"", codes, 11, 100_000, fast)
                assert core_module.play_hands(*args) == core_module.play_hands(*args, True)


@needs_core
def test_batched_results_do_not_depend_on_the_batch() -> None:
    rules = Rules(players=4)
    seats = ["random", "greedy", "plays-first", "greedy"]
    whole = native.play_hands(rules, range(100), seats, pick_seed=3)
    parts = [native.play_hands(rules, range(a, a + 25), seats, pick_seed=3) for a in range(0, 100, 25)]
    assert list(whole.winners) == [w for p in parts for w in p.winners]
    assert list(whole.actions) == [a for p in parts for a in p.actions]
    other = native.play_hands(rules, range(100), seats, pick_seed=4)
    assert list(other.actions) != list(whole.actions)


@needs_core
def test_batched_engine_deals_made_four_at_a_time_do_not_depend_on_the_batch() -> None:
    """With the dealers known, the loop makes the decks' SHAKE-128 words four hands at a time:
    batches of 1, 3 and 7 hands (groups cut short) deal what the hands dealt one by one do."""
    rules = Rules(players=3)
    seeds = list(range(500, 511))
    whole = native.play_hands(rules, seeds, ["plays-first"], pick_seed=5, dealer="seed")
    parts = [
        native.play_hands(rules, seeds[a:b], ["plays-first"], pick_seed=5, dealer="seed")
        for a, b in ((0, 1), (1, 4), (4, 11))
    ]
    assert list(whole.actions) == [a for p in parts for a in p.actions]
    assert list(whole.points) == [x for p in parts for x in p.points]
    given = native.play_hands(rules, seeds, ["plays-first"], pick_seed=5, dealers=[s % 3 for s in seeds])
    assert list(given.actions) == list(whole.actions)


@needs_core
def test_the_decks_keys_made_eight_at_a_time_are_shake_128() -> None:
    """shake128_words_x8 with every vector unit this processor has (none, AVX2, AVX-512) gives
    hashlib's SHAKE-128 words, across the block boundaries (21 words a block)."""
    import hashlib  # noqa: PLC0415

    assert core_module is not None
    numbers = [0, 1, 2**64 - 1, 0x0123456789ABCDEF, 7, 2**63, 12345678901234567, 42]
    packed = b"".join(x.to_bytes(8, "little") for x in numbers)
    for level in range(core_module.simd_level() + 1):
        for count in (1, 21, 22, 108, 112):
            words = core_module.shake_x8(packed, count, level)
            for j, x in enumerate(numbers):
                expected = hashlib.shake_128(x.to_bytes(8, "little")).digest(8 * count)
                assert words[j * 8 * count : (j + 1) * 8 * count] == expected, (level, count, j)
    with pytest.raises(ValueError, match="level"):
        core_module.shake_x8(packed, 108, 3)
    with pytest.raises(ValueError, match="eight numbers"):
        core_module.shake_x8(packed[:8], 108, 0)


@needs_core
def test_batched_bad_input_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown native policy"):
        native.play_hands(Rules(), [1], ["search"])
    with pytest.raises(ConfigError, match="one policy"):
        native.play_hands(Rules(players=3), [1], ["random", "random"])
    with pytest.raises(ConfigError, match="dealer"):
        native.play_hands(Rules(players=3), [1], ["random"], dealer=3)
    with pytest.raises(ConfigError, match="dealers"):
        native.play_hands(Rules(players=3), [1, 2], ["random"], dealers=[0])


@needs_core
@pytest.mark.parametrize(
    ("edition", "players", "mode"),
    [("classic", 2, "solo"), ("harry-potter", 4, "solo"), ("cars2", 5, "solo"), ("classic", 4, "partners")],
)
def test_simulate_greedy_tables_are_the_same_on_both_cores(edition: str, players: int, mode: str) -> None:
    """The native greedy policy decides exactly as GreedyBot: same hands, same results."""
    from unotable.sim import SimConfig, parse_bots, results_without_timing, simulate, summarize  # noqa: PLC0415

    rules = Rules(edition=find_edition(edition), players=players, mode=mode)
    out = []
    for core in ("python", "native"):
        cfg = SimConfig(rules, parse_bots("greedy", players), hands=120, seed=8, core=core)
        results = results_without_timing(summarize(cfg, simulate(cfg, workers=1)))
        assert results["config"].pop("core") == core
        out.append(results)
    assert out[0] == out[1]


@needs_core
def test_simulate_random_seats_native_is_reproducible_and_said() -> None:
    from unotable.sim import SimConfig, parse_bots, results_without_timing, simulate, summarize  # noqa: PLC0415

    cfg = SimConfig(Rules(players=3), parse_bots("greedy,random,random", 3), hands=300, seed=2)
    one = results_without_timing(summarize(cfg, simulate(cfg, workers=1)))
    two = results_without_timing(summarize(cfg, simulate(cfg, workers=2)))
    assert one == two
    assert one["config"]["core"] == "native"
    pure = SimConfig(
        Rules(players=3), parse_bots("greedy,random,random", 3), hands=300, seed=2, core="python"
    )
    assert results_without_timing(summarize(pure, simulate(pure, workers=1)))["config"]["core"] == "python"


def test_simulate_core_native_refuses_what_it_cannot_play() -> None:
    from unotable.sim import SimConfig, parse_bots  # noqa: PLC0415

    with pytest.raises(ConfigError, match="core native"):
        SimConfig(Rules(players=2), parse_bots("search,greedy", 2), hands=3, core="native")
    with pytest.raises(ConfigError, match="core native"):
        SimConfig(Rules(players=2, lenient_plays=True), parse_bots("greedy", 2), hands=3, core="native")
    with pytest.raises(ConfigError, match="core must be"):
        SimConfig(Rules(players=2), parse_bots("greedy", 2), hands=3, core="fast")


@needs_core
def test_the_fast_shuffle_is_a_uniform_permutation() -> None:
    """Where each of 8 cards lands over 16,000 fast shuffles: a chi-square test per card
    (7 degrees of freedom; 24.3 is its 0.1% point), and always a permutation."""
    assert core_module is not None
    counts = [[0] * 8 for _ in range(8)]
    rng = 99
    for _ in range(16_000):
        cards, rng = core_module.shuffle(rng, bytes(range(8)), True)
        assert sorted(cards) == list(range(8))
        for place, card in enumerate(cards):
            counts[card][place] += 1
    for row in counts:
        chi2 = sum((c - 2000) ** 2 / 2000 for c in row)
        assert chi2 < 24.3, row


@needs_core
def test_fast_deals_are_other_deals_played_by_the_same_rules() -> None:
    rules = Rules(players=4)
    engine = native.play_hands(rules, range(300), ["plays-first"], deals="engine")
    fast = native.play_hands(rules, range(300), ["plays-first"], deals="fast")
    again = native.play_hands(rules, range(300), ["plays-first"], deals="fast")
    assert list(fast.actions) == list(again.actions)
    assert list(fast.actions) != list(engine.actions)
    for h in range(300):  # the winner holds nothing; it scores the others' points
        points = fast.per_seat("points", h)
        assert points[fast.winners[h]] == 0
        assert fast.hand_points[h] == sum(points)
    with pytest.raises(ConfigError, match="deals"):
        native.play_hands(rules, [1], ["random"], deals="quick")


# --------------------------------------------------------------------------------------------
# The search bot's playouts.


@needs_core
def test_rollout_policy_is_the_pythons() -> None:
    """bots/rollout.rollout_action and the core's, on every state of greedy-played hands, and
    whole playouts (their ends) from each."""
    from unotable.bots.rollout import playout, rollout_action  # noqa: PLC0415

    rng = random.Random(3)
    checked = 0
    for rules in list(rules_variants())[::2]:
        for seed in range(3):
            py = new_hand(rules, seed)[0]
            while py.current >= 0:
                nat = native.from_state(py)
                aid = rollout_action(py)
                assert nat.rollout_action() == aid
                if rng.random() < 0.2:  # a whole playout from here, after a random action
                    seat = py.current
                    first = rng.choice(legal_ids(py, seat))
                    horizon = rng.choice([0, 5, 20, 3000])
                    end = py.copy()
                    step(end, seat, first)
                    playout(end, horizon)
                    points = [sum(POINTS[t] for t in h) for h in end.hands]
                    expected = (
                        end.phase,
                        end.current,
                        end.winner,
                        -1 if end.hand_points is None else end.hand_points,
                        [len(h) for h in end.hands],
                        points,
                    )
                    assert nat.playout(seat, first, horizon) == expected
                    assert native.to_state(nat, rules) == py  # the playout ran on a copy
                step(py, py.current, aid)
                checked += 1
    assert checked > 1000


@needs_core
def test_search_bot_decides_the_same_with_native_playouts() -> None:
    from unotable.bots import make_bot  # noqa: PLC0415
    from unotable.views import view  # noqa: PLC0415

    decisions = 0
    for rules in (Rules(players=3), Rules(edition=find_edition("harry-potter"), players=4)):
        py = new_hand(rules, 21)[0]
        rng = random.Random(4)
        while py.current >= 0 and decisions < 40:
            seat = py.current
            v = view(py, seat)
            fast = make_bot("search", 5, budget=60)
            slow = make_bot("search", 5, budget=60, native=False)
            assert fast.act(v) == slow.act(v)
            decisions += 1
            step(py, seat, rng.choice(legal_ids(py, seat)))
    assert decisions >= 40


# --------------------------------------------------------------------------------------------
# The core fails closed (issue 22 item 5): an allow-list of options, constants checked.


@needs_core
def test_the_cores_constants_are_the_python_tables() -> None:
    """Every enum and constant of rules.h and policies.h equals the Python table it copies."""
    from unotable import engine  # noqa: PLC0415
    from unotable.cards import CLASSIC_CARD_TYPES, HOWLER, INVISIBILITY, MATER, WILD_DRAW_FOUR  # noqa: PLC0415
    from unotable.native.search import pack_view  # noqa: PLC0415
    from unotable.notation import ACTIONS, Kind  # noqa: PLC0415
    from unotable.rules import MAX_PLAYERS, MODES  # noqa: PLC0415
    from unotable.state import Phase  # noqa: PLC0415
    from unotable.views import view  # noqa: PLC0415

    assert core_module is not None
    c = dict(core_module.CONSTANTS)
    k_names = {f"K_{'INVIS' if k is Kind.INVISIBILITY else k.name}": int(k) for k in Kind}
    assert {name: c[name] for name in c if name.startswith("K_")} == k_names
    e_names = sorted(name for name in c if name.startswith("E_"))
    assert len(e_names) == 10
    for name in e_names:
        assert c[name] == getattr(engine, name), name
    assert {name: c[name] for name in c if name.startswith("P_")} == {f"P_{p.name}": int(p) for p in Phase}
    modes = {
        "M_SOLO": "solo",
        "M_PARTNERS": "partners",
        "M_TEAMS": "teams",
        "M_ROTATING": "rotating-partners",
    }
    modes |= {"M_TWO_TABLES": "two-tables", "M_CHALLENGE": "challenge"}
    assert {name: c[name] for name in c if name.startswith("M_")} == {
        k: native.NATIVE_MODES.index(v) for k, v in modes.items()
    }
    assert len(modes) == len(native.NATIVE_MODES)
    assert set(MODES) - set(native.NATIVE_MODES) == {"elimination"}  # refused (P-494)
    assert (c["C_WD4"], c["C_HOWLER"], c["C_INVIS"], c["C_MATER"]) == (
        WILD_DRAW_FOUR,
        HOWLER,
        INVISIBILITY,
        MATER,
    )
    assert c["TABLE_SEAT"] == TABLE_SEAT and c["NT"] == CLASSIC_CARD_TYPES and c["MAXP"] == MAX_PLAYERS
    assert c["MAXC"] == max(
        len(Rules(edition=e).deck()) for e in (find_edition("classic"), find_edition("cars2"))
    )
    assert c["MAXC"] >= len(Rules(blanks=((0, 7), (1, 7), (2, 7), (3, 7))).deck())
    assert c["NAMAX"] >= native.NATIVE_ACTIONS and c["MAXIDS"] >= native.NATIVE_ACTIONS
    classic = [a for a in ACTIONS if a.card < CLASSIC_CARD_TYPES]  # the later editions' cards: after them
    assert len([a for a in classic if not a.more]) == native.NATIVE_ACTIONS  # the 'more' ids are last
    assert all(a.card >= CLASSIC_CARD_TYPES for a in ACTIONS[len(classic) :])
    st = native.to_state(native.new_hand(Rules(players=3), 4), Rules(players=3))
    v = view(st, 1)
    ints = array("i", pack_view(v)[0])
    assert c["V_HEADER"] == len(ints) - 3 * len(v.hand_sizes) - len(v.scores)
    assert [c["POL_RANDOM"], c["POL_PLAYS_FIRST"], c["POL_GREEDY"]] == [
        native.POLICIES.index(p) for p in ("random", "plays-first", "greedy")
    ]


@needs_core
def test_the_support_check_is_an_allow_list_of_options() -> None:
    """An option of ``Rules`` the core does not name is refused unless at its official value: a
    new house rule, or any new option, is never played as the official rules."""
    fake = dataclasses.make_dataclass(
        "RulesWithTripleDraw", [("triple_draw", bool, False)], bases=(Rules,), frozen=True
    )
    assert native.unsupported(fake()) is None
    reason = native.unsupported(fake(triple_draw=True))
    assert reason is not None and "triple_draw" in reason
    with pytest.raises(native.NativeUnsupportedError, match="triple_draw"):
        native.new_hand(fake(players=3, triple_draw=True), 1)
    for rule in house.HOUSE_RULES:
        assert rule.name not in native.native_options()
        needed = {need: house.HOUSE_RULE[need].bare for need in rule.needs}  # §11.6
        on = Rules.from_dict({**needed, rule.name: rule.presets.get("crazy", rule.bare)})
        reason = native.unsupported(on) or ""
        assert f"house rule {rule.needs[0] if rule.needs else rule.name}" in reason
    assert native.unsupported(Rules(players=5, must_play_drawn=True, scoring="lowest", target=90)) is None


@needs_core
def test_the_allow_list_reads_the_house_rules_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule whose record says ``native`` is let through; the others are refused."""
    assert "jump_in" not in native.native_options()
    played = tuple(
        dataclasses.replace(r, native=True) if r.name == "jump_in" else r for r in house.HOUSE_RULES
    )
    monkeypatch.setattr(house, "HOUSE_RULES", played)
    assert "jump_in" in native.native_options()
    assert native.unsupported(Rules(jump_in=True)) is None
    assert native.unsupported(Rules(seven_zero=True)) is not None


@needs_core
def test_load_refuses_fields_that_make_no_position() -> None:
    """The core's ``load`` checks what its rules read unchecked: a bad field is a ValueError,
    never a read out of bounds."""
    assert core_module is not None
    rules = Rules(players=3)
    good = native.new_hand(rules, 5).dump()
    table = native.native_tables(rules)
    assert native.to_state(core_module.load(table, dict(good)), rules) == native.to_state(
        native.new_hand(rules, 5), rules
    )
    bad_values: list[tuple[str, object]] = [
        ("current", 3),
        ("current", 256),
        ("color", 4),
        ("phase", 9),
        ("direction", 0),
        ("drawn", 65),
        ("pend_from", -5),
        ("exposed", 8),
        ("drew_facing", [-1, 70_000, -1]),
        (
            "known",
            [[1 << 5] * len(good["hands"][0]), [0] * len(good["hands"][1]), [0] * len(good["hands"][2])],
        ),
        ("discard", []),
        ("hands", [[99], [], []]),
    ]
    for key, value in bad_values:
        with pytest.raises(ValueError, match="load"):
            core_module.load(table, {**good, key: value})
    after_draw = {**good, "phase": 1, "drawn": -1}
    with pytest.raises(ValueError, match="phase"):
        core_module.load(table, after_draw)


@pytest.mark.slow
def test_install_without_a_compiler_runs_in_pure_python(tmp_path: Path) -> None:
    """``pip install`` on a machine whose C compiler fails: the install goes on, and the package
    imports with ``COMPILED`` False and plays (the extension is optional). Needs the package
    registry (pip builds in isolation, with a setuptools of its own)."""
    root = tmp_path / "checkout"  # a clean copy: no build/ left by an earlier build
    here = Path(__file__).resolve().parent.parent
    shutil.copytree(here / "src", root / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(here / name, root / name)
    target = tmp_path / "site"
    env = {**os.environ, "CC": "/bin/false"}
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(root)],
        env=env, check=True, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    code = (
        "import unotable; from unotable import Rules, new_hand, legal_ids; "
        "st = new_hand(Rules(), 1)[0]; print(unotable.COMPILED, len(legal_ids(st, st.current)) > 0)"
    )
    env = {k: v for k, v in os.environ.items() if k != "UNOTABLE_PURE"}
    env["PYTHONPATH"] = str(target)
    # -S: no site-packages, so that only the installed copy (not this checkout's) is found
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]
