"""The sentences ``uno mcp`` writes besides the narration (whole sentences, named placeholders):
English msgids, translated where they are used (``_(words.NAME)``)."""

from __future__ import annotations

from typing import Final

from unotable.i18n import N_

YOU: Final = N_("Player 0 (you)")
BOT_NAME: Final = N_("{bot} (seat {seat})")
NO_GAME: Final = N_("No game yet: call new_game first.")
GAME_OVER: Final = N_("The game is over: call new_game to play again.")
HAND_OVER_NEXT: Final = N_("The hand is over: act with 'next' to deal the next one.")
NOT_LEGAL: Final = N_("{action!r} is not one of your actions now. Your actions: {legal}.")
NO_ACTIONS: Final = N_("You have no action now: it is {name}'s turn.")
YOUR_TURN: Final = N_("Your turn.")
THEIR_TURN: Final = N_("{name}'s turn.")
HAND_WON: Final = N_("{name} went out and won the hand ({points} points).")
GAME_WON: Final = N_("The game is over: {names} won.")
BAD_BOTS: Final = N_("Give one bot for every other player ({others}), or one for all, not {count}.")
BAD_PLAYERS: Final = N_("players must be a whole number from 2 to {most}, not {players!r}.")
BAD_TARGET: Final = N_("target must be a whole number of points above 0, not {target!r}.")
UNKNOWN_ARGUMENTS: Final = N_("{tool} has no argument {unknown}. Its arguments: {known}.")
NO_ARGUMENTS: Final = N_("{tool} takes no arguments, not {unknown}.")
CARDS: Final = N_("The cards of this deck, code = name: {cards}.")
NOTATION: Final = N_(
    "Actions are written in the game's notation: 'play R5' (a red 5), 'play W G' (a Wild, calling "
    "green), 'play W+4 B uno' (a Wild Draw Four calling blue, calling UNO with it), 'draw', 'pass' "
    "(keep the card you drew), 'color Y', 'uno' (a late UNO call), 'catch 2' (catch seat 2, who "
    "holds one card without having called UNO), 'challenge' or 'accept' (a Wild Draw Four played on "
    "you), and 'next' to deal the next hand once one is over. Cards: colour R, Y, G or B and a value "
    "0-9, S (Skip), R (Reverse), +2 (or +3); W and W+4 are the wild cards. The observe tool lists "
    "exactly the actions you may take now."
)
