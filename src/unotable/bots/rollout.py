"""The default policy of playouts: the greedy bot's rules, read off a :class:`State` directly.

It is meant for states a search bot sampled itself (determinizations), never for the real
state of a hand: it sees every hand of the state it is given, but decides as
:class:`~unotable.bots.simple.GreedyBot` at its default settings would from that seat (without
the few refinements that need the seat's view: card counting in the colour call and cards
known in other hands). Every seat plays it, so a search whose playouts follow it is a rollout
improvement on the greedy bot.
"""

from __future__ import annotations

from typing import Final

from unotable.bots.base import color_counts
from unotable.cards import (
    CARD_COLOR,
    CARD_VALUE,
    DRAW_THREE,
    DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    NUM_CARD_TYPES,
    POINTS,
    REVERSE,
    SEVEN,
    SKIP,
    WILD_DRAW_FOUR,
)
from unotable.engine import Tables, legal_ids, step
from unotable.notation import (
    ACCEPT_ID,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_MORE,
    ACTION_UNO,
    CHALLENGE_ID,
    COLOR_IDS,
    DARK_COLOR_IDS,
    DRAW_ID,
    INVISIBILITY_IDS,
    INVISIBILITY_UNO_IDS,
    KIND_PLAY,
    MORE_IDS,
    NAMES_SEAT,
    PASS_ID,
    play_ids,
)
from unotable.state import (
    PHASE_AFTER_DRAW,
    PHASE_CHOOSE_COLOR,
    PHASE_HAND_OVER,
    PHASE_RESPOND,
    PHASE_TURN,
    State,
)

PLAYOUT_CAP: Final = 3000
"""A playout stops after this many actions (a hand that long is counted as lost by everyone)."""

GREEDY_BLUFF_PRIOR: Final = 0.3
"""The greedy bot's default ``bluff_prior``."""
GREEDY_CHALLENGE_THRESHOLD: Final = 0.35
"""The greedy bot's default ``challenge_threshold``."""


_PlayIds = tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]]]
_PLAY_IDS: dict[tuple[int, int], tuple[Tables, _PlayIds]] = {}
"""By the identity of the tables (kept alive here, so that an id is never another's) and the seat."""


def _play_ids(st: State, seat: int) -> _PlayIds:
    """Per card, the ids of ``seat`` playing it: as its last card, with the ``uno`` suffix (the
    next-to-last card), and otherwise (a 7 names a seat with ``seven_zero``, but as the last card)."""
    tb = st.tables
    key = (id(tb), seat)
    known = _PLAY_IDS.get(key)
    if known is not None and known[0] is tb:
        return known[1]
    n = st.n
    wild = tb.wild
    swap = tb.seven_zero

    def table(uno: bool, swap: bool) -> list[tuple[int, ...]]:
        kinds = range(NUM_CARD_TYPES)
        return [play_ids(t, uno=uno, wild=wild[t], seat=seat, players=n, swap=swap) for t in kinds]

    ids = (table(False, False), table(True, swap), table(False, swap))
    if len(_PLAY_IDS) >= 1024:
        _PLAY_IDS.clear()
    _PLAY_IDS[key] = (tb, ids)
    return ids


def play_id(st: State, seat: int, card: int, color: int) -> int:
    """The id of ``seat`` playing ``card`` (calling ``color`` for a wild card; with ``uno`` on
    the next-to-last card; a Howler, or a 7 that swaps hands, on the opponent with the fewest
    cards)."""
    size = len(st.hands[seat])
    ways = _play_ids(st, seat)[min(size, 3) - 1][card]
    if (NAMES_SEAT[card] and len(ways) > 1) or card == HOWLER:
        n = st.n
        hands = st.hands
        teams = st.rules.teams
        target = min(
            (s for s in range(n) if s != seat and hands[s]),  # NM-9: never a seat knocked out
            key=lambda s: (teams and s % 2 == seat % 2, len(hands[s]), (s - seat) % n),
        )
        return ways[target if target < seat else target - 1]
    return ways[color] if len(ways) == 4 else ways[0]


def _card_score(st: State, seat: int, t: int, counts: list[int]) -> float:
    """:meth:`GreedyBot.card_score <unotable.bots.simple.GreedyBot.card_score>` at its defaults."""
    return _Scorer(st, seat, counts).score(t)


class _Scorer:
    """:func:`_card_score` for one seat's decision: what does not depend on the card, once."""

    __slots__ = (
        "counts", "nxt_opp", "nxt_size", "prev_size", "reverse_hits", "size", "st", "swap_best", "weight",
    )  # fmt: skip

    def __init__(self, st: State, seat: int, counts: list[int]) -> None:
        hands = st.hands
        n = st.n
        teams = st.rules.teams
        direction = st.direction
        nxt = (seat + direction) % n
        self.st = st
        self.counts = counts
        self.size = len(hands[seat])
        self.nxt_opp = not (nxt == seat or (teams and nxt % 2 == seat % 2))
        self.nxt_size = len(hands[nxt])
        threat = 99
        for s in range(n):
            if s != seat and not (teams and s % 2 == seat % 2):
                threat = min(threat, len(hands[s]))
        self.weight = 1.0 if threat <= 2 else 0.2
        self.prev_size = len(hands[(seat - direction) % n])
        self.reverse_hits = n == 2
        # RULES §11 seven_zero: the fewest cards an opponent holds (a 7 swaps with it), else -1.
        self.swap_best = -1
        if st.tables.seven_zero:
            self.swap_best = min(
                (
                    len(hands[s])
                    for s in range(n)
                    if s != seat and hands[s] and not (teams and s % 2 == seat % 2)
                ),
                default=-1,
            )

    def score(self, t: int) -> float:
        """How much greedy likes playing ``t`` (<= -1000: never)."""
        if self.size == 1:
            return 0.0
        st = self.st
        tb = st.tables
        counts = self.counts
        if tb.wild[t]:
            if t == INVISIBILITY:
                return -300.0 if self.size > 2 else -95.0
            if t == WILD_DRAW_FOUR:
                if st.color >= 0 and counts[st.color] > 0:  # a bluff
                    return 60.0 if self.nxt_opp and self.nxt_size <= 1 else -1000.0
                return -80.0 + (60.0 if self.nxt_opp and self.nxt_size <= 2 else 0.0)
            if t == HOWLER:
                return -90.0
            return -100.0
        value = CARD_VALUE[t]
        score = 10.0 * counts[CARD_COLOR[t]] + POINTS[t] * self.weight
        if self.swap_best >= 0 and value in (0, SEVEN):  # the hand it would end with
            score += 12.0 * (self.size - 1 - (self.swap_best if value == SEVEN else self.prev_size))
        blank = tb.blank[t]
        if blank is not None:
            hits = blank.skip or blank.draw > 0
        else:
            hits = value in _HITS or (value == REVERSE and self.reverse_hits)
        if hits:
            if self.nxt_opp:
                score += 25.0 if self.nxt_size <= 2 else 4.0
                if value in _DRAWS:
                    score += 3.0
            else:
                score -= 30.0
        elif (
            value == REVERSE
            and not self.reverse_hits
            and self.nxt_opp
            and self.nxt_size <= 2
            and self.prev_size > self.nxt_size
        ):
            score += 15.0
        return score


_HITS: Final = frozenset({SKIP, DRAW_TWO, DRAW_THREE})
_DRAWS: Final = frozenset({DRAW_TWO, DRAW_THREE})


def _color(hand: list[int], counts: list[int]) -> int:
    """The colour held most, then with the most points (greedy's call, without its card counting)."""
    points = [0, 0, 0, 0]
    for t in hand:
        c = CARD_COLOR[t]
        if c >= 0:
            points[c] += POINTS[t]
    best = 0
    for c in (1, 2, 3):
        if (counts[c], points[c]) > (counts[best], points[best]):
            best = c
    return best


def _play(st: State, seat: int, card: int, counts: list[int]) -> int:
    if card == HOWLER or not st.tables.wild[card]:
        return play_id(st, seat, card, 0)
    rest = st.hands[seat][:]
    rest.remove(card)
    return play_id(st, seat, card, _color(rest, counts))


def _guilt(st: State, seat: int) -> float:
    """:func:`unotable.bots.simple.wd4_guilt` from ``seat``'s side, its knowledge left out."""
    offender = st.pend_from
    color = st.pend_color
    if color < 0:
        return 0.0
    pool = [t for s, h in enumerate(st.hands) if s != seat for t in h]
    pool += st.draw
    total = len(pool)
    other = total - sum(1 for t in pool if CARD_COLOR[t] == color)
    none = 1.0
    for i in range(len(st.hands[offender])):
        if total - i <= 0:
            break
        none *= max(0, other - i) / (total - i)
    weighed = (1.0 - none) * GREEDY_BLUFF_PRIOR
    return weighed / (weighed + none) if weighed + none > 0 else 0.0


def rollout_action(st: State) -> int:
    """The action of ``st.current`` by the greedy bot's rules at its default settings, read off
    the state directly (legal in ``st``); deterministic, so that playouts of two actions from
    one sampled state differ only by what the actions change."""
    if st.tables.multi_play:  # docs/rules.md §11.5: shed every card of the number
        return _multi_play_action(st)
    a = _greedy_action(st)
    if st.tables.refuses_more:  # docs/rules.md §11.5: house rules that refuse what greedy picks
        legal = legal_ids(st, st.current)
        if a not in legal:
            return _fallback(st, legal)
    return a


def _multi_play_action(st: State) -> int:
    """:func:`rollout_action` with ``multi_play``: in a series, the next card (with ``more``
    while one would still follow); else the greedy choice, with ``more`` when it may have it."""
    seat = st.current
    legal = legal_ids(st, seat)
    if st.series >= 0 and st.phase == PHASE_TURN:
        plays = [a for a in legal if ACTION_KIND[a] == KIND_PLAY]
        plays = [a for a in plays if ACTION_MORE[a]] or plays
        return min([a for a in plays if ACTION_UNO[a]] or plays)  # the call when it leaves one
    a = _greedy_action(st)
    if a not in legal:
        return _fallback(st, legal)
    if ACTION_KIND[a] == KIND_PLAY and MORE_IDS[ACTION_CARD[a]]:
        more = MORE_IDS[ACTION_CARD[a]][1 if ACTION_UNO[a] else 0]
        if more in legal:
            return more
    return a


def _fallback(st: State, legal: list[int]) -> int:
    """A legal action when the greedy choice is refused by a house rule (forced play, no going
    out on an action card, no challenge): the best-scored play, else accept, else the first."""
    seat = st.current
    hand = st.hands[seat]
    counts = color_counts(hand)
    plays = sorted(a for a in legal if ACTION_KIND[a] == KIND_PLAY)
    if plays and st.phase != PHASE_RESPOND:
        best = max(sorted({ACTION_CARD[a] for a in plays}), key=lambda t: _card_score(st, seat, t, counts))
        return next(a for a in plays if ACTION_CARD[a] == best)
    if ACCEPT_ID in legal:
        return ACCEPT_ID
    return min(legal)


def _greedy_action(st: State) -> int:
    """:func:`rollout_action` before the house rules of §11.5 are checked."""
    seat = st.current
    tb = st.tables
    hand = st.hands[seat]
    phase = st.phase
    if phase == PHASE_TURN:
        playable = tb.matching[st.color][st.discard[-1]].intersection(hand)
        if not playable:
            return DRAW_ID
        if len(playable) == 1:
            (best,) = playable
            if not tb.wild[best]:
                return play_id(st, seat, best, 0)  # its only play, and no colour to call
            counts = color_counts(hand)
            if len(hand) > 1 and best == WILD_DRAW_FOUR and _card_score(st, seat, best, counts) <= -1000:
                return DRAW_ID
            return _play(st, seat, best, counts)
        counts = color_counts(hand)
        scorer = _Scorer(st, seat, counts)
        best = -1
        best_score = -1e9
        for t in sorted(playable):
            score = scorer.score(t)
            if score > best_score:
                best_score = score
                best = t
        if best_score <= -1000:
            return DRAW_ID
        return _play(st, seat, best, counts)
    counts = color_counts(hand)
    if phase == PHASE_AFTER_DRAW:
        drawn = st.drawn
        if not tb.must_play_drawn and (
            _card_score(st, seat, drawn, counts) <= -1000 or (drawn == INVISIBILITY and len(hand) > 2)
        ):
            return PASS_ID
        return _play(st, seat, drawn, counts)
    if phase == PHASE_CHOOSE_COLOR:
        return (DARK_COLOR_IDS if st.side else COLOR_IDS)[_color(hand, counts)]  # UNO Flip's dark side
    # respond
    pend = st.pend_card
    if tb.stacking:  # RULES §11: pass the stack on, a Draw Two or Three before a Wild Draw Four
        answers = tb.answers[pend].intersection(hand)
        if answers:
            plain = sorted(t for t in answers if t != WILD_DRAW_FOUR)
            return _play(st, seat, plain[0] if plain else WILD_DRAW_FOUR, counts)
    invis = tb.response_windows and INVISIBILITY in hand
    if pend == WILD_DRAW_FOUR:
        if invis:
            return _invisibility(hand, counts)
        threshold = GREEDY_CHALLENGE_THRESHOLD
        if len(st.hands[st.pend_from]) <= 2:
            threshold *= 0.6
        return CHALLENGE_ID if _guilt(st, seat) > threshold else ACCEPT_ID
    if invis and (pend == HOWLER or CARD_VALUE[pend] in (DRAW_TWO, DRAW_THREE) or len(hand) <= 2):
        return _invisibility(hand, counts)
    return ACCEPT_ID


def _invisibility(hand: list[int], counts: list[int]) -> int:
    rest = hand[:]
    rest.remove(INVISIBILITY)
    c = _color(rest, counts)
    return INVISIBILITY_UNO_IDS[c] if len(hand) == 2 else INVISIBILITY_IDS[c]


def playout(st: State, cap: int = PLAYOUT_CAP) -> None:
    """Play ``st`` (a state the caller owns) to the end of the hand with :func:`rollout_action`
    (the state's own generator shuffles any reshuffle)."""
    for _ in range(cap):
        if st.phase >= PHASE_HAND_OVER:
            return
        step(st, st.current, rollout_action(st))
