"""A room's "More time" (issue 34, docs/web.md "Time to answer"): the seconds a person added to
their running turn timer or answer window, and who has asked in the hand (once a hand each).
Imports nothing of the web layer but the protocol's error."""

from __future__ import annotations

from unotable.web.protocol import ProtocolError


class MoreTime:
    """The room's "More time" ledger; the room counts its clocks with :attr:`extra`."""

    def __init__(self) -> None:
        self.extra = 0.0
        """Seconds given since the game's last change (:meth:`moved` ends them)."""
        self._hand = (-1, -1)
        self._used: set[int] = set()
        """Who asked in the hand ``_hand``."""

    def used(self, hand: tuple[int, int]) -> list[int]:
        """The players who asked in ``hand`` (game number, hand index)."""
        return sorted(self._used) if hand == self._hand else []

    def give(self, player: int, hand: tuple[int, int], seconds: float) -> None:
        """``seconds`` more on ``player``'s running clock in ``hand``.

        :raises ProtocolError: ``more_time_used`` if they asked already in this hand.
        """
        if hand != self._hand:
            self._hand, self._used = hand, set()
        if player in self._used:
            raise ProtocolError("more_time_used")
        self._used.add(player)
        self.extra += seconds

    def moved(self) -> None:
        """The game changed: the next clock is the room's own again."""
        self.extra = 0.0


__all__ = ["MoreTime"]
