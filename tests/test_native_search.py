"""The search bot's whole decision in the native core (``native/search.h``) against the Python
search, which is its specification: the same worlds from the same generator, the same rewards,
the same generator state after, the same choices; worlds built from the view alone (two states
with one view decide alike); bad input refused with nothing changed; the fallbacks to Python.
Without the compiled core only the fallback tests run."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from array import array
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from unotable.bots import make_bot
from unotable.bots.search import SearchBot
from unotable.determinize import determinize, unseen_cards
from unotable.engine import legal_ids, new_hand, step
from unotable.native import COMPILED, core_module
from unotable.rules import BlankEffect, Rules, find_edition
from unotable.state import State
from unotable.views import View, view

needs_core = pytest.mark.skipif(not COMPILED, reason="the native core is not loaded")

if COMPILED:
    from unotable.native import core as native
    from unotable.native import search as native_search

VARIANTS = (
    Rules(players=4),
    Rules(players=2),
    Rules(edition=find_edition("harry-potter"), players=3),
    Rules(edition=find_edition("harry-potter"), players=2, must_play_drawn=True),
    Rules(edition=find_edition("cars2"), players=5),
    Rules(players=4, mode="partners", target=50),
    Rules(
        players=3,
        blanks=((0, 7), (1, BlankEffect(draw=2, skip=True)), (2, BlankEffect(wild=True, reveal=True))),
    ),
)


def random_views(rules: Rules, seed: int, every_seat: bool = True) -> list[View]:
    """The views of a hand played by random actions (every seat's, or the seat to play's)."""
    st = new_hand(rules, seed)[0]
    rng = random.Random(seed)
    out = []
    while st.current >= 0:
        seats = range(rules.players) if every_seat else (st.current,)
        out += [view(st, s) for s in seats]
        seat = st.current
        step(st, seat, rng.choice(legal_ids(st, seat)))
    return out


@needs_core
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.edition.name}-{r.players}-{r.mode}")
def test_native_worlds_are_determinizes(rules: Rules) -> None:
    """Every view of random hands (out of turn too: another seat's drawn card, cards revealed by
    Howlers, Maters and challenges, draws that tell): the core's world is the Python world, field
    for field (hidden cards, known cards, the world's own generator), and the bot's generator
    ends where Python's does."""
    worlds = 0
    for seed in range(2):
        for i, v in enumerate(random_views(rules, seed)[::4]):
            trust = (0.9, 0.0, 1.0, 0.5)[i % 4]
            py_rng, nat_rng = random.Random(i), random.Random(i)
            try:
                expected: State | str = determinize(v, py_rng, trust=trust)
            except ValueError as exc:
                expected = str(exc)
            try:
                got: State | str = native.to_state(
                    native_search.determinize(v, nat_rng, trust=trust), v.rules
                )
            except ValueError as exc:
                got = str(exc)
            if isinstance(expected, str):
                assert isinstance(got, str)
                continue
            assert got == expected
            assert nat_rng.getstate() == py_rng.getstate()
            worlds += 1
    assert worlds > 100


def searches(rules: Rules, seed: int, **options: Any) -> int:
    """The native and the Python search on the seat to play's views of a random hand: the same
    rewards, candidate for candidate and playout for playout, and the same generator after."""
    done = 0
    for v in random_views(rules, seed, every_seat=False)[::3]:
        if done == 8:
            break
        fast = SearchBot(seed, budget=48, **options)
        slow = SearchBot(seed, budget=48, native=False, **options)
        cands = fast.candidates(v, list(v.legal))
        if len(cands) < 2:
            continue
        assert fast.search(v, cands) == slow.search(v, cands)
        assert fast.rng.getstate() == slow.rng.getstate()
        assert fast.playouts == slow.playouts == 48
        done += 1
    return done


@needs_core
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.edition.name}-{r.players}-{r.mode}")
def test_native_search_is_the_pythons(rules: Rules) -> None:
    assert searches(rules, 1) + searches(rules, 2, reward="points", allocation="uniform") >= 10


@needs_core
def test_native_search_options_are_the_pythons() -> None:
    """Whole playouts, full trust, no trust, another exploration and bluff prior."""
    rules = Rules(players=3)
    done = searches(rules, 3, horizon=0, trust=1.0)
    done += searches(rules, 4, trust=0.0, exploration=2.5, bluff_prior=0.9, confidence=0)
    assert done >= 10


@needs_core
def test_search_bot_acts_alike_native_or_not() -> None:
    """Whole decisions (the candidates, the greedy anchor, the pick) over greedy-played hands."""
    greedy = make_bot("greedy", 0)
    acted = 0
    for rules in (Rules(players=4), Rules(edition=find_edition("harry-potter"), players=2)):
        st = new_hand(rules, 9)[0]
        fast = make_bot("search", 3, budget=80)
        slow = make_bot("search", 3, budget=80, native=False)
        while st.current >= 0:
            v = view(st, st.current)
            aid = fast.act(v)
            assert slow.act(v) == aid
            step(st, st.current, greedy.act(v))
            acted += 1
    assert acted > 40


def hidden_twin(st: State, seat: int, rng: random.Random) -> State:
    """``st`` with the cards ``seat`` cannot see dealt otherwise: the same view, other hands."""
    other = st.copy()
    hidden = [s for s in range(st.n) if s != seat and not st.known.get(s)]
    pool = [t for s in hidden for t in other.hands[s]] + other.draw
    rng.shuffle(pool)
    for s in hidden:
        k = len(other.hands[s])
        other.hands[s], pool = pool[:k], pool[k:]
    other.draw = pool
    return other


@needs_core
def test_two_states_with_one_view_decide_alike() -> None:
    """The core is given the view's data alone: states that differ only in what the seat cannot
    see give it the same input, the same rewards and the same decision from the same seed."""
    rng = random.Random(5)
    compared = 0
    for seed in range(6):
        st = new_hand(Rules(players=4), seed)[0]
        for _ in range(seed * 3):
            step(st, st.current, rng.choice(legal_ids(st, st.current)))
        if st.current < 0:
            continue
        seat = st.current
        twin = hidden_twin(st, seat, rng)
        assert twin.hands != st.hands or twin.draw != st.draw
        v, w = view(st, seat), view(twin, seat)
        assert v == w
        assert native_search.pack_view(v) == native_search.pack_view(w)
        a, b = SearchBot(seed, budget=200), SearchBot(seed, budget=200)
        cands = a.candidates(v, list(v.legal))
        assert a.search(v, cands) == b.search(w, cands)
        assert SearchBot(seed, budget=200).act(v) == SearchBot(seed, budget=200).act(w)
        compared += 1
    assert compared >= 5


@needs_core
def test_native_search_refuses_bad_input_and_changes_nothing() -> None:
    st = new_hand(Rules(players=4), 3)[0]
    v = view(st, st.current)
    moves = list(v.legal)
    rng = random.Random(1)
    before = rng.getstate()
    kwargs: dict[str, Any] = {
        "budget": 20,
        "time_budget": None,
        "exploration": 0.7,
        "trust": 0.9,
        "bluff_prior": 0.3,
        "uniform": False,
        "horizon": 20,
        "points_reward": False,
    }
    with pytest.raises(ValueError, match="does not add up"):
        native_search.search(replace(v, draw_pile_size=v.draw_pile_size + 1), moves, rng, **kwargs)
    with pytest.raises(ValueError, match="add up"):
        native_search.search(v, moves, rng, unseen=unseen_cards(v)[1:], **kwargs)
    with pytest.raises(ValueError, match="not legal"):
        native_search.search(v, [*moves, next(a for a in range(300) if a not in moves)], rng, **kwargs)
    with pytest.raises(ValueError, match="out of range"):
        native_search.search(replace(v, current=9), moves, rng, **kwargs)
    with pytest.raises(ValueError, match="out of range"):
        native_search.search(v, moves, rng, **{**kwargs, "trust": 1.5})
    assert rng.getstate() == before
    ints, cards = native_search.pack_view(v)
    assert core_module is not None
    words = array("I", before[1])
    words[624] = 625  # past the generator's 624 words
    bad_states = ((words.tobytes(), "position is out of range"), (words.tobytes()[:-4], "625 32-bit words"))
    for bad, why in bad_states:
        with pytest.raises(ValueError, match=why):
            core_module.determinize(native.native_tables(v.rules), ints, cards, 0.9, bad)
    rewards, worlds = native_search.search(v, moves, rng, **kwargs)
    assert sum(map(len, rewards)) == 20 and 1 <= worlds <= 20
    assert rng.getstate() != before


@needs_core
def test_native_time_budget_tries_every_candidate() -> None:
    st = new_hand(Rules(players=4), 3)[0]
    v = view(st, st.current)
    bot = SearchBot(0, time_budget=0.001)
    cands = list(v.legal)
    rewards = bot.search(v, cands)
    assert all(rewards) and bot.playouts == sum(map(len, rewards))


def forbid_native(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the native search ran")

    if COMPILED:
        monkeypatch.setattr(native_search, "search", refuse)


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        (Rules(players=3), {"native": False}),
        (Rules(players=3, lenient_plays=True), {}),
        (Rules(players=3, stacking="any", jump_in=True), {}),
    ],
)
def test_python_search_where_asked_or_the_core_cannot(
    rules: Rules, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``search:native=false``, ``lenient_plays`` and house rules: the search runs in Python."""
    forbid_native(monkeypatch)
    st = new_hand(rules, 4)[0]
    bot = make_bot("search", 1, budget=30, **options)
    for _ in range(30):
        if st.current < 0:
            break
        v = view(st, st.current)
        step(st, st.current, bot.act(v))
    assert isinstance(bot, SearchBot) and bot.playouts > 0


BENCH = Path(__file__).parent.parent / "bench"


@needs_core
def test_bench_search_compares_and_agrees() -> None:
    """``bench/search.py`` times both searches and checks they chose alike."""
    out = subprocess.run(
        [sys.executable, str(BENCH / "search.py"), "--decisions", "4", "--budget", "30", "--budgets", "60"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "python" in out and "native budget 60" in out
    assert out.strip().splitlines()[-1].endswith("same_choices=True")


def test_bench_search_gain_runs_and_replots(tmp_path: Path) -> None:
    """``bench/search_gain.py`` on a few hands: three line-ups, paired differences, its JSON."""
    data = tmp_path / "gain.json"
    args = ["--hands", "6", "--workers", "1", "--budgets", "2:40", "--json", str(data)]
    out = subprocess.run(
        [sys.executable, str(BENCH / "search_gain.py"), *args], capture_output=True, text=True, check=True
    ).stdout
    assert "2p paired, search:budget=40 - search:budget=500" in out
    kept = json.loads(data.read_text())["winners"]
    assert sorted(kept) == ["2:greedy,greedy", "2:search:budget=40,greedy", "2:search:budget=500,greedy"]
    assert all(len(w) == 6 for w in kept.values())
    again = subprocess.run(
        [sys.executable, str(BENCH / "search_gain.py"), "--replot", str(data)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "2p paired" in again
