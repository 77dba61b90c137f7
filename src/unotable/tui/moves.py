"""The human's moves: the keys and clicks that play, draw, call, answer, call UNO and catch,
each checked against the seat's legal actions (a key that does nothing now says why, in one
line), and the record of what each seat did last, which the panels show.

:class:`Moves` sits between :class:`~unotable.tui.board.Board` (the drawing) and
:class:`~unotable.tui.app.UnoApp` (the clock and the screens), which says what follows a move.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.actions import SkipAction
from textual.widgets import Button

from unotable.cards import INVISIBILITY
from unotable.errors import IllegalActionError
from unotable.events import Event
from unotable.i18n import _
from unotable.notation import ACTION_ARG, ACTION_KIND, KIND_INVISIBILITY, KIND_PLAY
from unotable.state import Phase
from unotable.tui import flipside, words
from unotable.tui.board import Board
from unotable.tui.controller import Choices, play_needs
from unotable.tui.widgets import CardView, DrawPile, OpponentPanel


class Moves(Board):
    """The human's moves and what the panels show of the last moves (see the module)."""

    _last_catch: tuple[int, int, int] | None
    """(catcher, caught, actions taken then): the last catch, to say why C does nothing."""
    _message_at: tuple[float, int]

    def _after_change(self) -> None:
        """What follows any move: the app redraws, then runs the clock or ends the hand."""
        raise NotImplementedError

    def action_help(self) -> None:
        """The help (the app shows it)."""
        raise NotImplementedError

    # ---- what the moves did

    def _note(self, events: list[Event]) -> None:
        """Keep what the panels and the middle show about the last moves: each seat's last
        play, who called the colour, who reversed the direction, the last catch."""
        for e in events:
            seat = e.seat
            if seat is None:
                continue
            if e.kind == "play" and e.cards:
                self.last_moves[seat] = e.cards[0]  # laid out on the panel (its width)
                self.latest_seat = seat
                self.color_caller = seat if e.color is not None and e.color >= 0 else -1
            elif e.kind in ("color", "invisibility"):
                self.color_caller = seat
                self.latest_seat = seat
            elif e.kind == "draw" and e.reason == "":
                self.last_moves[seat] = Text(words.LAST_DREW)
                self.latest_seat = seat
            elif e.kind == "pass":
                self.last_moves[seat] = Text(words.LAST_KEPT)
                self.latest_seat = seat
            elif e.kind == "reverse":
                self.reverser = self.latest_seat
            elif e.kind == "catch" and e.target is not None:
                self._last_catch = (seat, e.target, self.table.actions_taken)

    def _forget_moves(self) -> None:
        self.last_moves = {}
        self.latest_seat = -1
        self.color_caller = -1
        self.reverser = -1
        self._last_catch = None

    # ---- the human's actions

    def _act(self, aid: int) -> None:
        human = self.table.human
        if human is None:
            return
        try:
            lines = self.table.apply(human, aid)
        except IllegalActionError as exc:
            self._say(str(exc).split(": ", 1)[-1])
            return
        self._note(self.table.last_events)
        self.message = ""
        kind = ACTION_KIND[aid]
        if kind in (KIND_PLAY, KIND_INVISIBILITY):
            self.uno_armed = False
        self.picking = ""
        self.picked_card = -1
        self.write_log(lines)
        self._after_change()

    def _say(self, text: str, *, redraw: bool = True) -> None:
        """A one-line answer under the prompt; it goes once the game has moved on."""
        self.message = text
        self._message_at = (time.monotonic(), self.table.actions_taken)
        if redraw:
            self.refresh_table()

    def action_cursor(self, step: int) -> None:
        """Move the cursor along the hand."""
        v = self._view()
        if v is None or not v.hand:
            return
        self.cursor = (self.cursor + step) % len(v.hand)
        self.refresh_table()

    def action_digit(self, digit: int) -> None:
        """A seat for a Howler, else the card with that number."""
        v = self._view()
        if v is None:
            return
        if self.picking == "target":
            self._choose_target(digit)
            return
        index = 9 if digit == 0 else digit - 1
        if index < len(v.hand):
            self.cursor = index
            self.refresh_table()

    def action_enter(self) -> None:
        """Play the card under the cursor (after a draw: the drawn card)."""
        v = self._view()
        if v is None or self.picking:
            return
        if v.current != v.seat:
            self._say(words.NOT_YOUR_TURN)
            return
        if v.phase == Phase.AFTER_DRAW:
            self.action_play_drawn()
            return
        cards = self._sorted_hand(v)
        if 0 <= self.cursor < len(cards):
            self._play_card(cards[self.cursor])

    def _play_card(self, card: int) -> None:
        v = self._view()
        if v is None:
            return
        ch = self._choices()
        ids = ch.plays.get(card)
        if not ids:
            if v.current != v.seat:
                self._say(words.NOT_YOUR_TURN)
            elif v.phase == Phase.AFTER_DRAW:
                self._say(words.only_drawn(v.drawn))
            elif v.phase == Phase.TURN:
                self._say(words.no_match(card, v.top, v.color, v.side == 1))
            else:
                self._say(words.phase_word(v.phase, True).capitalize() + ".")
            return
        need = play_needs(ids)
        if need == "":
            self._act(self._with_uno(ch, ids[0]))
            return
        self.picking = need
        self.picked_card = card
        self.message = ""
        self.refresh_table()

    def _with_uno(self, ch: Choices, aid: int) -> int:
        return ch.with_uno(aid) if self.uno_armed else aid

    def _choose_target(self, seat: int) -> None:
        ch = self._choices()
        for aid in ch.plays.get(self.picked_card, ()):
            if ACTION_ARG[aid] == seat:
                self._act(self._with_uno(ch, aid))
                return
        self._say(words.no_target(seat, self.picked_card))

    def action_jump_in(self) -> None:
        """Play the card identical to the top card out of turn (RULES §11 ``jump_in``)."""
        card = self._jump(self._choices())
        if card is None:
            self._say(words.NO_JUMP_IN)
            return
        self._play_card(card)

    def action_more(self) -> None:
        """Play the card under the cursor (the drawn card, the jump-in card) with another of its
        number after it (docs/rules.md §11.5 ``multi_play``)."""
        v = self._view()
        if v is None or self.picking:
            return
        ch = self._choices()
        card = -1
        if v.current != v.seat:
            card = self._jump(ch) or -1
        elif v.phase == Phase.AFTER_DRAW:
            card = v.drawn
        else:
            cards = self._sorted_hand(v)
            if 0 <= self.cursor < len(cards):
                card = cards[self.cursor]
        aid = ch.more.get(card)
        if aid is None:
            self._say(words.NO_MORE)
            return
        self._act(self._with_uno(ch, aid))

    def action_play_drawn(self) -> None:
        """Play the card just drawn."""
        v = self._view()
        if v is None or v.phase != Phase.AFTER_DRAW or v.current != v.seat:
            self._say(words.NO_DRAWN_CARD)
            return
        self._play_card(v.drawn)

    def action_keep(self) -> None:
        """Keep the card just drawn."""
        ch = self._choices()
        if ch.keep is not None:
            self._act(ch.keep)
        else:
            self._say(words.NO_DRAWN_CARD)

    def action_draw(self) -> None:
        """Draw a card as the turn."""
        ch = self._choices()
        if self.picking:
            return
        if ch.draw is None:
            v = self._view()
            whose = None
            if v is not None and v.current >= 0:
                whose = self._names()[v.current]
            self._say(words.cannot_draw(whose))
            return
        self._act(ch.draw)
        v = self._view()
        if v is not None and not (v.current == v.seat and v.phase == Phase.AFTER_DRAW):
            self._say(words.DREW_UNPLAYABLE)

    def action_color(self, color: int) -> None:
        """R Y G B: call a colour of the light side (on UNO Flip's dark side, say its keys)."""
        v = self._view()
        if v is not None and v.side == 1:
            self._say(_(flipside.DARK_COLOR_KEYS_ONLY))
            return
        self._call_color(color)

    def action_dark_color(self, color: int) -> None:
        """P T O V: call a colour of UNO Flip's dark side. P is also "play the card drawn": when no
        dark colour is being called, the key goes on to that binding."""
        v = self._view()
        if v is not None and v.side == 1 and self.key_is_live("dark_color"):
            self._call_color(color)
        elif color == 0:
            raise SkipAction
        elif self.key_is_live("color"):
            self._say(_(flipside.LIGHT_COLOR_KEYS_ONLY))

    def _call_color(self, color: int) -> None:
        """Call a colour (by its index, on the side in play): for the wild card chosen, for
        Invisibility, or as the phase asks."""
        ch = self._choices()
        if self.picking == "color":
            for aid in ch.plays.get(self.picked_card, ()):
                if ACTION_ARG[aid] == color:
                    self._act(self._with_uno(ch, aid))
                    return
        elif self.picking == "invis":
            invis = ch.invisibility.get(color)
            if invis is not None:
                self._act(self._with_uno(ch, invis))
        elif ch.colors:
            self._act(ch.colors[color])
        else:
            self._say(words.NO_COLOR_TO_CALL)

    def action_accept(self) -> None:
        """Take the effect of the card played on you."""
        ch = self._choices()
        if ch.accept is not None:
            self._act(ch.accept)
        else:
            self._say(words.NOTHING_TO_ANSWER)

    def action_challenge(self) -> None:
        """Challenge the Wild Draw Four played on you."""
        ch = self._choices()
        if ch.challenge is not None:
            self._act(ch.challenge)
        else:
            self._say(words.NOTHING_TO_CHALLENGE)

    def action_invisibility(self) -> None:
        """Cancel the card played on you with Invisibility (then call the colour)."""
        ch = self._choices()
        if ch.invisibility:
            self.picking = "invis"
            self.picked_card = INVISIBILITY
            self.refresh_table()
        else:
            self._say(words.NO_INVISIBILITY)

    def action_uno(self) -> None:
        """Call UNO late, or arm the call for the play of your next-to-last card."""
        ch = self._choices()
        if ch.uno is not None:
            self._act(ch.uno)
            return
        v = self._view()
        if v is not None and len(v.hand) == 2 and self._uno_hint_applies(v, ch):
            self.uno_armed = not self.uno_armed
            if self.uno_armed:
                self.message = ""
                self.refresh_table()
            else:
                self._say(words.UNO_TAKEN_BACK)
        else:
            self._say(words.uno_not_now(len(v.hand) if v is not None else 0))

    def action_catch(self) -> None:
        """Catch a player who did not call UNO."""
        ch = self._choices()
        if ch.catch:
            self._act(next(iter(ch.catch.values())))
            return
        names = self._names()
        last = self._last_catch
        if last is not None and self.table.actions_taken - last[2] <= 1 and last[0] != self.table.seat:
            self._say(words.nobody_to_catch(names[last[0]], names[last[1]]))
        else:
            self._say(words.nobody_to_catch(None, None))

    def action_wrong(self) -> None:
        """Point out a wrong card."""
        ch = self._choices()
        if ch.wrong:
            self._act(next(iter(ch.wrong.values())))
        else:
            self._say(words.NO_WRONG_CARD)

    def action_cancel(self) -> None:
        """Take back the card chosen before its colour or target."""
        if self.picking:
            self.picking = ""
            self.picked_card = -1
            self.refresh_table()

    # ---- clicks

    def on_card_view_chosen(self, message: CardView.Chosen) -> None:
        """A click on a card of the hand plays it."""
        v = self._view()
        if v is None or self.auto:
            return
        self.cursor = message.index
        cards = self._sorted_hand(v)
        if self.picking or v.current != v.seat:
            self.refresh_table()
            return
        if v.phase == Phase.AFTER_DRAW:
            self.action_play_drawn()
        elif message.index < len(cards):
            self._play_card(cards[message.index])

    def on_opponent_panel_clicked(self, message: OpponentPanel.Clicked) -> None:
        """A click on a panel: a Howler's target, or a catch."""
        if self.auto:
            return
        if self.picking == "target":
            self._choose_target(message.seat)
            return
        ch = self._choices()
        aid = ch.catch.get(message.seat)
        if aid is not None:
            self._act(aid)

    def on_draw_pile_clicked(self, _message: DrawPile.Clicked) -> None:
        """A click on the draw pile draws."""
        if not self.auto:
            self.action_draw()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons run the same actions as the keys."""
        key = (event.button.id or "").removeprefix("b-")
        colors = {"red": 0, "yellow": 1, "green": 2, "blue": 3}
        color = colors.get(key)
        if color is not None:
            self._call_color(color)  # the button's colour is the side in play's
        elif key == "draw":
            self.action_draw()
        elif key == "play":
            self.action_play_drawn()
        elif key == "keep":
            self.action_keep()
        elif key == "accept":
            self.action_accept()
        elif key == "challenge":
            self.action_challenge()
        elif key == "invis":
            self.action_invisibility()
        elif key == "uno":
            self.action_uno()
        elif key == "catch":
            self.action_catch()
        elif key == "wrong":
            self.action_wrong()
        elif key == "back":
            self.action_cancel()
        elif key == "help":
            self.action_help()
