"""Reactions and chat: the fixed list of reactions, and a room's chat (plain text, bounded,
rate-limited per person, the last lines kept in memory for newcomers) (P-346).

Both are limited per seat, not per connection: a seat open on twenty connections (tabs, devices)
gets the budget it has on one. A spectator has no seat: spectators' reactions are limited per
client address, however many connections it opens."""

from __future__ import annotations

import unicodedata
from collections import deque
from datetime import UTC, datetime
from typing import Final

from unotable.web.messages import Chat as ChatLine
from unotable.web.messages import Reaction
from unotable.web.protocol import ProtocolError, RateLimit

MAX_CHAT: Final = 120
"""Characters in a chat message at most."""
CHAT_KEPT: Final = 20
"""Chat messages a room keeps for newcomers (in memory only)."""
REACTIONS: Final = ("thumbs_up", "laugh", "wow", "sad", "angry", "clap", "gg", "nice_play", "oops", "hurry")
"""The reactions a connection may send (the page draws each)."""


def clean_chat(text: str) -> str:
    """A chat message's text, spaces collapsed; raises ``bad_chat`` unless it is 1 to
    :data:`MAX_CHAT` characters with no control character."""
    out = " ".join(text.split())
    if not 0 < len(out) <= MAX_CHAT or any(unicodedata.category(c)[0] == "C" for c in out):
        raise ProtocolError("bad_chat", limit=MAX_CHAT)
    return out


REACTION_RATE: Final = 1.0
"""Reactions a seat (or a spectator's address) may send a second, after :data:`REACTION_BURST`."""
REACTION_BURST: Final = 3.0
"""Reactions a seat (or a spectator's address) may send at once."""
SPECTATOR_ADDRESSES: Final = 1_000
"""Spectators' addresses whose reaction budgets a room remembers at most (then it starts over)."""


class Chat:
    """A room's chat: its last lines and each person's rate limit (3 at once, then one every 2
    seconds); and the reactions' limits, per seat and per spectator's address (3 at once, then
    one a second)."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self._limits: dict[int, RateLimit] = {}
        self._reactions: dict[int, RateLimit] = {}
        self._watchers: dict[str, RateLimit] = {}

    def allow_reaction(self, player: int | None, address: str) -> bool:
        """Whether ``player``'s seat (``None``: a spectator, counted by its client ``address``)
        may send one more reaction now; counts it if so."""
        if player is not None:
            limit = self._reactions.setdefault(player, RateLimit(REACTION_RATE, REACTION_BURST))
        else:
            if address not in self._watchers and len(self._watchers) >= SPECTATOR_ADDRESSES:
                self._watchers.clear()
            limit = self._watchers.setdefault(address, RateLimit(REACTION_RATE, REACTION_BURST))
        return limit.allow()

    def say(self, player: int, name: str, text: str) -> ChatLine:
        """The ``chat`` message of ``player`` (called ``name``) saying ``text``, kept.

        :raises ProtocolError: ``bad_chat`` or ``slow_down``; nothing is kept then.
        """
        text = clean_chat(text)
        if not self._limits.setdefault(player, RateLimit(0.5, 3.0)).allow():
            raise ProtocolError("slow_down")
        at = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        message = ChatLine(player=player, name=name, text=text, at=at)
        self.lines.append(message)
        return message


def reaction(player: int | None, name: str) -> Reaction:
    """The ``reaction`` message of ``player`` (``None``: a spectator).

    :raises ProtocolError: ``bad_reaction`` for a reaction not in :data:`REACTIONS`.
    """
    if name not in REACTIONS:
        raise ProtocolError("bad_reaction", known=", ".join(REACTIONS))
    return Reaction(player=player, reaction=name)


__all__ = [
    "CHAT_KEPT",
    "MAX_CHAT",
    "REACTIONS",
    "REACTION_BURST",
    "REACTION_RATE",
    "Chat",
    "clean_chat",
    "reaction",
]
