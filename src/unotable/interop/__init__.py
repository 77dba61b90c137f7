"""Bridges to other projects' game APIs, each a small module over the same rules core.

- :mod:`unotable.interop.openspiel`: UNO as an OpenSpiel Python game
  (``pyspiel.load_game("python_unotable")``);
- :mod:`unotable.interop.textarena`: a TextArena env (``str -> str``), registered as ``UNO-v0``;
- :mod:`unotable.interop.rlcard`: an env with RLCard's UNO API and action ids, and RLCard's
  simplified rules as a preset.

:mod:`unotable.interop.table` is what they share: one hand over the engine's public API
(``new_hand``, ``legal_ids``, ``step``, ``view``), with the env's turn model. The bridges may
import the rules core, ``unotable.env``'s standard-library parts (its action table and
encoding) and their own project (each an optional extra, ``pip install -e '.[interop]'``,
imported only by its own module); nothing below the interfaces imports them, and they import
no interface. docs/interop.md says how to load each and what is left out.
"""
