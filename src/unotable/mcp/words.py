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

# A seat at a real table (``join_room``; unotable.mcp.remote)
BAD_ROOM: Final = N_(
    "{room!r} is not a room: give its code (8 letters and digits) or its invite link (http://HOST:PORT/r/CODE)."
)
BAD_SERVER: Final = N_("{server!r} is not a server's address: give one as http://HOST:PORT.")
SERVER_REFUSED: Final = N_("The server refused it ({code}): {message}")
NO_SERVER: Final = N_("No answer from the server at {server}: {reason}.")
NO_ANSWER: Final = N_("The server did not answer the action in time: observe to see where the game is.")
NEEDS_WEB: Final = N_("Playing at a room needs the [web] extra: pip install 'unotable[web]' ({error}).")
RETIRED: Final = N_("You no longer hold this seat: {message}")
CONNECTION_LOST: Final = N_("The connection to the room at {server} is closed: call join_room again.")
LEFT: Final = N_("You left the room: call join_room or new_game.")
REMOTE_YOU: Final = N_("{name} (you)")
FREE_SEAT: Final = N_("free seat {seat}")
NO_ACTIONS_ROOM: Final = N_("You have no action now: observe waits for your turn.")
NO_ROOM: Final = N_("You are not at a room: call join_room first.")
BAD_WAIT: Final = N_("wait must be a number of seconds from 0 to {most}, not {wait!r}.")
