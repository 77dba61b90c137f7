"""``search``: information-set Monte Carlo from the seat's view.

For each decision with more than one candidate, the bot samples determinizations of its view
(:func:`unotable.determinize.determinize`: the cards it cannot see dealt at random, consistent
with everything it knows, and with what the others' draws tell: a seat that chose to draw
most likely held no card it could play then), plays each candidate in the samples and then
``horizon`` more actions with the greedy bot's rules (:mod:`unotable.bots.rollout`, for every
seat), and scores the outcome for itself: win = 1, a hand still going at the horizon by the
hand sizes (a chance of ``exp(-0.3 * cards)`` per seat, the seat to play weighed up). UCB1
allocates the playouts across the candidates; the samples are shared (a candidate's ``j``-th
playout is played in the ``j``-th sample, with a deterministic playout policy), so candidates
are compared on the same deals of the hidden cards: a determinized, ISMCTS-flavoured root
search with common random numbers.

Short playouts are the point: a cut playout costs much less than a whole one and its score is far
less noisy than a won-or-lost hand, while what a choice changes mostly shows within the next
few turns; at the same cost per decision, 500 playouts cut at 20 actions pick better than 200
whole ones (see ``docs/bots.md``).

The greedy bot's own choice is the anchor: another candidate replaces it only when it wins more
playouts on their common samples by more than ``confidence`` standard errors of the paired
difference. So the search is a rollout improvement on the greedy bot, and keeps its choice when
the playouts cannot tell the difference.

Facing a Wild Draw Four, samples where its player was bluffing are kept with probability
``bluff_prior`` only (players rarely bluff); in playouts, a Wild Draw Four is challenged as the
greedy bot would.

The search never sees the real state: it only ever plays on its own samples.

With the native core loaded (and rules it plays), the whole search of a decision runs in it
(:mod:`unotable.native.search`: the view's data in, the rewards out), drawing from this bot's
own generator exactly as the Python code below does: the Python search is its specification,
and both give the same worlds, rewards and choices.
"""

from __future__ import annotations

import math
import time
from typing import Final

from unotable.bots.base import UNO_TWIN, BaseBot, check_number, color_ranking, opponents, partners, tables
from unotable.bots.rng import BotRandom
from unotable.bots.rollout import PLAYOUT_CAP, playout
from unotable.bots.simple import GreedyBot
from unotable.cards import INVISIBILITY, WILD_DRAW_FOUR
from unotable.determinize import DEFAULT_TRUST, determinize, unseen_cards
from unotable.engine import hand_points, step
from unotable.i18n import _
from unotable.native import COMPILED
from unotable.notation import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    DRAW_ID,
    KIND_INVISIBILITY,
    KIND_PLAY,
    NAMES_SEAT,
)
from unotable.state import Phase, State
from unotable.views import View

if COMPILED:
    from unotable.native import core as native_core
    from unotable.native import search as native_search

ALLOCATIONS: Final = ("ucb", "uniform")
"""How the playouts of a decision are shared among its candidates: by UCB1, or in turn."""
_CUT_SLOPE: Final = 0.3
_CUT_BONUS: Final = 0.2
REWARDS: Final = ("win", "points")
MAX_BUDGET: Final = 20_000
"""The most playouts a decision may take (about 2 s at 46 ms for 500): a bot option read from a
saved game or a flag must not make a game hang."""
MAX_TIME_BUDGET: Final = 60.0
"""The most seconds a decision may take."""
MAX_HORIZON: Final = 10_000
"""The longest playout cut (0, no cut, plays a hand out; a playout stops at its cap anyway)."""
"""``win``: 1 for a hand won by the bot (or its team), else 0. ``points``: a win counts from
0.6 to 1 by the points it scores; a loss from 0.4 to 0 by the points left in the bot's hand."""


def native_playouts(view: View) -> bool:
    """Whether the native core is loaded and plays the rules of ``view`` (then the whole search
    of a decision runs in it, :func:`unotable.native.search.search`)."""
    return COMPILED and native_core.unsupported(view.rules) is None


class SearchBot(BaseBot):
    """Monte Carlo search over determinizations of the view (see the module's docstring).

    :param budget: playouts per decision (all of them across the candidates); decisions with
        a single candidate are not searched.
    :param time_budget: seconds per decision instead of a number of playouts (each candidate is
        still tried once); a run with it is not reproducible.
    :param exploration: the UCB1 constant.
    :param reward: ``win`` or ``points`` (see :data:`REWARDS`).
    :param max_colors: the colours tried for a wild card: the best few by the greedy ranking.
    :param allocation: ``ucb`` (UCB1 chooses each playout's candidate) or ``uniform``.
    :param bluff_prior: the chance kept for samples where a Wild Draw Four was a bluff.
    :param confidence: standard errors by which a candidate must beat the greedy choice.
    :param horizon: cut playouts after this many actions (0: play the hand out) and score a
        cut one by hand sizes.
    :param trust: how far the samples believe that a seat which chose to draw held no card
        it could play then (see :func:`~unotable.determinize.determinize`; 0: deal its
        hidden cards uniformly).
    :param native: make the whole search of a decision in the native core
        (:func:`unotable.native.search.search`) when it is loaded and plays the rules: the same
        worlds from the same generator, the same playouts, rewards and choices, only faster
        (false: always in Python).
    """

    name = "search"
    thinks_long = True

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = 500,
        time_budget: float | None = None,
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
        super().__init__(seed, **rates)
        self.budget = int(check_number("budget", budget, 1, MAX_BUDGET, integer=True))
        if time_budget is not None:
            check_number("time_budget", time_budget, 1e-6, MAX_TIME_BUDGET)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.exploration = check_number("exploration", exploration, 0, 100)
        if reward not in REWARDS:
            raise ValueError(
                _("reward must be one of {values}, not {value}").format(
                    values=", ".join(REWARDS), value=repr(reward)
                )
            )
        self.reward = reward
        self.max_colors = int(check_number("max_colors", max_colors, 1, 4, integer=True))
        if allocation not in ALLOCATIONS:
            raise ValueError(
                _("allocation must be one of {values}, not {value}").format(
                    values=", ".join(ALLOCATIONS), value=repr(allocation)
                )
            )
        self.allocation = allocation
        self.bluff_prior = check_number("bluff_prior", bluff_prior, 0, 1)
        self.confidence = check_number("confidence", confidence, 0, 100)
        self.horizon = int(check_number("horizon", horizon, 0, MAX_HORIZON, integer=True))
        self.trust = check_number("trust", trust, 0, 1)
        if not isinstance(native, bool):
            raise ValueError(
                _("{name} must be true or false, not {value}").format(name="native", value=repr(native))
            )
        self.native = native
        """Search in the native core when it is loaded and plays the rules (the same worlds,
        playouts and choices, decision for decision: only faster)."""
        self.prior = GreedyBot(seed, bluff_prior=self.bluff_prior)
        """The greedy player whose choice the search keeps unless it finds better."""
        self.searches = 0
        """Decisions searched (those with more than one candidate)."""
        self.playouts = 0
        """Playouts run, over all decisions."""
        self._unseen: tuple[View, list[int]] | None = None

    def reseed(self, seed: int) -> None:
        """Seed the search's generator and its greedy prior's afresh (see :meth:`Bot.reseed`)."""
        super().reseed(seed)
        self.prior.reseed(seed)

    def reseed_twister(self, seed: int) -> None:
        """:meth:`BaseBot.reseed_twister`, the greedy prior's too."""
        super().reseed_twister(seed)
        self.prior.reseed_twister(seed)

    # ---- candidates

    def candidates(self, view: View, options: list[int]) -> list[int]:
        """The actions worth searching: no wrong card (``lenient_plays``), no ``draw`` while a
        card plays, the best ``max_colors`` colours for a wild card, a Howler only on an
        opponent."""
        tb = tables(view)
        hand = view.hand
        ranked: dict[int, set[int]] = {}

        def colors_for(card: int) -> set[int]:
            if card not in ranked:
                rest = list(hand)
                rest.remove(card)
                ranked[card] = set(color_ranking(view, rest)[: self.max_colors])
            return ranked[card]

        out: list[int] = []
        foes = set(opponents(view))
        for a in options:
            kind = ACTION_KIND[a]
            card = ACTION_CARD[a]
            if kind == KIND_PLAY:
                if view.phase == Phase.TURN and not tb.is_playable(view.color, view.top, card):
                    continue
                if NAMES_SEAT[card] and ACTION_ARG[a] >= 0:  # a Howler, or a 7 that swaps: an opponent
                    if ACTION_ARG[a] not in foes and foes:
                        continue
                elif ACTION_ARG[a] >= 0 and ACTION_ARG[a] not in colors_for(card):
                    continue
            elif kind == KIND_INVISIBILITY and ACTION_ARG[a] not in colors_for(INVISIBILITY):
                continue
            out.append(a)
        if len(out) > 1 and DRAW_ID in out:
            out.remove(DRAW_ID)
        return out or [DRAW_ID if DRAW_ID in options else options[0]]

    def jump(self, view: View, options: list[int]) -> int | None:
        """Jump in as the greedy bot would (RULES §11; not searched: a window may close)."""
        return self.prior.jump(view, options)

    # ---- the search

    def choose(self, view: View, options: list[int]) -> int:
        cands = self.candidates(view, options)
        anchor = self.prior.choose(view, options)
        if anchor in cands:
            cands.remove(anchor)
        cands.insert(0, anchor)
        if len(cands) == 1:
            return anchor
        self.searches += 1
        rewards = self.search(view, cands)
        return cands[self.pick(rewards)]

    def search(self, view: View, cands: list[int]) -> list[list[float]]:
        """The playouts' rewards of each candidate, world by world.

        World ``j`` (the ``j``-th determinization) is shared: a candidate's ``j``-th playout is
        played in it, so that candidates are compared on the same samples (common random
        numbers; the playout policy is deterministic). UCB1 chooses the candidate of each
        playout (``allocation="uniform"``: each in turn).
        """
        seat = view.seat
        legal = set(view.legal)
        moves = [UNO_TWIN[a] if UNO_TWIN[a] in legal else a for a in cands]
        rng = self.rng
        if isinstance(rng, BotRandom):
            rng.twister()  # the native search follows the Twister's state
        if self.native and native_playouts(view):
            rewards, _ = native_search.search(
                view,
                moves,
                self.rng,
                budget=self.budget,
                time_budget=self.time_budget,
                exploration=self.exploration,
                trust=self.trust,
                bluff_prior=self.bluff_prior,
                uniform=self.allocation == "uniform",
                horizon=self.horizon or PLAYOUT_CAP,
                points_reward=self.reward == "points",
                unseen=self._unseen_of(view),
            )
            self.playouts += sum(len(r) for r in rewards)
            return rewards
        k = len(cands)
        worlds: list[State] = []
        rewards = [[] for _ in range(k)]
        totals = [0.0] * k
        c = self.exploration
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        done = 0
        while True:
            if deadline is None:
                if done >= self.budget:
                    break
            elif done >= k and time.perf_counter() >= deadline:
                break
            if done < k or self.allocation == "uniform":
                i = done % k
            else:
                log_n = math.log(done)
                i = max(
                    range(k),
                    key=lambda j: totals[j] / len(rewards[j]) + c * math.sqrt(log_n / len(rewards[j])),
                )
            w = len(rewards[i])
            if w == len(worlds):
                worlds.append(self.sample(view))
            st = worlds[w].copy()
            step(st, seat, moves[i])
            playout(st, self.horizon or PLAYOUT_CAP)
            r = self._reward(view, st)
            rewards[i].append(r)
            totals[i] += r
            done += 1
        self.playouts += done
        return rewards

    def pick(self, rewards: list[list[float]]) -> int:
        """The candidate to play: the anchor (index 0, the greedy choice) unless another beats
        it on their common worlds by more than ``confidence`` standard errors of the paired
        difference; then the one that beats it by the most, so measured."""
        base = rewards[0]
        best = 0
        best_bound = 0.0
        for j in range(1, len(rewards)):
            m = min(len(base), len(rewards[j]))
            if m < 2:
                continue
            diffs = [rewards[j][t] - base[t] for t in range(m)]
            mean = sum(diffs) / m
            var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
            bound = mean - self.confidence * math.sqrt(var / m)
            if bound > best_bound:
                best, best_bound = j, bound
        return best

    def sample(self, view: View) -> State:
        """A determinization of ``view``. Facing a Wild Draw Four, a sample in which its player
        held the colour (a bluff) is kept with probability ``bluff_prior`` only (else drawn
        again, a few times at most): players who could not play it legally rarely do."""
        rng = self.rng
        unseen = self._unseen_of(view)
        st = determinize(view, rng, trust=self.trust, unseen=unseen)
        if view.pending_card == WILD_DRAW_FOUR and view.current == view.seat:
            for _ in range(8):
                if not st.pend_guilty or rng.random() < self.bluff_prior:
                    break
                st = determinize(view, rng, trust=self.trust, unseen=unseen)
        return st

    def _unseen_of(self, view: View) -> list[int]:
        """``unseen_cards(view)``, once per view."""
        if self._unseen is None or self._unseen[0] is not view:
            self._unseen = (view, unseen_cards(view))
        return self._unseen[1]

    def _reward(self, view: View, st: State) -> float:
        if st.phase < Phase.HAND_OVER:
            # A playout cut at the horizon: each seat's chance taken as exp(-0.3 * its cards),
            # the seat to play weighed up by exp(0.2) (a fit to greedy hands' outcomes).
            weights = [
                math.exp(_CUT_BONUS * (s == st.current) - _CUT_SLOPE * len(h)) for s, h in enumerate(st.hands)
            ]
            ours = sum(w for s, w in enumerate(weights) if partners(view, view.seat, s))
            return ours / sum(weights)
        won = partners(view, view.seat, st.winner)
        if self.reward == "win":
            return 1.0 if won else 0.0
        if won:
            return 0.6 + 0.4 * min(1.0, (st.hand_points or 0) / 250.0)
        mine = hand_points(st)[view.seat]
        return 0.4 * (1.0 - min(1.0, mine / 100.0))
