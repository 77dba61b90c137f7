"""Rule-based bots: ``random`` (uniform over the legal actions) and ``greedy`` (and its styles),
the play a good human would recognise. Each decides from its seat's view alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Final

from unotable.bots.base import (
    RATE_DEFAULTS,
    BaseBot,
    best_color,
    check_number,
    color_counts,
    next_seat,
    opponents,
    partners,
    play_of,
    swap_target,
    swaps_hands,
    tables,
)
from unotable.cards import (
    ALL_WILD_CARDS,
    AW_DRAW_FOUR,
    AW_DRAW_TWO,
    AW_REVERSE,
    AW_SKIP,
    AW_SKIP_TWO,
    AW_SWAP,
    AW_TARGET,
    CARD_COLOR,
    CARD_VALUE,
    DRAW_THREE,
    DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    POINTS,
    REVERSE,
    SEVEN,
    SKIP,
    WILD_DRAW_FOUR,
)
from unotable.determinize import unseen_cards
from unotable.notation import (
    ACCEPT_ID,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_MORE,
    CHALLENGE_ID,
    COLOR_IDS,
    DARK_COLOR_IDS,
    DRAW_ID,
    KIND_INVISIBILITY,
    KIND_PLAY,
    PASS_ID,
)
from unotable.state import Phase
from unotable.views import View


class RandomBot(BaseBot):
    """Uniform over the legal actions of its phase (calling UNO with its next-to-last card but
    for ``forget_uno`` lapses); declines out-of-turn options unless ``catch`` / ``point_wrong``
    (default 0) say otherwise; jumps in (RULES §11) half the times it can (``jump_in``)."""

    name = "random"
    rate_defaults: ClassVar[Mapping[str, float]] = MappingProxyType(
        {**RATE_DEFAULTS, "catch": 0.0, "point_wrong": 0.0, "jump_in": 0.5}
    )

    def choose(self, view: View, options: list[int]) -> int:
        return self.rng.choice(options)


def wd4_guilt(view: View, bluff_prior: float) -> float:
    """The probability that the Wild Draw Four played on this seat is a bluff that a challenge
    would catch (its player held the colour that was to be matched), judged from the view.

    A card of that colour known to be in the offender's hand makes it 1. Otherwise the chance
    that the offender's unknown cards, drawn from the unseen ones, hold the colour (the
    hypergeometric law), weighed by ``bluff_prior``: how likely a player holding the colour is
    to play a Wild Draw Four anyway, compared with a player who may play it legally.
    """
    offender = view.pending_from
    color = view.pending_color
    if offender < 0 or color < 0:
        return 0.0
    known = view.known.get(offender, ())
    if any(CARD_COLOR[t] == color for t in known):
        return 1.0
    unknown = view.hand_sizes[offender] - len(known)
    pool = unseen_cards(view)
    total = len(pool)
    other = total - sum(1 for t in pool if CARD_COLOR[t] == color)
    none = 1.0
    for i in range(unknown):
        if total - i <= 0:
            break
        none *= max(0, other - i) / (total - i)
    held = 1.0 - none
    weighed = held * bluff_prior
    return weighed / (weighed + none) if weighed + none > 0 else 0.0


def swap_gain(view: View, card: int) -> int:
    """How many cards fewer this seat would hold after playing ``card`` (RULES §11 seven_zero):
    a 7 swaps with the opponent holding the fewest, a 0 brings the hand of the seat before it;
    0 for any other card, or as the last card."""
    after = len(view.hand) - 1
    if after == 0 or CARD_COLOR[card] < 0:
        return 0
    if CARD_VALUE[card] == SEVEN:
        others = [view.hand_sizes[s] for s in opponents(view)]
        return after - min(others) if others else 0
    if CARD_VALUE[card] == 0:
        return after - view.hand_sizes[next_seat(view, view.seat, -1)]
    return 0


class GreedyBot(BaseBot):
    """Sensible play: follow the colour it holds most, keep wild cards for when nothing else
    plays, dump points when an opponent is about to go out, hit a threatening next player with
    action cards, call the colour it holds most, always call UNO, catch and point out wrong
    cards, challenge a Wild Draw Four that is likely a bluff, answer a Draw Three, Wild Draw
    Four or Howler with Invisibility, and show a Howler the opponent with fewest cards. With the
    house rules of RULES §11: pass a stack on rather than draw it, swap hands with a 7 when the
    opponent with the fewest cards holds fewer than it would (a 0 likewise with the hand it
    receives), and jump in whenever the card does not hit a partner.

    :param bluff_below: plays a Wild Draw Four as a bluff when the next player is an opponent
        holding at most this many cards (0: never bluffs).
    :param bluff_prior: in judging a challenge, how likely an opponent holding the colour is to
        bluff (see :func:`wd4_guilt`).
    :param challenge_threshold: challenges when the chance of a bluff exceeds this (less when
        the offender is close to going out).
    :param action_bias: weight of hitting the next player with Skip / Draw cards.
    """

    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        *,
        bluff_below: int = 1,
        bluff_prior: float = 0.3,
        challenge_threshold: float = 0.35,
        action_bias: float = 1.0,
        **rates: float,
    ) -> None:
        super().__init__(seed, **rates)
        check_number("bluff_below", bluff_below, 0, 200, integer=True)
        check_number("bluff_prior", bluff_prior, 0, 1)
        check_number("challenge_threshold", challenge_threshold, 0, 1)
        check_number("action_bias", action_bias, 0, 100)
        self.bluff_below = bluff_below
        self.bluff_prior = float(bluff_prior)
        self.challenge_threshold = float(challenge_threshold)
        self.action_bias = float(action_bias)

    def choose(self, view: View, options: list[int]) -> int:
        phase = view.phase
        if phase == Phase.CHOOSE_COLOR:
            ids = DARK_COLOR_IDS if view.side else COLOR_IDS  # UNO Flip's dark side calls its own colours
            return ids[best_color(view, view.hand, avoid_seat=self._after(view, view.after_color))]
        if phase == Phase.RESPOND:
            return self._respond(view, options)
        if phase == Phase.AFTER_DRAW:
            return self._after_draw(view, options)
        return self._turn(view, options)

    @staticmethod
    def _after(view: View, seat: int) -> int:
        """``seat`` if it is an opponent (whose known colours a call should avoid), else -1."""
        return seat if seat >= 0 and not partners(view, view.seat, seat) else -1

    # ---- the turn

    def _turn(self, view: View, options: list[int]) -> int:
        tb = tables(view)
        cards = sorted(
            {
                ACTION_CARD[a]
                for a in options
                if ACTION_KIND[a] == KIND_PLAY and tb.is_playable(view.color, view.top, ACTION_CARD[a])
            }
        )
        if not cards:
            return DRAW_ID if DRAW_ID in options else options[0]
        if view.series >= 0:  # docs/rules.md §11.5 multi_play: the best colour last
            follow = [t for t in cards if any(ACTION_MORE[a] for a in play_of(options, t))]
            if follow:
                return self.play_card(view, options, min(follow, key=lambda t: self.card_score(view, t)))
        best = max(cards, key=lambda t: self.card_score(view, t))
        if self.card_score(view, best) <= -1000 and DRAW_ID in options:  # forced_play: no draw
            return DRAW_ID
        return self.play_card(view, options, best)

    def card_score(self, view: View, t: int) -> float:
        """How much this bot likes playing card ``t`` now (higher is better; <= -1000: never)."""
        tb = tables(view)
        hand = view.hand
        n = view.rules.players
        me = view.seat
        nxt = next_seat(view, me)
        nxt_opp = not partners(view, me, nxt)
        nxt_size = view.hand_sizes[nxt]
        threat = min((view.hand_sizes[s] for s in opponents(view)), default=99)
        counts = color_counts(hand)
        if len(hand) == 1:
            return 0.0
        if t in ALL_WILD_CARDS:
            return self._all_wild_score(view, t, threat)
        if tb.wild[t]:
            if t == INVISIBILITY:
                return -300.0 if len(hand) > 2 else -95.0
            if t == WILD_DRAW_FOUR:
                bluff = view.color >= 0 and counts[view.color] > 0
                if bluff:
                    return 60.0 if nxt_opp and nxt_size <= self.bluff_below else -1000.0
                return -80.0 + (60.0 if nxt_opp and nxt_size <= 2 else 0.0)
            if t == HOWLER:
                return -90.0
            return -100.0
        color = CARD_COLOR[t]
        value = CARD_VALUE[t]
        score = 10.0 * counts[color] + POINTS[t] * (1.0 if threat <= 2 else 0.2)
        if view.rules.seven_zero and value in (0, SEVEN):  # RULES §11: the hand it ends with
            score += 12.0 * swap_gain(view, t)
        blank = tb.blank[t]
        hits = value in (SKIP, DRAW_TWO, DRAW_THREE) or (value == REVERSE and n == 2)
        if blank is not None:
            hits = blank.skip or blank.draw > 0
        if hits:
            if nxt_opp:
                score += self.action_bias * (25.0 if nxt_size <= 2 else 4.0)
                if value in (DRAW_TWO, DRAW_THREE):
                    score += self.action_bias * 3.0
            else:
                score -= 30.0
        elif value == REVERSE and n > 2:
            prev = next_seat(view, me, -1)
            if nxt_opp and nxt_size <= 2 and view.hand_sizes[prev] > nxt_size:
                score += self.action_bias * 15.0
        return score

    def _all_wild_score(self, view: View, t: int, threat: int) -> float:
        """docs/rules.md §13: UNO All Wild's cards, which all play: shed the 50-point cards
        first (the plain Wild, 20, last), hit the next player when an opponent, swap for a
        smaller hand, aim a Targeted Draw Two while an opponent is close to going out."""
        me = view.seat
        nxt = next_seat(view, me)
        score = POINTS[t] * (1.0 if threat <= 2 else 0.2)
        if t == AW_SWAP:  # the hand it ends with: the smallest opponent's (AW-7)
            return score + 12.0 * (len(view.hand) - 1 - threat)
        if t == AW_TARGET:
            return score + self.action_bias * (25.0 if threat <= 2 else 4.0)
        hits = t in (AW_SKIP, AW_SKIP_TWO, AW_DRAW_TWO, AW_DRAW_FOUR) or (
            t == AW_REVERSE and view.rules.players == 2
        )
        if hits:
            if partners(view, me, nxt):
                return score - 30.0
            score += self.action_bias * (25.0 if view.hand_sizes[nxt] <= 2 else 4.0)
            if t in (AW_DRAW_TWO, AW_DRAW_FOUR):
                score += self.action_bias * 3.0
        return score

    def play_card(self, view: View, options: Sequence[int], card: int) -> int:
        """The option that plays ``card`` best: the colour held most for a wild card, the
        opponent with the fewest cards for a Howler."""
        ways = play_of(options, card)
        more = [a for a in ways if ACTION_MORE[a]]
        if more:  # docs/rules.md §11.5 multi_play: shed every card of the number
            return min(more)  # without "uno": the base class adds the call
        ways = [a for a in ways if not ACTION_MORE[a]] if view.rules.multi_play else ways
        if len(ways) == 1:
            return ways[0]
        if swaps_hands(view, card):
            return swap_target(view, ways)
        if card in (HOWLER, AW_TARGET):
            return min(
                ways,
                key=lambda a: (
                    partners(view, view.seat, ACTION_ARG[a]),
                    view.hand_sizes[ACTION_ARG[a]],
                    (ACTION_ARG[a] - view.seat) % view.rules.players,
                ),
            )
        rest = list(view.hand)
        rest.remove(card)
        color = best_color(view, rest, avoid_seat=self._after(view, next_seat(view, view.seat)))
        for a in ways:
            if ACTION_ARG[a] == color:
                return a
        return ways[0]

    # ---- after a draw

    def _after_draw(self, view: View, options: list[int]) -> int:
        plays = [a for a in options if ACTION_KIND[a] == KIND_PLAY]
        if not plays:
            return PASS_ID
        drawn = view.drawn
        if PASS_ID in options and self.card_score(view, drawn) <= -1000:
            return PASS_ID
        if PASS_ID in options and drawn == INVISIBILITY and len(view.hand) > 2:
            return PASS_ID
        return self.play_card(view, options, drawn)

    # ---- jumping in (RULES §11)

    def jump(self, view: View, options: list[int]) -> int | None:
        """Jump in (a card shed out of turn) unless the card would hit a partner (a Skip or a draw
        card on the seat after this one), or a 7 or 0 would bring a bigger hand."""
        card = ACTION_CARD[options[0]]
        value = CARD_VALUE[card]
        nxt = next_seat(view, view.seat)
        hits = value in (SKIP, DRAW_TWO, DRAW_THREE) or (value == REVERSE and view.rules.players == 2)
        if hits and partners(view, view.seat, nxt) and nxt != view.seat:
            return None
        if view.rules.seven_zero and value in (0, SEVEN) and swap_gain(view, card) < 0:
            return None
        return self.play_card(view, options, card)

    # ---- answering an action card

    def _stack(self, view: View, options: list[int]) -> int | None:
        """RULES §11 stacking: the answer to play, or ``None`` to take the stack. Pass it on unless
        the next seat is a partner; a Draw Two or Three before a Wild Draw Four, and a Wild Draw
        Four that would be a bluff only on a stack of at least 4 or a threatening next seat."""
        answers = [a for a in options if ACTION_KIND[a] == KIND_PLAY]
        if not answers:
            return None
        nxt = next_seat(view, view.seat)
        if partners(view, view.seat, nxt) and view.rules.players > 2:
            return None
        plain = [a for a in answers if ACTION_CARD[a] != WILD_DRAW_FOUR]
        if plain:
            counts = color_counts(view.hand)
            card = max({ACTION_CARD[a] for a in plain}, key=lambda t: (counts[CARD_COLOR[t]], t))
            return self.play_card(view, options, card)
        rest = list(view.hand)
        rest.remove(WILD_DRAW_FOUR)
        bluff = view.color >= 0 and color_counts(rest)[view.color] > 0
        if bluff and view.pending_draw < 4 and view.hand_sizes[nxt] > 2:
            return None
        return self.play_card(view, options, WILD_DRAW_FOUR)

    def _respond(self, view: View, options: list[int]) -> int:
        pend = view.pending_card
        stack = self._stack(view, options)
        invis = [a for a in options if ACTION_KIND[a] == KIND_INVISIBILITY]
        invis_call = -1
        if invis:
            rest = list(view.hand)
            rest.remove(INVISIBILITY)
            color = best_color(view, rest)
            invis_call = next((a for a in invis if ACTION_ARG[a] == color), invis[0])
        if pend == WILD_DRAW_FOUR and CHALLENGE_ID in options:
            guilt = wd4_guilt(view, self.bluff_prior)
            if guilt >= 1.0:
                return CHALLENGE_ID
            if stack is not None:
                return stack
            if invis_call >= 0:
                return invis_call
            threshold = self.challenge_threshold
            if view.hand_sizes[view.pending_from] <= 2:
                threshold *= 0.6
            return CHALLENGE_ID if guilt > threshold else ACCEPT_ID
        if stack is not None:
            return stack
        if invis_call >= 0 and (pend == HOWLER or CARD_VALUE[pend] in (DRAW_TWO, DRAW_THREE)):
            return invis_call
        if invis_call >= 0 and len(view.hand) <= 2:
            return invis_call
        return ACCEPT_ID


STYLES: Final[dict[str, dict[str, float | int]]] = {
    "greedy": {},
    "aggressive": {"bluff_below": 3, "bluff_prior": 0.6, "challenge_threshold": 0.3, "action_bias": 2.5},
    "cautious": {"bluff_below": 0, "bluff_prior": 0.1, "challenge_threshold": 0.5, "action_bias": 0.5},
}
"""Presets of :class:`GreedyBot` registered as bots of their own."""
