"""Simulation at scale: many hands, or whole games, between bots, on every core.

:func:`simulate` plays ``hands`` single hands (the dealer moving one seat to the left each
hand, so that every seat is dealt to equally) or ``games`` whole games
(:class:`unotable.match.Game`) between the bots of :attr:`SimConfig.bots`, one per seat (per
player in a game), and :func:`summarize` turns the records into win rates with 95% Wilson
intervals, mean points, hand lengths and the advantage of each seat and of each position at the
table.

Reproducible: hand (or game) ``i`` is dealt from a seed derived from the simulation's seed and
``i``, each bot's generator likewise from (seed, ``i``, seat), and the race of the out-of-turn
reactions is ordered by the one rule of :mod:`unotable.race` (hand ``i`` of the simulation's
seed; a game's hands from a seed derived from (seed, ``i``)); records are aggregated in hand
order. The results
do not depend on how many workers ran them, nor on the backend.

The driver of a hand: the seat the phase waits for acts (``Bot.act`` on its view); after each
action, while an UNO or wrong-card window is open, or (``jump_in``, RULES §11) a ``turn`` waits,
the seats with an out-of-turn action are asked (``Bot.react``) in the race's order
(:func:`unotable.race.first_reaction`); the first that acts takes its action, and the round
starts again, until a round passes with nobody acting.

This module and the bots are standard library only; ``uno simulate`` (:mod:`unotable.simcli`)
adds the progress bar and the table (``rich``) and the chart (``matplotlib``).
"""

from __future__ import annotations

import functools
import importlib
import math
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Final

from unotable.bots import BOT_NAMES, BaseBot, Bot, make_bot
from unotable.bots.base import out_of_turn
from unotable.engine import legal_ids, new_hand, step
from unotable.errors import ConfigError
from unotable.match import GAME_PLAYERS, Game
from unotable.notation import ACTION_ARG, ACTION_KIND, ACTION_TEXT, KIND_CATCH, KIND_PLAY, Kind
from unotable.race import first_reaction, window_open
from unotable.rules import Rules
from unotable.seeds import derive_seed as derive_seed  # noqa: PLC0414 - re-exported from its old place
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import view

OUT_OF_TURN: Final = frozenset({int(Kind.UNO), int(Kind.CATCH), int(Kind.WRONG)})
"""Kinds of action a seat takes out of turn, when a window is open (and a play, by a seat whose
turn it is not: a jump-in)."""
HAND_ACTION_CAP: Final = 200_000
"""A hand still going after this many actions is an error (bots that never end it)."""
MAX_UNITS: Final = 1_000_000
"""The most hands (or games) of one run: every record is kept to compute the results."""
GAME_HAND_CAP: Final = 10_000
"""A game still going after this many hands is an error."""
Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
BACKENDS: Final = ("local", "ray")
CORES: Final = ("auto", "python", "native")
NATIVE_BOTS: Final = {"greedy": "greedy", "random": "random"}
"""Bots the native core plays inside its loop (with no options), by its policy's name."""


class BotError(RuntimeError):
    """A bot answered with an action that is not legal for it now."""


# --------------------------------------------------------------------------------------------
# Configuration.


def parse_value(text: str) -> Any:
    """A bot option's value: ``true``/``false``/``none``, an integer, a number, else the text."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with options: written ``name`` or ``name:key=value:key=value``."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """The spec written ``text``, checked by making the bot once.

        :raises ConfigError: for an unknown bot, a malformed option or one the bot refuses.
        """
        name, *parts = text.strip().split(":")
        options: list[tuple[str, Any]] = []
        for part in parts:
            key, eq, value = part.partition("=")
            if not eq or not key:
                raise ConfigError(f"bot option {part!r} of {text!r} is not key=value")
            options.append((key.strip(), parse_value(value.strip())))
        spec = cls(name.strip().lower(), tuple(options))
        spec.make(0)
        return spec

    def make(self, seed: int) -> BaseBot:
        """A fresh bot of this spec with its generator seeded ``seed``.

        :raises ConfigError: for an unknown bot or an option it refuses.
        """
        try:
            return make_bot(self.name, seed, **dict(self.options))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    @property
    def label(self) -> str:
        """The spec as written."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])


def parse_bots(text: str, seats: int) -> tuple[BotSpec, ...]:
    """One spec per seat from a comma-separated list; a single spec fills every seat.

    :raises ConfigError: if the number of specs is neither 1 nor ``seats``, or a spec is bad.
    """
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    if not parts:
        raise ConfigError(f"--bots needs at least one bot (known: {', '.join(BOT_NAMES)})")
    specs = [BotSpec.parse(p) for p in parts]
    if len(specs) == 1:
        return tuple(specs) * seats
    if len(specs) != seats:
        raise ConfigError(f"--bots lists {len(specs)} bots for {seats} seats (give one, or one per seat)")
    return tuple(specs)


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: the rules, the bots (one per seat, or per player of a game), and how many
    hands or games (exactly one of the two is positive) from which seed."""

    rules: Rules
    bots: tuple[BotSpec, ...]
    hands: int = 0
    games: int = 0
    seed: int = 0
    core: str = "auto"
    """Which engine plays: ``auto`` (the native core when it can, see :func:`native_policies`),
    ``python``, or ``native`` (an error if it cannot)."""

    def __post_init__(self) -> None:
        if (self.hands > 0) == (self.games > 0) or self.hands < 0 or self.games < 0:
            raise ConfigError("simulate either a positive number of hands or of games")
        if self.units > MAX_UNITS:
            what = "hands" if self.hands else "games"
            raise ConfigError(
                f"at most {MAX_UNITS:,} {what} in one run, not {self.units:,} (run several seeds for more)"
            )
        if self.core not in CORES:
            raise ConfigError(f"core must be one of {', '.join(CORES)}, not {self.core!r}")
        if self.core == "native":
            reason = native_unavailable(self)
            if reason is not None:
                raise ConfigError(f"core native: {reason}")
        if len(self.bots) != self.participants:
            raise ConfigError(f"{len(self.bots)} bots for {self.participants} players")

    @property
    def participants(self) -> int:
        """Seats of a hand, or players of a game (8 for ``two-tables``)."""
        if self.games:
            return GAME_PLAYERS.get(self.rules.mode, self.rules.players)
        return self.rules.players

    @property
    def units(self) -> int:
        """Hands or games to play."""
        return self.hands or self.games


def native_unavailable(cfg: SimConfig) -> str | None:
    """Why the native core cannot play ``cfg`` (None if it can): it plays single hands (not
    games) of the rules it knows, between ``greedy`` and ``random`` bots with no options."""
    from unotable.native import core as native  # noqa: PLC0415 - optional part

    if cfg.games:
        return "it plays single hands, not whole games"
    for spec in cfg.bots:
        if spec.name not in NATIVE_BOTS or spec.options:
            return f"it plays only {' and '.join(NATIVE_BOTS)} bots with no options, not {spec.label}"
    return native.unsupported(cfg.rules)


def uses_native(cfg: SimConfig) -> bool:
    """Whether :func:`simulate` plays ``cfg`` on the native core."""
    return cfg.core != "python" and native_unavailable(cfg) is None


# --------------------------------------------------------------------------------------------
# Playing.


@dataclass
class Tally:
    """Counts of one hand (or game) by seat (by player in a game)."""

    actions: int = 0
    decisions: list[int] = field(default_factory=list)
    think: list[float] = field(default_factory=list)
    """Seconds spent in ``act``; not reproducible, kept apart from the results."""
    caught: list[int] = field(default_factory=list)
    uno_chances: list[int] = field(default_factory=list)
    lapses: list[int] = field(default_factory=list)

    @classmethod
    def empty(cls, seats: int) -> Tally:
        return cls(0, [0] * seats, [0.0] * seats, [0] * seats, [0] * seats, [0] * seats)


def _reaction(st: State, bots: Sequence[Bot], seat: int) -> int | None:
    """``seat``'s bot's reaction now (``None`` if it has no out-of-turn action or lets the window
    pass).

    :raises BotError: if the bot answers with an action that is not out of turn now.
    """
    current = st.current
    if not any(
        ACTION_KIND[a] in OUT_OF_TURN or (seat != current and ACTION_KIND[a] == KIND_PLAY)
        for a in legal_ids(st, seat)
    ):
        return None
    v = view(st, seat)
    aid = bots[seat].react(v)
    if aid is not None and aid not in out_of_turn(v):
        raise BotError(
            f"bot {bots[seat].name} at seat {seat} reacted {_text(aid)}, not an out-of-turn action now"
        )
    return aid


def _text(aid: object) -> str:
    if isinstance(aid, int) and 0 <= aid < len(ACTION_TEXT):
        return repr(ACTION_TEXT[aid])
    return repr(aid)


def play_hand(
    state: Callable[[], State],
    do: Callable[[int, int], None],
    bots: Sequence[Bot],
    race: int | random.Random,
    tally: Tally,
    seat_key: Sequence[int] | None = None,
    hand: int = 0,
) -> None:
    """Play the hand ``state()`` to its end: ``bots[seat]`` decides for each seat, ``do(seat,
    action)`` applies an action; counts go to ``tally`` (at index ``seat_key[seat]``).

    While a window is open, the seats are asked for a reaction in the race's order
    (:func:`unotable.race.first_reaction`) for the game seeded ``race`` (a seed, or a generator
    a seed is drawn from), hand number ``hand``, after the actions taken so far in this hand.

    :raises BotError: if a bot answers with an action that is not legal for it.
    """
    key = seat_key if seat_key is not None else range(len(bots))
    race_seed = race.getrandbits(64) if isinstance(race, random.Random) else race
    seats = range(len(bots))
    taken_here = 0
    while True:
        st = state()
        while window_open(st):
            taken = first_reaction(seats, race_seed, hand, taken_here, functools.partial(_reaction, st, bots))
            if taken is None:
                break
            seat, aid = taken
            if ACTION_KIND[aid] == KIND_CATCH:
                tally.caught[key[ACTION_ARG[aid]]] += 1
            do(seat, aid)
            tally.actions += 1
            taken_here += 1
            st = state()
        if st.phase >= PHASE_HAND_OVER:
            return
        seat = st.current
        v = view(st, seat)
        t0 = time.perf_counter()
        aid = bots[seat].act(v)
        tally.think[key[seat]] += time.perf_counter() - t0
        tally.decisions[key[seat]] += 1
        if aid not in v.legal:
            raise BotError(f"bot {bots[seat].name} at seat {seat} chose {_text(aid)}, not legal now")
        do(seat, aid)
        tally.actions += 1
        taken_here += 1
        if tally.actions > HAND_ACTION_CAP:
            raise BotError(f"a hand went on for more than {HAND_ACTION_CAP} actions")


def play_state(
    st: State, bots: Sequence[Bot], race: int | random.Random, tally: Tally | None = None, hand: int = 0
) -> Tally:
    """Play the hand ``st`` (a state the caller owns, changed in place) to its end with
    :func:`play_hand` (``race`` and ``hand`` as there); its counts."""
    tally = tally if tally is not None else Tally.empty(st.n)

    def do(seat: int, aid: int) -> None:
        step(st, seat, aid)

    play_hand(lambda: st, do, bots, race, tally, hand=hand)
    return tally


@dataclass
class HandRecord:
    """One simulated hand."""

    winner: int
    dealer: int
    points: list[int]
    """What the hand added to each seat's score (its team's, in team modes)."""
    tally: Tally


@dataclass
class GameRecord:
    """One simulated game, by player."""

    winners: list[int]
    scores: list[int]
    """Final game scores (by team in partners and teams)."""
    hands: int
    hand_actions: list[int]
    tally: Tally


def run_hand(cfg: SimConfig, index: int) -> HandRecord:
    """Hand number ``index`` of the simulation."""
    rules = cfg.rules
    n = rules.players
    dealer = index % n
    st, _ = new_hand(rules, derive_seed(cfg.seed, "hand", index), dealer=dealer, record=False)
    bots = [spec.make(derive_seed(cfg.seed, "bot", index, s)) for s, spec in enumerate(cfg.bots)]
    tally = play_state(st, bots, cfg.seed, hand=index)
    for s, bot in enumerate(bots):
        tally.uno_chances[s] = bot.uno_chances
        tally.lapses[s] = bot.lapses
    slot = [s % 2 if rules.teams else s for s in range(n)]
    return HandRecord(st.winner, dealer, [st.scores[slot[s]] for s in range(n)], tally)


def run_game(cfg: SimConfig, index: int) -> GameRecord:
    """Game number ``index`` of the simulation."""
    players = cfg.participants
    game = Game.new(cfg.rules, derive_seed(cfg.seed, "game", index), players=players)
    bots = [spec.make(derive_seed(cfg.seed, "gamebot", index, p)) for p, spec in enumerate(cfg.bots)]
    race = derive_seed(cfg.seed, "gamerace", index)
    tally = Tally.empty(players)
    lengths: list[int] = []
    while True:
        seating = game.deal.seating
        before = tally.actions

        def do(seat: int, aid: int) -> None:
            game.apply_seat(seat, aid)

        hand = game.actions_played[0]
        play_hand(lambda: game.state, do, [bots[p] for p in seating], race, tally, seating, hand)
        lengths.append(tally.actions - before)
        if game.finished:
            break
        if len(lengths) >= GAME_HAND_CAP:
            raise BotError(f"a game went on for more than {GAME_HAND_CAP} hands")
        game.next_hand()
    for p, bot in enumerate(bots):
        tally.uno_chances[p] = bot.uno_chances
        tally.lapses[p] = bot.lapses
    standings = game.standings()
    return GameRecord(list(standings.winners), list(standings.scores), len(lengths), lengths, tally)


Record = HandRecord | GameRecord


def run_native_hands(cfg: SimConfig, start: int, stop: int) -> list[Record]:
    """Hands ``start`` to ``stop - 1`` on the native core, in order: dealt from the same seeds
    and dealers as :func:`run_hand`. Greedy bots decide exactly as the Python ones (so a table of
    greedy bots gives the same hands); random bots draw from the core's own stream, seeded by
    the simulation's seed and each hand's, so their hands differ from the Python run's but
    depend on the seed alone (not on workers or chunks)."""
    from unotable.native import core as native  # noqa: PLC0415 - optional part

    rules = cfg.rules
    n = rules.players
    indices = range(start, stop)
    t0 = time.perf_counter()
    result = native.play_hands(
        rules,
        [derive_seed(cfg.seed, "hand", i) for i in indices],
        [NATIVE_BOTS[spec.name] for spec in cfg.bots],
        pick_seed=derive_seed(cfg.seed, "native-picks"),
        dealers=[i % n for i in indices],
        max_actions=HAND_ACTION_CAP,
    )
    per_action = (time.perf_counter() - t0) / max(1, sum(result.actions))
    slot = [s % 2 if rules.teams else s for s in range(n)]
    out: list[Record] = []
    for h, i in enumerate(indices):
        scores = result.per_seat("scores", h)
        decisions = result.per_seat("decisions", h)
        tally = Tally(
            actions=result.actions[h],
            decisions=decisions,
            think=[d * per_action for d in decisions],  # the loop's time, shared by decisions
            caught=[0] * n,
            uno_chances=result.per_seat("uno_calls", h),
            lapses=[0] * n,
        )
        out.append(HandRecord(result.winners[h], i % n, [scores[slot[s]] for s in range(n)], tally))
    return out


def run_chunk(cfg: SimConfig, start: int, stop: int) -> list[Record]:
    """Hands (or games) ``start`` to ``stop - 1``, in order."""
    if uses_native(cfg):
        return run_native_hands(cfg, start, stop)
    one = run_game if cfg.games else run_hand
    return [one(cfg, i) for i in range(start, stop)]


def chunks(units: int, workers: int) -> list[tuple[int, int]]:
    """Contiguous ranges of work: a few per worker (for balance and progress), at most 200 each."""
    size = max(1, min(200, math.ceil(units / max(1, workers * 8))))
    return [(a, min(units, a + size)) for a in range(0, units, size)]


def simulate(
    cfg: SimConfig,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Record]:
    """Every record of the simulation, in hand (game) order.

    :param workers: processes (``None``: one per core; 1: in this process).
    :param backend: ``local`` (processes on this machine) or ``ray`` (a Ray cluster: local by
        default, or the one at ``address``).
    :param progress: called with the number of hands (games) just finished.
    """
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    w = workers if workers is not None else (os.cpu_count() or 1)
    if w < 1:
        raise ConfigError(f"workers must be at least 1, not {w}")
    parts = chunks(cfg.units, w)
    note = progress or (lambda _: None)
    if backend == "ray":
        return _run_ray(cfg, parts, workers, address, note)
    if w == 1 or len(parts) == 1:
        out: list[Record] = []
        for a, b in parts:
            out += run_chunk(cfg, a, b)
            note(b - a)
        return out
    results: list[list[Record] | None] = [None] * len(parts)
    # fork where it is the platform's safe default (the workers start at once and need no
    # `if __name__ == "__main__"` guard in the caller); the progress bar runs no thread.
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    with ProcessPoolExecutor(max_workers=min(w, len(parts)), mp_context=context) as pool:
        futures = {pool.submit(run_chunk, cfg, a, b): i for i, (a, b) in enumerate(parts)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            note(parts[i][1] - parts[i][0])
    return [r for chunk in results if chunk is not None for r in chunk]


def _run_ray(
    cfg: SimConfig,
    parts: list[tuple[int, int]],
    workers: int | None,
    address: str | None,
    note: Callable[[int], None],
) -> list[Record]:
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'unotable[ray]'") from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        elif workers is not None:
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
    task = ray.remote(run_chunk)
    refs = [task.remote(cfg, a, b) for a, b in parts]
    where = {ref: i for i, ref in enumerate(refs)}
    results: list[list[Record] | None] = [None] * len(parts)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            i = where[ref]
            results[i] = ray.get(ref)
            note(parts[i][1] - parts[i][0])
    return [r for chunk in results if chunk is not None for r in chunk]


# --------------------------------------------------------------------------------------------
# Results.


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"wins": k, "win_rate": k / n if n else 0.0, "ci95": [low, high]}


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def summarize(cfg: SimConfig, records: Sequence[Record], seconds: float | None = None) -> dict[str, Any]:
    """The results as a JSON-ready dict (the ``--json`` file).

    Keys: ``config``; ``hands`` (hands played, in games too) and ``games``; ``seats`` (per seat,
    per player in games: ``bot``, ``wins``, ``win_rate``, ``ci95`` as ``[low, high]``,
    ``advantage`` (win rate less an equal share), ``mean_points``, UNO lapses and catches);
    ``bots`` (the same pooled by bot); ``positions`` (hands only: by place from the dealer's
    left, who plays first but after a Reverse); ``teams`` (team modes); ``hand_length``;
    ``timing`` (wall-clock figures, the only part that differs from run to run).
    """
    k = cfg.participants
    names = [spec.label for spec in cfg.bots]
    tallies = [r.tally for r in records]
    seats: list[dict[str, Any]] = []
    hand_lengths: list[int] = []
    out: dict[str, Any] = {
        "config": {
            "rules": cfg.rules.to_dict(),
            "bots": names,
            "seed": cfg.seed,
            "hands" if cfg.hands else "games": cfg.units,
            "core": "native" if uses_native(cfg) else "python",
        }
    }
    if cfg.hands:
        hands = [r for r in records if isinstance(r, HandRecord)]
        n = len(hands)
        wins = Counter(r.winner for r in hands)
        for s in range(k):
            seats.append(
                {
                    "seat": s,
                    "bot": names[s],
                    **_rate(wins[s], n),
                    "advantage": (wins[s] / n if n else 0.0) - 1 / k,
                    "mean_points": _mean([r.points[s] for r in hands]),
                }
            )
        positions = Counter((r.winner - r.dealer - 1) % k for r in hands)
        out["positions"] = [
            {"position": p, **_rate(positions[p], n), "advantage": (positions[p] / n if n else 0.0) - 1 / k}
            for p in range(k)
        ]
        if cfg.rules.teams:
            team_wins = Counter(r.winner % 2 for r in hands)
            out["teams"] = [{"team": t, **_rate(team_wins[t], n)} for t in range(2)]
        hand_lengths = [r.tally.actions for r in hands]
        out["hands"] = n
        units = n
    else:
        games = [r for r in records if isinstance(r, GameRecord)]
        n = len(games)
        by_team = cfg.rules.mode in ("partners", "teams")
        for p in range(k):
            won = sum(1 for g in games if p in g.winners)
            seats.append(
                {
                    "player": p,
                    "seat": p,
                    "bot": names[p],
                    **_rate(won, n),
                    "advantage": (won / n if n else 0.0) - 1 / k,
                    "mean_points": _mean([g.scores[p % 2 if by_team else p] for g in games]),
                }
            )
        hand_lengths = [x for g in games for x in g.hand_actions]
        out["games"] = n
        out["hands"] = len(hand_lengths)
        out["mean_hands_per_game"] = _mean([g.hands for g in games])
        units = n
    for s, row in enumerate(seats):
        row["decisions"] = sum(t.decisions[s] for t in tallies)
        row["uno_chances"] = sum(t.uno_chances[s] for t in tallies)
        row["uno_lapses"] = sum(t.lapses[s] for t in tallies)
        row["caught"] = sum(t.caught[s] for t in tallies)
    out["seats"] = seats
    pooled: dict[str, dict[str, Any]] = {}
    for s, row in enumerate(seats):
        entry = pooled.setdefault(names[s], {"bot": names[s], "seats": [], "wins": 0, "trials": 0})
        entry["seats"].append(s)
        entry["wins"] += row["wins"]
        entry["trials"] += units
    out["bots"] = [
        {
            **e,
            "win_rate": e["wins"] / e["trials"] if e["trials"] else 0.0,
            "ci95": list(wilson(e["wins"], e["trials"])),
        }
        for e in pooled.values()
    ]
    out["hand_length"] = {
        "mean_actions": _mean(hand_lengths),
        "min": min(hand_lengths, default=0),
        "max": max(hand_lengths, default=0),
        "histogram": {str(x): c for x, c in sorted(Counter(hand_lengths).items())},
    }
    think = [sum(t.think[s] for t in tallies) for s in range(k)]
    decisions = [row["decisions"] for row in seats]
    out["timing"] = {
        "seconds": seconds,
        "units_per_second": (units / seconds) if seconds else None,
        "decision_ms": [1000 * think[s] / decisions[s] if decisions[s] else 0.0 for s in range(k)],
    }
    return out


def results_without_timing(results: dict[str, Any]) -> dict[str, Any]:
    """The results less their wall-clock part: identical for every run of the same seed."""
    return {key: value for key, value in results.items() if key != "timing"}
