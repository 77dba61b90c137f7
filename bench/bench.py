"""Benchmark of the unotable engine, and its comparison with RLCard's UNO (issue 6).

Run by ``make bench`` (``make bench BENCH_ARGS=--quick`` for a short run). It PRINTS figures; it
checks that the rules hold while it plays but never judges a timing.

What it prints
    One ``engine ...`` line per table (classic, harry-potter and cars2 with 2 and 4 players,
    classic with 10) and policy: random-play hands per second (each hand dealt by
    ``new_hand(rules, seed, dealer=seed % players, record=False)`` and played to its end, the policy's choices
    included), the mean number of actions per hand, and microseconds per ``legal_ids`` +
    ``step`` pair (recorded hands replayed, so neither dealing nor the policy is counted).
    One ``state ...`` line per table: bytes per state just dealt, by a deep ``sys.getsizeof``
    walk (the state, its lists, dicts and ints, leaving out what every state shares: the
    ``Rules``, the ``Tables`` and CPython's cached small ints) and by ``tracemalloc`` around
    dealing many states. One ``stripped ...`` line for classic with 2 and 4 players: the
    hands per second of ``stripped.py``, UNO with almost every rule left out in the tightest
    pure-Python loop we could write (a ceiling for pure Python, not a game we offer), and ours
    over it (each stripped run right after one of ours; the median of the pairs' ratios).
    With the native core loaded (``unotable.COMPILED``), one ``native ...`` line per table,
    policy and deals: the hands per second of the same policies played inside the core's batched
    loop (``unotable.native.core.play_hands``, picking from the core's own stream) and
    ``over_python``, with ``deals=engine`` (every shuffle the engine's: the same deals as ours
    from the same seeds) and ``deals=fast`` (a Fisher-Yates shuffle: other deals, cheaper still);
    then ``native_state bytes_per_table=...``, the bytes of one table in the batched loop. The
    native ratios of the last line are those of ``deals=engine`` (P-201: the same deals as ours);
    the ``native players=... deals=fast`` lines above it give the same with the fast deals, and
    each ``native players=...`` line adds the same ratio by processor time
    (``time.process_time`` on both sides: what the machine's other load changes least).
    Then the RLCard comparison (with the stripped loop and the native core timed in each round
    too), and last, exactly one line ``ratio_vs_rlcard_2p=X ratio_vs_rlcard_4p=Y
    native_ratio_vs_rlcard_2p=A native_ratio_vs_rlcard_4p=B``: our hands per second over
    RLCard's, with the plays-first policy, as the median of the rounds' own ratios
    (``paired_ratio`` below; ``nan`` when RLCard was not run), Python engine then native core
    (``nan`` without it). Speeds are medians of the rounds.

The random policies (the seat to decide, ``state.current``, picks with its own stream of random
numbers, apart from the engine's seeded generator)
    uniform
        Uniform over the seat's legal actions, except that (1) where a play has both spellings,
        with and without the `` uno`` suffix (the next-to-last card), it always takes the
        ``uno`` one, so it always calls UNO in time, and (2) it declines every out-of-turn
        option: ``catch``, ``wrong``, a late ``uno`` and the table's ``penalize``. As ``draw``
        is legal on every turn, these hands are long (several hundred actions).
    plays-first
        The same, except that it plays whenever it can: on its turn uniformly over its plays
        (a wild card counts once per colour), drawing only with nothing to play, and after a
        draw it plays the drawn card when it may (never ``pass`` then). This is the one
        compared with RLCard, whose game offers ``draw`` only to a player with nothing to play
        and plays a drawn card that can go at once.

Both pick with ``ids[word() % len(ids)]``, as RLCard's side does (``bench/picks.py``: ``word()``
is the next of a seeded stream of 32-bit numbers made in bulk).

RLCard's side (``bench/rlcard_worker.py``) runs with the Python of ``bench/.venv-rlcard``, a
virtual environment of its own that ``make bench`` makes (``pip install rlcard==1.2.0``, which
brings numpy, here held to one BLAS thread); RLCard never enters the project's ``.venv``.
Rounds of ours and theirs alternate so that the machine's drift touches both, and in each
round RLCard's run sits between two plays-first runs of ours, whose mean is that round's speed
of ours (drift within the round cancels to first order). Each ``rlcard`` line gives the ratio
of the medians and, as ``paired_ratio``, the median of the rounds' own ratios: the figure of
record, as the machine's speed swings by tens of percent from one round to the next. RLCard's
random player picks uniformly among ``get_legal_actions()`` with the same ``bench/picks.py``.

Every hand played here must end (``hand_over`` or ``game_over``) within ``MAX_ACTIONS``
actions, or the script stops with an error. The recorded hands (every timed hand with
``--quick``) are played again with ``unotable.invariants.check_invariants`` after every step,
off the timed path, and must match the timed ones action for action.

Options: ``--quick`` (a few hundred hands, well under a minute; the RLCard part runs only if
its venv already exists), ``--no-rlcard``, ``--rounds N``, ``--seed S`` (the base of the hand
seeds; runs are reproducible), ``--profile`` (print a cProfile of plays-first hands instead).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import math
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import unotable
from picks import random_words
from stripped import play_stripped
from unotable.engine import legal_ids, new_hand, step
from unotable.invariants import check_invariants
from unotable.native import COMPILED
from unotable.native import core as native
from unotable.notation import ACTION_ID, ACTION_KIND, ACTION_TEXT, ACTION_UNO, DRAW_ID, PASS_ID, Kind
from unotable.rules import Rules, find_edition
from unotable.state import Phase, State

BENCH_DIR: Final = Path(__file__).resolve().parent
RLCARD_VENV: Final = BENCH_DIR / ".venv-rlcard"
RLCARD_PYTHON: Final = RLCARD_VENV / "bin" / "python"
RLCARD_WORKER: Final = BENCH_DIR / "rlcard_worker.py"

TABLES: Final = (
    ("classic", 2),
    ("classic", 4),
    ("harry-potter", 2),
    ("harry-potter", 4),
    ("cars2", 2),
    ("cars2", 4),
    ("classic", 10),
)
POLICIES: Final = ("uniform", "plays-first")
DEFAULT_SEED: Final = 20_240_600
MAX_ACTIONS: Final = 200_000
"""A hand still going after this many actions is a bug: the bench stops."""

_TURN: Final = int(Phase.TURN)
_HAND_OVER: Final = int(Phase.HAND_OVER)


# --------------------------------------------------------------------------------------------
# The policies.


def _declined(aid: int) -> bool:
    return ACTION_KIND[aid] in (Kind.UNO, Kind.CATCH, Kind.WRONG, Kind.PENALIZE)


def _uno_twin(aid: int) -> int:
    if ACTION_UNO[aid] or ACTION_KIND[aid] not in (Kind.PLAY, Kind.INVISIBILITY):
        return aid
    return ACTION_ID.get(ACTION_TEXT[aid] + " uno", aid)


DECLINED: Final[tuple[bool, ...]] = tuple(_declined(a) for a in range(len(ACTION_TEXT)))
"""Per action id: an out-of-turn option the policies never take."""
UNO_TWIN: Final[tuple[int, ...]] = tuple(_uno_twin(a) for a in range(len(ACTION_TEXT)))
"""Per action id: the id of its `` uno`` spelling, or itself if it has none."""
REJECTED: Final[tuple[bool, ...]] = tuple(a in (DRAW_ID, PASS_ID) for a in range(len(ACTION_TEXT)))
"""Per action id: what the plays-first policy takes only when nothing else is legal."""
NOTHING_REJECTED: Final[tuple[bool, ...]] = (False,) * len(ACTION_TEXT)


def eligible(ids: Sequence[int]) -> list[int]:
    """The actions the policies choose from: out-of-turn options and plain spellings of a play
    whose ``uno`` spelling is also legal left out."""
    present = set(ids)
    return [a for a in ids if not DECLINED[a] and (UNO_TWIN[a] == a or UNO_TWIN[a] not in present)]


def needs_filter(st: State, seat: int, plays_first: bool) -> bool:
    """Whether the policy must filter ``legal_ids(st, seat)`` with :func:`eligible` first.

    Out-of-turn options are offered only while a UNO or wrong-card window is open; both
    spellings of a play only for the next-to-last card (a hand of two cards). The plays-first
    policy needs no filter for the latter: it draws among the spellings of its plays, which come
    in pairs, and takes the ``uno`` twin of the one drawn (:data:`UNO_TWIN`), which is uniform
    over the plays all the same.
    """
    return st.exposed != 0 or st.wrong_seat >= 0 or (not plays_first and len(st.hands[seat]) <= 2)


def run_hands(rules: Rules, seeds: Sequence[int], plays_first: bool, word: Callable[[], int]) -> int:
    """Play one hand per seed with the policy; the number of actions. This is the timed loop:
    :func:`play_checked` with :func:`needs_filter` and :func:`pick` inlined, unchecked.
    ``word`` is a stream of random numbers (:func:`picks.random_words`)."""
    n = rules.players
    twin = UNO_TWIN
    rejected = REJECTED if plays_first else NOTHING_REJECTED
    uniform = not plays_first
    lenient = rules.lenient_plays  # a wrong card's window opens only then
    filtering = lenient or uniform  # otherwise only an open UNO window calls for the filter
    total = 0
    for seed in seeds:
        st = new_hand(rules, seed, dealer=seed % n, record=False)[0]
        for count in range(MAX_ACTIONS + 1):
            seat = st.current
            if seat < 0:  # the hand is over
                total += count
                break
            ids = legal_ids(st, seat)
            hand_size = len(st.hands[seat])
            if st.exposed or (
                filtering and ((lenient and st.wrong_seat >= 0) or (uniform and hand_size <= 2))
            ):
                ids = eligible(ids)
            k = len(ids)
            aid = ids[word() % k]
            if rejected[aid] and k > 1:  # plays-first: uniform over the plays
                while rejected[aid]:
                    aid = ids[word() % k]
            if hand_size == 2:  # its uno spelling, if it has one
                aid = twin[aid]
            step(st, seat, aid)
        else:
            raise BenchError(f"{describe(rules)} seed {seed}: no end after {MAX_ACTIONS} actions")
    return total


def pick(ids: Sequence[int], hand_size: int, plays_first: bool, word: Callable[[], int]) -> int:
    """The policy's choice among ``ids`` (already filtered when :func:`needs_filter` says so)."""
    aid = ids[word() % len(ids)]
    if plays_first and len(ids) > 1:
        while REJECTED[aid]:
            aid = ids[word() % len(ids)]
    if hand_size == 2:  # never a twin for uniform: its ids are filtered then
        aid = UNO_TWIN[aid]
    return aid


def play_checked(
    rules: Rules, seeds: Sequence[int], plays_first: bool, word: Callable[[], int]
) -> list[list[int]]:
    """The hands of :func:`run_hands`, recorded, with every invariant checked after each step
    and every choice checked against the policy's definition (:func:`eligible`, and no draw or
    pass for plays-first while it can play)."""
    n = rules.players
    deck = Counter(rules.deck())
    out: list[list[int]] = []
    for seed in seeds:
        st = new_hand(rules, seed, dealer=seed % n, record=False)[0]
        check_invariants(st, deck)
        actions: list[int] = []
        while st.phase < _HAND_OVER:
            seat = st.current
            ids = legal_ids(st, seat)
            full = eligible(ids)
            if not full:
                raise BenchError(f"{describe(rules)} seed {seed}: seat {seat} has nothing to do")
            options = full if needs_filter(st, seat, plays_first) else ids
            aid = pick(options, len(st.hands[seat]), plays_first, word)
            plays = [a for a in full if not REJECTED[a]]
            if aid not in full or (plays_first and plays and aid not in plays):
                raise BenchError(f"{describe(rules)} seed {seed}: the policy chose {ACTION_TEXT[aid]!r}")
            step(st, seat, aid)
            check_invariants(st, deck)
            actions.append(aid)
            if len(actions) >= MAX_ACTIONS:
                raise BenchError(f"{describe(rules)} seed {seed}: no end after {len(actions)} actions")
        if st.phase < _HAND_OVER or st.winner < 0:
            raise BenchError(f"{describe(rules)} seed {seed}: the hand did not end")
        out.append(actions)
    return out


def replay_seconds(rules: Rules, seeds: Sequence[int], recorded: Sequence[Sequence[int]]) -> float:
    """Seconds to replay the recorded hands as ``legal_ids`` + ``step`` pairs (dealing not timed)."""
    n = rules.players
    states = [new_hand(rules, seed, dealer=seed % n, record=False)[0] for seed in seeds]
    start = time.perf_counter()
    for st, actions in zip(states, recorded, strict=True):
        for aid in actions:
            seat = st.current
            legal_ids(st, seat)
            step(st, seat, aid)
    seconds = time.perf_counter() - start
    if any(st.phase < _HAND_OVER for st in states):
        raise BenchError(f"{describe(rules)}: a replayed hand did not end")
    return seconds


# --------------------------------------------------------------------------------------------
# Sizes.

_SHARED_SLOTS: Final = frozenset({"rules", "tables"})


def deep_size(st: State) -> int:
    """Bytes of ``st`` and everything it alone holds (``sys.getsizeof`` summed over a walk)."""
    seen: set[int] = set()

    def size(obj: object) -> int:
        if obj is None or isinstance(obj, bool) or id(obj) in seen:
            return 0
        if isinstance(obj, int) and -5 <= obj <= 256:  # CPython's cached small ints: shared
            return 0
        seen.add(id(obj))
        total = sys.getsizeof(obj)
        if isinstance(obj, list | tuple | set | frozenset):
            total += sum(size(x) for x in obj)
        elif isinstance(obj, dict):
            total += sum(size(k) + size(v) for k, v in obj.items())
        elif isinstance(obj, State):
            total += sum(size(getattr(obj, name)) for name in State.__slots__ if name not in _SHARED_SLOTS)
        return total

    return size(st)


def traced_size(rules: Rules, seeds: Sequence[int]) -> float:
    """Bytes per state that stay allocated (``tracemalloc``) when dealing one per seed."""
    n = rules.players
    new_hand(rules, seeds[0], dealer=0)  # the rules' tables are built once, before measuring
    keep: list[State | None] = [None] * len(seeds)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i, seed in enumerate(seeds):
        keep[i] = new_hand(rules, seed, dealer=seed % n, record=False)[0]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(seeds)


# --------------------------------------------------------------------------------------------
# RLCard.


class BenchError(RuntimeError):
    """The engine did something a benchmark run must not see (a hand with no end, ...)."""


class RLCardUnavailableError(RuntimeError):
    """RLCard cannot be run; the message says why."""


class RLCardWorker:
    """``bench/rlcard_worker.py`` running under the Python of RLCard's own venv."""

    def __init__(self) -> None:
        # numpy's BLAS on one thread, as ours runs on one: the comparison is of two single-threaded
        # game loops (idle BLAS threads may otherwise spin on the core ours runs on next).
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.proc = subprocess.Popen(
            [str(RLCARD_PYTHON), str(RLCARD_WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        hello = self._read()
        if "error" in hello:
            self.close()
            raise RLCardUnavailableError(
                f"RLCard could not be imported in {rel(RLCARD_VENV)}: {hello['error']}"
            )
        self.versions = hello

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RLCardUnavailableError(f"the RLCard worker ended early (exit code {self.proc.poll()})")
        data: dict[str, Any] = json.loads(line)
        return data

    def run(self, players: int, hands: int, seed: int) -> dict[str, Any]:
        """Play ``hands`` hands in the worker: its counts and seconds."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"players": players, "hands": hands, "seed": seed}) + "\n")
        self.proc.stdin.flush()
        result = self._read()
        if result["unfinished"] or result["errors"]:
            print(
                f"# note: RLCard {players}p: {result['unfinished']} unfinished hands, "
                f"{result['errors']} hands stopped by an exception in RLCard"
            )
        return result

    def close(self) -> None:
        """Stop the worker."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


# --------------------------------------------------------------------------------------------
# Running and printing.


@dataclass(frozen=True)
class Plan:
    """How many hands and rounds each figure is measured over."""

    rounds: int
    hands: dict[str, int]
    """Timed hands per table, by policy."""
    recorded: dict[str, int]
    """Hands recorded (invariants checked) and replayed for microseconds per pair, by policy."""
    replays: int
    """Times the recorded hands are replayed (median reported)."""
    states: int
    rlcard_rounds: int
    rlcard_hands: dict[str, int]
    """Hands per round of the RLCard comparison: ``rlcard``, and ours by policy."""
    native_hands: dict[str, int]
    """Hands per timed run of the native core, by policy (and in each RLCard round)."""


FULL: Final = Plan(
    rounds=3,
    hands={"uniform": 150, "plays-first": 1500},
    recorded={"uniform": 20, "plays-first": 200},
    replays=7,
    states=2000,
    rlcard_rounds=9,
    rlcard_hands={"rlcard": 2000, "plays-first": 4000, "uniform": 120},
    native_hands={"uniform": 4000, "plays-first": 50_000},
)
QUICK: Final = Plan(
    rounds=1,
    hands={"uniform": 6, "plays-first": 30},
    recorded={"uniform": 6, "plays-first": 30},
    replays=1,
    states=200,
    rlcard_rounds=3,
    rlcard_hands={"rlcard": 100, "plays-first": 100, "uniform": 5},
    native_hands={"uniform": 50, "plays-first": 2000},
)


def rel(path: Path) -> str:
    """``path`` relative to the project's root when it is inside it."""
    try:
        return str(path.relative_to(BENCH_DIR.parent))
    except ValueError:
        return str(path)


def describe(rules: Rules) -> str:
    """``classic 4p``."""
    return f"{rules.edition.name} {rules.players}p"


def fmt(x: float, digits: int = 1) -> str:
    """A figure, or ``nan``."""
    return "nan" if math.isnan(x) else f"{x:.{digits}f}"


def _timed(play: Callable[[Callable[[], int]], int], hands: int, base: int) -> tuple[float, int]:
    """Hands per second of ``play(word)`` (which plays ``hands`` hands and returns its number of
    actions), with the random stream seeded by ``base``; and that number of actions."""
    word = random_words(base)
    start = time.perf_counter()
    actions = play(word)
    return hands / (time.perf_counter() - start), actions


def timed_run(rules: Rules, seeds: Sequence[int], plays_first: bool, base: int) -> tuple[float, int]:
    """Hands per second of :func:`run_hands` over ``seeds``, and its number of actions."""
    return _timed(lambda word: run_hands(rules, seeds, plays_first, word), len(seeds), base)


def stripped_run(players: int, seeds: Sequence[int], base: int) -> tuple[float, int]:
    """Hands per second of the stripped reference (``stripped.py``), and its number of actions."""
    return _timed(lambda word: play_stripped(players, seeds, word), len(seeds), base)


def bench_engine(plan: Plan, base: int) -> dict[tuple[str, int, str], float]:
    """Print the ``engine`` and ``state`` lines; our hands per second by (edition, players, policy)."""
    speeds: dict[tuple[str, int, str], float] = {}
    for edition, players in TABLES:
        rules = Rules(edition=find_edition(edition), players=players)
        for policy in POLICIES:
            plays_first = policy == "plays-first"
            seeds = range(base, base + plan.hands[policy])
            rec_seeds = range(base, base + plan.recorded[policy])
            recorded = play_checked(rules, rec_seeds, plays_first, random_words(base))
            # The timed loop must play the very hands that were checked.
            if run_hands(rules, rec_seeds, plays_first, random_words(base)) != sum(map(len, recorded)):
                raise BenchError(f"{describe(rules)} {policy}: timed and checked hands differ")
            rates: list[float] = []
            actions = 0
            for _ in range(plan.rounds):
                hands_per_s, actions = timed_run(rules, seeds, plays_first, base)
                rates.append(hands_per_s)
            pairs = sum(map(len, recorded))
            per_pair = statistics.median(
                replay_seconds(rules, rec_seeds, recorded) / pairs * 1e6 for _ in range(plan.replays)
            )
            speed = speeds[edition, players, policy] = statistics.median(rates)
            print(
                f"engine edition={edition} players={players} policy={policy} "
                f"hands_per_s={speed:.1f} actions_per_hand={actions / len(seeds):.1f} "
                f"us_per_pair={per_pair:.2f} hands={len(seeds)} rounds={plan.rounds} "
                f"range={min(rates):.1f}..{max(rates):.1f} checked_hands={len(recorded)}",
                flush=True,
            )
        if edition == "classic" and players in (2, 4):
            # Each stripped run right after one of ours: the pair's ratio is little touched by drift.
            seeds = range(base, base + plan.hands["plays-first"])
            runs = [
                (timed_run(rules, seeds, True, base)[0], stripped_run(players, seeds, base))
                for _ in range(plan.rounds)
            ]
            stripped_speed = statistics.median(rate for _, (rate, _) in runs)
            share = statistics.median(ours_rate / rate for ours_rate, (rate, _) in runs)
            print(
                f"stripped players={players} hands_per_s={stripped_speed:.1f} "
                f"actions_per_hand={runs[0][1][1] / len(seeds):.1f} ours_over_stripped={share:.2f} "
                f"hands={len(seeds)} rounds={plan.rounds}",
                flush=True,
            )
        seeds = range(base, base + plan.states)
        deep = statistics.mean(deep_size(new_hand(rules, s, dealer=s % players)[0]) for s in seeds[:100])
        print(
            f"state edition={edition} players={players} bytes_deep={deep:.0f} "
            f"bytes_tracemalloc={traced_size(rules, seeds):.0f}",
            flush=True,
        )
    return speeds


NATIVE_POLICY: Final = {"uniform": "random", "plays-first": "plays-first"}
"""The native core's name of each policy (the same rules; its picks come from its own stream)."""


def native_run(
    rules: Rules, seeds: Sequence[int], policy: str, base: int, deals: str = "fast"
) -> tuple[float, int]:
    """Hands per second of the native core's batched loop over ``seeds``, and its number of
    actions. ``deals``: ``engine`` (dealt and reshuffled exactly as ours) or ``fast``."""
    start = time.perf_counter()
    result = native.play_hands(
        rules, seeds, [NATIVE_POLICY[policy]], pick_seed=base, dealer="seed", deals=deals
    )
    seconds = time.perf_counter() - start
    return len(seeds) / seconds, sum(result.actions)


def native_cpu_run(rules: Rules, seeds: Sequence[int], deals: str, base: int) -> float:
    """Hands per second of processor time (``time.process_time``) of the native core's
    plays-first loop: what the machine's other load does not change."""
    start = time.process_time()
    native.play_hands(rules, seeds, ["plays-first"], pick_seed=base, dealer="seed", deals=deals)
    return len(seeds) / (time.process_time() - start)


def bench_native(plan: Plan, base: int, ours: dict[tuple[str, int, str], float]) -> None:
    """Print the ``native`` lines: the native core's hands per second for the same tables and
    policies (whole hands in its batched loop), and bytes per table."""
    if not COMPILED:
        print(f"# native core: not loaded ({native.unsupported(Rules())}); no native figures")
        return
    for edition, players in TABLES:
        rules = Rules(edition=find_edition(edition), players=players)
        for policy in POLICIES:
            for deals in native.DEALS:
                seeds = range(base, base + plan.native_hands[policy])
                native_run(rules, seeds[:10], policy, base, deals)  # its tables built
                runs = [native_run(rules, seeds, policy, base, deals) for _ in range(plan.rounds)]
                speed = statistics.median(rate for rate, _ in runs)
                low, high = min(r for r, _ in runs), max(r for r, _ in runs)
                print(
                    f"native edition={edition} players={players} policy={policy} deals={deals} "
                    f"hands_per_s={speed:.1f} actions_per_hand={runs[0][1] / len(seeds):.1f} "
                    f"over_python={speed / ours[edition, players, policy]:.1f} hands={len(seeds)} "
                    f"rounds={plan.rounds} range={low:.1f}..{high:.1f}",
                    flush=True,
                )
    print(
        f"native_state bytes_per_table={native.state_bytes()} "
        f"(one hand in the batched loop: cards, known-card masks, scores, generator; the rules' "
        f"lookup tables are shared)",
        flush=True,
    )


def bench_rlcard(plan: Plan, base: int) -> tuple[float, float, float, float, float, float]:
    """Print the RLCard comparison; the plays-first and uniform ratios for 2 and 4 players, and
    the native core's plays-first ratios (nan without it).

    :raises RLCardUnavailableError: if RLCard cannot be run.
    """
    if not RLCARD_PYTHON.exists():
        raise RLCardUnavailableError(
            f"RLCard is not installed: {rel(RLCARD_PYTHON)} does not exist "
            f"(`make bench` installs rlcard==1.2.0 there; if that failed, "
            f"see {rel(RLCARD_VENV / 'install.log')})"
        )
    worker = RLCardWorker()
    try:
        v = worker.versions
        print(
            f"# RLCard {v['rlcard']} with numpy {v['numpy']} on Python {v['python']} "
            f"({rel(RLCARD_VENV)}); ours on Python {platform.python_version()}",
            flush=True,
        )
        ratios: dict[tuple[int, str], float] = {}  # (players, policy or "native")
        ours: dict[tuple[int, str], list[float]] = {}
        theirs: dict[int, list[float]] = {}
        stripped: dict[int, list[float]] = {}
        compiled: dict[tuple[int, str], list[float]] = {}
        theirs_cpu: dict[int, list[float]] = {}
        our_actions: dict[tuple[int, str], float] = {}
        their_actions: dict[int, float] = {}
        for r in range(plan.rlcard_rounds):
            for players in (2, 4):
                rules = Rules(edition=find_edition("classic"), players=players)
                line = [f"# round {r + 1}/{plan.rlcard_rounds} {players}p:"]
                seeds = range(base, base + plan.rlcard_hands["uniform"])
                hands_per_s, actions = timed_run(rules, seeds, False, base)
                ours.setdefault((players, "uniform"), []).append(hands_per_s)
                our_actions[players, "uniform"] = actions / len(seeds)
                line.append(f"ours uniform {hands_per_s:.0f} hands/s,")
                # RLCard's run between two of ours: the mean of the two is what the machine's
                # speed gave ours around RLCard's run, drift in between cancelled to first order.
                seeds = range(base, base + plan.rlcard_hands["plays-first"])
                before, actions = timed_run(rules, seeds, True, base)
                result = worker.run(players, plan.rlcard_hands["rlcard"], base)
                after, _ = timed_run(rules, seeds, True, base)
                ceiling, _ = stripped_run(players, seeds, base)
                stripped.setdefault(players, []).append(ceiling)
                if COMPILED:
                    native_seeds = range(base, base + plan.native_hands["plays-first"])
                    for deals in native.DEALS:
                        rate, _ = native_run(rules, native_seeds, "plays-first", base, deals)
                        compiled.setdefault((players, deals), []).append(rate)
                        cpu_rate = native_cpu_run(rules, native_seeds, deals, base)
                        compiled.setdefault((players, f"{deals}-cpu"), []).append(cpu_rate)
                    theirs_cpu.setdefault(players, []).append(result["hands"] / result["cpu_seconds"])
                ours.setdefault((players, "plays-first"), []).append((before + after) / 2)
                our_actions[players, "plays-first"] = actions / len(seeds)
                played = result["hands"] - result["errors"]
                theirs.setdefault(players, []).append(result["hands"] / result["seconds"])
                their_actions[players] = result["actions"] / played if played else math.nan
                line.append(
                    f"ours plays-first {before:.0f} and {after:.0f} hands/s around "
                    f"RLCard {result['hands'] / result['seconds']:.0f} hands/s; "
                    f"stripped {ceiling:.0f} hands/s"
                    + (
                        f"; native {compiled[players, 'engine'][-1]:.0f} hands/s "
                        f"({compiled[players, 'fast'][-1]:.0f} with the fast deals)"
                        if COMPILED
                        else ""
                    )
                )
                print(" ".join(line), flush=True)
        for players in (2, 4):
            their = statistics.median(theirs[players])
            for policy in ("plays-first", "uniform"):
                our = statistics.median(ours[players, policy])
                ratio = our / their
                # The same, round by round (RLCard's run between two of ours for plays-first):
                # far less touched by the machine's drift between rounds. The figure of record.
                paired = ratios[players, policy] = statistics.median(
                    o / t for o, t in zip(ours[players, policy], theirs[players], strict=True)
                )
                print(
                    f"rlcard players={players} policy={policy} ours_hands_per_s={our:.1f} "
                    f"rlcard_hands_per_s={their:.1f} ratio={ratio:.2f} paired_ratio={paired:.2f} "
                    f"ours_actions_per_hand={our_actions[players, policy]:.1f} "
                    f"rlcard_actions_per_hand={their_actions[players]:.1f} rounds={plan.rlcard_rounds}",
                    flush=True,
                )
            # The ceiling: the stripped loop over RLCard, and ours over the stripped loop.
            ceiling = statistics.median(
                o / t for o, t in zip(stripped[players], theirs[players], strict=True)
            )
            share = statistics.median(
                o / c for o, c in zip(ours[players, "plays-first"], stripped[players], strict=True)
            )
            print(
                f"stripped players={players} paired_ratio_vs_rlcard={ceiling:.2f} "
                f"ours_over_stripped={share:.2f} rounds={plan.rlcard_rounds}",
                flush=True,
            )
            for deals in native.DEALS if COMPILED else ():
                paired = ratios[players, f"native-{deals}"] = statistics.median(
                    o / t for o, t in zip(compiled[players, deals], theirs[players], strict=True)
                )
                cpu_paired = statistics.median(
                    o / t for o, t in zip(compiled[players, f"{deals}-cpu"], theirs_cpu[players], strict=True)
                )
                print(
                    f"native players={players} policy=plays-first deals={deals} "
                    f"native_hands_per_s={statistics.median(compiled[players, deals]):.1f} "
                    f"paired_ratio_vs_rlcard={paired:.2f} "
                    f"native_cpu_hands_per_s={statistics.median(compiled[players, f'{deals}-cpu']):.1f} "
                    f"rlcard_cpu_hands_per_s={statistics.median(theirs_cpu[players]):.1f} "
                    f"cpu_paired_ratio_vs_rlcard={cpu_paired:.2f} rounds={plan.rlcard_rounds}",
                    flush=True,
                )
    finally:
        worker.close()
    nan = math.nan
    return (
        ratios[2, "plays-first"],
        ratios[4, "plays-first"],
        ratios[2, "uniform"],
        ratios[4, "uniform"],
        ratios.get((2, "native-engine"), nan),
        ratios.get((4, "native-engine"), nan),
    )


def profile(base: int, hands: int) -> None:
    """Print where the time goes in plays-first hands of classic 4p (cProfile, by own time)."""
    rules = Rules(edition=find_edition("classic"), players=4)
    seeds = range(base, base + hands)
    prof = cProfile.Profile()
    actions = prof.runcall(run_hands, rules, seeds, True, random_words(base))
    print(f"# cProfile: {hands} plays-first hands of classic 4p, {actions} actions")
    pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(20)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; see the module's docstring."""
    parser = argparse.ArgumentParser(description="unotable benchmark (prints figures; never judges them)")
    parser.add_argument("--quick", action="store_true", help="a few hundred hands, well under a minute")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per figure (median reported)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base of the hand seeds")
    parser.add_argument(
        "--profile", action="store_true", help="print a cProfile of plays-first hands instead"
    )
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.seed, 60 if args.quick else 400)
        return 0
    plan = QUICK if args.quick else FULL
    if args.rounds is not None:
        plan = Plan(
            rounds=max(1, args.rounds),
            hands=plan.hands,
            recorded=plan.recorded,
            replays=plan.replays,
            states=plan.states,
            rlcard_rounds=max(1, args.rounds),
            rlcard_hands=plan.rlcard_hands,
            native_hands=plan.native_hands,
        )
    start = time.perf_counter()
    print(
        f"# unotable {unotable.__version__} bench: Python {platform.python_version()} "
        f"({platform.python_implementation()}) on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} run, {plan.rounds} round(s) "
        f"per figure (medians), hand seeds from {args.seed}",
        flush=True,
    )
    print("# policies: uniform (draw always possible) and plays-first (draw only with nothing to play)")
    print(
        "# hands_per_s: dealing, policy and engine; us_per_pair: legal_ids + step alone, on recorded hands "
        "replayed; bytes: one state just dealt"
    )
    speeds = bench_engine(plan, args.seed)
    bench_native(plan, args.seed, speeds)
    ratios = (math.nan,) * 6
    if args.no_rlcard:
        print("# RLCard comparison: skipped (--no-rlcard)")
    elif args.quick and not RLCARD_PYTHON.exists():
        print(
            f"# RLCard comparison: skipped in --quick mode, as {rel(RLCARD_VENV)} "
            "does not exist (a full `make bench` installs RLCard there)"
        )
    else:
        if args.quick:
            print("# RLCard comparison (--quick: three short rounds, noisy)")
        try:
            ratios = bench_rlcard(plan, args.seed)
        except RLCardUnavailableError as exc:
            print(f"# RLCard comparison: not run: {exc}")
    print(
        f"ratio_vs_rlcard_uniform_2p={fmt(ratios[2], 2)} ratio_vs_rlcard_uniform_4p={fmt(ratios[3], 2)} "
        "(our uniform policy: draw always legal, so hands many times longer; not like for like)"
    )
    print(f"# total time {time.perf_counter() - start:.1f} s")
    print(
        f"ratio_vs_rlcard_2p={fmt(ratios[0], 2)} ratio_vs_rlcard_4p={fmt(ratios[1], 2)} "
        f"native_ratio_vs_rlcard_2p={fmt(ratios[4], 2)} native_ratio_vs_rlcard_4p={fmt(ratios[5], 2)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
