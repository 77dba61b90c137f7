"""What a game's record says once hands are over: the cards left in each hand and their points,
the scores hand by hand, and each player's record (hands won, UNO calls missed, catches,
challenges). No Textual here; the screens and the summary printed on quit read these.

Everything here is public at the table: the hands left at the end of a hand are laid face up
to be counted (P-140), and calls, catches and challenges happen in front of everyone. The game's
events are not saved, so the record is rebuilt by replaying the saved actions through a fresh
:class:`~unotable.match.Game` (a few milliseconds for a whole game); a resumed game has its
whole record too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unotable.engine import hand_points
from unotable.match import Game
from unotable.tui import results
from unotable.tui.controller import Table
from unotable.views import view


@dataclass(frozen=True)
class LeftInHand:
    """One seat's hand when a hand ended: the player, the cards left and their points."""

    player: int
    cards: tuple[int, ...]
    points: int


def hands_left(game: Game) -> list[LeftInHand]:
    """The cards left in each seat's hand at the end of the last finished hand, by seat of its
    table, with their points as the books count them (RULES §1); ``[]`` before any hand ends.

    The hands are laid face up to be counted when a hand ends (P-140), so every player sees them.
    """
    if not game.results:
        return []
    result = game.results[-1]
    st = result.state
    points = hand_points(st)
    return [
        LeftInHand(player, tuple(st.hands[seat]), points[seat])
        for seat, player in enumerate(result.deal.seating)
    ]


def score_rows(game: Game) -> list[tuple[int, ...]]:
    """What each finished hand added to each game score (by team in partners and teams, else by
    player), one row per hand."""
    return [r.credit for r in game.results]


@dataclass
class PlayerRecord:
    """One player's game, from the public events."""

    hands_won: int = 0
    uno_missed: int = 0
    """Next-to-last cards played without the call and not called late before the window
    closed (caught or not)."""
    caught: int = 0
    """Times caught without UNO by another player (2 cards each)."""
    catches: int = 0
    """Times this player caught another."""
    challenges_won: int = 0
    """Wild Draw Fours challenged that were a bluff."""
    challenges_lost: int = 0
    """Wild Draw Fours challenged that were legal."""


@dataclass
class GameRecord:
    """Every player's record, by player number."""

    players: list[PlayerRecord] = field(default_factory=list)


def game_record(game: Game) -> GameRecord:
    """Each player's record in ``game`` so far, rebuilt by replaying its saved actions."""
    replay = Game.new(game.rules, game.seed, players=game.players, rounds=game.rounds)
    out = GameRecord([PlayerRecord() for _ in range(game.players)])
    for index, actions in enumerate(game.log):
        if index:
            replay.next_hand()
        seating = replay.deal.seating
        exposed: set[int] = set()
        for seat, action in actions:
            events = replay.apply_seat(seat, action)
            called = set()
            for e in events:
                if e.kind == "uno" and e.seat is not None:
                    called.add(e.seat)
                elif e.kind == "catch" and e.seat is not None and e.target is not None:
                    out.players[seating[e.seat]].catches += 1
                    out.players[seating[e.target]].caught += 1
                elif e.kind == "challenge" and e.seat is not None:
                    rec = out.players[seating[e.seat]]
                    if e.reason == "guilty":
                        rec.challenges_won += 1
                    else:
                        rec.challenges_lost += 1
            # A call missed: exposed (one card, no call) and no longer, without calling late.
            now = set() if replay.hand_over else set(view(replay.state, 0).uno_exposed)
            for s in exposed - now - called:
                out.players[seating[s]].uno_missed += 1
            exposed = now
    for r in game.results:
        out.players[r.winner].hands_won += 1
    return out


def summary(table: Table) -> str:
    """The paragraph printed when the player leaves: who won (or leads), the human's place,
    points and record, and, once the game is over, its seed for a replay."""
    g = table.game
    ranking = table.ranking()
    s = g.standings()
    if g.finished:
        leaders = list(g.winners)
    else:
        best = table.points_of(ranking[0])
        leaders = [p for p in ranking if table.points_of(p) == best and p not in s.eliminated]
    human = table.human
    you = None
    mine = None
    if human is not None:
        you = (s.places[human], table.points_of(human), s.shares_place(human))
        r = game_record(g).players[human]
        mine = (r.hands_won, r.uno_missed, r.caught, r.catches, r.challenges_won, r.challenges_lost)
    return results.summary(
        edition=g.rules.edition.name,
        players=g.players,
        target=g.rules.target,
        hands=len(g.results),
        finished=g.finished,
        leaders=[table.display_name(p) for p in leaders],
        leader_points=table.points_of(leaders[0]) if leaders else 0,
        you=you,
        record=mine,
        seed=g.seed if g.finished else None,
        save=str(table.save_path) if table.save_path is not None and not g.finished else None,
    )
