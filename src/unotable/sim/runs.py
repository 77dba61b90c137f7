"""Hands and games of a simulation, one by one (:func:`run_hand`, :func:`run_game`) or a
range of them (:func:`run_chunk`, on the native core when it can): their records."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from unotable.bots import Bot
from unotable.bots.table import BotTable
from unotable.engine import new_hand
from unotable.errors import ConfigError
from unotable.match import Game
from unotable.seeds import derive_seed
from unotable.sim.config import NATIVE_BOTS, SimConfig, uses_native
from unotable.sim.hand import HAND_ACTION_CAP, BotError, Tally, play_hand, play_state

GAME_HAND_CAP: Final = 10_000
"""A game still going after this many hands is an error."""


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


def bot_count(bot: Bot, name: str) -> int:
    """A bot's count (``uno_chances``, ``lapses``: :class:`unotable.bots.base.BaseBot`'s), 0 for
    a bot that keeps none."""
    value = getattr(bot, name, 0)
    return value if isinstance(value, int) else 0


def bot_table(cfg: SimConfig, game_seed: int) -> BotTable:
    """The bot table of the simulation's bots (player ``p`` plays ``cfg.bots[p]``) for the game
    seeded ``game_seed``: :meth:`unotable.bots.table.BotTable.from_specs`, as ``uno play``,
    ``uno mcp`` and a web room make theirs.

    :raises ConfigError: for an unknown bot or an option its bot refuses.
    """
    try:
        return BotTable.from_specs(dict(enumerate(cfg.bots)), game_seed)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def run_hand(cfg: SimConfig, index: int) -> HandRecord:
    """Hand number ``index`` of the simulation: dealt from ``derive_seed(seed, "hand", index)``
    by seat ``index % players``, played by the bot table of the simulation's seed as that
    table's hand number ``index`` (fresh bots for each hand: their counts are the hand's)."""
    rules = cfg.rules
    n = rules.players
    dealer = index % n
    st, _ = new_hand(rules, derive_seed(cfg.seed, "hand", index), dealer=dealer, record=False)
    table = bot_table(cfg, cfg.seed)
    tally = play_state(st, table, hand=index)
    for s, bot in table.bots.items():
        tally.uno_chances[s] = bot_count(bot, "uno_chances")
        tally.lapses[s] = bot_count(bot, "lapses")
    slot = [s % 2 if rules.teams else s for s in range(n)]
    return HandRecord(st.winner, dealer, [st.scores[slot[s]] for s in range(n)], tally)


def play_game(cfg: SimConfig, seed: int, tally: Tally | None = None) -> tuple[Game, list[int]]:
    """The game of ``cfg``'s rules seeded ``seed`` played to its end by its bot table
    (:func:`bot_table`): exactly the game ``uno play``, ``uno mcp`` and a web room play from that
    seed with these bots in every seat. The game and each hand's number of actions; counts go
    to ``tally`` by player.

    :raises BotError: if a bot answers with an action that is not legal for it, or the game
        goes on for more than :data:`GAME_HAND_CAP` hands.
    """
    game = Game.new(cfg.rules, seed, players=cfg.participants)
    table = bot_table(cfg, seed)
    tally = tally if tally is not None else Tally.empty(cfg.participants)
    lengths: list[int] = []

    def do(player: int, aid: int) -> None:
        game.apply(player, aid)

    while True:
        before = tally.actions
        hand = game.actions_played[0]
        play_hand(lambda: game.state, do, table, game.deal.seating, tally, hand)
        lengths.append(tally.actions - before)
        if game.finished:
            break
        if len(lengths) >= GAME_HAND_CAP:
            raise BotError(f"a game went on for more than {GAME_HAND_CAP} hands")
        game.next_hand()
    for p, bot in table.bots.items():
        tally.uno_chances[p] = bot_count(bot, "uno_chances")
        tally.lapses[p] = bot_count(bot, "lapses")
    return game, lengths


def run_game(cfg: SimConfig, index: int) -> GameRecord:
    """Game number ``index`` of the simulation: the game seeded ``derive_seed(seed, "game",
    index)``, played by :func:`play_game`."""
    tally = Tally.empty(cfg.participants)
    game, lengths = play_game(cfg, derive_seed(cfg.seed, "game", index), tally)
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
