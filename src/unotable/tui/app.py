"""The terminal game: a Textual app over a :class:`~unotable.tui.controller.Table`.

The screen is built from the human's view and from events redacted for the human's seat, nothing
else. Bots act on a visible clock: each bot action waits ``delay`` seconds (the bar under the
prompt fills up meanwhile), twice that while the human can call UNO late or catch someone, and a
human action restarts the wait. The human's out-of-turn actions (``U``, ``C``, ``W``) are
accepted at any moment the rules allow them.
"""

from __future__ import annotations

import time
from typing import ClassVar, Final

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.events import Resize
from textual.timer import Timer
from textual.widgets import Button, RichLog, Static
from textual.widgets._button import ButtonVariant

from unotable.cards import CARD_NAME, COLOR_NAMES, HOWLER, INVISIBILITY, WILD_DRAW_FOUR
from unotable.errors import IllegalActionError
from unotable.notation import ACTION_ARG, ACTION_KIND, KIND_INVISIBILITY, KIND_PLAY
from unotable.state import Phase
from unotable.tui.controller import Choices, Table, card_sort_key, play_needs
from unotable.tui.help import KEYS, rules_text
from unotable.tui.widgets import (
    COLOR_STYLES,
    CardView,
    DrawPile,
    HandRow,
    HelpScreen,
    OpponentPanel,
    TextScreen,
    cards_text,
    color_text,
)
from unotable.views import View

LOG_LINES: Final = 500
"""Lines the event log keeps."""
FAST_BATCH_SECONDS: Final = 0.05
"""Without a delay (``--fast``), bots act for this long before the screen is redrawn (so the
keys still answer while they play)."""
MIN_TIMER: Final = 0.001
"""Textual's timers cannot wait 0 seconds: "at once" is this."""
COMPACT_BELOW: Final = 34
"""Terminals with fewer rows get the compact layout."""
CLOCK_FROM: Final = 0.3
"""Waits at least this long show the bar that fills up (shorter ones would only flicker)."""
QUIT_WINDOW: Final = 3.0
"""Seconds within which a second ``q`` quits."""

CSS: Final = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
#opponents { height: 6; }
.opponent { width: 1fr; height: 6; border: round $panel-lighten-2; padding: 0 1; }
.opponent.current { border: heavy $warning; }
.opponent.exposed { border: heavy $error; }
.opponent.target { border: double $success; }
#middle { height: 6; }
#pile { width: 12; height: 6; border: round $panel-lighten-2; content-align: center middle;
        text-align: center; background: $panel; }
#info { width: 1fr; height: 6; padding: 0 1; }
#scores { width: 34; height: 6; border: round $panel-lighten-2; padding: 0 1; }
#log { height: 1fr; min-height: 3; border: round $panel-lighten-2; padding: 0 1; overflow-x: hidden; }
#prompt { height: auto; max-height: 4; padding: 0 1; background: $boost; }
#clock { height: 1; padding: 0 1; color: $text-muted; }
#buttons { height: 1; }
#buttons Button { margin: 0 1 0 0; min-width: 6; }
#hand { height: 6; border: round $panel-lighten-2; }
#hand.yours { border: heavy $success; }
#keys { height: 1; background: $panel; }
.card { width: 8; height: 4; border: round white; text-align: center; content-align: center middle; }
.card.red { background: #c62828; color: white; }
.card.yellow { background: #f9a825; color: black; }
.card.green { background: #2e7d32; color: white; }
.card.blue { background: #1565c0; color: white; }
.card.wild { background: #333333; color: white; border: round #ff77ff; }
.card.dim { tint: black 55%; }
.card.selected { border: heavy $warning; text-style: bold; }
#top.card { width: 12; height: 6; border: heavy white; }
#top.card.wild { border: heavy #ff77ff; }
/* a small terminal (fewer than 34 rows): shorter panels, scores on the panels */
.compact #opponents, .compact .opponent { height: 4; }
.compact #middle, .compact #pile, .compact #info, .compact #top.card { height: 4; }
.compact #scores { display: none; }
.compact #keys { display: none; }
"""


class UnoApp(App[int]):
    """UNO against bots (or bots only, with ``auto``), on the full screen.

    :param table: the game, its bots and the human's player number.
    :param delay: seconds a bot thinks before each action (0: at once).
    :param auto: bots play every seat; hands follow each other by themselves.
    """

    CSS = CSS
    TITLE = "UNO"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "◀", show=False),
        Binding("right", "cursor(1)", "▶", show=False),
        *(Binding(str(d), f"digit({d})", str(d), show=False) for d in range(10)),
        Binding("enter", "enter", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("p", "play_drawn", "Play it"),
        Binding("k", "keep", "Keep it"),
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
        Binding("escape", "cancel", "Back"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, table: Table, *, delay: float = 1.0, auto: bool = False) -> None:
        super().__init__()
        self.table = table
        self.delay = delay
        self.auto = auto
        self._was_mine = False
        self.cursor = 0
        self.picking = ""
        """``""``, ``"color"`` (a wild card's colour), ``"invis"`` (Invisibility's colour) or
        ``"target"`` (a Howler's)."""
        self.picked_card = -1
        self.uno_armed = False
        self.message = ""
        self.log_history: list[str] = []
        """Every line written to the log (tests read it)."""
        self._timer: Timer | None = None
        self._clock: Timer | None = None
        self._wait_started = 0.0
        self._wait_total = 0.0
        self._paused = False
        self._quit_asked = 0.0
        self._hand_screen_open = False
        self._panels: dict[int, OpponentPanel] = {}
        self._shown: dict[int, object] = {}
        self._cache: tuple[View | None, Choices] | None = None
        self._cache_key: tuple[int, int, int] = (-1, -1, -1)

    # ---- layout

    def compose(self) -> ComposeResult:
        """The table: opponents on top, the piles and scores, the log, the prompt, your hand."""
        yield Static(id="title")
        yield Horizontal(id="opponents")
        with Horizontal(id="middle"):
            yield DrawPile(id="pile")
            yield CardView(0, id="top")
            yield Static(id="info")
            yield Static(id="scores")
        log = RichLog(id="log", max_lines=LOG_LINES, wrap=True, markup=False)
        log.can_focus = False
        log.border_title = "What happened"
        yield log
        yield Static(id="prompt")
        yield Static(id="clock")
        with Horizontal(id="buttons"):
            for key, label, variant in _BUTTONS:
                b = Button(label, id=f"b-{key}", variant=variant, compact=True)
                b.can_focus = False
                yield b
        yield HandRow(id="hand")
        yield Static(id="keys")

    def on_resize(self, event: Resize) -> None:
        """Small terminals get the compact layout."""
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        main = self.screen_stack[0] if self.screen_stack else None
        compact = height < COMPACT_BELOW
        if main is not None and main.has_class("compact") != compact:
            main.set_class(compact, "compact")
            self._shown.clear()
            self.refresh_table()

    @property
    def compact(self) -> bool:
        """Whether the table is drawn for a small terminal."""
        return bool(self.screen_stack) and self.screen_stack[0].has_class("compact")

    def on_mount(self) -> None:
        """Show the deal and start the clock."""
        self.screen.set_class(self.size.height < COMPACT_BELOW, "compact")
        self._clock = self.set_interval(0.1, self._show_clock, pause=True)
        g = self.table.game
        # A resumed hand shows everything so far, then where the game went on.
        self._write_log([f"— Hand {g.hand_index + 1} —", *self.table.history_lines()])
        if g.log[-1]:
            self._write_log(["— the game goes on from where it was saved —"])
        self._after_change()

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

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._paused or self.table.game.hand_over or not self.table.bots_have_something():
            self._wait_total = 0.0
            self._show_clock()
            return
        delay = self.delay
        ch = self._choices()
        if ch.uno is not None or ch.catch or ch.wrong:
            delay *= 2  # the human can act out of turn: a fair, visible chance first
        if self.table.seat is None:
            delay = min(delay, 0.2)  # the human sits this hand out
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
            applied += 1
            if self.delay > 0 or time.monotonic() > deadline:
                break
        self._write_log(lines)
        if applied:
            self._after_change()
        else:
            self._show_clock()

    def _show_clock(self) -> None:
        try:
            clock = self.query_one("#clock", Static)
        except NoMatches:  # the app is closing
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
        self._put(clock, Text(f"{'▰' * full}{'▱' * (width - full)}  {who}"))

    def _who_is_next(self) -> str:
        t = self.table
        p = t.bot_to_act()
        ch = self._choices()
        yours = ch.uno is not None or bool(ch.catch) or bool(ch.wrong)
        if p is not None:
            return f"{t.display_name(p)} is thinking…" + (" act before the bar fills!" if yours else "")
        if t.bot_seats_with_window():
            return "the others are watching…"
        return ""

    # ---- after every action

    def _after_change(self) -> None:
        self.refresh_table()
        if self.table.game.hand_over:
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            self._hand_over()
            return
        self._schedule()

    def _write_log(self, lines: list[str]) -> None:
        if not lines:
            return
        log = self.query_one("#log", RichLog)
        for line in lines:
            self.log_history.append(line)
            log.write(Text(line))

    def _hand_over(self) -> None:
        if self._hand_screen_open:
            return
        t = self.table
        g = t.game
        result = g.results[-1] if g.results else None
        body = Text()
        if result is not None:
            scored = "was charged" if g.rules.scoring == "lowest" or g.rules.mode == "challenge" else "scored"
            winner = t.display_name(result.winner)
            body.append(
                f"{winner} went out. The hand {scored} {result.hand_points} points.\n\n", style="bold"
            )
            rows = t.scores_lines()
            body.append(f"{'player':24}{'this hand':>10}{'total':>8}\n", style="bold")
            for (name, total), credit in zip(rows, result.credit, strict=False):
                body.append(f"{name[:24]:24}{credit:>10}{total:>8}\n")
        if g.finished:
            who = " and ".join(t.display_name(p) for p in g.winners)
            body.append(f"\n{who} {'wins' if len(g.winners) == 1 else 'win'} the game!\n", style="bold green")
            body.append("\nEnter or Q: leave.")
            title = "Game over"
        else:
            body.append("\nEnter: next hand · Q: quit" + (" (saved)" if t.save_path else ""))
            title = f"Hand {g.hand_index + 1} is over"
        self._hand_screen_open = True
        self.push_screen(TextScreen(body, title, kind="hand-over"), self._hand_screen_closed)
        if self.auto and not g.finished:
            self.set_timer(max(3 * self.delay, 0.05), self._auto_next_hand)

    def _auto_next_hand(self) -> None:
        if self._hand_screen_open and isinstance(self.screen, TextScreen) and self.screen.kind == "hand-over":
            self.screen.dismiss("next")

    def _hand_screen_closed(self, answer: str | None) -> None:
        self._hand_screen_open = False
        g = self.table.game
        if answer == "quit" or g.finished:
            self.table.save()
            self.exit(0)
            return
        lines = self.table.next_hand()
        self.cursor = 0
        self.picking = ""
        self.uno_armed = False
        self._write_log([f"— Hand {g.hand_index + 1} —", *lines])
        self._after_change()

    # ---- what the human's seat knows now (computed once per action: keys and the footer ask often)

    def _now(self) -> tuple[View | None, Choices]:
        t = self.table
        key = (id(t.game), t.game.hand_index, t.actions_taken)
        if self._cache_key != key or self._cache is None:
            self._cache = (t.view(), t.choices())
            self._cache_key = key
        return self._cache

    def _view(self) -> View | None:
        return self._now()[0]

    def _choices(self) -> Choices:
        return self._now()[1]

    # ---- drawing the table

    def _put(self, widget: Static, content: Text | str) -> None:
        """Update ``widget`` only when its content changes (every update costs a layout)."""
        if self._shown.get(id(widget)) != content:
            self._shown[id(widget)] = content
            widget.update(content)

    def refresh_table(self) -> None:
        """Redraw everything from the human's view."""
        t = self.table
        g = t.game
        v = self._view()
        ch = self._choices()
        rules = g.rules
        mode = "" if rules.mode == "solo" else f" · {rules.mode}"
        if g.standings().by_team and self.compact:
            mode += " · " + ", ".join(f"{name} {points}" for name, points in t.scores_lines())
        watching = " · bots only" if self.auto else ""
        self._put(
            self.query_one("#title", Static),
            Text(
                f"UNO {rules.edition.name} · {g.players} players{mode} · hand {g.hand_index + 1}"
                f" · to {rules.target} · seed {g.seed}{watching} · ? help",
                style="bold",
            ),
        )
        self._show_scores()
        if v is None:
            self._show_sitting_out()
        else:
            self._show_opponents(v, ch)
            self._show_middle(v)
            self._show_hand(v, ch)
        self._show_prompt(v, ch)
        self._show_buttons(v, ch)
        self._show_keys()

    def _show_keys(self) -> None:
        """The keys that mean something now, in one line (Textual's footer costs far more to redraw)."""
        out = Text()
        for b in self.BINDINGS:
            if not isinstance(b, Binding) or not b.show:
                continue
            if self.check_action(b.action.split("(")[0], ()):
                key = b.key_display or _KEY_SHOWN.get(b.key, b.key.upper())
                out.append(f" {key} ", style="bold reverse")
                out.append(f" {b.description}  ")
        self._put(self.query_one("#keys", Static), out)

    def _show_scores(self) -> None:
        t = self.table
        g = t.game
        out = Text()
        s = g.standings()
        if s.hands_total:
            out.append(f"hand {g.hand_index + 1} of {s.hands_total}\n")
        for name, points in t.scores_lines():
            out.append(f"{name[:22]:22} {points:>6}\n")
        if s.eliminated:
            out.append("out: " + ", ".join(t.display_name(p) for p in s.eliminated))
        w = self.query_one("#scores", Static)
        w.border_title = f"Scores (to {g.rules.target})"
        self._put(w, out)

    def _show_sitting_out(self) -> None:
        for panel in self._panels.values():
            self._shown.pop(id(panel), None)
            panel.remove()
        self._panels = {}
        self._put(
            self.query_one("#info", Static), Text("You sit out this hand; the bots play it.", style="bold")
        )
        self.query_one("#hand", HandRow).show((), 0, set())

    def _show_opponents(self, v: View, ch: Choices) -> None:
        t = self.table
        names = t.seat_names()
        n = v.rules.players
        order = [(v.seat + i) % n for i in range(1, n)]
        if list(self._panels) != order:
            for old in self._panels.values():  # a new widget may get an old one's id()
                self._shown.pop(id(old), None)
            box = self.query_one("#opponents", Horizontal)
            box.remove_children()
            self._panels = {s: OpponentPanel(s) for s in order}
            box.mount_all([self._panels[s] for s in order])
        points = self._points_by_seat(v)
        for s in order:
            panel = self._panels[s]
            bot = t.bots.get(t.game.player_at(s))
            kind = f" · {bot.name}" if bot is not None else ""
            panel.border_title = f"{s} {names[s]}{kind}"
            count = v.hand_sizes[s]
            body = Text()
            body.append(
                f"{'▮' * min(count, 10)}{'+' if count > 10 else ''} {count} card{'s' if count != 1 else ''}"
            )
            tags = [f"{points[s]} pts"] if points is not None else []
            if s == v.dealer:
                tags.append("dealer")
            if v.rules.teams and s % 2 == v.seat % 2:
                tags.append("partner")
            if tags:
                body.append("  " + " · ".join(tags))
            known = v.known.get(s)
            if known:
                body.append("\nshown: ")
                body.append_text(cards_text(known))
            self._put(panel, body)
            exposed = s in v.uno_exposed
            if exposed:
                status = "NO UNO! press C to catch" if s in ch.catch else "NO UNO!"
            elif count == 1:
                status = "UNO!"
            elif s == v.current:
                status = "▶ " + _phase_word(v, False)
            else:
                status = ""
            panel.border_subtitle = status
            panel.set_class(s == v.current, "current")
            panel.set_class(exposed, "exposed")
            panel.set_class(self.picking == "target", "target")

    def _points_by_seat(self, v: View) -> list[int] | None:
        """Game scores by seat, for the panels (solo games: a player each; else the scores box)."""
        t = self.table
        st = t.game.standings()
        if st.by_team or not self.compact:
            return None
        return [st.scores[t.game.player_at(s)] for s in range(v.rules.players)]

    def _show_middle(self, v: View) -> None:
        names = self._names()
        pile = self.query_one("#pile", DrawPile)
        self._put(pile, Text(f"DRAW\n{v.draw_pile_size}", justify="center"))
        top = self.query_one("#top", CardView)
        if top.card != v.top:
            top.set_card(v.top)
        info = Text()
        info.append("Match: ")
        info.append_text(color_text(v.color))
        info.append(f" ({CARD_NAME[v.top]})\n")
        n = v.rules.players
        if v.current >= 0:
            seq = [(v.current + i * v.direction) % n for i in range(n)]
            arrow = "⟳" if v.direction == 1 else "⟲"
            info.append(f"Order {arrow} " + " → ".join(names[s] for s in seq) + "\n")
            mine = v.current == v.seat and not self.auto
            info.append("Now: ")
            info.append(
                _phase_word(v, True) if mine else f"{names[v.current]} {_phase_word(v, False)}", style="bold"
            )
            info.append("\n")
        info.append(f"Dealer: {names[v.dealer]}")
        self._put(self.query_one("#info", Static), info)

    def _show_hand(self, v: View, ch: Choices) -> None:
        if len(v.hand) != 2:
            self.uno_armed = False  # the call goes only with the next-to-last card
        cards = self._sorted_hand(v)
        mine = v.current == v.seat and v.phase == Phase.TURN and not self.auto
        if mine and not self._was_mine:  # the turn begins: the cursor goes to a card that plays
            self.cursor = next((i for i, c in enumerate(cards) if c in ch.plays), self.cursor)
        self._was_mine = mine
        if v.current == v.seat and v.phase == Phase.AFTER_DRAW and v.drawn in cards:
            self.cursor = cards.index(v.drawn)
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        playable = set(ch.plays) if v.current == v.seat else set()
        hand = self.query_one("#hand", HandRow)
        hand.show(cards, self.cursor if not self.auto else -1, playable)
        count = len(cards)
        points = self._points_by_seat(v)
        hand.border_subtitle = f"{points[v.seat]} pts" if points is not None else ""
        hand.border_title = (
            f"{'Your' if not self.auto else self._names()[v.seat] + chr(39) + 's'} hand: {count}"
        )
        hand.set_class(v.current == v.seat and not self.auto, "yours")

    def _show_prompt(self, v: View | None, ch: Choices) -> None:
        out = Text()
        if v is None:
            out.append("You are not at the table for this hand: the bots play it, then the scores follow.")
        elif self.auto:
            out.append(f"Bots play every seat; you see {self._names()[v.seat]}'s view.  ? help · q quit")
        else:
            out.append_text(self._decision_text(v, ch))
            alerts = self._alerts(v, ch)
            if alerts.plain:
                out.append("\n")
                out.append_text(alerts)
        if self.message:
            out.append("\n")
            out.append(self.message, style="italic")
        self._put(self.query_one("#prompt", Static), out)

    def _decision_text(self, v: View, ch: Choices) -> Text:
        names = self._names()
        out = Text()
        if self.picking in ("color", "invis"):
            what = "Invisibility" if self.picking == "invis" else f"your {CARD_NAME[self.picked_card]}"
            out.append(f"Call a colour for {what}: ", style="bold")
            for i, key in enumerate("RYGB"):
                out.append(f" {key} {COLOR_NAMES[i]} ", style=COLOR_STYLES[i])
                out.append(" ")
            out.append("  (Esc: back)")
            return out
        if self.picking == "target":
            targets = [s for s in range(v.rules.players) if s != v.seat]
            out.append("Howler: whose hand must be shown? ", style="bold")
            out.append(", ".join(f"{s} {names[s]}" for s in targets))
            out.append(" — press the number or click the panel (Esc: back)")
            return out
        if v.current != v.seat:
            if v.current >= 0:
                out.append(f"{names[v.current]} {_phase_word(v, False)}.")
            return out
        phase = v.phase
        if phase == Phase.TURN:
            if ch.plays:
                out.append("Your turn: ", style="bold")
                out.append("choose a card (← → or 1-9) and press Enter, or click it; D draws.")
            else:
                out.append("Your turn: ", style="bold")
                out.append("nothing in your hand matches — press D to draw.")
        elif phase == Phase.AFTER_DRAW:
            out.append(f"You drew the {CARD_NAME[v.drawn]}, which you can play: ", style="bold")
            out.append("P plays it" + (", K keeps it." if ch.keep is not None else " (you must)."))
        elif phase == Phase.CHOOSE_COLOR:
            out.append("Call the colour: ", style="bold")
            for i, key in enumerate("RYGB"):
                out.append(f" {key} {COLOR_NAMES[i]} ", style=COLOR_STYLES[i])
                out.append(" ")
        elif phase == Phase.RESPOND:
            who = names[v.pending_from]
            card = v.pending_card
            if card == WILD_DRAW_FOUR:
                held = COLOR_NAMES[v.pending_color] if v.pending_color >= 0 else "the colour"
                out.append(f"{who} played a Wild Draw Four on you. ", style="bold")
                out.append(
                    f"A: accept (draw 4) · X: challenge ({who} draws 4 if they held {held}; "
                    "if not, you draw 6)"
                )
            elif card == HOWLER:
                out.append(f"{who} played the Howler on you. ", style="bold")
                out.append("A: show your hand to the table")
            else:
                out.append(f"{who} played the {CARD_NAME[card]} on you. ", style="bold")
                out.append("A: accept it")
            if ch.invisibility:
                out.append(" · I: cancel it with Invisibility")
        return out

    def _alerts(self, v: View, ch: Choices) -> Text:
        names = self._names()
        out = Text()
        if ch.uno is not None:
            out.append(" You hold one card and have not called UNO: press U now! ", style="bold white on red")
            out.append(" ")
        if ch.catch:
            who = " and ".join(names[s] for s in ch.catch)
            out.append(f" {who} did not call UNO: press C to catch (2 cards)! ", style="bold black on yellow")
            out.append(" ")
        if ch.wrong:
            who = " and ".join(names[s] for s in ch.wrong)
            out.append(f" {who} played a wrong card: W points it out ", style="bold black on yellow")
        if self.uno_armed and len(v.hand) == 2:
            out.append(" UNO armed: your next play calls UNO ", style="bold black on green")
        elif len(v.hand) == 2 and ch.uno is None and v.current == v.seat and v.phase != Phase.CHOOSE_COLOR:
            out.append("Two cards left: press U before you play to call UNO with it.", style="bold")
        return out

    def _show_buttons(self, v: View | None, ch: Choices) -> None:
        on = {key: False for key, _, _ in _BUTTONS}
        on["help"] = True
        if v is not None and not self.auto:
            mine = v.current == v.seat
            picking_color = self.picking in ("color", "invis") or (mine and v.phase == Phase.CHOOSE_COLOR)
            on["draw"] = ch.draw is not None and not self.picking
            on["play"] = mine and v.phase == Phase.AFTER_DRAW and not self.picking
            on["keep"] = ch.keep is not None and not self.picking
            for c in ("red", "yellow", "green", "blue"):
                on[c] = picking_color
            on["accept"] = ch.accept is not None and not self.picking
            on["challenge"] = ch.challenge is not None and not self.picking
            on["invis"] = bool(ch.invisibility) and not self.picking
            on["uno"] = ch.uno is not None or len(v.hand) == 2
            on["catch"] = bool(ch.catch)
            on["wrong"] = bool(ch.wrong)
            on["back"] = bool(self.picking)
        for key, label, _ in _BUTTONS:
            b = self.query_one(f"#b-{key}", Button)
            if b.display != on[key]:
                b.display = on[key]
            text = label
            if key == "uno" and self.uno_armed:
                text = "UNO! armed (U)"
            if key == "catch" and ch.catch:
                text = "Catch " + " & ".join(self._names()[s] for s in ch.catch) + " (C)"
            if str(b.label) != text:
                b.label = text

    def _names(self) -> list[str]:
        names = self.table.seat_names()
        seat = self.table.seat
        if seat is not None and not self.auto:
            names[seat] = "You"
        return names

    def _sorted_hand(self, v: View) -> list[int]:
        return sorted(v.hand, key=card_sort_key)

    # ---- bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys mean something now (the footer shows only those)."""
        if action in ("help", "quit_game"):
            return True
        if self.auto or self._hand_screen_open:
            return False
        v = self._view()
        if v is None:
            return False
        ch = self._choices()
        mine = v.current == v.seat
        picking = self.picking
        if action in ("cursor", "digit"):
            return True
        if action == "enter":
            return mine and not picking and v.phase in (Phase.TURN, Phase.AFTER_DRAW)
        if action == "draw":
            return ch.draw is not None and not picking
        if action == "play_drawn":
            return mine and v.phase == Phase.AFTER_DRAW and not picking
        if action == "keep":
            return ch.keep is not None and not picking
        if action == "color":
            return picking in ("color", "invis") or (mine and v.phase == Phase.CHOOSE_COLOR)
        if action == "accept":
            return ch.accept is not None and not picking
        if action == "challenge":
            return ch.challenge is not None and not picking
        if action == "invisibility":
            return bool(ch.invisibility) and not picking
        if action == "uno":
            return ch.uno is not None or len(v.hand) == 2
        if action == "catch":
            return bool(ch.catch)
        if action == "wrong":
            return bool(ch.wrong)
        if action == "cancel":
            return bool(picking)
        return True

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
        self.message = ""
        kind = ACTION_KIND[aid]
        if kind in (KIND_PLAY, KIND_INVISIBILITY):
            self.uno_armed = False
        self.picking = ""
        self.picked_card = -1
        self._write_log(lines)
        self._after_change()

    def _say(self, text: str) -> None:
        self.message = text
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
        if v is None or v.current != v.seat or self.picking:
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
                self._say("It is not your turn.")
            elif v.phase == Phase.AFTER_DRAW:
                self._say(f"Only the card you drew ({CARD_NAME[v.drawn]}) can be played now — or K keeps it.")
            elif v.phase == Phase.TURN:
                self._say(
                    f"The {CARD_NAME[card]} does not match the {CARD_NAME[v.top]}"
                    f" ({COLOR_NAMES[v.color] if v.color >= 0 else 'no colour'} to match)."
                )
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
        for aid in ch.plays.get(HOWLER, ()):
            if _arg(aid) == seat:
                self._act(self._with_uno(ch, aid))
                return
        self._say(f"Seat {seat} cannot be the Howler's target.")

    def action_play_drawn(self) -> None:
        """Play the card just drawn."""
        v = self._view()
        if v is None or v.phase != Phase.AFTER_DRAW or v.current != v.seat:
            return
        self._play_card(v.drawn)

    def action_keep(self) -> None:
        """Keep the card just drawn."""
        ch = self._choices()
        if ch.keep is not None:
            self._act(ch.keep)

    def action_draw(self) -> None:
        """Draw a card as the turn."""
        ch = self._choices()
        if self.picking:
            return
        if ch.draw is None:
            self._say("You cannot draw now.")
            return
        self._act(ch.draw)
        v = self._view()
        if v is not None and not (v.current == v.seat and v.phase == Phase.AFTER_DRAW):
            self._say("The card you drew cannot be played: your turn passes.")

    def action_color(self, color: int) -> None:
        """Call a colour: for the wild card chosen, for Invisibility, or as the phase asks."""
        ch = self._choices()
        if self.picking == "color":
            for aid in ch.plays.get(self.picked_card, ()):
                if _arg(aid) == color:
                    self._act(self._with_uno(ch, aid))
                    return
        elif self.picking == "invis":
            invis = ch.invisibility.get(color)
            if invis is not None:
                self._act(self._with_uno(ch, invis))
        elif ch.colors:
            self._act(ch.colors[color])

    def action_accept(self) -> None:
        """Take the effect of the card played on you."""
        ch = self._choices()
        if ch.accept is not None:
            self._act(ch.accept)

    def action_challenge(self) -> None:
        """Challenge the Wild Draw Four played on you."""
        ch = self._choices()
        if ch.challenge is not None:
            self._act(ch.challenge)

    def action_invisibility(self) -> None:
        """Cancel the card played on you with Invisibility (then call the colour)."""
        ch = self._choices()
        if ch.invisibility:
            self.picking = "invis"
            self.picked_card = INVISIBILITY
            self.refresh_table()

    def action_uno(self) -> None:
        """Call UNO late, or arm the call for the play of your next-to-last card."""
        ch = self._choices()
        if ch.uno is not None:
            self._act(ch.uno)
            return
        v = self._view()
        if v is not None and len(v.hand) == 2:
            self.uno_armed = not self.uno_armed
            self.message = "" if self.uno_armed else "UNO call taken back."
            self.refresh_table()
        else:
            self._say("UNO goes with your next-to-last card (press U when you hold two).")

    def action_catch(self) -> None:
        """Catch a player who did not call UNO."""
        ch = self._choices()
        if ch.catch:
            self._act(next(iter(ch.catch.values())))
        else:
            self._say("Nobody can be caught now.")

    def action_wrong(self) -> None:
        """Point out a wrong card."""
        ch = self._choices()
        if ch.wrong:
            self._act(next(iter(ch.wrong.values())))

    def action_cancel(self) -> None:
        """Take back the card chosen before its colour or target."""
        if self.picking:
            self.picking = ""
            self.picked_card = -1
            self.refresh_table()

    def action_help(self) -> None:
        """Keys and rules of this game (the bots wait meanwhile)."""
        if isinstance(self.screen, HelpScreen):
            return
        self._paused = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        g = self.table.game
        self.push_screen(HelpScreen(KEYS + "\n" + rules_text(g.rules, g.players)), self._help_closed)

    def _help_closed(self, _answer: str | None) -> None:
        self._paused = False
        if not self.table.game.hand_over:
            self._schedule()

    def action_quit_game(self) -> None:
        """Quit (a second ``q`` within a few seconds); the game is saved with ``--save``."""
        now = time.monotonic()
        if now - self._quit_asked <= QUIT_WINDOW:
            self.table.save()
            self.exit(0)
            return
        self._quit_asked = now
        saved = " (the game is saved)" if self.table.save_path else ""
        self.notify(f"Press Q again to quit{saved}.", timeout=QUIT_WINDOW)

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
            self.action_color(color)
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


_KEY_SHOWN: Final = {"enter": "⏎", "escape": "Esc"}

_BUTTONS: Final[tuple[tuple[str, str, ButtonVariant], ...]] = (
    ("draw", "Draw (D)", "primary"),
    ("play", "Play it (P)", "success"),
    ("keep", "Keep it (K)", "default"),
    ("red", "Red (R)", "error"),
    ("yellow", "Yellow (Y)", "warning"),
    ("green", "Green (G)", "success"),
    ("blue", "Blue (B)", "primary"),
    ("accept", "Accept (A)", "default"),
    ("challenge", "Challenge (X)", "warning"),
    ("invis", "Invisibility (I)", "success"),
    ("uno", "UNO! (U)", "error"),
    ("catch", "Catch (C)", "warning"),
    ("wrong", "Wrong card (W)", "warning"),
    ("back", "Back (Esc)", "default"),
    ("help", "Help (?)", "default"),
)


def _arg(aid: int) -> int:
    return ACTION_ARG[aid]


def _phase_word(v: View, yours: bool) -> str:
    """What the current seat is doing: after a bot's name ("Ben to play"), or alone for you."""
    phase = v.phase
    if phase == Phase.TURN:
        return "to play" if not yours else "your turn"
    if phase == Phase.AFTER_DRAW:
        return "to play or keep the card drawn" if not yours else "your turn: play or keep the card drawn"
    if phase == Phase.CHOOSE_COLOR:
        return "to call the colour" if not yours else "your turn: call the colour"
    if phase == Phase.RESPOND:
        return "to answer the card played on them" if not yours else "your answer to the card played on you"
    return ""
