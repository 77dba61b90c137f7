"""Whole games (docs/rules.md §9-10): hands in sequence, scored by mode, saved and resumed.

A :class:`Game` deals hand after hand with :func:`unotable.engine.new_hand` (each hand's seed and
the scheduled modes' seatings are :mod:`unotable.schedule`'s), seats the game's
players at each hand's table, carries the scores, moves the dealer to the left, and decides who
wins. Players are numbered ``0..P-1`` for the whole game; seats are numbered per hand. The
game formats (option ``mode`` of :class:`~unotable.rules.Rules`):

- ``solo``: player ``p`` sits in seat ``p``; standard scoring or ``scoring: lowest``.
- ``partners`` / ``teams``: player ``p`` sits in seat ``p``; scores by team (team 0: the even
  players, team 1: the odd ones); the first team to ``target`` wins.
- ``rotating-partners`` (4 players) and ``two-tables`` (8 players, two tables of 4): a
  round-robin schedule (:func:`table_schedule`) partners every pair of players exactly once, for
  four hands, partners sitting across; each player's total is the points won by their
  partnerships; after the last scheduled hand the highest total wins (ties share the win).
- ``challenge``: each player is charged their own points; reaching ``target`` eliminates; the
  remaining players play on (two of them head to head) until one is left.
- ``elimination``: each player is charged their own points; after every hand the player left
  with the most points in their hand is out (docs/rules.md §10, H-36 to H-40), until one is left.

Rulings P-18 onwards of ``docs/rulings.md`` say what the books leave open. The module is part of
the core: standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from unotable import jsontext
from unotable.engine import check, eliminated_seats, legal_ids, new_hand, seat_index, step
from unotable.errors import ConfigError, IllegalActionError, NotationError, UnoError
from unotable.events import Event
from unotable.notation import ACTION_TEXT, TABLE
from unotable.rules import Rules
from unotable.schedule import (
    GAME_PLAYERS,
    HANDS_PER_PARTNERSHIP,
    SCHEDULED_MODES,
    TABLE_SIZE,
    Deal,
    hand_seed,
    round_robin,
    scheduled_deal,
    table_schedule,
)
from unotable.state import PHASE_GAME_OVER, PHASE_HAND_OVER, State
from unotable.views import View, view

SAVE_FORMAT: Final = "unotable-game"
"""The ``format`` field of a saved game."""
SAVE_VERSION: Final = 2
"""The ``version`` field of a saved game. Version 1 games were dealt by an earlier shuffle
(unotable before 2026-12): their seeds no longer give the same deals, so they cannot be
replayed."""
MAX_ROUNDS: Final = 100
"""The most rounds of a schedule a game may play (1,200 hands of rotating partners)."""
SAVE_KEYS: Final = frozenset({"format", "version", "rules", "players", "rounds", "seed", "seats", "hands"})
"""Every key a saved game may have."""


Actor = int | str
"""Who takes an action: a player (or, in a saved hand, a seat), or ``"table"`` (the referee)."""


class GameError(UnoError, ValueError):
    """A request a game cannot satisfy: dealing before the hand is over or after the game is,
    or asking about a player who is not in the game."""


class SavedGameError(GameError):
    """A saved game cannot be read or replayed (not JSON, not an object, an unknown key, a value
    of the wrong type, bad rules, or an action its hand refuses)."""


# --------------------------------------------------------------------------------------------
# Results.


@dataclass(frozen=True)
class HandResult:
    """One finished hand of a game."""

    deal: Deal
    dealer: int
    """The dealer's seat."""
    winner: int
    """The player who went out."""
    hand_points: int
    """The engine's points for the hand (RULES §9: scored, or charged in total)."""
    credit: tuple[int, ...]
    """What the hand added to each game score (by team in partners and teams, else by player)."""
    state: State = field(compare=False, repr=False)
    """The hand's final state."""


@dataclass(frozen=True)
class Standings:
    """Where a game stands."""

    mode: str
    by_team: bool
    """Whether ``scores`` are by team (partners, teams) or by player."""
    scores: tuple[int, ...]
    """Game totals: by team (team ``t`` is the players ``p`` with ``p % 2 == t``) or by player."""
    teams: tuple[tuple[int, ...], ...]
    """The players of each team, when ``by_team``; else empty."""
    hands_played: int
    """Hands finished."""
    hands_total: int | None
    """Hands in the whole game for the scheduled modes; ``None`` when played to a target."""
    hands_by_player: tuple[int, ...]
    """Hands finished that each player played in."""
    eliminated: tuple[int, ...]
    """Challenge and elimination: the eliminated players, in order of elimination (ties by
    player number)."""
    remaining: tuple[int, ...]
    """The players still in the game."""
    winners: tuple[int, ...]
    """The players who won the game (``()`` while it goes on)."""
    finished: bool
    places: tuple[int, ...] = ()
    """Each player's place, from 1: the winners (or, while the game goes on, the leaders) first,
    then by score (lowest first where points are charged), the eliminated players of a challenge
    last, the last one out first among them. Players level share the better place, and the next
    place is skipped (1, 1, 3: "1st=, 1st=, 3rd"); partners share their team's place."""

    def shares_place(self, player: int) -> bool:
        """Whether another player (of another team, when by team) holds ``player``'s place."""
        mine = self.places[player]
        return any(
            place == mine and p != player and (not self.by_team or p % 2 != player % 2)
            for p, place in enumerate(self.places)
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "mode": self.mode,
            "by_team": self.by_team,
            "scores": list(self.scores),
            "teams": [list(t) for t in self.teams],
            "hands_played": self.hands_played,
            "hands_total": self.hands_total,
            "hands_by_player": list(self.hands_by_player),
            "eliminated": list(self.eliminated),
            "remaining": list(self.remaining),
            "winners": list(self.winners),
            "finished": self.finished,
            "places": list(self.places),
        }


# --------------------------------------------------------------------------------------------
# The game.


class Game:
    """A whole game: hands dealt in turn, scored by the mode of its rules (RULES §9-10).

    Make one with :meth:`new` or :meth:`from_json`. ``state`` is the hand in play (or the last
    one, once over). Actions are addressed by **player**; the action's text is the notation of
    the hand's table, so a seat it names (``catch 2``, ``play HOWLER 1``, ``penalize 3
    suggestion``) is a seat of that table, as :meth:`legal_actions` and the views list them
    (P-25; :meth:`seat_of` and :meth:`player_at` translate). When a hand ends, :meth:`next_hand`
    deals the next one (P-24): nothing is dealt automatically, so the finished hand stays in
    view until then. The scores the hand's ``state`` carries are the game's (by seat, or by
    team), except in the scheduled modes, where they are the two partnerships' points in their
    block of four hands (P-21); :meth:`standings` has the game's totals in every mode.
    """

    rules: Rules
    """The game's rules (``players``: at one table; in ``challenge``, at the first hand)."""
    seed: int
    """The game's seed; hand ``i`` is dealt from ``hand_seed(seed, i)``."""
    players: int
    """Players in the whole game."""
    rounds: int
    """Scheduled modes: how many times the schedule is played (else 1)."""
    seats: tuple[str | None, ...] | None
    """Who plays each player's seat, saved with the game for the interfaces that set it: a bot
    spec such as ``"greedy"`` or ``"search:budget=100"``, or None for a person; None if unset.
    The game itself never reads it."""
    results: list[HandResult]
    """The finished hands, in order."""
    deal_events: list[Event]
    """The events of the current hand's deal (dealer choice, deal, first card)."""
    hand_events: list[Event]
    """Every event of the current hand so far: its deal's, then each action's (for a screen
    that shows a resumed hand's log)."""
    _state: State
    _current: Deal

    def __init__(self, rules: Rules, seed: int, players: int, rounds: int) -> None:
        """Use :meth:`new`: this constructor assumes checked parameters and deals the first hand."""
        self.rules = rules
        self.seed = seed
        self.players = players
        self.rounds = rounds
        self.seats = None
        self.results = []
        self._by_team = rules.mode in ("partners", "teams")
        self._scheduled = rules.mode in SCHEDULED_MODES
        self._totals = [0] * (2 if self._by_team else players)
        self._eliminated: list[int] = []
        self._winners: tuple[int, ...] = ()
        self._finished = False
        self._views: tuple[State, tuple[int, int, bool], dict[int | None, View]] | None = None
        self._actions: list[list[tuple[Actor, str]]] = []
        self._dealer_seat: dict[int, int] = {}  # scheduled modes: last dealer's seat, by table
        self._dealer_player: int | None = None  # other modes: last dealer
        self._table_rules: dict[tuple[int, ...], Rules] = {}
        self._carried: list[int] = []
        self._last_scores: dict[int, list[int]] = {}  # scheduled modes: by table
        self._deal(0)

    # ---- making a game

    @classmethod
    def new(cls, rules: Rules, seed: int, *, players: int | None = None, rounds: int = 1) -> Game:
        """A new game; its first hand is dealt, the dealer chosen by the edition's method.

        :param rules: the rules of one table, ``mode`` included (``target`` is the designated
            amount in ``challenge``); ``rules.seed`` is ignored.
        :param seed: the game's seed; every hand's deal derives from it (:func:`hand_seed`).
        :param players: players in the whole game: 8 for ``two-tables`` (the default there),
            else ``rules.players`` (the default).
        :param rounds: how many times the schedule of ``rotating-partners`` or ``two-tables``
            is played (12 or 28 hands each per player); 1 for any other mode.
        :raises ConfigError: if a parameter does not fit the mode.
        """
        if not isinstance(rules, Rules):
            raise ConfigError(f"rules must be a Rules, not {type(rules).__name__}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ConfigError(f"seed must be an integer, not {seed!r}")
        mode = rules.mode
        expected = GAME_PLAYERS.get(mode, rules.players)
        if players is None:
            players = expected
        if isinstance(players, bool) or not isinstance(players, int) or players != expected:
            where = (
                "a game of two tables of 4 needs" if mode == "two-tables" else f"these rules ({mode}) need"
            )
            raise ConfigError(f"{where} {expected} players, not {players!r}")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, not {rounds!r}")
        if rounds != 1 and mode not in SCHEDULED_MODES:
            raise ConfigError(f"rounds are played only in rotating-partners and two-tables, not in {mode}")
        if mode == "two-tables" and rules.birthdays is not None:
            raise ConfigError(
                "two-tables takes no birthdays (eight players, tables of four): the deal is drawn"
            )
        return cls(replace(rules, seed=None) if rules.seed is not None else rules, seed, players, rounds)

    # ---- what is going on

    @property
    def log(self) -> Sequence[Sequence[tuple[Actor, str]]]:
        """Each hand's actions so far, as ``(seat, action)`` by seat of that hand's table (the
        game's own record: read it, never change it)."""
        return self._actions

    @property
    def actions_played(self) -> tuple[int, int]:
        """Where the game is: (hand index, actions taken in that hand). Interfaces derive the
        randomness of their bots from it, so that a resumed game plays on as it would have."""
        return len(self._actions) - 1, len(self._actions[-1])

    @property
    def state(self) -> State:
        """The hand in play, or the last hand once it is over. Do not mutate it."""
        return self._state

    @property
    def deal(self) -> Deal:
        """Where the current hand is played, and by whom."""
        return self._current

    @property
    def hand_index(self) -> int:
        """The current hand's number, from 0."""
        return self._current.hand

    @property
    def hands_total(self) -> int | None:
        """Hands in the whole game (scheduled modes), or ``None`` when played to a target."""
        if not self._scheduled:
            return None
        return (self.players - 1) * HANDS_PER_PARTNERSHIP * (self.players // TABLE_SIZE) * self.rounds

    @property
    def hand_over(self) -> bool:
        """Whether the current hand is over."""
        return self._state.phase >= PHASE_HAND_OVER

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self._finished

    @property
    def winners(self) -> tuple[int, ...]:
        """The players who won the game, ``()`` while it goes on."""
        return self._winners

    @property
    def current_player(self) -> int | None:
        """The player the current phase waits for, ``None`` once the hand is over."""
        seat = self._state.current
        return self._current.seating[seat] if seat >= 0 else None

    def seat_of(self, player: int) -> int | None:
        """``player``'s seat in the current hand, ``None`` if not at its table.

        :raises GameError: if there is no such player in the game.
        """
        self._check_player(player)
        return self._current.seat_of(player)

    def player_at(self, seat: int) -> int:
        """The player in ``seat`` of the current hand.

        :raises GameError: if there is no such seat at the table.
        """
        seating = self._current.seating
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seating):
            raise GameError(f"no seat {seat!r} at this table of {len(seating)}")
        return seating[seat]

    def actors(self) -> list[int]:
        """The players who have at least one legal action now (the referee not included)."""
        st = self._state
        return [p for s, p in enumerate(self._current.seating) if legal_ids(st, s)]

    def legal_actions(self, player: int | str) -> list[str]:
        """The legal actions of ``player`` (or ``"table"``) in the current hand, in the notation of
        its table; empty for a player who does not play in it.

        :raises NotationError: if ``player`` is neither a player of the game nor ``"table"``.
        """
        if player == TABLE:
            return [ACTION_TEXT[a] for a in sorted(legal_ids(self._state, seat_index(self._state, TABLE)))]
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise NotationError(f"no player {player!r} in this game of {self.players}")
        seat = self._current.seat_of(player)
        if seat is None:
            return []
        return [ACTION_TEXT[a] for a in sorted(legal_ids(self._state, seat))]

    def view(self, player: int) -> View:
        """What ``player`` may know of the current hand (seat-numbered, as the hand is).

        :raises GameError: if ``player`` does not play in the current hand.
        """
        seat = self.seat_of(player)
        if seat is None:
            raise GameError(f"player {player} does not play in hand {self.hand_index}")
        return self.seat_view(seat)

    def seat_view(self, seat: int | None) -> View:
        """``views.view(self.state, seat)`` (``None``: the view of nobody), made once per state:
        a state is never changed once in play (each action makes a new one), and a
        :class:`~unotable.views.View` is immutable, so everyone asking shares it."""
        st = self._state
        key = (len(self._actions), len(self._actions[-1]), self._finished)
        cache = self._views
        if cache is None or cache[0] is not st or cache[1] != key:
            cache = self._views = (st, key, {})
        views = cache[2]
        v = views.get(seat)
        if v is None:
            v = views[seat] = view(st, seat)
        return v

    # ---- acting

    def apply(self, player: int | str, action: str | int) -> list[Event]:
        """``player`` (or ``"table"``) takes ``action`` in the current hand; its events.

        The action is in the notation of the hand's table (seat numbers inside it are seats).
        If it ends the hand, the hand is scored and the game's standings follow it.

        :raises IllegalActionError: with the notation's error code, changing nothing:
            ``bad_notation`` for a player not in the game, ``not_your_turn`` for a player not
            at the current table, else as the engine judges the action.
        """
        if player == TABLE:
            seat: Actor = TABLE
        else:
            if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
                raise IllegalActionError(
                    "bad_notation", f"no player {player!r} in this game of {self.players}"
                )
            found = self._current.seat_of(player)
            if found is None:
                raise IllegalActionError(
                    "not_your_turn", f"player {player} does not play in hand {self.hand_index}"
                )
            seat = found
        return self._apply_seat(seat, action)

    def apply_seat(self, seat: int | str, action: str | int) -> list[Event]:
        """As :meth:`apply`, with the actor given by seat of the current table (a saved hand's form).

        :raises IllegalActionError: with the notation's error code, changing nothing.
        """
        return self._apply_seat(seat, action)

    def _apply_seat(self, seat: int | str, action: str | int) -> list[Event]:
        st = self._state
        aid = check(st, seat, action)
        idx = seat_index(st, seat)
        new = st.copy()
        events: list[Event] = []
        step(new, idx, aid, events)
        self._state = new
        self._actions[-1].append((seat, ACTION_TEXT[aid]))
        self.hand_events += events
        if new.phase >= PHASE_HAND_OVER:
            self._score_hand()
        return events

    def next_hand(self) -> list[Event]:
        """Deal the next hand, once the current one is over; the deal's events.

        :raises GameError: if the hand is still in play or the game is over.
        """
        if self._finished:
            raise GameError("the game is over: no more hands")
        if not self.hand_over:
            raise GameError(f"hand {self.hand_index} is still in play")
        self._deal(self._current.hand + 1)
        return self.deal_events

    # ---- standings

    def standings(self) -> Standings:
        """Scores, hands played, eliminated players, winners, and whether the game is over."""
        played = [0] * self.players
        for r in self.results:
            for p in r.deal.seating:
                played[p] += 1
        out = set(self._eliminated)
        return Standings(
            mode=self.rules.mode,
            by_team=self._by_team,
            scores=tuple(self._totals),
            teams=(tuple(tuple(range(t, self.players, 2)) for t in range(2)) if self._by_team else ()),
            hands_played=len(self.results),
            hands_total=self.hands_total,
            hands_by_player=tuple(played),
            eliminated=tuple(self._eliminated),
            remaining=tuple(p for p in range(self.players) if p not in out),
            winners=self._winners,
            finished=self._finished,
            places=self._places(),
        )

    def _places(self) -> tuple[int, ...]:
        """:attr:`Standings.places`: one sort key per player; equal keys share a place."""
        charged = self.rules.scoring == "lowest" or self.rules.mode in ("challenge", "elimination")
        out = list(self._eliminated)

        def key(p: int) -> tuple[int, int, int]:
            points = self._totals[p % 2] if self._by_team else self._totals[p]
            return (
                0 if p in self._winners else 1,
                -out.index(p) if p in out else -len(out) - 1,
                points if charged else -points,
            )

        keys = [key(p) for p in range(self.players)]
        rivals = keys[:2] if self._by_team else keys  # a team is counted once, by its first player
        return tuple(1 + sum(1 for other in rivals if other < mine) for mine in keys)

    # ---- saving

    def to_dict(self) -> dict[str, Any]:
        """The saved game: rules, game parameters, seed, and each hand's actions by seat.

        ``hands[i]`` lists the actions of hand ``i`` as ``[seat, action]`` pairs (``seat`` of
        that hand's table, or ``"table"``), exactly a scenario's ``actions``; a hand listed
        after another means :meth:`next_hand` was called. ``seats`` is there when set (see
        :attr:`seats`).
        """
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "rounds": self.rounds,
            "seed": self.seed,
        }
        if self.seats is not None:
            data["seats"] = list(self.seats)
        data["hands"] = [[[seat, text] for seat, text in hand] for hand in self._actions]
        return data

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Replay a saved game (:meth:`to_dict`); the result equals the game that was saved.

        :raises SavedGameError: naming what is wrong and where, if it is not a saved game or
            one of its actions is refused.
        """
        if not isinstance(data, Mapping):
            raise SavedGameError(f"a saved game is a JSON object, not {_type_name(data)}")
        for key in data:
            if key not in SAVE_KEYS:
                raise SavedGameError(
                    f"unknown key {key!r} in a saved game (known: {', '.join(sorted(SAVE_KEYS))})"
                )
        for key in ("rules", "seed", "hands"):
            if key not in data:
                raise SavedGameError(f"a saved game needs the key {key!r}")
        if "format" in data and data["format"] != SAVE_FORMAT:
            raise SavedGameError(f"format must be {SAVE_FORMAT!r}, not {data['format']!r}")
        if "version" in data and data["version"] != SAVE_VERSION:
            if data["version"] == 1:
                raise SavedGameError(
                    "version 1 games were dealt by an earlier shuffle of unotable and cannot be "
                    f"replayed by this one (only version {SAVE_VERSION})"
                )
            raise SavedGameError(f"version {data['version']!r} is not supported (only {SAVE_VERSION})")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SavedGameError(f"seed must be an integer, not {seed!r}")
        players = data.get("players")
        rounds = data.get("rounds", 1)
        try:
            rules = Rules.from_dict(data["rules"])
            if rules.seed is not None and rules.seed != seed:
                raise ConfigError(f"its seed {rules.seed} is not the game's seed {seed}")
            game = cls.new(rules, seed, players=players, rounds=rounds)
        except ConfigError as exc:
            raise SavedGameError(f"rules: {exc}") from None
        seats = data.get("seats")
        if seats is not None:
            if not isinstance(seats, list) or len(seats) != game.players:
                raise SavedGameError(f"seats must be a list of {game.players} entries (one per player)")
            for i, who in enumerate(seats):
                if who is not None and (not isinstance(who, str) or not who.strip()):
                    raise SavedGameError(f"seats[{i}] must be a bot spec or null (a person), not {who!r}")
            game.seats = tuple(seats)
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise SavedGameError("hands must be a non-empty list (one list of [seat, action] pairs per hand)")
        for i, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise SavedGameError(f"hands[{i}] must be a list of [seat, action] pairs")
            if i:
                try:
                    game.next_hand()
                except GameError as exc:
                    raise SavedGameError(f"hands[{i}]: cannot be dealt: {exc}") from None
            for j, item in enumerate(hand):
                where = f"hands[{i}][{j}]"
                if not isinstance(item, list) or len(item) != 2:
                    raise SavedGameError(f"{where} must be a [seat, action] pair, not {item!r}")
                seat, action = item
                if not isinstance(action, str):
                    raise SavedGameError(f"{where}: the action must be a string, not {action!r}")
                if seat != TABLE and (isinstance(seat, bool) or not isinstance(seat, int)):
                    raise SavedGameError(f"{where}: the seat must be an integer or 'table', not {seat!r}")
                try:
                    game._apply_seat(seat, action)
                except IllegalActionError as exc:
                    raise SavedGameError(
                        f"the file does not match its rules: {where} {item!r} is refused ({exc})"
                    ) from None
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Replay a saved game from its JSON text.

        :raises SavedGameError: if it is not JSON, or as :meth:`from_dict`.
        """
        try:
            data = jsontext.loads(text)
        except jsontext.JSONTextError as exc:
            raise SavedGameError(f"a saved game must be JSON: {exc}") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        """Games are equal when their saved forms are (the same rules, seed and actions)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.mode} players={self.players} hand={self.hand_index} "
            f"phase={self._state.phase_name} finished={self._finished}>"
        )

    # ---- internals

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise GameError(f"no player {player!r} in this game of {self.players}")

    def _plan(self, hand: int) -> Deal:
        if self._scheduled:
            return scheduled_deal(self.players, hand)
        out = set(self._eliminated)
        return Deal(hand, 0, 0, 0, tuple(p for p in range(self.players) if p not in out))

    def _rules_for(self, seating: tuple[int, ...]) -> Rules:
        rules = self._table_rules.get(seating)
        if rules is None:
            base = self.rules
            birthdays = base.birthdays
            rules = replace(
                base,
                players=len(seating),
                birthdays=None if birthdays is None else tuple(birthdays[p] for p in seating),
            )
            self._table_rules[seating] = rules
        return rules

    def _next_dealer(self, deal: Deal) -> int | None:
        """P-18: the first dealer by the edition's method, then one seat (player) to the left."""
        if self._scheduled:
            last = self._dealer_seat.get(deal.table)
            return None if last is None else (last + 1) % len(deal.seating)
        last_player = self._dealer_player
        if last_player is None:
            return None
        for i in range(1, self.players + 1):
            seat = deal.seat_of((last_player + i) % self.players)
            if seat is not None:
                return seat
        raise AssertionError("no player left to deal")  # pragma: no cover - two always remain

    def _carry(self, deal: Deal) -> list[int]:
        """The scores carried into a hand (the engine's ``scores``)."""
        if self._by_team:
            return list(self._totals)
        if self._scheduled:
            # P-21: the two partnerships' points so far in their block of four hands.
            if deal.block_hand == 0:
                return [0, 0]
            return list(self._last_scores[deal.table])
        return [self._totals[p] for p in deal.seating]

    def _deal(self, hand: int) -> None:
        deal = self._plan(hand)
        dealer = self._next_dealer(deal)
        carried = self._carry(deal)
        st, events = new_hand(
            self._rules_for(deal.seating), hand_seed(self.seed, hand), dealer=dealer, scores=carried
        )
        self._current = deal
        self._state = st
        self._carried = carried
        self.deal_events = events
        self.hand_events = list(events)
        self._actions.append([])
        if self._scheduled:
            self._dealer_seat[deal.table] = st.dealer
        else:
            self._dealer_player = deal.seating[st.dealer]
        if st.phase >= PHASE_HAND_OVER:  # pragma: no cover - a deal never ends a hand
            self._score_hand()

    def _score_hand(self) -> None:
        st = self._state
        deal = self._current
        seating = deal.seating
        credit = [0] * len(self._totals)
        for slot, (before, after) in enumerate(zip(self._carried, st.scores, strict=True)):
            gain = after - before
            if self._by_team:
                credit[slot] += gain
            elif self._scheduled:  # the team in the even (slot 0) or odd (slot 1) seats
                for s in range(slot, len(seating), 2):
                    credit[seating[s]] += gain
            else:
                credit[seating[slot]] += gain
        for i, c in enumerate(credit):
            self._totals[i] += c
        assert st.hand_points is not None
        self.results.append(
            HandResult(deal, st.dealer, seating[st.winner], st.hand_points, tuple(credit), st)
        )
        mode = self.rules.mode
        if self._scheduled:
            self._last_scores[deal.table] = list(st.scores)
            if deal.hand + 1 == self.hands_total:
                best = max(self._totals)
                self._winners = tuple(p for p, s in enumerate(self._totals) if s == best)
                self._finished = True
            return
        if mode == "challenge":
            target = self.rules.target
            self._eliminated += [p for p in seating if self._totals[p] >= target]
        elif mode == "elimination":  # docs/rules.md §10, H-36: the most points in the hand is out
            self._eliminated += sorted(seating[s] for s in eliminated_seats(st))
        if st.phase == PHASE_GAME_OVER:
            if self._by_team:
                self._winners = tuple(p for t in st.game_winners for p in range(t, self.players, 2))
            else:
                self._winners = tuple(sorted(seating[s] for s in st.game_winners))
            self._finished = True


def _type_name(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    return type(value).__name__


__all__ = [
    "GAME_PLAYERS",
    "HANDS_PER_PARTNERSHIP",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SCHEDULED_MODES",
    "Actor",
    "Deal",
    "Game",
    "GameError",
    "HandResult",
    "SavedGameError",
    "Standings",
    "hand_seed",
    "round_robin",
    "scheduled_deal",
    "table_schedule",
]
