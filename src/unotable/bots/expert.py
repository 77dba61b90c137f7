"""``expert``: the search bot with the native core's playouts spent where a decision is open.

The same decision as ``search`` (:mod:`unotable.bots.search`: worlds dealt from the seat's view
alone, each candidate played in them and played out by the rollout policy, UCB1 sharing the
playouts, the greedy choice kept unless another candidate beats it on their common worlds), with
many more playouts. Heads-up, ``per_candidate`` for each candidate the decision has (``cap`` at
most), so a choice between two cards gets 5,000 and one among four or more the cap of 10,000: the
native core plays them in about 7-35 ms of CPU. At a table of three or more players, where a hand
is more a matter of luck and a better choice shows less, every open decision gets
``table_budget`` playouts (20,000, the most the search takes): 37 ms of CPU at the median and
96 ms at the 99th percentile at four players (``docs/bots.md``: what many more playouts are
worth, and what ``expert`` wins against every other bot). A playout is longer the more players
there are, so past ``FULL_TABLE`` (six) players the budget shrinks in proportion (12,000 at ten),
which keeps a decision's 99th percentile near 100 ms at every size.

Without the native core (``UNOTABLE_PURE=1``, or rules it does not play: house rules,
``lenient_plays``) a decision is searched in Python, where 10,000 playouts would take about a
second: ``expert`` then plays exactly as ``search`` does (``fallback_budget`` playouts, 500 by
default, about 30-50 ms), a documented step down rather than a game that hangs.

Standard library only; the search never sees the state.
"""

from __future__ import annotations

from typing import Final

from unotable.bots.base import check_number
from unotable.bots.search import MAX_BUDGET, SearchBot, native_playouts
from unotable.determinize import DEFAULT_TRUST
from unotable.views import View

PER_CANDIDATE: Final = 2_500
"""Playouts per candidate of a decision in the native core."""
CAP: Final = 10_000
"""The most playouts a heads-up decision takes in the native core."""
TABLE_BUDGET: Final = MAX_BUDGET
"""Playouts per open decision in the native core at a table of three or more players."""
FULL_TABLE: Final = 6
"""The most players at which a decision gets all of ``table_budget``; at more, a share of it."""
FALLBACK_BUDGET: Final = 500
"""Playouts per decision searched in Python (the ``search`` bot's default)."""


class ExpertBot(SearchBot):
    """``search`` with ``per_candidate`` playouts per candidate (at most ``cap``) heads-up,
    ``table_budget`` at a table of three to six in the native core (a share of it at more), and
    ``fallback_budget`` in Python (see the module's docstring); every other option is the
    search's, with its defaults."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        per_candidate: int = PER_CANDIDATE,
        cap: int = CAP,
        table_budget: int = TABLE_BUDGET,
        fallback_budget: int = FALLBACK_BUDGET,
        exploration: float = 0.7,
        reward: str = "win",
        max_colors: int = 2,
        allocation: str = "ucb",
        bluff_prior: float = 0.3,
        confidence: float = 0.25,
        horizon: int = 20,
        trust: float = DEFAULT_TRUST,
        native: bool = True,
        **rates: float,
    ) -> None:
        super().__init__(
            seed,
            budget=fallback_budget,
            exploration=exploration,
            reward=reward,
            max_colors=max_colors,
            allocation=allocation,
            bluff_prior=bluff_prior,
            confidence=confidence,
            horizon=horizon,
            trust=trust,
            native=native,
            **rates,
        )
        self.per_candidate = int(check_number("per_candidate", per_candidate, 1, MAX_BUDGET, integer=True))
        self.cap = int(check_number("cap", cap, 1, MAX_BUDGET, integer=True))
        self.table_budget = int(check_number("table_budget", table_budget, 1, MAX_BUDGET, integer=True))
        self.fallback_budget = int(
            check_number("fallback_budget", fallback_budget, 1, MAX_BUDGET, integer=True)
        )

    def search(self, view: View, cands: list[int]) -> list[list[float]]:
        """The search's rewards, at this decision's budget."""
        if self.native and native_playouts(view):
            players = len(view.hand_sizes)
            if players > 2:
                self.budget = max(1, self.table_budget * min(players, FULL_TABLE) // players)
            else:
                self.budget = min(self.cap, self.per_candidate * len(cands))
        else:
            self.budget = self.fallback_budget
        return super().search(view, cands)
