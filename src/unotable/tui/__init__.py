"""The terminal game (``uno play``): a full-screen Textual app against bots.

- :mod:`unotable.tui.controller`: the table (a :class:`~unotable.match.Game` and its bots),
  with no Textual in it;
- :mod:`unotable.tui.app` (the clock and the actions), :mod:`unotable.tui.board` (the table
  drawn from the human's view), :mod:`unotable.tui.screens` (help, end of a hand, end of the
  game) and :mod:`unotable.tui.widgets` (cards, panels): the screen;
- :mod:`unotable.tui.launch`: the flags of ``uno play`` and the plain-text run of a bots-only game;
- :mod:`unotable.tui.help`: the keys and rules shown by ``?``.

Textual is imported only by the app, the board, the screens and the widgets.
"""
