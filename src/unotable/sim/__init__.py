"""Simulation at scale: many hands, or whole games, between bots, on every core.

:func:`simulate` plays ``hands`` single hands (the dealer moving one seat to the left each
hand, so that every seat is dealt to equally) or ``games`` whole games
(:class:`unotable.match.Game`) between the bots of :attr:`SimConfig.bots`, one per seat (per
player in a game), and :func:`summarize` turns the records into win rates with 95% Wilson
intervals, mean points, hand lengths and the advantage of each seat and of each position at the
table.

Reproducible: hand (or game) ``i`` is dealt from a seed derived from the simulation's seed and
``i``, and the bots play by the bot table's rule (:mod:`unotable.bots.table`: the race's order
and each decision's seed from the table's seed and the game's place): game ``i`` is the game
seeded ``derive_seed(seed, "game", i)`` played by its table, exactly as ``uno play``, ``uno mcp``
and a web room play that seed; single hand ``i`` is hand number ``i`` of the table of the
simulation's seed. Records are aggregated in hand order. The results do not depend on how many
workers ran them, nor on the backend.

The driver of a hand (:func:`play_hand`, on :class:`unotable.bots.table.BotTable`): while an
UNO or wrong-card window is open, or (``jump_in``, RULES §11) a ``turn`` waits, the seats with an
out-of-turn action are asked (``Bot.react``) in the race's order
(:func:`unotable.race.first_reaction`); the first that acts takes its action, and the round
starts again, until a round passes with nobody acting; then the seat the phase waits for acts
(``Bot.act`` on its view).

The parts: :mod:`~unotable.sim.config` (what to simulate), :mod:`~unotable.sim.hand` (the
driver of one hand), :mod:`~unotable.sim.runs` (hands and games, on either core),
:mod:`~unotable.sim.pool` (processes and Ray), :mod:`~unotable.sim.stats` (the results). The
bots' specs are :mod:`unotable.bots.spec` and the seeds :mod:`unotable.seeds`; both are
re-exported here, where they were.

This package and the bots are standard library only; ``uno simulate`` (:mod:`unotable.simcli`)
adds the progress bar and the table (``rich``) and the chart (``matplotlib``).
"""

from __future__ import annotations

from unotable.bots.spec import BotSpec, parse_bots, parse_value
from unotable.seeds import derive_seed
from unotable.sim.config import (
    BACKENDS,
    CORES,
    MAX_UNITS,
    NATIVE_BOTS,
    SimConfig,
    native_unavailable,
    uses_native,
)
from unotable.sim.hand import HAND_ACTION_CAP, OUT_OF_TURN, BotError, Tally, play_hand, play_state
from unotable.sim.pool import chunks, simulate
from unotable.sim.runs import (
    GAME_HAND_CAP,
    GameRecord,
    HandRecord,
    Record,
    bot_table,
    play_game,
    run_chunk,
    run_game,
    run_hand,
    run_native_hands,
)
from unotable.sim.stats import Z95, results_without_timing, summarize, wilson

__all__ = [
    "BACKENDS",
    "CORES",
    "GAME_HAND_CAP",
    "HAND_ACTION_CAP",
    "MAX_UNITS",
    "NATIVE_BOTS",
    "OUT_OF_TURN",
    "Z95",
    "BotError",
    "BotSpec",
    "GameRecord",
    "HandRecord",
    "Record",
    "SimConfig",
    "Tally",
    "bot_table",
    "chunks",
    "derive_seed",
    "native_unavailable",
    "parse_bots",
    "parse_value",
    "play_game",
    "play_hand",
    "play_state",
    "results_without_timing",
    "run_chunk",
    "run_game",
    "run_hand",
    "run_native_hands",
    "simulate",
    "summarize",
    "uses_native",
    "wilson",
]
