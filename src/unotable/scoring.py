"""The points of a hand (RULES §9, §10, docs/rules.md §11.5): the cards in each hand, what a hand
charges once it is over, who is eliminated, who has won the game, and the scores of a hand
just won (:func:`score_hand`, called by :func:`unotable.effects.end_hand`).

Part of the rules core (:mod:`unotable.engine` re-exports every public name); it reads the
state and its tables only.
"""

from __future__ import annotations

from unotable.state import State
from unotable.tables import E_DRAW, E_DRAW_COLOR, E_WD4


def hand_points(st: State) -> list[int]:
    """The points of the cards in each seat's hand now."""
    points = st.tables.points.__getitem__
    return [sum(map(points, h)) for h in st.hands]


def charged_points(st: State) -> list[int]:
    """The points of each seat's hand once the hand is over (RULES §9), doubled by
    ``double_finish`` when the hand was won on a draw card (docs/rules.md §11.5)."""
    points = hand_points(st)
    tb = st.tables
    if (
        tb.double_finish
        and not st.hands[st.winner]
        and tb.base_effect[st.discard[-1]] in (E_DRAW, E_WD4, E_DRAW_COLOR)
    ):
        points = [2 * p for p in points]
    return points


def eliminated_seats(st: State) -> list[int]:
    """docs/rules.md §10 ``elimination`` (H-36, H-37): the seats out of the game after the hand
    just ended: of those that did not go out, the ones whose own cards are worth the most points;
    a tie goes to the most cards, and players still tied are all out."""
    if st.winner < 0:
        return []
    points = charged_points(st)
    others = [s for s in range(st.n) if s != st.winner]
    if not others:
        return []
    key = {s: (points[s], len(st.hands[s])) for s in others}
    worst = max(key.values())
    return [s for s in others if key[s] == worst]


def _game_winners(st: State) -> list[int]:
    """Who has won the game with the scores of ``st`` once its hand is over (by team in team
    modes): the first to the target; in ``challenge`` the last one standing (RULES §10); with
    ``scoring: lowest`` the lowest totals once one reaches the target (R-11)."""
    rules = st.rules
    target = rules.target
    scores = st.scores
    if rules.teams:
        team = st.winner % 2
        return [team] if scores[team] >= target and rules.mode in ("partners", "teams") else []
    if rules.mode == "elimination":  # H-37: the last player left wins
        return [st.winner] if st.n - len(eliminated_seats(st)) <= 1 else []
    if rules.mode == "challenge":
        standing = [s for s in range(st.n) if scores[s] < target]
        return (standing or [st.winner]) if len(standing) <= 1 else []
    if rules.scoring == "lowest":
        if max(scores) < target:
            return []
        low = min(scores)
        return [s for s in range(st.n) if scores[s] == low]
    return [st.winner] if scores[st.winner] >= target else []


def score_hand(st: State) -> None:
    """Add the points of the hand ``st.winner`` just went out of to the scores (RULES §9, §10),
    set ``hand_points`` and the game's winners (``game_winners``, empty while the game goes on)."""
    rules = st.rules
    winner = st.winner
    points = charged_points(st)  # RULES §11.5: a hand won on a draw card scores double
    if rules.teams:  # RULES §10: the winning team scores every card in the other team's hands
        team = winner % 2
        st.hand_points = sum(points[s] for s in range(st.n) if s % 2 != team)
        st.scores[team] += st.hand_points
    elif rules.mode in ("challenge", "elimination") or rules.scoring == "lowest":  # each their own cards
        for s in range(st.n):
            st.scores[s] += points[s]
        st.hand_points = sum(points)
    else:
        st.hand_points = sum(points) - points[winner]
        st.scores[winner] += st.hand_points
    st.game_winners = _game_winners(st)
