"""The terminal game (``uno play``): a full-screen Textual app against bots.

- :mod:`unotable.tui.controller`: the table (a :class:`~unotable.match.Game` and its bots),
  with no Textual in it;
- :mod:`unotable.tui.app` (the clock and the screens), :mod:`unotable.tui.moves` (the human's
  moves), :mod:`unotable.tui.board` (the table drawn from the human's view),
  :mod:`unotable.tui.screens` (help, between hands, game over, too small) and
  :mod:`unotable.tui.widgets` (cards, panels): the screen;
- :mod:`unotable.tui.launch`: the flags of ``uno play`` and the plain-text run of a bots-only game;
- :mod:`unotable.tui.record` (no Textual): hands laid face up, scores by hand, records, the summary;
- :mod:`unotable.tui.words`: every word the terminal shows (the keys and rules of ``?`` too).

Textual is imported only by the app, the moves, the board, the screens and the widgets.
"""
