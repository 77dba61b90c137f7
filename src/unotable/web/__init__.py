"""The web game: ``uno serve``, rooms played in the browser over WebSockets.

What lives here:

- :mod:`~unotable.web.words`: every sentence the server sends a person (errors), in one place;
  the page's own words are in ``static/js/strings.js``.
- :mod:`~unotable.web.settings`: a room's settings (rules, seats, bots, timer) read and bounded
  from the page's request.
- :mod:`~unotable.web.protocol`: the WebSocket messages, checked for size and shape.
- :mod:`~unotable.web.storage`: the database (SQLAlchemy 2; SQLite by default, PostgreSQL by
  URL) and its Alembic migrations (``migrations/``, run on start). A game is stored as its
  rules, seed and action log; each action is committed before anyone hears of it.
- :mod:`~unotable.web.gamelog`: a room's game and its log (the one replay of a stored log).
- :mod:`~unotable.web.fanout`: a room's connections and what each may see (a seat its view, a
  spectator the core's view of nobody).
- :mod:`~unotable.web.driver`: what a room does by itself (bots, away people's bots, the turn
  timer, Harry Potter's answer window, deals).
- :mod:`~unotable.web.thinker`: where the bots that think long decide (worker processes of
  their own, round-robin across rooms, a CPU budget per room).
- :mod:`~unotable.web.seats`: seats and their keys (names, avatars, rejoin keys, QR codes),
  presence.
- :mod:`~unotable.web.social`: reactions and chat.
- :mod:`~unotable.web.room`: a live room: the changes people ask for, the table everyone sees.
- :mod:`~unotable.web.hub`: every live room of the server; the list of open rooms.
- :mod:`~unotable.web.messages`: every WebSocket message, both ways, declared once (type, who
  may send it, typed fields); the docs' tables and the page's ``static/js/protocol.js`` from it.
- :mod:`~unotable.web.connection`: one WebSocket: who sent a message, checked as declared, and
  each type's handler.
- :mod:`~unotable.web.app`: the Starlette app (pages, the room API, the WebSocket).
- :mod:`~unotable.web.serve`: the ``uno serve`` command (uvicorn).
- ``static/``: the page (HTML, CSS and JavaScript, no build step).

It may import the core's public API (``unotable.match``, ``views``, ``events``, ``notation``,
``cards``, ``rules``, ``errors``, ``race``, ``seeds``), ``unotable.bots`` (and their specs), and
the libraries of the ``web`` extra (Starlette, uvicorn, SQLAlchemy, Alembic, psycopg, segno,
prometheus-client); never the terminal game (``unotable.tui``). Only :mod:`~unotable.web.serve`
(it says how to install the extra) and :mod:`~unotable.web.messages` (standard library only:
the Python clients, ``uno mcp``'s remote seat among them, read the protocol with it) may be
imported without the extra installed.
"""
