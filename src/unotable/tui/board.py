"""The table on the screen: its layout, and how it is drawn from the human's view.

:class:`Board` is the part of the app that draws: the opponents' panels, the piles, the scores,
the log, the prompt, the buttons, the hand and the keys. It reads the app's state (the table,
the cursor, the card being played, the last move of each seat) and never changes the game;
:class:`~unotable.tui.app.UnoApp` adds the clock and the actions on top of it. Every word comes
from :mod:`unotable.tui.words`.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Resize
from textual.widgets import Button, RichLog, Static
from textual.widgets._button import ButtonVariant

from unotable.cards import (
    AW_TARGET,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    WILD_DRAW_FOUR,
)
from unotable.house import active
from unotable.state import Phase
from unotable.tui import flipside, words
from unotable.tui.controller import Choices, Table, card_sort_key
from unotable.tui.widgets import (
    CARD_CLASSES,
    CardView,
    DrawPile,
    HandRow,
    OpponentPanel,
    card_class,
    card_text,
    cards_in_lines,
    color_style,
    color_text,
)
from unotable.views import View

LOG_LINES: Final = 500
"""Lines the event log keeps."""
COMPACT_BELOW: Final = 34
"""Terminals with fewer rows get the compact layout."""
CARD_WIDTH: Final = 9
"""Columns of a card of the hand (7 inside its border: "Reverse", "Draw 2")."""
MIN_WIDTH: Final = 64
"""Columns below which the table cannot be drawn (a screen says so)."""
MIN_HEIGHT: Final = 20
"""Rows below which the table cannot be drawn (with one row of opponents' panels)."""
PANEL_MIN_WIDTH: Final = 16
"""Opponents' panels are at least this wide: more opponents than fit go on more rows."""

CSS: Final = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
#opponents { height: 6; layout: grid; grid-size: 3 1; grid-rows: 6; }
.opponent { width: 1fr; height: 6; border: round $panel-lighten-2; padding: 0 1; }
.opponent.current { border: heavy $warning; }
.opponent.exposed { border: heavy $error; }
.opponent.target { border: double $success; }
#middle { height: 6; }
#pile { width: 12; height: 6; border: round $panel-lighten-2; content-align: center middle;
        text-align: center; background: $panel; }
#info { width: 1fr; height: 6; padding: 0 1; }
#scores { width: 34; height: 6; border: round $panel-lighten-2; padding: 0 1; }
#log { height: 1fr; min-height: 3; border: round $panel-lighten-2; padding: 0 1; overflow-x: hidden;
       scrollbar-gutter: stable; }
#prompt { height: auto; max-height: 4; padding: 0 1; background: $boost; }
#clock { height: 1; width: 1fr; padding: 0 1; color: $text-muted; }
#buttons { height: 1; }
#buttons Button { margin: 0 1 0 0; min-width: 6; }
#hand { height: 6; border: round $panel-lighten-2; scrollbar-size-horizontal: 0; }
#hand.yours { border: heavy $success; }
#keys { height: 1; background: $panel; }
.card { width: 9; height: 4; border: round white; text-align: center; content-align: center middle; }
.card.red { background: #c62828; color: white; }
.card.yellow { background: #f9a825; color: black; }
.card.green { background: #2e7d32; color: white; }
.card.blue { background: #1565c0; color: white; }
.card.wild { background: #333333; color: white; border: round #ff77ff; }
/* UNO Flip's dark side (docs/rules.md §15; widgets.DARK_STYLES) and the draw pile's other face */
.card.pink, #pile.pink { background: #e0218a; color: white; }
.card.teal, #pile.teal { background: #00a5a5; color: black; }
.card.orange, #pile.orange { background: #ff7f11; color: black; }
.card.purple, #pile.purple { background: #6a1b9a; color: white; }
.card.darkwild, #pile.darkwild { background: #111111; color: #ff7f11; border: round #ff7f11; }
#pile.red { background: #c62828; color: white; }
#pile.yellow { background: #f9a825; color: black; }
#pile.green { background: #2e7d32; color: white; }
#pile.blue { background: #1565c0; color: white; }
#pile.wild { background: #333333; color: white; }
.dark #title { background: #3a0f4a; }
#buttons #b-red.dark { background: #e0218a; color: white; }
#buttons #b-yellow.dark { background: #00a5a5; color: black; }
#buttons #b-green.dark { background: #ff7f11; color: black; }
#buttons #b-blue.dark { background: #6a1b9a; color: white; }
.card.dim { tint: black 55%; }
.card.selected { border: heavy $warning; text-style: bold; }
#top.card { width: 12; height: 6; border: heavy white; }
#top.card.wild { border: heavy #ff77ff; }
#top.card.darkwild { border: heavy #ff7f11; }
/* a small terminal (fewer than 34 rows): shorter panels, scores on the panels, the log open at
   the bottom (the prompt's band closes it): at 80x24 it shows the first card and the play up to
   your turn (issue 34) */
.compact #opponents, .compact .opponent { height: 4; }
.compact #opponents { grid-rows: 4; }
.compact #log { min-height: 1; border-bottom: none; }
.compact #middle, .compact #pile, .compact #info, .compact #top.card { height: 4; }
.compact #scores { display: none; }
.compact #keys { display: none; }
"""


class Board(App[int]):
    """The table drawn from the human's view (the app's drawing half; see the module)."""

    table: Table
    auto: bool
    delay: float
    cursor: int
    picking: str
    picked_card: int
    uno_armed: bool
    message: str
    skipping: bool
    log_history: list[str]
    last_moves: dict[int, Text | int]
    """What each seat did last in this hand (public), shown on its panel."""
    latest_seat: int
    """The seat that acted last (its panel's line is marked)."""
    color_caller: int
    """The seat that called the colour to match, or -1 when a coloured card set it."""
    reverser: int
    """The seat whose card last changed the direction in this hand, or -1."""
    _was_mine: bool
    _panels: dict[int, OpponentPanel]
    _shown: dict[int, object]
    _cache: tuple[View | None, Choices] | None
    _cache_key: tuple[int, int, int]

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
        # min_width: RichLog wraps at 78 columns at least, wider than the log of an 80-column terminal
        log = RichLog(id="log", max_lines=LOG_LINES, wrap=True, markup=False, min_width=20)
        log.can_focus = False
        log.border_title = words.LOG_TITLE
        yield log
        yield Static(id="prompt")
        # The clock shares the buttons' row (issue 34: a row more for the log, which at 80x24
        # otherwise hid the play before your first turn).
        with Horizontal(id="buttons"):
            for key, variant in _BUTTONS:
                b = Button(words.button_label(key), id=f"b-{key}", variant=variant, compact=True)
                b.can_focus = False
                yield b
            yield Static(id="clock")
        yield HandRow(id="hand")
        yield Static(id="keys")

    def on_resize(self, event: Resize) -> None:
        """Small terminals get the compact layout; the log is wrapped anew to the new width."""
        self._fit(event.size.height)
        self.call_after_refresh(self.rewrap_log)

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

    # ---- the log

    def write_log(self, lines: list[str]) -> None:
        """Add lines to the log (it follows the newest line unless scrolled back)."""
        if not lines:
            return
        log = self.query_one("#log", RichLog)
        for line in lines:
            self.log_history.append(line)
            log.write(Text(line))

    def rewrap_log(self) -> None:
        """Write the log again, wrapped to its width now, and show its newest line (a resize
        otherwise leaves lines wrapped for the old width and the view at the top)."""
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in self.log_history[-LOG_LINES:]:
            log.write(Text(line), scroll_end=False)
        log.scroll_end(animate=False, immediate=True)

    def scroll_log(self, pages: int) -> None:
        """Scroll the log by pages (negative: back in time); 0: back to the newest line."""
        log = self.query_one("#log", RichLog)
        if pages == 0:
            log.scroll_end(animate=False)
            log.auto_scroll = True
            return
        height = max(1, log.scrollable_content_region.height - 1)
        log.scroll_relative(y=pages * height, animate=False)
        # Scrolled back, new lines must not pull the view away; at the end, follow them again.
        log.auto_scroll = pages > 0 and log.scroll_y + height >= log.max_scroll_y

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
        scores = ""
        if g.standings().by_team and self.compact:
            scores = ", ".join(f"{name} {points}" for name, points in t.scores_lines())
        on = [rule.name for rule, _ in active(rules.house)]
        # UNO Flip: the side in play leads the title, which the rest gives way to (docs/rules.md §15)
        side = flipside.side_word(v.side) + " · " if v is not None and rules.edition.flip else ""
        if self.screen_stack:
            self.screen_stack[0].set_class(v is not None and v.side == 1, "dark")
        title = side + words.title(
            rules.edition.name,
            g.players,
            rules.mode,
            g.hand_index + 1,
            rules.target,
            self.auto,
            scores,
            self.size.width - 2 - len(side),
            house=words.house_rules(rules.preset, on),
        )
        self._put(self.query_one("#title", Static), Text(title, style="bold"))
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

    def key_is_live(self, action: str) -> bool:
        """Whether a key means something now (the footer shows only those)."""
        raise NotImplementedError  # the app knows

    def _show_keys(self) -> None:
        """The keys that mean something now, in one line (Textual's footer costs far more to redraw)."""
        out = Text()
        for b in self.BINDINGS:
            if not isinstance(b, Binding) or not b.show:
                continue
            if self.key_is_live(b.action):
                key = b.key_display or words.KEY_NAMES.get(b.key, b.key.upper())
                out.append(f" {key} ", style="bold reverse")
                out.append(f" {words.key_description(b.action, b.description)}  ")
        out.append(" +/- ", style="bold reverse")
        out.append(f" {words.bots_speed(self.delay)}  ")
        self._put(self.query_one("#keys", Static), out)

    def _show_scores(self) -> None:
        t = self.table
        g = t.game
        out = Text()
        s = g.standings()
        if s.hands_total:
            out.append(words.hand_of_total(g.hand_index + 1, s.hands_total) + "\n")
        for name, points in t.scores_lines():
            out.append(f"{name[:22]:22} {points:>6}\n")
        if s.eliminated:
            out.append(words.eliminated([t.display_name(p) for p in s.eliminated]))
        w = self.query_one("#scores", Static)
        w.border_title = words.scores_title(g.rules.target)
        self._put(w, out)

    def _show_sitting_out(self) -> None:
        for panel in self._panels.values():
            self._shown.pop(id(panel), None)
            panel.remove()
        self._panels = {}
        self._put(self.query_one("#info", Static), Text(words.SITTING_OUT, style="bold"))
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
        per_row, rows, height = self.opponent_rows(len(order))
        box = self.query_one("#opponents", Horizontal)
        if (per_row, rows, height) != self._shown.get(id(box)):
            self._shown[id(box)] = (per_row, rows, height)
            box.set_styles(f"grid-size: {per_row} {rows}; grid-rows: {height}; height: {rows * height};")
            for panel in self._panels.values():
                panel.set_styles(f"height: {height};")
        points = self._points_by_seat(v)
        # The title sits on the border, between the corners: 4 columns are the border's.
        title_width = max(4, self.size.width // per_row - 4)
        for s in order:
            panel = self._panels[s]
            bot = t.bots.get(t.game.player_at(s))
            panel.border_title = words.panel_title(s, names[s], bot.name if bot else "", title_width)
            count = v.hand_sizes[s]
            body = Text()
            line = words.card_count(count, title_width) if not v.backs else words.cards(count)
            tags = [words.points_tag(points[s])] if points is not None else []
            if v.rules.teams and s % 2 == v.seat % 2:
                tags.append(words.PARTNER_TAG)
            if s == v.dealer:
                tags.append(words.DEALER_TAG)
            while tags and len(line) + sum(len(t) + 3 for t in tags) > title_width:
                tags.pop()  # what does not fit is elsewhere: the dealer below the top card
            faces = v.backs[s] if v.backs else ()
            if faces and self.compact:  # FL-2: the faces turned to you, in place of their backs
                rows = height - 2 - (s in self.last_moves)  # the panel's lines the last move leaves
                body.append_text(flipside.faces_text(faces, title_width, max(1, rows), f"{count}:"))
            else:
                body.append(" · ".join([line, *tags]))
            if faces and not self.compact:
                body.append("\n")
                body.append_text(flipside.faces_text(faces, title_width, 2))
            known = v.known.get(s)
            if known:  # cards never wrap in the middle of a card (issue 25)
                body.append("\n")
                body.append_text(cards_in_lines(words.SHOWN, known, title_width))
            last = self.last_moves.get(s)
            if last is not None:
                body.append("\n")
                shown = (
                    last if isinstance(last, Text) else cards_in_lines(words.LAST_PLAYED, [last], title_width)
                )
                if self.compact and not isinstance(last, Text) and "\n" in shown.plain:
                    # a compact panel has one line for it: the card without "played" (issue 34)
                    shown = cards_in_lines("", [last], title_width)
                body.append_text(shown)
                if s == self.latest_seat:
                    body.append(" ◀", style="bold")
            self._put(panel, body)
            exposed = s in v.uno_exposed
            if exposed:
                status = words.NO_UNO_CATCH if s in ch.catch else words.NO_UNO
            elif count == 1:
                status = words.UNO_STATUS
            elif s == v.current:
                status = words.panel_status(v.phase)
            else:
                status = ""
            panel.border_subtitle = status
            panel.set_class(s == v.current, "current")
            panel.set_class(exposed, "exposed")
            panel.set_class(self.picking == "target", "target")

    def opponent_rows(self, count: int) -> tuple[int, int, int]:
        """How the opponents' panels are laid out: panels per row, rows, and each one's height
        (lower on a small terminal, and lower again on more than one row)."""
        per_row = max(1, min(count, self.size.width // PANEL_MIN_WIDTH))
        rows = -(-count // per_row)
        height = (4 if self.compact else 6) - (1 if rows > 1 else 0)
        return per_row, rows, height

    def min_height(self) -> int:
        """Rows the table needs: more with more than one row of opponents."""
        v = self._view()
        count = v.rules.players - 1 if v is not None else 1
        _, rows, height = self.opponent_rows(count)
        return MIN_HEIGHT + (rows - 1) * height

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
        self._put(pile, self._pile_text(v))
        other = card_class(v.draw_back) if v.draw_back >= 0 else ""
        for cls in CARD_CLASSES:  # UNO Flip: the pile's top shows its other face (FL-2)
            pile.set_class(cls == other, cls)
        top = self.query_one("#top", CardView)
        if top.card != v.top:
            top.set_card(v.top)
        info = Text()
        info.append(words.MATCH)
        info.append_text(color_text(v.color, v.side == 1))
        info.append(" ")
        info.append_text(card_text(v.top))
        if self.color_caller >= 0 and v.color >= 0:
            info.append(words.called_by(names[self.color_caller]), style="bold")
        info.append("\n")
        n = v.rules.players
        if v.current >= 0:
            seq = [(v.current + i * v.direction) % n for i in range(n)]
            width = self.query_one("#info", Static).content_region.width or self.size.width
            info.append(words.order_line([names[s] for s in seq], v.direction == 1, width - 1))
            if self.reverser >= 0:
                info.append(words.reversed_by(names[self.reverser]), style="bold")
            info.append("\n")
            mine = v.current == v.seat and not self.auto
            info.append(words.NOW)
            info.append(
                words.phase_word(v.phase, True, v.pending_draw)
                if mine
                else words.who_does(names[v.current], words.phase_word(v.phase, False, v.pending_draw)),
                style="bold",
            )
            info.append("\n")
        info.append(words.dealer_line(names[v.dealer]))
        self._put(self.query_one("#info", Static), info)

    def _show_hand(self, v: View, ch: Choices) -> None:
        if len(v.hand) != 2:
            self.uno_armed = False  # the call goes only with the next-to-last card
        cards = self._sorted_hand(v)
        # A turn begins, or a draw card waits for an answer that a stack allows (RULES §11): the
        # cursor goes to a card that plays (one that answers the stack), unless it is on one.
        answer = v.phase == Phase.RESPOND and bool(ch.plays)
        mine = v.current == v.seat and (v.phase == Phase.TURN or answer) and not self.auto
        if mine and not self._was_mine:
            on_playable = 0 <= self.cursor < len(cards) and cards[self.cursor] in ch.plays
            if not on_playable:
                self.cursor = next((i for i, c in enumerate(cards) if c in ch.plays), self.cursor)
        self._was_mine = mine
        if v.current == v.seat and v.phase == Phase.AFTER_DRAW and v.drawn in cards:
            self.cursor = cards.index(v.drawn)
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        playable = set(ch.plays)  # out of turn, only a jump-in plays (RULES §11)
        hand = self.query_one("#hand", HandRow)
        hand.show(cards, self.cursor if not self.auto else -1, playable)
        points = self._points_by_seat(v)
        hand.border_subtitle = words.points_tag(points[v.seat]) if points is not None else ""
        more = len(cards) * CARD_WIDTH > self.size.width - 4
        hand.border_title = words.hand_title(len(cards), self._names()[v.seat] if self.auto else None, more)
        hand.set_class(v.current == v.seat and not self.auto, "yours")

    def _show_prompt(self, v: View | None, ch: Choices) -> None:
        out = Text()
        if v is None:
            out.append(words.NOT_AT_TABLE)
        elif self.auto:
            out.append(words.bots_only_prompt(self._names()[v.seat]))
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

    def _pile_text(self, v: View) -> Text:
        """The draw pile: its count and, at a UNO Flip table, its top card's other face."""
        if v.draw_back < 0:
            return Text(f"{words.DRAW_PILE}\n{v.draw_pile_size}", justify="center")
        if self.compact:  # two lines: the count, then the face's mark
            face = flipside.faces_text([v.draw_back], 10)
            return Text(f"{words.DRAW_PILE} {v.draw_pile_size}\n", justify="center").append_text(face)
        value, color = words.card_face(v.draw_back)
        return Text(f"{words.DRAW_PILE} {v.draw_pile_size}\n{value}\n{color}", justify="center")

    def _color_keys(self, out: Text) -> None:
        v = self._view()
        dark = v is not None and v.side == 1
        for i, key in enumerate(flipside.color_keys(dark)):
            out.append(f" {key} {words.color_name(i, dark)} ", style=color_style(i, dark))
            out.append(" ")

    def _decision_text(self, v: View, ch: Choices) -> Text:
        names = self._names()
        out = Text()
        if self.picking in ("color", "invis"):
            card = INVISIBILITY if self.picking == "invis" else self.picked_card
            out.append(words.call_color_for(card), style="bold")
            self._color_keys(out)
            out.append(words.BACK_HINT)
            return out
        if self.picking == "target":
            targets = [s for s in range(v.rules.players) if s != v.seat]
            ask = {HOWLER: words.HOWLER_ASK, AW_TARGET: words.TARGET_ASK}.get(
                self.picked_card, words.SWAP_ASK
            )
            out.append(ask, style="bold")
            out.append(", ".join(f"{s} {names[s]}" for s in targets))
            out.append(words.HOWLER_HINT)
            return out
        if v.current != v.seat:
            if v.current >= 0:
                out.append(
                    words.who_does(names[v.current], words.phase_word(v.phase, False, v.pending_draw)) + "."
                )
            return out
        phase = v.phase
        if phase == Phase.TURN:
            out.append(words.YOUR_TURN, style="bold")
            if v.series >= 0:  # docs/rules.md §11.5 multi_play
                out.append(words.IN_SERIES)
            else:
                out.append(words.CHOOSE_A_CARD if ch.plays else words.NOTHING_MATCHES)
                if ch.more:
                    out.append(words.MORE_HINT)
        elif phase == Phase.AFTER_DRAW:
            out.append(words.drew_playable(v.drawn), style="bold")
            out.append(words.play_or_keep(ch.keep is not None))
            if ch.more:
                out.append(words.MORE_HINT)
        elif phase == Phase.CHOOSE_COLOR:
            out.append(words.CALL_THE_COLOR, style="bold")
            self._color_keys(out)
        elif phase == Phase.RESPOND:
            who = names[v.pending_from]
            card = v.pending_card
            out.append(words.played_on_you(who, card), style="bold")
            if card == FL_WILD_DRAW_COLOR:  # UNO Flip: draws until the colour named comes (FL-7)
                can = ch.challenge is not None
                out.append(flipside.draw_color_choice(who, v.color, v.pending_color, can))
            elif card in (WILD_DRAW_FOUR, FL_WILD_DRAW_TWO) and ch.challenge is not None:  # FL-6
                out.append(words.challenge_choice(who, v.pending_color, v.pending_draw or 4))
            elif card == HOWLER:
                out.append(words.SHOW_YOUR_HAND)
            else:
                out.append(words.accept_draw(v.pending_draw) if v.pending_draw else words.ACCEPT_IT)
            if ch.plays:
                out.append(words.PASS_THE_STACK)
            if ch.invisibility:
                out.append(words.OR_INVISIBILITY)
        return out

    def _alerts(self, v: View, ch: Choices) -> Text:
        names = self._names()
        out = Text()
        if ch.uno is not None:
            out.append(words.PRESS_U_NOW, style="bold white on red")
            out.append(" ")
        if ch.catch:
            out.append(words.press_c([names[s] for s in ch.catch]), style="bold black on yellow")
            out.append(" ")
        if ch.wrong:
            out.append(words.press_w([names[s] for s in ch.wrong]), style="bold black on yellow")
            out.append(" ")
        jump = self._jump(ch)
        if jump is not None:
            out.append(words.press_j(jump), style="bold black on yellow")
            out.append(" ")
        if self.uno_armed and len(v.hand) == 2:
            out.append(words.UNO_ARMED, style="bold black on green")
        elif len(v.hand) == 2 and ch.uno is None and self._uno_hint_applies(v, ch):
            out.append(words.TWO_CARDS_LEFT, style="bold")
        return out

    def _jump(self, ch: Choices) -> int | None:
        """The card the human may jump in with now (RULES §11 ``jump_in``), if any."""
        v = self._view()
        if v is None or self.auto or v.current == v.seat or not ch.plays:
            return None
        return next(iter(ch.plays))

    @staticmethod
    def _uno_hint_applies(v: View, ch: Choices) -> bool:
        """The hint to call UNO with the next play: on your turn before you play, and while you
        answer a card only if Invisibility could be your next-to-last card."""
        if v.current != v.seat:
            return False
        if v.phase in (Phase.TURN, Phase.AFTER_DRAW):
            return True
        return v.phase == Phase.RESPOND and bool(ch.invisibility)

    def _show_buttons(self, v: View | None, ch: Choices) -> None:
        on = {key: False for key, _ in _BUTTONS}
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
            on["uno"] = ch.uno is not None or (len(v.hand) == 2 and self._uno_hint_applies(v, ch))
            on["catch"] = bool(ch.catch)
            on["wrong"] = bool(ch.wrong)
            on["back"] = bool(self.picking)
        dark = v is not None and v.side == 1
        for key, _ in _BUTTONS:
            b = self.query_one(f"#b-{key}", Button)
            if b.display != on[key]:
                b.display = on[key]
            text = words.button_label(key)
            if key in _COLOR_BUTTONS:  # UNO Flip's dark side: its colours, its keys
                b.set_class(dark, "dark")
                if dark:
                    text = flipside.dark_button(_COLOR_BUTTONS.index(key))
            if key == "uno" and self.uno_armed:
                text = words.UNO_ARMED_BUTTON
            if key == "catch" and ch.catch:
                text = words.catch_button([self._names()[s] for s in ch.catch])
            if str(b.label) != text:
                b.label = text

    def _names(self) -> list[str]:
        names = self.table.seat_names()
        seat = self.table.seat
        if seat is not None and not self.auto:
            names[seat] = words.YOU
        return names

    def _sorted_hand(self, v: View) -> list[int]:
        return sorted(v.hand, key=card_sort_key)


_COLOR_BUTTONS: Final = ("red", "yellow", "green", "blue")
_BUTTONS: Final[tuple[tuple[str, ButtonVariant], ...]] = (
    ("draw", "primary"),
    ("play", "success"),
    ("keep", "default"),
    ("red", "error"),
    ("yellow", "warning"),
    ("green", "success"),
    ("blue", "primary"),
    ("accept", "default"),
    ("challenge", "warning"),
    ("invis", "success"),
    ("uno", "error"),
    ("catch", "warning"),
    ("wrong", "warning"),
    ("back", "default"),
    ("help", "default"),
)
