"""The terminal game: a Textual app over a :class:`~unotable.tui.controller.Table`.

The screen is built from the human's view and from events redacted for the human's seat, nothing
else. Bots act on a visible clock: each bot action waits ``delay`` seconds (the bar under the
prompt fills up meanwhile), twice that while the human can call UNO late or catch someone, and a
human action restarts the wait. ``+`` and ``-`` change the delay, ``N`` lets the bots play at
once until the human has something to do. The human's out-of-turn actions (``U``, ``C``, ``W``)
are accepted at any moment the rules allow them; a key that does nothing now says why in one
line, which stays until the game moves on.
"""

from __future__ import annotations

import time
from typing import ClassVar, Final

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.events import Resize
from textual.timer import Timer
from textual.widgets import Static

from unotable.state import Phase
from unotable.tui import flipside, results, words
from unotable.tui.board import COMPACT_BELOW, CSS, MIN_WIDTH
from unotable.tui.controller import Choices, Table
from unotable.tui.moves import Moves
from unotable.tui.screens import (
    GameOverScreen,
    HelpScreen,
    TextScreen,
    TooSmallScreen,
    game_over_body,
    hand_over_body,
    hand_over_keys,
)
from unotable.tui.widgets import OpponentPanel
from unotable.views import View

FAST_BATCH_SECONDS: Final = 0.05
"""Without a delay (``--fast``), bots act for this long before the screen is redrawn (so the
keys still answer while they play)."""
MIN_TIMER: Final = 0.001
"""Textual's timers cannot wait 0 seconds: "at once" is this."""
CLOCK_FROM: Final = 0.3
"""Waits at least this long show the bar that fills up (shorter ones would only flicker)."""
QUIT_WINDOW: Final = 3.0
"""Seconds within which a second ``q`` quits."""
MESSAGE_SECONDS: Final = 3.0
"""A one-line answer stays at least this long, then goes once the game has moved on."""
SPEEDS: Final = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
"""The bots' thinking times that ``+`` and ``-`` step through, in seconds."""

_GAME_KEYS: Final = frozenset(
    {"cursor", "digit", "enter", "draw", "play_drawn", "keep", "color", "accept", "challenge",
     "invisibility", "uno", "catch", "wrong", "cancel", "more", "dark_color"}
)  # fmt: skip
"""Actions that are moves of the human (they answer with a line when they do nothing now)."""


class UnoApp(Moves):
    """UNO against bots (or bots only, with ``auto``), on the full screen.

    :param table: the game, its bots and the human's player number.
    :param delay: seconds a bot thinks before each action (0: at once).
    :param auto: bots play every seat; hands follow each other by themselves.
    :param auto_accept: accept for the human an action card played on them when they hold no
        Invisibility and have nothing else to decide (Harry Potter).
    """

    CSS = CSS
    TITLE = words.TITLE
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "◀", show=False),
        Binding("right", "cursor(1)", "▶", show=False),
        *(Binding(str(d), f"digit({d})", str(d), show=False) for d in range(10)),
        Binding("enter", "enter", "Play"),
        Binding("d", "draw", "Draw"),
        # UNO Flip's dark side calls its colours with the notation's letters; P plays a card drawn
        # when no colour is being called (action_dark_color passes it on)
        *(Binding(k.lower(), f"dark_color({i})", k) for i, k in enumerate(flipside.DARK_KEYS)),
        Binding("p", "play_drawn", "Play it"),
        Binding("k", "keep", "Keep it"),
        Binding("m", "more", "And more", show=False),
        Binding("r", "color(0)", "Red"),
        Binding("y", "color(1)", "Yellow"),
        Binding("g", "color(2)", "Green"),
        Binding("b", "color(3)", "Blue"),
        Binding("a", "accept", "Accept"),
        Binding("x", "challenge", "Challenge"),
        Binding("i", "invisibility", "Invisibility"),
        Binding("u", "uno", "UNO!"),
        Binding("c", "catch", "Catch"),
        Binding("w", "wrong", "Wrong card"),
        Binding("j", "jump_in", "Jump in", show=False),
        Binding("escape", "cancel", "Back"),
        Binding("n", "skip_ahead", "Skip ahead"),
        Binding("plus,equals_sign", "faster", "Faster", show=False),
        Binding("minus", "slower", "Slower", show=False),
        Binding("pageup", "scroll_log(-1)", "Log up", show=False),
        Binding("pagedown", "scroll_log(1)", "Log down", show=False),
        Binding("end", "scroll_log(0)", "Log end", show=False),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(
        self, table: Table, *, delay: float = 1.0, auto: bool = False, auto_accept: bool = True
    ) -> None:
        super().__init__()
        self.table = table
        self.delay = delay
        self.auto = auto
        self.auto_accept = auto_accept
        self._was_mine = False
        self.cursor = 0
        self.picking = ""
        """``""``, ``"color"`` (a wild card's colour), ``"invis"`` (Invisibility's colour) or
        ``"target"`` (a Howler's)."""
        self.picked_card = -1
        self.uno_armed = False
        self.message = ""
        self._message_at = (0.0, 0)
        self.skipping = False
        self.log_history: list[str] = []
        """Every line written to the log (tests read it)."""
        self.last_moves = {}
        self.latest_seat = -1
        self.color_caller = -1
        self.reverser = -1
        self._last_catch = None
        self.new_game = False
        """Set when the player asks for a new game at the end (the caller deals it)."""
        self._timer: Timer | None = None
        self._clock: Timer | None = None
        self._wait_started = 0.0
        self._wait_total = 0.0
        self._paused = False
        self._quit_asked = 0.0
        self._hand_screen_open = False
        self._too_small: TooSmallScreen | None = None
        self._panels: dict[int, OpponentPanel] = {}
        self._shown: dict[int, object] = {}
        self._cache: tuple[View | None, Choices] | None = None
        self._cache_key: tuple[int, int, int] = (-1, -1, -1)

    def on_mount(self) -> None:
        """Show the deal and start the clock."""
        self.screen.set_class(self.size.height < COMPACT_BELOW, "compact")
        self._clock = self.set_interval(0.1, self._show_clock, pause=True)
        self.set_interval(1.0, self._expire_message)
        g = self.table.game
        # A resumed hand shows everything so far, then where the game went on.
        self.write_log([words.hand_header(g.hand_index + 1), *self.table.history_lines()])
        if g.log[-1]:
            self.write_log([words.RESUMED])
        self._after_change()
        self._check_size(self.size.width, self.size.height)
        self.call_after_refresh(self.rewrap_log)

    # ---- the terminal's size

    def on_resize(self, event: Resize) -> None:
        """Small terminals get the compact layout; too small ones a screen that says so."""
        super().on_resize(event)
        self._check_size(event.size.width, event.size.height)

    @property
    def too_small(self) -> bool:
        """Whether the terminal is too small to draw the table (the bots wait meanwhile)."""
        return self._too_small is not None

    def _check_size(self, width: int, height: int) -> None:
        need = self.min_height()
        small = width < MIN_WIDTH or height < need
        text = words.too_small(width, height, MIN_WIDTH, need)
        if small and self._too_small is None:
            self._too_small = TooSmallScreen(text)
            self._pause()
            self.push_screen(self._too_small, self._too_small_closed)
        elif small and self._too_small is not None:
            self._too_small.say(text)
        elif not small and self._too_small is not None:
            self._too_small.dismiss("fits")

    def _too_small_closed(self, answer: str | None) -> None:
        self._too_small = None
        if answer == "quit":
            self.table.save()
            self.exit(0)
            return
        self._resume()

    # ---- the clock

    @property
    def between_hands(self) -> bool:
        """Whether the end-of-hand (or end-of-game) screen is up."""
        return self._hand_screen_open

    @property
    def wait_seconds(self) -> float:
        """How long the bot action now waiting on the clock waits in all (0 when none waits)."""
        return self._wait_total if self._timer is not None else 0.0

    @property
    def busy(self) -> bool:
        """Whether a bot action is waiting on the clock."""
        return self._timer is not None

    def _pause(self) -> None:
        self._paused = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _resume(self) -> None:
        if any(isinstance(s, (HelpScreen, TooSmallScreen)) for s in self.screen_stack):
            return  # another screen that holds the bots is still up
        self._paused = False
        if not self.table.game.hand_over:
            self._schedule()

    def _human_has_a_move(self) -> bool:
        v = self._view()
        return v is not None and bool(v.legal) and not self.auto

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.skipping and self._human_has_a_move():
            self.skipping = False
        if self._paused or self.table.game.hand_over or not self.table.bots_have_something():
            self._wait_total = 0.0
            self._show_clock()
            return
        delay = self.delay
        ch = self._choices()
        if ch.uno is not None or ch.catch or ch.wrong or self._jump(ch) is not None:
            delay *= 2  # the human can act out of turn: a fair, visible chance first
        if self.table.seat is None:
            delay = min(delay, 0.2)  # the human sits this hand out
        if self.skipping:
            delay = 0.0
        self._wait_started = time.monotonic()
        self._wait_total = delay
        self._timer = self.set_timer(max(delay, MIN_TIMER), self._tick)
        if self._clock is not None and delay >= CLOCK_FROM:
            self._clock.resume()
        self._show_clock()

    def advance_clock(self) -> bool:
        """Let the waiting bot act now instead of when its delay is over (tests drive the clock
        with it); whether one was waiting."""
        if self._timer is None:
            return False
        self._timer.stop()
        self._tick()
        return True

    def _tick(self) -> None:
        self._timer = None
        if self._paused:
            return
        applied = 0
        lines: list[str] = []
        g = self.table.game
        deadline = time.monotonic() + FAST_BATCH_SECONDS
        while not g.hand_over:
            move = self.table.next_bot_move()
            if move is None:
                break
            lines += self.table.apply(move.player, move.action)
            self._note(self.table.last_events)
            applied += 1
            at_once = self.delay <= 0 or (self.skipping and not self._human_has_a_move_now())
            if not at_once or time.monotonic() > deadline:
                break
        self.write_log(lines)
        if applied:
            self._after_change()
        else:
            self._show_clock()

    def _human_has_a_move_now(self) -> bool:
        t = self.table
        return t.human is not None and t.human_seat is not None and bool(t.game.view(t.human).legal)

    def _show_clock(self) -> None:
        try:
            clock = self.query_one("#clock", Static)
        except NoMatches:  # the app is closing
            return
        if self.skipping:
            self._put(clock, Text(words.SKIPPING))
            return
        if self._timer is None or self._wait_total < CLOCK_FROM:
            self._put(clock, "")
            if self._clock is not None:
                self._clock.pause()
            return
        done = min(1.0, (time.monotonic() - self._wait_started) / self._wait_total)
        width = 20
        full = int(done * width)
        who = self._who_is_next()
        hint = words.SPEED_HINT if self.compact else ""  # the footer with these keys is hidden
        self._put(clock, Text(f"{'▰' * full}{'▱' * (width - full)}  {who}{hint}"))

    def _who_is_next(self) -> str:
        t = self.table
        p = t.bot_to_act()
        ch = self._choices()
        yours = ch.uno is not None or bool(ch.catch) or bool(ch.wrong) or self._jump(ch) is not None
        if p is not None:
            return words.bot_thinking(t.display_name(p), yours)
        if t.bot_seats_with_window():
            return words.OTHERS_WATCHING
        return ""

    # ---- after every action

    def _after_change(self) -> None:
        self._auto_accept()
        self.refresh_table()
        if self.table.game.hand_over:
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            self.skipping = False
            self._hand_over()
            return
        self._schedule()

    def _auto_accept(self) -> None:
        """Option ``auto_accept``: the answer to an action card played on the human, given for
        them when it is their only move (no Invisibility to play, nothing to challenge, nobody
        to catch, no UNO to call)."""
        if not self.auto_accept or self.auto or self.table.human is None:
            return
        v = self._view()
        if v is None or v.current != v.seat or v.phase != Phase.RESPOND:
            return
        ch = self._choices()
        if ch.accept is None or ch.invisibility or ch.challenge is not None:
            return
        if ch.catch or ch.wrong or ch.uno is not None:
            return
        card = v.pending_card
        lines = self.table.apply(self.table.human, ch.accept)
        self._note(self.table.last_events)
        self.write_log(lines)
        self._say(words.auto_accepted(card), redraw=False)

    def _expire_message(self) -> None:
        if not self.message:
            return
        at, actions = self._message_at
        if time.monotonic() - at >= MESSAGE_SECONDS and self.table.actions_taken != actions:
            self.message = ""
            self.refresh_table()

    def _hand_over(self) -> None:
        if self._hand_screen_open:
            return
        g = self.table.game
        self._hand_screen_open = True
        if g.finished:
            self.push_screen(GameOverScreen(game_over_body(self.table)), self._hand_screen_closed)
            return
        title = results.hand_over_title(g.hand_index + 1)
        self.push_screen(
            TextScreen(hand_over_body(self.table), title, kind="hand-over", keys=hand_over_keys(self.table)),
            self._hand_screen_closed,
        )
        if self.auto:
            self.set_timer(max(3 * self.delay, 0.05), self._auto_next_hand)

    def _auto_next_hand(self) -> None:
        if self._hand_screen_open and isinstance(self.screen, TextScreen) and self.screen.kind == "hand-over":
            self.screen.dismiss("next")

    def _hand_screen_closed(self, answer: str | None) -> None:
        self._hand_screen_open = False
        g = self.table.game
        if answer == "quit" or g.finished:
            self.new_game = answer == "new"
            self.table.save()
            self.exit(0)
            return
        lines = self.table.next_hand()
        self.cursor = 0
        self.picking = ""
        self.uno_armed = False
        self.message = ""
        self._forget_moves()
        self.write_log([words.hand_header(g.hand_index + 1), *lines])
        self._after_change()

    # ---- bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys work on the table only (not under the screens over it); a move key that does
        nothing now still runs, to say why."""
        if action in ("help", "quit_game"):
            return True
        if len(self.screen_stack) > 1 or self._hand_screen_open:
            return False
        if action in _GAME_KEYS:
            return not self.auto and self._view() is not None
        return True

    def key_is_live(self, action: str) -> bool:
        """Whether a key means something now (the footer shows only those)."""
        name = action.split("(", maxsplit=1)[0]
        if name in ("help", "quit_game"):
            return True
        if self.auto or self._hand_screen_open:
            return False
        if name == "skip_ahead":
            return not self._human_has_a_move() and self.table.bots_have_something()
        v = self._view()
        if v is None:
            return False
        ch = self._choices()
        mine = v.current == v.seat
        picking = self.picking
        if name == "enter":
            return mine and not picking and v.phase in (Phase.TURN, Phase.AFTER_DRAW)
        if name == "draw":
            return ch.draw is not None and not picking
        if name == "play_drawn":
            return mine and v.phase == Phase.AFTER_DRAW and not picking
        if name == "keep":
            return ch.keep is not None and not picking
        if name == "more":
            return bool(ch.more) and not picking
        if name in ("color", "dark_color"):
            calling = picking in ("color", "invis") or (mine and v.phase == Phase.CHOOSE_COLOR)
            return calling and (v.side == 1) == (name == "dark_color")
        if name == "accept":
            return ch.accept is not None and not picking
        if name == "challenge":
            return ch.challenge is not None and not picking
        if name == "invisibility":
            return bool(ch.invisibility) and not picking
        if name == "uno":
            return ch.uno is not None or (len(v.hand) == 2 and self._uno_hint_applies(v, ch))
        if name == "catch":
            return bool(ch.catch)
        if name == "wrong":
            return bool(ch.wrong)
        if name == "cancel":
            return bool(picking)
        return True

    # ---- speed, the log, help and quitting

    def action_faster(self) -> None:
        """The bots think less before each action."""
        self._set_delay(max((s for s in SPEEDS if s < self.delay), default=SPEEDS[0]))

    def action_slower(self) -> None:
        """The bots think longer before each action."""
        self._set_delay(min((s for s in SPEEDS if s > self.delay), default=SPEEDS[-1]))

    def _set_delay(self, delay: float) -> None:
        self.delay = delay
        self.table.change_settings(delay=delay)  # a resumed game goes on at this speed
        self._say(words.speed_now(delay))
        if self._timer is not None:
            self._schedule()

    def action_skip_ahead(self) -> None:
        """The bots play at once until the human has something to do."""
        if self._human_has_a_move() or not self.table.bots_have_something():
            self._say(words.NOTHING_TO_SKIP)
            return
        self.skipping = True
        self._schedule()

    def action_scroll_log(self, pages: int) -> None:
        """Page through the log (0: back to the newest line)."""
        self.scroll_log(pages)

    def action_help(self) -> None:
        """Keys and rules of this game (the bots wait meanwhile)."""
        if isinstance(self.screen, HelpScreen):
            return
        self._pause()
        g = self.table.game
        hp = g.rules.edition.name == "harry-potter"
        text = (
            words.KEYS
            + "\n"
            + words.settings_text(self.delay, self.auto_accept, hp)
            + "\n"
            + words.bots_text(
                [(self.table.display_name(p), bot.name) for p, bot in sorted(self.table.bots.items())]
            )
            + "\n"
            + words.rules_text(g.rules, g.players)
        )
        self.push_screen(HelpScreen(text), self._help_closed)

    def _help_closed(self, _answer: str | None) -> None:
        self._resume()

    def action_quit_game(self) -> None:
        """Quit (a second ``q`` within a few seconds); the game is saved with ``--save``."""
        now = time.monotonic()
        if now - self._quit_asked <= QUIT_WINDOW:
            self.table.save()
            self.exit(0)
            return
        self._quit_asked = now
        self.notify(words.quit_again(self.table.save_path is not None), timeout=QUIT_WINDOW)
