"""The use cases over the games: each takes a :class:`shared.games.Games` and composes
its parts (reads and compare-and-set writes through ``games.writes``, creates and joins
through ``games.lifecycle``) into one thing a route or the worker asks for:

- ``matches``: quick match, a table per options pool, filled with bots when it waits;
- ``autoplay``: one due step of a game (a bot's move, a timeout);
- ``seat_ops``: a bot seat added by the host, a player leaving an open game;
- ``rematch``: the next game after an ended one, its former seats held;
- ``privacy``: a player's data exported, or erased from every game it sat in;
- ``tournaments``: a tournament's life (create, register, start, standings);
  ``tournament_rounds`` and ``tournament_arena``: the worker's steps of a Swiss and an
  arena tournament, over the pure rules of ``shared.tournaments``.

May import the games layer (``shared.games``), the store, ``shared.bots``, ``shared.ops``,
``shared.tournaments`` and the engine contract; never the HTTP layer, the worker or the
streams above it. The games layer never imports this package.
"""
