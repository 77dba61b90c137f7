"""The table behind the terminal game: a :class:`~unotable.match.Game`, its bots, and what the
watching seat may know. No Textual here: the app (and the plain-text runner) drive it.

Everything the screen shows comes from :meth:`Table.view` (the watched player's
:class:`~unotable.views.View`), from events redacted with :meth:`Event.for_seat` for that seat,
and from the game's public standings. The bots decide from their own views.

The clock is the caller's: :meth:`Table.next_bot_move` says what a bot does *now* (an
out-of-turn reaction while a window is open or a seat may jump in, asked in the race's order
(:mod:`unotable.race`, as the simulator and the web do), else the current player's
decision), and the caller applies it when its visible delay is over. A human action in
between changes the state, and the caller asks again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from unotable.bots import Bot
from unotable.bots.base import UNO_TWIN
from unotable.bots.table import BotTable, TableMove
from unotable.cards import CARD_COLOR, CARD_VALUE
from unotable.events import Event
from unotable.i18n import N_, _
from unotable.match import Game, GameError
from unotable.narrate import describe
from unotable.notation import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_MORE,
    ACTION_UNO,
    KIND_ACCEPT,
    KIND_CATCH,
    KIND_CHALLENGE,
    KIND_COLOR,
    KIND_DRAW,
    KIND_INVISIBILITY,
    KIND_PASS,
    KIND_PLAY,
    KIND_UNO,
    KIND_WRONG,
    NAMES_SEAT,
)
from unotable.savefile import SaveFile
from unotable.sim.hand import HAND_ACTION_CAP
from unotable.views import View

BOT_NAMES_FOR_PEOPLE: Final = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
"""Names given to the bots, by player (the human is "You")."""

HUMAN_NAME: Final = N_("You")


Move = TableMove
"""A bot's action: who, which action id, and whether it is taken out of turn."""


@dataclass(frozen=True)
class Choices:
    """One seat's legal actions, sorted by what the screen offers for them (ids of the notation)."""

    plays: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Card type -> the ways to play it (one per colour or Howler target), without ``uno``."""
    draw: int | None = None
    keep: int | None = None
    """``pass``: keep the card just drawn."""
    colors: tuple[int, ...] = ()
    """``color C`` ids by colour index, in ``choose_color``."""
    accept: int | None = None
    challenge: int | None = None
    invisibility: Mapping[int, int] = field(default_factory=dict)
    """Colour index -> ``invisibility C`` id."""
    uno: int | None = None
    """A late ``uno`` call."""
    catch: Mapping[int, int] = field(default_factory=dict)
    """Seat -> ``catch S`` id."""
    wrong: Mapping[int, int] = field(default_factory=dict)
    """Seat -> ``wrong S`` id."""
    more: Mapping[int, int] = field(default_factory=dict)
    """Card type -> ``play CARD more`` (``multi_play``, docs/rules.md §11.5), without ``uno``."""
    uno_twins: frozenset[int] = frozenset()
    """Ids of the ``... uno`` spellings that are legal (plays of the next-to-last card)."""

    def with_uno(self, aid: int) -> int:
        """``aid`` with the ``uno`` call, if that spelling is legal; else ``aid``."""
        twin = UNO_TWIN[aid]
        return twin if twin >= 0 and twin in self.uno_twins else aid


def sort_choices(legal: Sequence[int]) -> Choices:
    """Sort a seat's legal action ids into :class:`Choices`."""
    plays: dict[int, list[int]] = {}
    draw: int | None = None
    keep: int | None = None
    accept: int | None = None
    challenge: int | None = None
    uno: int | None = None
    colors: list[int] = []
    invis: dict[int, int] = {}
    catch: dict[int, int] = {}
    wrong: dict[int, int] = {}
    twins: set[int] = set()
    more: dict[int, int] = {}
    for a in legal:
        kind = ACTION_KIND[a]
        if ACTION_UNO[a]:
            twins.add(a)
            continue
        if ACTION_MORE[a]:
            more[ACTION_CARD[a]] = a
        elif kind == KIND_PLAY:
            plays.setdefault(ACTION_CARD[a], []).append(a)
        elif kind == KIND_DRAW:
            draw = a
        elif kind == KIND_PASS:
            keep = a
        elif kind == KIND_COLOR:
            colors.append(a)
        elif kind == KIND_ACCEPT:
            accept = a
        elif kind == KIND_CHALLENGE:
            challenge = a
        elif kind == KIND_INVISIBILITY:
            invis[ACTION_ARG[a]] = a
        elif kind == KIND_UNO:
            uno = a
        elif kind == KIND_CATCH:
            catch[ACTION_ARG[a]] = a
        elif kind == KIND_WRONG:
            wrong[ACTION_ARG[a]] = a
    return Choices(
        plays={c: tuple(sorted(ids, key=lambda i: ACTION_ARG[i])) for c, ids in plays.items()},
        draw=draw,
        keep=keep,
        colors=tuple(sorted(colors, key=lambda i: ACTION_ARG[i])),
        accept=accept,
        challenge=challenge,
        invisibility=invis,
        uno=uno,
        catch=dict(sorted(catch.items())),
        wrong=dict(sorted(wrong.items())),
        more=more,
        uno_twins=frozenset(twins),
    )


def card_sort_key(card: int) -> tuple[int, int]:
    """Cards in a hand as people sort them: by colour (wild cards last), then by value."""
    color = CARD_COLOR[card]
    return (color if color >= 0 else 4, CARD_VALUE[card])


def play_needs(ids: Sequence[int]) -> str:
    """What the ways to play one card still ask for: ``""`` (nothing), ``"color"`` or ``"target"``
    (a Howler's, or the seat a 7 swaps hands with)."""
    if len(ids) <= 1 and all(ACTION_ARG[a] < 0 for a in ids):
        return ""
    return "target" if NAMES_SEAT[ACTION_CARD[ids[0]]] else "color"


class Table:
    """A game in the terminal: the :class:`Game`, a bot for every player but the human, and the
    player whose view is shown (the human; in a bots-only game, any player, or nobody).

    :param game: the game (new or resumed).
    :param bots: a bot for each player the program plays, by player number.
    :param human: the human's player number, or ``None`` when bots play every seat.
    :param watch: whose view the screen shows (defaults to ``human``); ``None``: a spectator,
        who sees public events only.
    :param names: a name for each player.
    :param seed: seeds the bots and the order in which they react to an open window: before
        each decision, from this seed and the game's place (:attr:`Game.actions_played`), so a
        resumed game plays on exactly as the uninterrupted one would have.
    :param save: a file the game is written to after every action.
    :param settings: the interface's settings, saved with the game (``forget_rate``, ``delay``).
    """

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        *,
        human: int | None,
        names: Sequence[str],
        seed: int,
        watch: int | None = None,
        save: Path | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        missing = [p for p in range(game.players) if p != human and p not in bots]
        if missing:
            raise ValueError(f"no bot for players {missing}")
        if len(names) != game.players:
            raise ValueError(f"{len(names)} names for {game.players} players")
        self.game = game
        self.bot_table = BotTable(bots, seed)
        """The bots and the seed of their decisions (:mod:`unotable.bots.table`)."""
        self.bots = self.bot_table.bots
        self.human = human
        self.watch = human if watch is None and human is not None else watch
        self.names = tuple(names)
        self.save_path = save
        self.settings: dict[str, Any] = dict(settings or {})
        self._file = None if save is None else SaveFile(save)
        self._written = False
        self.seed = seed
        self.actions_taken = 0
        self.last_events: list[Event] = []
        """The events of the last action (or deal), as the watched seat may see them."""

    # ---- what the watching seat may know

    @property
    def seat(self) -> int | None:
        """The watched player's seat in the current hand, ``None`` if not at its table."""
        if self.watch is None:
            return None
        return self.game.seat_of(self.watch)

    @property
    def human_seat(self) -> int | None:
        """The human's seat in the current hand, ``None`` if not at its table (or no human)."""
        if self.human is None:
            return None
        return self.game.seat_of(self.human)

    def view(self) -> View | None:
        """The watched player's view of the current hand, or ``None`` if they do not play in it."""
        return None if self.watch is None or self.seat is None else self.game.view(self.watch)

    def seat_names(self) -> list[str]:
        """The name of the player in each seat of the current hand."""
        return [self.names[p] for p in self.game.deal.seating]

    def choices(self) -> Choices:
        """The human's legal actions now, sorted (empty when there is no human or they sit out)."""
        if self.human is None or self.human_seat is None:
            return Choices()
        v = self.game.view(self.human)
        return sort_choices(v.legal)

    def narrate(self, events: Sequence[Event]) -> list[str]:
        """The events as sentences, as the watched seat may see them."""
        seat = self.seat
        names = self.seat_names()
        you = seat if self.watch is not None and self.watch == self.human else None
        out = []
        for e in events:
            text = describe(e.for_seat(seat), names, you)
            if text:
                out.append(text)
        return out

    # ---- the bots

    def bot_seats_with_window(self) -> list[int]:
        """Players played by bots that have an out-of-turn action now."""
        return self.bot_table.with_window(self.game)

    def bot_to_act(self) -> int | None:
        """The bot whose phase decision the hand waits for, if the current player is a bot."""
        return self.bot_table.to_act(self.game)

    def bots_have_something(self) -> bool:
        """Whether :meth:`next_bot_move` may return a move now."""
        return self.bot_to_act() is not None or bool(self.bot_seats_with_window())

    def next_bot_move(self) -> Move | None:
        """What a bot does now (:meth:`unotable.bots.table.BotTable.next_move`: the race for an
        open window, then the current player's bot). ``None`` when the hand waits for the human
        or is over."""
        g = self.game
        if g.hand_over:
            return None
        if len(g.log[-1]) >= HAND_ACTION_CAP:
            raise GameError(f"the hand went on for more than {HAND_ACTION_CAP:,} actions")
        return self.bot_table.next_move(g)

    # ---- acting

    def apply(self, player: int, action: int) -> list[str]:
        """``player`` takes ``action`` (an id); the sentences for the log. Saves the game.

        :raises IllegalActionError: if the action is not legal for that player now.
        """
        events = self.game.apply(player, action)
        self.actions_taken += 1
        self.last_events = [e.for_seat(self.seat) for e in events]
        self.save()
        return self.narrate(events)

    def deal_lines(self) -> list[str]:
        """The current hand's deal, as sentences."""
        return self.narrate(self.game.deal_events)

    def next_hand(self) -> list[str]:
        """Deal the next hand; its deal as sentences. Saves the game."""
        self.game.next_hand()
        self.last_events = []
        self.save()
        return self.deal_lines()

    def save(self) -> None:
        """Bring the save file, if any, up to date: written whole (atomically) the first time,
        then each new action appended and synced (see :mod:`unotable.savefile`).

        :raises OSError: if the file cannot be written.
        """
        if self._file is None:
            return
        if self._written:
            self._file.update(self.game)
        else:
            self._file.write(self.game, self.settings)
            self._written = True

    def change_settings(self, **changes: Any) -> None:
        """Change settings (e.g. the bots' ``delay``) and note them in the save file, if any."""
        self.settings.update(changes)
        if self._file is not None and self._written:
            self._file.note_settings(self.settings)

    def history_lines(self) -> list[str]:
        """The current hand so far, as sentences: what a resumed game's log shows first."""
        return self.narrate(self.game.hand_events)

    # ---- summaries for the screen

    def scores_lines(self) -> list[tuple[str, int]]:
        """The game's scores: (name, points) by player, or by team in the team modes."""
        s = self.game.standings()
        if s.by_team:
            return [
                (" + ".join(self.display_name(p) for p in team), s.scores[t])
                for t, team in enumerate(s.teams)
            ]
        return [(self.display_name(p), s.scores[p]) for p in range(self.game.players)]

    def display_name(self, player: int) -> str:
        """A player's name as the screen shows it ("You" for the human)."""
        return _(HUMAN_NAME) if player == self.human else self.names[player]

    def points_of(self, player: int) -> int:
        """A player's game score (their team's, in partners and teams)."""
        s = self.game.standings()
        return s.scores[player % 2] if s.by_team else s.scores[player]

    def ranking(self) -> list[int]:
        """The players in order of the standings: the winners first, then by score (lowest
        first where points are charged), the eliminated players of a challenge last, the last
        one out first among them."""
        g = self.game
        s = g.standings()
        charged = g.rules.scoring == "lowest" or g.rules.mode in ("challenge", "elimination")
        out = list(s.eliminated)

        def key(p: int) -> tuple[int, int, int]:
            points = self.points_of(p)
            return (
                0 if p in s.winners else 1,
                out.index(p) * -1 if p in out else -len(out) - 1,
                points if charged else -points,
            )

        return sorted(range(g.players), key=key)
