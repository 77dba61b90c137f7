"""The table on the screen: its layout, and how it is drawn from the human's view.

:class:`Board` is the part of the app that draws: the opponents' panels, the piles, the scores,
the prompt, the buttons, the hand and the keys. It reads the app's state (the table, the cursor,
the card being played) and never changes the game; :class:`~unotable.tui.app.UnoApp` adds the
clock and the actions on top of it.
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

from unotable.cards import CARD_NAME, COLOR_NAMES, HOWLER, WILD_DRAW_FOUR
from unotable.state import Phase
from unotable.tui.controller import Choices, Table, card_sort_key
from unotable.tui.widgets import (
    COLOR_STYLES,
    CardView,
    DrawPile,
    HandRow,
    OpponentPanel,
    cards_text,
    color_text,
)
from unotable.views import View

LOG_LINES: Final = 500
"""Lines the event log keeps."""

"""Textual's timers cannot wait 0 seconds: "at once" is this."""
COMPACT_BELOW: Final = 34
"""Terminals with fewer rows get the compact layout."""

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


class Board(App[int]):
    """The table drawn from the human's view (the app's drawing half; see the module)."""

    table: Table
    auto: bool
    cursor: int
    picking: str
    picked_card: int
    uno_armed: bool
    message: str
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
