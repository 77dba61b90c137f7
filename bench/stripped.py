"""A reference for the benchmark: stripped-down UNO in the tightest pure-Python loop we could write.

Not a game this project offers, and not the engine: a measure of how fast pure Python can play
UNO at all when almost every rule is left out, so that ``bench.py`` can say where the engine and
RLCard stand against that ceiling on the same machine (issue 6 quotes such a loop at about 6.6
times RLCard's speed).

The hands are dealt by the engine's own ``new_hand`` (same deck, shuffle and first card as
ours), and the picks come from the same ``picks.random_words``. Then, as in RLCard's game:
a player plays a card that matches (a Wild Draw Four only without a card of the colour to
match), or, with nothing to play, draws one card and plays it at once if it can go; a wild
card's colour is picked at random with it; Skip, Reverse (a Skip with two players), Draw Two
and Wild Draw Four act at once. Nobody calls UNO, nothing can be challenged, nothing is
scored, and the hand ends when a hand is empty. The whole hand is one function with every
state in local variables: no calls, no events, no checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from unotable.cards import CARD_COLOR
from unotable.engine import (
    E_DRAW,
    E_NUMBER,
    E_REVERSE,
    E_SKIP,
    E_WD4,
    E_WILD,
    new_hand,
    tables_for,
)
from unotable.piles import _reshuffle
from unotable.rules import Rules, find_edition

MAX_ACTIONS = 100_000
"""A hand still going after this many actions is a bug."""


def play_stripped(players: int, seeds: Sequence[int], word: Callable[[], int]) -> int:
    """Play one stripped hand per seed (classic deck); the number of decisions taken."""
    rules = Rules(edition=find_edition("classic"), players=players)
    tb = tables_for(rules)
    matching = tb.matching
    effect = tb.effect
    of_color = tb.of_color
    n = players
    total = 0
    for seed in seeds:
        st = new_hand(rules, seed, dealer=seed % n, record=False)[0]
        hands = st.hands
        draw = st.draw
        discard = st.discard
        top = discard[-1]
        color = st.color if st.color >= 0 else word() % 4
        seat = st.current
        d = st.direction
        for count in range(1, MAX_ACTIONS + 1):
            hand = hands[seat]
            cards = [*matching[color][top].intersection(hand)]
            if cards:
                t = cards[word() % len(cards)]
                if effect[t] == E_WD4 and not of_color[color].isdisjoint(hand):
                    cards.remove(t)  # not legal while the colour to match is held
                    t = cards[word() % len(cards)] if cards else -1
            else:
                t = -1
            if t < 0:  # nothing to play: draw one, and play it if it can go
                if not draw:
                    if not _reshuffle(st, None):
                        seat = (seat + d) % n
                        continue
                    draw, discard = st.draw, st.discard
                t = draw.pop()
                if t not in matching[color][top]:
                    hand.append(t)
                    seat = (seat + d) % n
                    continue
            else:
                hand.remove(t)
            discard.append(t)
            top = t
            if not hand:
                total += count
                break
            fx = effect[t]
            color = word() % 4 if fx in (E_WILD, E_WD4) else CARD_COLOR[t]
            if fx == E_NUMBER:
                seat = (seat + d) % n
            elif fx == E_SKIP or (fx == E_REVERSE and n == 2):
                if fx == E_REVERSE:
                    d = -d
                seat = (seat + 2 * d) % n
            elif fx == E_REVERSE:
                d = -d
                seat = (seat + d) % n
            elif fx == E_WILD:
                seat = (seat + d) % n
            else:  # Draw Two or Wild Draw Four: the next player draws and is skipped
                victim = hands[(seat + d) % n]
                for _ in range(2 if fx == E_DRAW else 4):
                    if not draw:
                        if not _reshuffle(st, None):
                            break
                        draw, discard = st.draw, st.discard
                    victim.append(draw.pop())
                seat = (seat + 2 * d) % n
        else:
            raise RuntimeError(f"stripped hand {seed}: no end after {MAX_ACTIONS} actions")
    return total
