"""One game of ``uno mcp``: the player (player 0) against the project's bots, seen from its seat.

:class:`Table` holds a :class:`~unotable.match.Game` and the bots of the other players. The bots
play as soon as it is their turn, and each is asked after every action whether it acts out of
turn (a catch, a late UNO call), in an order drawn from the game's generator; the player acts
when :meth:`Table.act` is called, out of turn too when the view offers it. Everything it answers
comes from the player's :class:`~unotable.views.View` and from the events as the player's seat
sees them: another hand, the draw pile's order or a seed the player did not choose never appear.
Standard library only (and the project's core and bots).
"""

from __future__ import annotations

import random
from typing import Any

from unotable.bots.base import Bot
from unotable.bots.spec import BotSpec
from unotable.bots.table import BotTable
from unotable.cards import CARD_CODE, COLOR_NAMES, DARK_COLOR_NAMES
from unotable.errors import ConfigError, IllegalActionError, UnoError
from unotable.events import Event
from unotable.i18n import _
from unotable.match import Game
from unotable.mcp import words
from unotable.names import card_name
from unotable.narrate import describe
from unotable.notation import ACTION_ID, ACTION_TEXT
from unotable.rules import MAX_PLAYERS, Rules, find_edition, parse_house
from unotable.ruletext import rules_text
from unotable.views import View

YOU = 0
"""The player's number (its seat in the first hand)."""
NEXT = "next"
"""The action that deals the next hand once one is over."""
MAX_BOT_ACTIONS = 10_000
"""Bot actions in a row before the table gives up (a bot that never ends its turns)."""


class TableError(UnoError, ValueError):
    """A request the table refuses; nothing changed."""


class Table:
    """A game against bots (see the module's docstring).

    :param edition: ``classic``, ``harry-potter``, ``cars2``, ``modern``, ``all-wild``,
        ``no-mercy`` (or an alias).
    :param players: the table's size, the player included.
    :param bots: one bot spec for every other player, or one per other player separated by
        commas (``"greedy"``, ``"greedy,random,search:budget=100"``).
    :param house_rules: RULES §11's house rules as ``uno play --house`` writes them (``"party"``,
        ``"stacking,jump_in"``), or ``""``.
    :param seed: the game's seed, the player's choice (echoed back); None: a secret one.
    :param target: the score that ends the game (None: the rules' default, 500).
    :raises TableError: for a bad parameter.
    """

    def __init__(
        self,
        edition: str = "classic",
        players: int = 2,
        bots: str = "greedy",
        house_rules: str = "",
        seed: int | None = None,
        target: int | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise TableError(_(words.BAD_PLAYERS).format(most=MAX_PLAYERS, players=players))
        if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target < 1):
            raise TableError(_(words.BAD_TARGET).format(target=target))
        try:
            house = parse_house(house_rules) if house_rules.strip() else {}
            if target is not None:
                house["target"] = target
            rules = Rules(edition=find_edition(edition), players=players, **house)
            specs = [BotSpec.parse(s) for s in bots.split(",") if s.strip()]
        except (ConfigError, ValueError) as exc:
            raise TableError(str(exc)) from None
        others = players - 1
        if len(specs) == 1:
            specs *= others
        if len(specs) != others:
            raise TableError(_(words.BAD_BOTS).format(others=others, count=len(specs)))
        self.chosen_seed = seed
        """The seed the player gave (None: a secret one was drawn)."""
        game_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.game = Game.new(rules, game_seed)
        try:  # the bot table's one seeding rule (unotable.bots.table), as uno play's
            self.table = BotTable.from_specs({p: specs[p - 1] for p in range(1, players)}, game_seed)
        except ValueError as exc:
            raise TableError(str(exc)) from None
        self.bots: dict[int, Bot] = self.table.bots
        self.specs = {p: specs[p - 1].label for p in self.bots}
        self._events: list[Event] = list(self.game.deal_events)
        self._told: dict[str, Any] = {}
        """What the last answer said of the slowly changing parts (players' names, scores)."""
        self._run_bots()

    # ---- what the player may know

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.game.rules

    def name(self, player: int) -> str:
        """How a player is called in the answers."""
        if player == YOU:
            return _(words.YOU)
        return _(words.BOT_NAME).format(bot=self.specs[player], seat=self.game.seat_of(player))

    def seat_names(self) -> list[str]:
        """The names by seat of the current table."""
        return [self.name(self.game.player_at(s)) for s in range(self.game.state.n)]

    def view(self) -> View:
        """The player's view now."""
        return self.game.view(YOU)

    def legal(self) -> list[str]:
        """The actions the player may take now, in the notation (``next`` between hands)."""
        g = self.game
        if g.finished:
            return []
        if g.hand_over:
            return [NEXT]
        return [ACTION_TEXT[a] for a in self.view().legal]

    def observe(self) -> dict[str, Any]:
        """The player's view, its legal actions, and the events since the last call (which
        this call consumes), in words. Compact: each fact once (no second copy of the view),
        the players' names and the scores only when they changed since the last answer, the
        rarer parts of the view (a drawn card, a pending draw, cards shown to the player, seats
        open to a catch) only when there are any."""
        g = self.game
        v = self.view()
        seat = v.seat
        names = self.seat_names()
        events = []
        for e in self._events:
            text = describe(e.for_seat(seat), names)
            if text is not None:
                events.append(text)
        self._events = []
        current = g.current_player
        out: dict[str, Any] = {
            "hand": [CARD_CODE[c] for c in v.hand],
            "top_card": CARD_CODE[v.discard[-1]],
            "color": (DARK_COLOR_NAMES if v.side else COLOR_NAMES)[v.color] if v.color >= 0 else None,
            "cards_held": list(v.hand_sizes),
            "whose_turn": None if current is None else self.name(current),
            "your_turn": current == YOU and not g.hand_over,
            "legal_actions": self.legal(),
            "events": events,
        }
        if v.rules.edition.flip:  # docs/rules.md §15, FL-2: the side, the faces turned to you
            out["side"] = "dark" if v.side else "light"
            out["others_faces_you_see"] = {
                str(s): [CARD_CODE[c] for c in cards] for s, cards in enumerate(v.backs) if cards
            }
            if v.draw_back >= 0:
                out["draw_pile_top_other_face"] = CARD_CODE[v.draw_back]
        if v.drawn >= 0:
            out["drawn"] = CARD_CODE[v.drawn]
        if v.pending_card >= 0:
            out["pending"] = {
                "card": CARD_CODE[v.pending_card],
                "from_seat": v.pending_from,
                "draw": v.pending_draw,
            }
        known = {str(s): [CARD_CODE[c] for c in cards] for s, cards in v.known.items() if cards}
        if known:
            out["known_cards"] = known
        if v.uno_exposed:
            out["catchable_seats"] = list(v.uno_exposed)
        if v.wrong_seat >= 0:
            out["wrong_seat"] = v.wrong_seat
        if v.direction != 1:
            out["direction"] = "down"  # seat numbers go down (up when not said)
        if g.hand_over:
            out["hand_over"] = True
            if g.results:
                r = g.results[-1]
                out["hand_result"] = _(words.HAND_WON).format(name=self.name(r.winner), points=r.hand_points)
        if g.finished:
            out["game_over"] = True
            out["game_result"] = _(words.GAME_WON).format(names=", ".join(self.name(p) for p in g.winners))
        told = {
            "you": {"player": YOU, "seat": seat},
            "seats": names,
            "scores": self._scores(),
        }
        for key, value in told.items():
            if self._told.get(key) != value:
                out[key] = value
        self._told = told
        if self.chosen_seed is not None and "seats" in out:
            out["seed"] = self.chosen_seed  # the player's own choice
        return out

    def _scores(self) -> dict[str, Any]:
        st = self.game.standings()
        return {
            "by": "team" if st.by_team else "player",
            "scores": (
                {f"team {t}": st.scores[t] for t in range(len(st.scores))}
                if st.by_team
                else {self.name(p): st.scores[p] for p in range(len(st.scores))}
            ),
            "target": self.rules.target,
            "hands_played": st.hands_played,
        }

    def rules_in_words(self) -> str:
        """The rules in force, in words, how to write actions, and every card code of the deck
        with its name (``HOWLER = Howler``)."""
        faces = set(self.rules.deck()) | set(self.rules.edition.dark_deck())  # UNO Flip: both sides
        cards = ", ".join(f"{CARD_CODE[c]} = {card_name(c)}" for c in sorted(faces))
        return (
            f"{rules_text(self.rules, self.game.players)}\n{_(words.NOTATION)}\n"
            f"{_(words.CARDS).format(cards=cards)}\n"
        )

    # ---- acting

    def act(self, action: str) -> None:
        """The player takes ``action`` (the notation, or ``next`` between hands; spaces and
        letter case as the player likes); the bots then play to the player's next decision.

        :raises TableError: if it is not one of the player's actions now (nothing changes).
        """
        g = self.game
        text = " ".join(str(action).split())
        if g.finished:
            raise TableError(_(words.GAME_OVER))
        if g.hand_over:
            if text.lower() != NEXT:
                raise TableError(_(words.HAND_OVER_NEXT))
            self._events += g.next_hand()
            self._run_bots()
            return
        legal = self.legal()
        by_case = {a.lower(): a for a in legal}  # no two actions differ only in case
        text = by_case.get(text.lower(), text)
        aid = ACTION_ID.get(text, -1)
        if aid < 0 or text not in legal:
            if not legal and g.current_player is not None:
                raise TableError(_(words.NO_ACTIONS).format(name=self.name(g.current_player)))
            raise TableError(_(words.NOT_LEGAL).format(action=text, legal=", ".join(legal)))
        try:
            self._events += g.apply(YOU, aid)
        except IllegalActionError as exc:  # the view's legal actions said otherwise: refuse as well
            raise TableError(str(exc)) from None
        self._run_bots()

    def _run_bots(self) -> None:
        """The bots act (out of turn first, then the one whose turn it is) until the player's
        turn, a moment where no bot acts, or the hand's end."""
        g = self.game
        for _step in range(MAX_BOT_ACTIONS):
            # The bot table (unotable.bots.table): the race for an open window, then the bot
            # whose turn it is; None when the player's turn comes or the hand is over.
            move = self.table.next_move(g)
            if move is None:
                return
            self._events += g.apply(move.player, move.action)
        raise RuntimeError(f"the bots took {MAX_BOT_ACTIONS} actions in a row")
