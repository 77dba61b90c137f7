"""UNO Flip's two-sided cards (docs/rules.md §15; part of the rules core, below
:mod:`unotable.piles`): pairing the faces of a deal (FL-1), moving a card with its other face,
and turning everything over (FL-3).

A Flip state keeps, beside each hand and pile, the other face of each of its cards
(``State.backs``, aligned card for card). Every move of a card in a Flip hand goes through
here; the other editions never call these (their ``backs`` is ``None``).
"""

from __future__ import annotations

from unotable.events import Event
from unotable.shuffle import _shuffle
from unotable.state import State


def pair_faces(st: State, light: list[int], dark: list[int]) -> list[int]:
    """FL-1: deal the dark faces onto the light ones at random (from the state's generator),
    then shuffle the 112 cards; returns the light faces in deck order (top card last, as a
    shuffled deck) and leaves their dark faces, aligned, in ``st.backs[n]`` for the deal."""
    dark = dark[:]
    _shuffle(st, dark)  # the pairing: the i-th light face of the canonical order gets dark[i]
    order = list(range(len(light)))
    _shuffle(st, order)
    st.backs = [[] for _ in range(st.n + 2)]
    st.backs[st.n] = [dark[i] for i in order]
    return [light[i] for i in order]


def deal_backs(st: State, backs: list[int], dealt: int, dealer: int) -> None:
    """The other faces of a deal made as :func:`unotable.dealing._deal` makes it from a deck
    whose faces are ``backs``."""
    n = st.n
    assert st.backs is not None
    for j in range(n):
        st.backs[(dealer + 1 + j) % n] = backs[j:dealt:n]
    st.backs[n] = backs[dealt:][::-1]


def take(st: State, seat: int) -> int:
    """``seat`` takes the draw pile's top card (its other face with it); returns its face."""
    assert st.backs is not None
    t = st.draw.pop()
    st.hands[seat].append(t)
    st.backs[seat].append(st.backs[st.n].pop())
    return t


def discard(st: State, seat: int, t: int) -> None:
    """``seat`` plays ``t``: of its cards showing that face, the one it took first goes onto the
    discard pile, with its other face (FL-2: a seat does not see its own cards' other faces,
    so cannot tell them apart)."""
    assert st.backs is not None
    hand = st.hands[seat]
    i = hand.index(t)
    del hand[i]
    st.discard.append(t)
    st.backs[st.n + 1].append(st.backs[seat].pop(i))


def reshuffle(st: State) -> int:
    """RULES §3 with two faces: the discard pile but its top card, each card with its other
    face, shuffled into the new draw pile (every card still showing the side in play); the
    number of cards."""
    assert st.backs is not None
    n = st.n
    faces = st.discard[:-1]
    backs = st.backs[n + 1][:-1]
    order = list(range(len(faces)))
    _shuffle(st, order)
    st.draw = [faces[i] for i in order]
    st.backs[n] = [backs[i] for i in order]
    st.discard = st.discard[-1:]
    st.backs[n + 1] = st.backs[n + 1][-1:]
    return len(faces)


def move_hands(st: State, dest: list[int]) -> None:
    """The other faces follow their hands when hand ``s`` goes to seat ``dest[s]`` (RULES §11's
    7-0)."""
    assert st.backs is not None
    old = st.backs[:]
    for s, r in enumerate(dest):
        st.backs[r] = old[s]


def turn_over(st: State, seat: int, ev: list[Event] | None) -> None:
    """FL-3: ``seat`` played a Flip: every hand turns round, the draw pile is turned over (its
    bottom card on top, each card showing its other face) and so is each card of the discard
    pile in its place (the Flip's other face is now the card to match). What a seat was shown
    of another's hand is the side that now faces it: nothing else is known."""
    assert st.backs is not None
    n = st.n
    backs = st.backs
    for s in range(n):
        st.hands[s], backs[s] = backs[s], st.hands[s]
    st.draw, backs[n] = backs[n][::-1], st.draw[::-1]
    st.discard, backs[n + 1] = backs[n + 1], st.discard
    st.side ^= 1
    st.known = {}
    st.drew_facing = [-1] * n
    if ev is not None:
        ev.append(Event("flip", seat=seat, reason="dark" if st.side else "light"))
